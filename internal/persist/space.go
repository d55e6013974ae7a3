package persist

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"syscall"
	"time"
)

// A full disk. A write the log cannot take for lack of space fails with
// an error wrapping ErrNoSpace (and ENOSPC) that names the directory; the
// namespace remembers it (Problems) until a write goes through again. A
// compaction never takes the space writes need: it does not start unless
// the file system keeps Options.ReserveBytes free after a snapshot of
// the size of the last one (and the log since), and it stops, removing
// its file, when the free space falls below the reserve while it writes
// (space checked every megabyte). It tries again later (compactLoop's
// back-off); writes go on meanwhile.

// ErrNoSpace: the device holding the data directory is full.
var ErrNoSpace = errors.New("persist: no space left on the device holding the data directory")

// noSpace wraps err, a write's failure, with ErrNoSpace when the disk
// was full.
func noSpace(dir string, err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("%w (%s): %w", ErrNoSpace, dir, err)
	}
	return err
}

// spaceFor returns nil when the file system of dir can take a file of
// need bytes and still keep Options.ReserveBytes free, or an error
// wrapping ErrNoSpace that says how much is free; nil too when it
// cannot tell.
func (o *Options) spaceFor(dir string, need int64) error {
	free, ok := o.freeBytes(dir)
	if !ok || free >= need+o.ReserveBytes {
		return nil
	}
	return fmt.Errorf("%w (%s): %d bytes free, a snapshot needs about %d and %d are kept for writes",
		ErrNoSpace, dir, free, need, o.ReserveBytes)
}

// spaceProblem is a namespace's lack of space, as Problems reports it.
type spaceProblem struct {
	err   error
	since time.Time
}

// Problem is a condition of a loaded namespace that keeps writes from
// going through, or will: what Store.Problems reports.
type Problem struct {
	Namespace string
	// WritesFail: writes fail now (a full disk, a log stopped by a
	// failed fdatasync); else the log grows without compaction.
	WritesFail bool
	Err        string
	Since      time.Time // when it began (zero: unknown)
}

// Problems returns the problems of the loaded namespaces, in name order:
// a full disk (until a write goes through again), a log stopped until
// restart, a compaction that keeps failing.
func (s *Store) Problems() []Problem {
	s.mu.Lock()
	nss := make([]*namespace, 0, len(s.nss))
	for _, ns := range s.nss {
		nss = append(nss, ns)
	}
	s.mu.Unlock()
	var out []Problem
	for _, ns := range nss {
		w := ns.wal
		w.mu.Lock()
		switch {
		case w.broken != nil:
			out = append(out, Problem{Namespace: ns.name, WritesFail: true, Err: w.broken.Error()})
		case w.full != nil:
			out = append(out, Problem{Namespace: ns.name, WritesFail: true, Err: w.full.err.Error(), Since: w.full.since})
		}
		w.mu.Unlock()
		ns.compactMu.Lock()
		if ns.stats.LastError != "" {
			out = append(out, Problem{Namespace: ns.name, Err: "compaction failed (it is tried again): " + ns.stats.LastError, Since: ns.compactFailedSince})
		}
		ns.compactMu.Unlock()
	}
	compare := func(a, b Problem) int { return strings.Compare(a.Namespace, b.Namespace) }
	sort.SliceStable(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}
