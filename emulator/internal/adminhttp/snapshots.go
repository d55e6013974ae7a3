package adminhttp

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/gorilla/mux"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The emulator's snapshots over HTTP, for an emulator run as a separate
// process, and read for the console's snapshot screen:
//
//	POST   /dynamoemu/snapshots                 {"id":"snap-1"}
//	POST   /dynamoemu/snapshots/{id}/restore    {"restored":"snap-1"}
//	DELETE /dynamoemu/snapshots/{id}            {"deleted":"snap-1"}
//	GET    /dynamoemu/snapshots                 {"snapshots":[{"id","taken","namespaces":[{"namespace","tables","items"}]}]}
//	GET    /dynamoemu/snapshots/{id}/diff       what differs between snapshot id and now (snapshotDiff);
//	                                            ?namespace=AKID/us-east-1 keeps one namespace,
//	                                            ?limit=N lists at most N items per table (default 100, at most 1000)
//
// A diff compares each table of the snapshot with the table of that name
// now (diff.go). An unknown ID answers 400 with a ValidationException
// body.

// KeptSnapshot is a snapshot the emulator keeps: every namespace at one
// instant (each consistent; the namespaces one after the other), by
// namespace ID, and when it was taken (the emulator's clock). The
// storage snapshots are immutable.
type KeptSnapshot struct {
	ID     string
	Taken  time.Time
	Spaces map[string]*storage.Snapshot
}

// snapshotView is one snapshot in the list.
type snapshotView struct {
	ID         string              `json:"id"`
	Taken      time.Time           `json:"taken"`
	Namespaces []snapshotSpaceView `json:"namespaces"`
}

// snapshotSpaceView is one namespace's part of a snapshot.
type snapshotSpaceView struct {
	Namespace string `json:"namespace"`
	Tables    int    `json:"tables"`
	Items     int    `json:"items"`
}

// snapshotDiff is a snapshot's diff.
type snapshotDiff struct {
	ID         string          `json:"id"`
	Taken      time.Time       `json:"taken"`
	Namespaces []namespaceDiff `json:"namespaces"`
}

// namespaceDiff is one namespace's tables in a diff, by name.
type namespaceDiff struct {
	Namespace string      `json:"namespace"`
	Tables    []tableDiff `json:"tables"`
}

// ServeSnapshotTake answers POST of the snapshots path: a snapshot
// taken, its ID.
func (a *Admin) ServeSnapshotTake(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	Write(w, http.StatusOK, `{"id":`+strconv.Quote(a.Host.Snapshot())+`}`)
}

// ServeSnapshotRestore answers POST of a snapshot's restore path.
func (a *Admin) ServeSnapshotRestore(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	id := mux.Vars(r)["id"]
	if err := a.Host.Restore(id); err != nil {
		a.writeSnapshotError(w, err)
		return
	}
	Write(w, http.StatusOK, `{"restored":`+strconv.Quote(id)+`}`)
}

// ServeSnapshotDrop answers DELETE of a snapshot's path.
func (a *Admin) ServeSnapshotDrop(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	id := mux.Vars(r)["id"]
	if err := a.Host.DropSnapshot(id); err != nil {
		a.writeSnapshotError(w, err)
		return
	}
	Write(w, http.StatusOK, `{"deleted":`+strconv.Quote(id)+`}`)
}

// writeSnapshotError answers a snapshot request that failed: 400 with
// a ValidationException body for an unknown ID (as the other admin
// endpoints answer bad input), the error's own class for a rewind whose
// items the write checks refused (a table that follows the conventions:
// ValidationException or AccessDeniedException, nothing rewound), 500
// otherwise (a rewind the namespace's hook refused).
func (a *Admin) writeSnapshotError(w http.ResponseWriter, err error) {
	if errors.Is(err, a.NoSnapshot) {
		WriteError(w, err)
		return
	}
	if ae, ok := apierr.Classify(err); ok {
		writeClass(w, ae, ae.Class.Status)
		return
	}
	ae := &apierr.Error{Class: apierr.ErrInternalServer, Msg: err.Error(), Cause: err}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ae.Class.Status)
	_, _ = w.Write(wire.AppendErrorBody(nil, ae))
}

// ServeSnapshotList answers GET of the snapshots path: each kept
// snapshot with its namespaces that hold tables.
func (a *Admin) ServeSnapshotList(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	out := []snapshotView{}
	for _, s := range a.Snapshots() {
		v := snapshotView{ID: s.ID, Taken: s.Taken.UTC(), Namespaces: []snapshotSpaceView{}}
		for _, id := range slices.Sorted(maps.Keys(s.Spaces)) {
			sp := snapshotSpaceView{Namespace: id}
			for _, t := range s.Spaces[id].Tables() {
				sp.Tables++
				sp.Items += t.ItemCount()
			}
			if sp.Tables > 0 {
				v.Namespaces = append(v.Namespaces, sp)
			}
		}
		out = append(out, v)
	}
	WriteJSON(w, map[string]any{"snapshots": out})
}

// ServeSnapshotDiff answers GET of a snapshot's diff path.
func (a *Admin) ServeSnapshotDiff(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	id := mux.Vars(r)["id"]
	q := r.URL.Query()
	limit, err := diffLimit(q.Get("limit"))
	if err != nil {
		WriteError(w, err)
		return
	}
	snaps := a.Snapshots()
	i := slices.IndexFunc(snaps, func(s KeptSnapshot) bool { return s.ID == id })
	if i < 0 {
		a.writeSnapshotError(w, fmt.Errorf("%w: %q", a.NoSnapshot, id))
		return
	}
	snap := snaps[i]
	only := q.Get("namespace")
	// The namespaces now: only those that exist (Namespace creates one).
	now := map[string]*storage.DB{}
	for _, nsID := range a.Svc.NamespaceIDs() {
		if ns := a.Svc.Namespace(nsID); ns != nil {
			now[nsID] = ns.DB()
		}
	}
	ids := slices.Sorted(maps.Keys(snap.Spaces))
	for nsID := range now {
		if _, ok := snap.Spaces[nsID]; !ok {
			ids = append(ids, nsID)
		}
	}
	slices.Sort(ids)
	out := snapshotDiff{ID: snap.ID, Taken: snap.Taken.UTC(), Namespaces: []namespaceDiff{}}
	for _, nsID := range ids {
		if only != "" && nsID != only {
			continue
		}
		nd := namespaceDiff{Namespace: nsID, Tables: diffTables(snap.Spaces[nsID], now[nsID], limit)}
		if len(nd.Tables) > 0 {
			out.Namespaces = append(out.Namespaces, nd)
		}
	}
	WriteJSON(w, out)
}
