package emulator

import (
	"log/slog"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// Durability says when a change to a persisted emulator (Options.DataDir)
// is acknowledged.
type Durability uint8

// The durability modes.
const (
	// DurabilitySync: each change waits for its log record to be on
	// stable storage (fdatasync); changes that wait at the same time share
	// one. The default.
	DurabilitySync Durability = iota
	// DurabilityGroup: as DurabilitySync, but when other changes shared
	// one of the last two fdatasyncs, the next waits up to
	// PersistOptions.GroupWindow for them to share it too (a lone writer
	// does not wait).
	DurabilityGroup
	// DurabilityNone: a change is acknowledged once its record is written
	// to the operating system; nothing waits for the disk.
	DurabilityNone
)

// ParseDurability parses a mode's name: sync, group or none
// (cmd/dynamoemu's -durability).
func ParseDurability(s string) (Durability, error) {
	d, err := persist.ParseDurability(s)
	return Durability(d), err
}

// String is the mode's name, as ParseDurability reads it.
func (d Durability) String() string { return persist.Durability(d).String() }

// PersistOptions configure the store of Options.DataDir. The zero value
// is the defaults.
type PersistOptions struct {
	// Durability is the commit mode (default DurabilitySync).
	Durability Durability
	// GroupWindow is the longest a DurabilityGroup fdatasync waits for more
	// changes to share it (default 2ms).
	GroupWindow time.Duration
	// SegmentBytes is the size past which the log moves on to a new
	// segment file (default 64 MiB).
	SegmentBytes int64
	// CompactBytes and CompactRatio say when the log is folded into a new
	// snapshot: once the log written since the last snapshot is larger
	// than both CompactBytes (default 32 MiB) and CompactRatio (default
	// 0.25) times the last snapshot's size. CompactBytes < 0 turns
	// compaction off.
	CompactBytes int64
	// CompactRatio: see CompactBytes.
	CompactRatio float64
	// AcceptLoss opens a namespace whose files do not hold its whole
	// history (a log segment missing, a gap between its snapshot and its
	// log, a file of another database among them) at the records before
	// the first missing one, logging what is lost; without it New fails
	// naming the files (cmd/dynamoemu's -dbAcceptLoss).
	AcceptLoss bool
	// Logger gets recovery messages (a cut log tail, a snapshot passed
	// over), compactions and their failures; nil logs to
	// Options.Logger.
	Logger *slog.Logger
}

// store returns the store's options.
func (o PersistOptions) store() persist.Options {
	return persist.Options{Durability: persist.Durability(o.Durability), GroupWindow: o.GroupWindow, SegmentBytes: o.SegmentBytes,
		CompactBytes: o.CompactBytes, CompactRatio: o.CompactRatio, Logger: o.Logger, AcceptLoss: o.AcceptLoss}
}
