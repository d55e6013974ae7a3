package emulator

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/gorilla/mux"
)

// Snapshots of the whole emulator, for test suites (ns_snapshot.go says
// what they hold and cost): from Go, and over HTTP for an emulator run
// as a separate process.
//
//	POST   /dynamoemu/snapshots              {"id":"snap-1"}
//	POST   /dynamoemu/snapshots/{id}/restore {"restored":"snap-1"}
//	DELETE /dynamoemu/snapshots/{id}         {"deleted":"snap-1"}
//	GET    /dynamoemu/snapshots              the list; GET .../{id}/diff: what changed since (snapshots_view.go)
//
// Like the other admin endpoints they need no signature and refuse what
// a web page could send cross-site (httpedge/adminguard.go: a POST or DELETE
// needs Content-Type application/json). An unknown ID answers 400 with
// a ValidationException body.

// AdminSnapshotsPath is the admin endpoint of snapshots.
const AdminSnapshotsPath = "/dynamoemu/snapshots"

// ErrNoSnapshot: no snapshot has that ID (never taken, or dropped).
var ErrNoSnapshot = errors.New("emulator: no such snapshot")

// snapshotStore keeps the emulator's snapshots by ID.
type snapshotStore struct {
	mu   sync.Mutex // guards the fields below; a leaf of the lock order
	seq  int
	byID map[string]keptSnapshot
}

// keptSnapshot is every namespace at one instant (each consistent; the
// namespaces one after the other), by namespace ID, and when it was
// taken (the emulator's clock). The storage snapshots are immutable.
type keptSnapshot struct {
	ID     string
	Taken  time.Time
	Spaces map[string]*storage.Snapshot
}

// Snapshot takes a snapshot of every namespace (tables, items, indexes
// and definitions), keeps it and returns its ID. It costs O(1) per table
// and index, whatever their size; it then holds what the tables change
// after it, until DropSnapshot.
func (e *Emulator) Snapshot() string {
	snap := keptSnapshot{Taken: e.svc.Now(), Spaces: e.svc.SnapshotAll()}
	st := &e.snaps
	st.mu.Lock()
	defer st.mu.Unlock()
	st.seq++
	snap.ID = "snap-" + strconv.Itoa(st.seq)
	if st.byID == nil {
		st.byID = make(map[string]keptSnapshot)
	}
	st.byID[snap.ID] = snap
	return snap.ID
}

// Restore rewinds every namespace to snapshot id: each holds the tables
// it held then, as they were (namespaces made since hold none). Backups,
// the clock and request tokens are left as they are; stream records are
// not kept. Run it while no request is in flight. The snapshot is kept:
// restore it as often as needed. An unknown id is ErrNoSnapshot.
func (e *Emulator) Restore(id string) error {
	e.snaps.mu.Lock()
	snap, ok := e.snaps.byID[id]
	e.snaps.mu.Unlock()
	if !ok {
		return fmt.Errorf("%w: %q", ErrNoSnapshot, id)
	}
	return e.svc.RewindAll(snap.Spaces)
}

// DropSnapshot forgets snapshot id, freeing what only it holds; an
// unknown id is ErrNoSnapshot.
func (e *Emulator) DropSnapshot(id string) error {
	e.snaps.mu.Lock()
	defer e.snaps.mu.Unlock()
	if _, ok := e.snaps.byID[id]; !ok {
		return fmt.Errorf("%w: %q", ErrNoSnapshot, id)
	}
	delete(e.snaps.byID, id)
	return nil
}

// keptSnapshots returns the kept snapshots, in the order they were taken.
func (e *Emulator) keptSnapshots() []keptSnapshot {
	e.snaps.mu.Lock()
	out := make([]keptSnapshot, 0, len(e.snaps.byID))
	for _, s := range e.snaps.byID {
		out = append(out, s)
	}
	e.snaps.mu.Unlock()
	seq := func(id string) int { n, _ := strconv.Atoi(strings.TrimPrefix(id, "snap-")); return n }
	compare := func(a, b keptSnapshot) int { return cmp.Compare(seq(a.ID), seq(b.ID)) }
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

func (e *Emulator) snapshotRoutes(r *mux.Router) {
	r.Methods(http.MethodPost).Path(AdminSnapshotsPath).HandlerFunc(e.serveSnapshotTake)
	r.Methods(http.MethodGet).Path(AdminSnapshotsPath).HandlerFunc(e.serveSnapshotList)                // snapshots_view.go
	r.Methods(http.MethodGet).Path(AdminSnapshotsPath + "/{id}/diff").HandlerFunc(e.serveSnapshotDiff) // snapshots_view.go
	r.Methods(http.MethodPost).Path(AdminSnapshotsPath + "/{id}/restore").HandlerFunc(e.serveSnapshotRestore)
	r.Methods(http.MethodDelete).Path(AdminSnapshotsPath + "/{id}").HandlerFunc(e.serveSnapshotDrop)
}

func (e *Emulator) serveSnapshotTake(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	adminhttp.Write(w, http.StatusOK, `{"id":`+strconv.Quote(e.Snapshot())+`}`)
}

func (e *Emulator) serveSnapshotRestore(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	id := mux.Vars(r)["id"]
	if err := e.Restore(id); err != nil {
		writeSnapshotError(w, err)
		return
	}
	adminhttp.Write(w, http.StatusOK, `{"restored":`+strconv.Quote(id)+`}`)
}

func (e *Emulator) serveSnapshotDrop(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	id := mux.Vars(r)["id"]
	if err := e.DropSnapshot(id); err != nil {
		writeSnapshotError(w, err)
		return
	}
	adminhttp.Write(w, http.StatusOK, `{"deleted":`+strconv.Quote(id)+`}`)
}

// writeSnapshotError answers a snapshot request that failed: 400 with
// a ValidationException body for an unknown ID (as the other admin
// endpoints answer bad input), 500 otherwise (a rewind the namespace's
// hook refused).
func writeSnapshotError(w http.ResponseWriter, err error) {
	if errors.Is(err, ErrNoSnapshot) {
		adminhttp.WriteError(w, err)
		return
	}
	ae := &apierr.Error{Class: apierr.ErrInternalServer, Msg: err.Error(), Cause: err}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ae.Class.Status)
	_, _ = w.Write(wire.AppendErrorBody(nil, ae))
}
