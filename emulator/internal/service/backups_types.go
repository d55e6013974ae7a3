package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// restoreInfo is where a restored table came from, as its definition
// records it (catalog_record.go).
type restoreInfo = tablerec.Restored

// RestoreSummary is DescribeTable's RestoreSummary, tablespec's. The
// restores' own shapes (RestoreOverrides, a backup's source
// description) are tablespec's, which the features import.
type RestoreSummary = tablespec.RestoreSummary
