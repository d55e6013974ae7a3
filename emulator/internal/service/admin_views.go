package service

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Read-only views for the emulator's admin endpoints (the console's
// namespace list and snapshot screens): which namespaces exist, and the
// snapshots kept. Nothing here changes a namespace or a snapshot.

// NamespaceIDs returns the IDs of the namespaces created so far (a table
// was added to each at some point; reads create none), sorted.
func (s *Service) NamespaceIDs() []string {
	all := s.dbs.all()
	ids := make([]string, 0, len(all))
	for _, ns := range all {
		ids = append(ids, ns.key)
	}
	slices.Sort(ids)
	return ids
}

// SnapshotInfo is one kept snapshot (TakeSnapshot): its ID, when it was
// taken (the emulator's clock) and each namespace's part, by namespace ID.
// The storage snapshots are immutable: reading them changes nothing.
type SnapshotInfo struct {
	ID     string
	Taken  time.Time
	Spaces map[string]*storage.Snapshot
}

// Snapshots returns the kept snapshots, in the order they were taken.
func (s *Service) Snapshots() []SnapshotInfo {
	s.snaps.mu.Lock()
	out := make([]SnapshotInfo, 0, len(s.snaps.byID))
	for id, snap := range s.snaps.byID {
		out = append(out, SnapshotInfo{ID: id, Taken: snap.taken, Spaces: snap.spaces})
	}
	s.snaps.mu.Unlock()
	slices.SortFunc(out, func(a, b SnapshotInfo) int { return cmp.Compare(snapshotSeq(a.ID), snapshotSeq(b.ID)) })
	return out
}

// snapshotSeq is the number in a snapshot ID ("snap-3": 3).
func snapshotSeq(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "snap-"))
	return n
}
