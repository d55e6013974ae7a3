// Package pitr is point-in-time recovery, a table-level feature behind
// the service core's seam (service.Config.Features):
// DescribeContinuousBackups, UpdateContinuousBackups and
// RestoreTableToPointInTime.
//
// # Basics
//
// A table with recovery on has a history: a base snapshot of the table
// (copy-on-write, O(1)) and the log of the item writes committed since,
// each with the emulator's clock at its commit (pitr.go). The log is fed
// by the recorder the feature puts in front of each namespace's DB hook
// (its WrapDB hook, hook.go), so every write path (single items,
// batches, transactions, TTL, PartiQL) is in it and nothing makes a
// second pass over a table; the history starts, changes and stops as the
// table's recovery setting does (its Defined hook; the setting is the
// core's, in the definition record, read through
// service.Definition.Settings). RestoreTableToPointInTime makes a new
// table of the base rolled forward through the writes committed at or
// before the instant asked for (restore.go), sharing its items, through
// the restore path the backups share (emulator/internal/restore).
// History is the feature's one noun for others: an export reads a table
// as it was through HistoryOf.
//
// The window is [max(enabled, now - RecoveryPeriodInDays), now] on the
// emulator's clock. With persistence each history is also a base file
// and a log beside the namespace's DB (pitr_keep.go: its Opened, Loaded
// and Closed hooks), and survives a restart.
//
// # Caveats
//
// AWS's LatestRestorableDateTime trails the current time by about five
// minutes; the emulator's is the current time, so a test can restore to
// the instant after its last write. A history costs about the records
// its writes replaced within the window, plus about 80 bytes a write.
// It is not recorded in the namespace's DB: without the side directory,
// a replay of the records starts every window again at the replay.
package pitr
