package mcp

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Snapshots the server took: the emulator keeps a snapshot by its ID
// (emulator.Snapshot) but lists none, so the server keeps its own book of
// those it took, each with a label and why, and drops the oldest
// automatic ones past Options.KeepSnapshots (a snapshot holds what the
// tables change after it). Snapshots taken elsewhere (POST
// /dynamoemu/snapshots, Go code) are not in the book, but restore and
// delete take their IDs too.

// snapshotEntry is one snapshot the server took.
type snapshotEntry struct {
	ID     string    `json:"id"`
	Label  string    `json:"label,omitempty"`
	Reason string    `json:"reason"`
	Auto   bool      `json:"automatic"`
	Taken  time.Time `json:"taken"`
}

// snapshotBook is the server's snapshots, oldest first.
type snapshotBook struct {
	mu      sync.Mutex // guards entries
	entries []snapshotEntry
	keep    int // automatic snapshots kept
}

// take snapshots emu and books it.
func (b *snapshotBook) take(emu *emulator.Emulator, label, reason string, auto bool) snapshotEntry {
	e := snapshotEntry{ID: emu.Branches().Snapshot(), Label: label, Reason: reason, Auto: auto, Taken: emu.Clock().Now().UTC()}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries = append(b.entries, e)
	if !auto {
		return e
	}
	autos := 0
	for i := len(b.entries) - 1; i >= 0; i-- {
		if !b.entries[i].Auto {
			continue
		}
		if autos++; autos > b.keep {
			_ = emu.Branches().DropSnapshot(b.entries[i].ID) // already dropped elsewhere: nothing to free
			b.entries = slices.Delete(b.entries, i, i+1)
		}
	}
	return e
}

// drop forgets snapshot id in emu and in the book.
func (b *snapshotBook) drop(emu *emulator.Emulator, id string) error {
	err := emu.Branches().DropSnapshot(id)
	b.forget(id)
	return err
}

// forget removes id from the book.
func (b *snapshotBook) forget(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries = slices.DeleteFunc(b.entries, func(e snapshotEntry) bool { return e.ID == id })
}

// list returns the book, oldest first.
func (b *snapshotBook) list() []snapshotEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.entries)
}

// autoSnapshot takes an automatic snapshot before a change that deletes
// (reason says which), unless Options.SnapshotDeletes turned them off;
// it returns the note a result carries ("" without a snapshot).
func (s *Server) autoSnapshot(reason string) (snapshotEntry, string) {
	if s.opts.SnapshotDeletes < 0 {
		return snapshotEntry{}, ""
	}
	e := s.snaps.take(s.emu, "", reason, true)
	return e, fmt.Sprintf("snapshot %s taken before this change (%s): snapshot_restore with this id undoes it", e.ID, reason)
}
