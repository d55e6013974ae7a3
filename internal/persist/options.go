package persist

import (
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Durability says when a commit is acknowledged; see doc.go for each
// mode's guarantee.
type Durability uint8

// Durability modes.
const (
	// Sync: each commit waits for its log record to be on stable storage
	// (fdatasync); commits that wait at the same time share one.
	Sync Durability = iota
	// Group: as Sync, but when other commits shared one of the last two
	// fdatasyncs, the next waits up to Options.GroupWindow for them to
	// share it too; a lone writer does not wait.
	Group
	// None: a commit is acknowledged once its record is written to the
	// operating system; nothing waits for the disk.
	None
)

var durabilityNames = [...]string{"sync", "group", "none"}

func (d Durability) String() string {
	if int(d) < len(durabilityNames) {
		return durabilityNames[d]
	}
	return fmt.Sprintf("Durability(%d)", uint8(d))
}

// ParseDurability parses a mode's name: sync, group or none.
func ParseDurability(s string) (Durability, error) {
	for i, n := range durabilityNames {
		if s == n {
			return Durability(i), nil
		}
	}
	return 0, fmt.Errorf("persist: unknown durability %q (want sync, group or none)", s)
}

// Options configure a Store. The zero value is the defaults.
type Options struct {
	// Durability is the commit mode (default Sync).
	Durability Durability
	// GroupWindow is the longest a Group commit's fdatasync waits for more
	// commits to share it (default 2ms).
	GroupWindow time.Duration
	// SegmentBytes is the size past which the log moves on to a new
	// segment file (default 64 MiB).
	SegmentBytes int64
	// CompactBytes and CompactRatio say when the log is folded into a new
	// snapshot: once the log written since the last snapshot is larger
	// than both CompactBytes (default 32 MiB) and CompactRatio (default
	// 0.25) times the last snapshot's size. CompactBytes < 0 turns
	// compaction off (Store.Compact still compacts). Both bound a start
	// after a crash: a logged write costs several times what a
	// snapshot's item does to load, so a log a quarter of the snapshot
	// keeps that start near a clean one's, for about five bytes of
	// snapshot written per byte logged where a ratio of 1 wrote two; and
	// below 128 MiB of snapshot (about 680k of BenchmarkRestart's items) the log
	// is at most 32 MiB. A floor of 64 MiB left BenchmarkRestart's 1M
	// fill a 66 MB log after kill -9, whose start took 1.57-1.61 s where
	// one of 46 MB took 1.41-1.42 s.
	CompactBytes int64
	CompactRatio float64
	// Logger gets recovery messages (a cut log tail, a snapshot passed
	// over), compactions and their failures (default: discarded).
	Logger *slog.Logger
	// Progress, if set, is called while a namespace loads: after each
	// ProgressBytes (default 32 MiB) read and when a phase ends.
	Progress      func(Progress)
	ProgressBytes int64
	// Clock, if set, is the time each log record is stamped with (its
	// commit time; time.Now when nil), handed back at replay
	// (Sidecar.Replay).
	Clock func() time.Time
	// Sidecar, if set, gives each namespace's Sidecar (sidecar.go): state
	// its owner rebuilds from the log and keeps in snapshots. nil, or a
	// nil Sidecar: none.
	Sidecar func(namespace string) Sidecar
	// AcceptLoss opens a namespace whose files do not hold its whole
	// history (a missing log segment, a gap between its snapshot and its
	// log, files of another database) at the part of it that is there:
	// the records before the first missing one. What is lost is set
	// aside, logged and said in Recovery.Lost. Without it such a
	// namespace is refused (ErrIncomplete).
	AcceptLoss bool
	// VectorIndexes builds every namespace's DB's vector indexes
	// (storage.DB.SetVectorIndexer), set before its tables load so that
	// each index is built once (internal/vector's Options). Nil: the
	// tables load their vector indexes' definitions only, and build their
	// entries once given an indexer.
	VectorIndexes storage.VectorIndexer

	// ReserveBytes is the free space compaction leaves to writes: it
	// does not start a snapshot that would leave less, and stops one
	// when less is left (space.go). Default 64 MiB; < 0: none.
	ReserveBytes int64

	// newFile opens a segment or snapshot file; tests replace it to fail
	// writes (a full disk). nil: osFile.
	newFile func(name string, flag int) (file, error)
	// freeBytes tells the free space of a directory's file system; tests
	// replace it. nil: the file system's (statfs).
	freeBytes func(dir string) (int64, bool)
}

// Progress is where a namespace's load stands.
type Progress struct {
	Namespace string
	Phase     string // "snapshot" or "log"
	File      string // the file being read
	Bytes     int64  // read of it so far
	Total     int64  // its size
	Items     int64  // items loaded from the snapshot so far
	Records   int64  // log records replayed so far
	Done      bool   // the phase is over
}

// withDefaults returns o with its zero fields set to the defaults, or an
// error for a value out of range.
func (o Options) withDefaults() (Options, error) {
	if o.Durability > None {
		return o, fmt.Errorf("persist: unknown durability %d", o.Durability)
	}
	if o.GroupWindow < 0 || o.SegmentBytes < 0 || o.CompactRatio < 0 || o.ProgressBytes < 0 {
		return o, fmt.Errorf("persist: negative option")
	}
	if o.GroupWindow == 0 {
		o.GroupWindow = 2 * time.Millisecond
	}
	if o.SegmentBytes == 0 {
		o.SegmentBytes = 64 << 20
	}
	if o.CompactBytes == 0 {
		o.CompactBytes = 32 << 20
	}
	if o.CompactRatio == 0 {
		o.CompactRatio = 0.25
	}
	if o.ProgressBytes == 0 {
		o.ProgressBytes = 32 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.newFile == nil {
		o.newFile = openOSFile
	}
	if o.freeBytes == nil {
		o.freeBytes = freeBytes
	}
	switch {
	case o.ReserveBytes == 0:
		o.ReserveBytes = 64 << 20
	case o.ReserveBytes < 0:
		o.ReserveBytes = 0
	}
	return o, nil
}
