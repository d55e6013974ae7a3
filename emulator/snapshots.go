package emulator

import (
	"cmp"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Snapshots of the whole emulator, for test suites (ns_snapshot.go says
// what they hold and cost): from Go, and over HTTP for an emulator run
// as a separate process.
//
// adminpath.Snapshots takes, restores, drops, lists and compares them
// (adminhttp/snapshots.go). Like the other admin endpoints they need no
// signature and refuse what a web page could send cross-site
// (httpedge/adminguard.go: a POST or DELETE needs Content-Type
// application/json).

// ErrNoSnapshot: no snapshot has that ID (never taken, or dropped).
var ErrNoSnapshot = errors.New("emulator: no such snapshot")

// snapshotStore keeps the emulator's snapshots by ID.
type snapshotStore struct {
	mu   sync.Mutex // guards the fields below; a leaf of the lock order
	seq  int
	byID map[string]adminhttp.KeptSnapshot // the snapshots, as the admin endpoints read them
}

// Snapshot takes a snapshot of every namespace (tables, items, indexes
// and definitions), keeps it and returns its ID. It costs O(1) per table
// and index, whatever their size; it then holds what the tables change
// after it, until DropSnapshot.
func (bs Branches) Snapshot() string {
	e := bs.e
	snap := adminhttp.KeptSnapshot{Taken: e.svc.Now(), Spaces: e.svc.SnapshotAll()}
	st := &e.snaps
	st.mu.Lock()
	defer st.mu.Unlock()
	st.seq++
	snap.ID = "snap-" + strconv.Itoa(st.seq)
	if st.byID == nil {
		st.byID = make(map[string]adminhttp.KeptSnapshot)
	}
	st.byID[snap.ID] = snap
	return snap.ID
}

// Restore rewinds every namespace to snapshot id: each holds the tables
// it held then, as they were (namespaces made since hold none). Backups,
// the clock and request tokens are left as they are; stream records are
// not kept. Run it while no request is in flight. The snapshot is kept:
// restore it as often as needed. A table that exists now keeps the tags
// it has now, and its rows are judged against them: a snapshot taken
// before its tags opted it in to the conventions brings back no row they
// refuse, and leaves it opted in. An unknown id is ErrNoSnapshot.
func (bs Branches) Restore(id string) error {
	e := bs.e
	e.snaps.mu.Lock()
	snap, ok := e.snaps.byID[id]
	e.snaps.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %q", ErrNoSnapshot, id)
	}
	spaces, err := retagged(snap.Spaces, e.svc.SnapshotAll())
	if err != nil {
		return err
	}
	return e.svc.RewindAll(spaces)
}

// retagged returns spaces with each table that its namespace holds now
// (now: every namespace as it is) under the same name carrying the tags
// it has now in place of those it had then (Snapshot.With: spaces are
// not changed).
func retagged(spaces, now map[string]*storage.Snapshot) (map[string]*storage.Snapshot, error) {
	out := make(map[string]*storage.Snapshot, len(spaces))
	for id, snap := range spaces {
		out[id] = snap
		cur := now[id]
		if cur == nil || snap == nil {
			continue
		}
		var changed []*storage.TableSnapshot
		for _, ts := range snap.Tables() {
			live := cur.Table(ts.Name())
			if live == nil {
				continue
			}
			rec, differ, err := tablerec.Retagged(ts.Meta(tablerec.MetaKey), live.Meta(tablerec.MetaKey))
			if err != nil {
				return nil, err
			}
			if !differ {
				continue
			}
			meta := ts.MetaMap()
			meta[tablerec.MetaKey] = rec
			d, err := ts.Derive(storage.Derivation{Meta: meta})
			if err != nil {
				return nil, err
			}
			changed = append(changed, d)
		}
		if changed != nil {
			out[id] = snap.With(changed...)
		}
	}
	return out, nil
}

// DropSnapshot forgets snapshot id, freeing what only it holds; an
// unknown id is ErrNoSnapshot.
func (bs Branches) DropSnapshot(id string) error {
	e := bs.e
	e.snaps.mu.Lock()
	defer e.snaps.mu.Unlock()
	if _, ok := e.snaps.byID[id]; !ok {
		return fmt.Errorf("%w: %q", ErrNoSnapshot, id)
	}
	delete(e.snaps.byID, id)
	return nil
}

// keptSnapshots returns the kept snapshots, in the order they were taken.
func (e *Emulator) keptSnapshots() []adminhttp.KeptSnapshot {
	e.snaps.mu.Lock()
	out := make([]adminhttp.KeptSnapshot, 0, len(e.snaps.byID))
	for _, s := range e.snaps.byID {
		out = append(out, s)
	}
	e.snaps.mu.Unlock()
	seq := func(id string) int { n, _ := strconv.Atoi(strings.TrimPrefix(id, "snap-")); return n }
	compare := func(a, b adminhttp.KeptSnapshot) int { return cmp.Compare(seq(a.ID), seq(b.ID)) }
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}
