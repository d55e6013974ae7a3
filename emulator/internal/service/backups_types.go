package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// Wire shapes the core keeps for restores (emulator/internal/restore) and for a
// backup's description of its source table, after AWS's API reference
// (the operations' own are emulator/internal/backups' and
// emulator/internal/pitr's). They are tablespec's, named here as they
// were.

// restoreInfo is where a restored table came from, as its definition
// records it (catalog_record.go).
type restoreInfo = tablerec.Restored

// The wire shapes tablespec holds.
type (
	RestoreSummary            = tablespec.RestoreSummary
	SourceTableDetails        = tablespec.SourceTableDetails
	SourceTableFeatureDetails = tablespec.SourceTableFeatureDetails
	VectorIndexInfo           = tablespec.VectorIndexInfo
	TimeToLiveDesc            = tablespec.TimeToLiveDesc
	RestoreOverrides          = tablespec.RestoreOverrides
)
