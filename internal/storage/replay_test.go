package storage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The proof that the commit hook is a complete seam: a randomized
// workload runs against a DB whose hook records every record it accepts
// (and refuses some, and fails some waits); the records are then applied
// to empty DBs, once as kept and once through their binary form. Every
// replay must end in the same state, byte for byte: tables, IDs, key
// schemas, stored records, index entries, counts and sizes, collection
// sizes, metadata; and must hand its own hook the same records again.

// replayColl is the metadata key the workload sets on a table before
// TrackCollections: a caller's own note of what a record does not carry,
// which the replay acts on through Apply's callback.
const replayColl = "collections"

func collExtra(it Item) int64 { return int64(len(it)) }

// replayWorld is the workload's view of the DB: the tables it made and
// has not dropped, and what it observed of them.
type replayWorld struct {
	db   *DB
	hook *recHook
	// collLimit is the collection size limit of tracked tables: low in a
	// sequential run, so some writes fail with ErrCollectionTooLarge;
	// none when workers run concurrently, since a write may slip in
	// between the metadata and TrackCollections.
	collLimit int64
	mu        sync.Mutex // guards tables, nextID, observed
	tables    []*Table
	nextID    int
	// observed is every write the tables' observers saw, per table ID.
	observed map[string][]string
}

// reinstall does for a record just applied what a loader does after it
// (Apply's applied): what a record does not carry, the observers (when
// observe) and item collection sizes of the tables it makes or marks.
func (rw *replayWorld) reinstall(r *Record, observe bool) {
	switch {
	case r.Kind == RecordCreateTable && observe:
		rw.db.TableByID(r.Table).SetObserver(replayObserver{rw, r.Table})
	case r.Kind == RecordRestoreTable:
		nt := rw.db.TableByID(r.Table)
		if nt.Meta(replayColl) != nil {
			nt.TrackCollections(collExtra, rw.collLimit)
		}
		if observe {
			nt.SetObserver(replayObserver{rw, r.Table})
		}
	case r.Kind == RecordMeta && r.Key == replayColl && r.Value != nil:
		rw.db.TableByID(r.Table).TrackCollections(collExtra, rw.collLimit)
	}
}

// observer writes what it sees into the world's observed list of a table.
type replayObserver struct {
	w  *replayWorld
	id string
}

func (o replayObserver) Observe(c Committed) {
	s := fmt.Sprintf("%d %q %v %v", c.Origin, c.Key.Partition.Str()+"/"+c.Key.Sort.Str(), c.HadOld, c.HasNew)
	if c.HasNew {
		s += fmt.Sprintf(" %q", c.New.body)
	}
	o.w.mu.Lock()
	o.w.observed[o.id] = append(o.w.observed[o.id], s)
	o.w.mu.Unlock()
}

func (w *replayWorld) pick(r *rand.Rand) *Table {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[r.IntN(len(w.tables))]
}

var replaySchemas = []KeySchema{schemaS, schemaSN, schemaNS, schemaBB}

// step runs one random operation. Errors the workload provokes on
// purpose (a refused record, a refused write) are expected; anything else
// fails the test.
func (w *replayWorld) step(t testing.TB, r *rand.Rand) {
	ok := func(err error) {
		if err != nil && !errors.Is(err, ErrHookFailed) && !errors.Is(err, ErrNotDurable) &&
			!errors.Is(err, ErrCollectionTooLarge) && !errors.Is(err, errHookTest) {
			t.Errorf("unexpected error: %v", err)
		}
	}
	tb := w.pick(r)
	op := r.IntN(100)
	if tb == nil {
		op = 0
	}
	switch {
	case op < 3: // create a table, with indexes and metadata or not
		w.mu.Lock()
		w.nextID++
		id := fmt.Sprintf("id%d", w.nextID)
		w.mu.Unlock()
		def := TableDef{Name: fmt.Sprintf("t%d", r.IntN(5)), ID: id, Schema: replaySchemas[r.IntN(len(replaySchemas))]}
		for _, x := range testIndexes {
			if r.IntN(3) == 0 {
				def.Indexes = append(def.Indexes, x)
			}
		}
		for _, x := range replayVectorIndexes {
			if r.IntN(3) == 0 {
				def.VectorIndexes = append(def.VectorIndexes, x)
			}
		}
		if r.IntN(2) == 0 {
			def.Meta = map[string][]byte{"settings": []byte(id), "empty": {}}
		}
		nt, err := w.db.CreateTable(def)
		if errors.Is(err, ErrTableExists) {
			return
		}
		ok(err)
		if nt == nil {
			return
		}
		nt.SetObserver(replayObserver{w, id})
		w.mu.Lock()
		w.tables = append(w.tables, nt)
		w.mu.Unlock()
	case op < 5: // drop a table: holders of it may go on writing, unrecorded
		err := w.db.DropTable(tb.Name())
		if err == nil || errors.Is(err, ErrNotDurable) {
			w.mu.Lock()
			w.tables = slices.DeleteFunc(w.tables, func(x *Table) bool { return x == tb })
			delete(w.observed, tb.ID())
			w.mu.Unlock()
		} else if !errors.Is(err, ErrNoTable) {
			ok(err)
		}
	case op < 8: // add or drop an index or a vector index
		if r.IntN(2) == 0 {
			x := replayVectorIndexes[r.IntN(len(replayVectorIndexes))]
			if err := tb.AddVectorIndex(x); errors.Is(err, ErrVectorIndexExists) {
				err = tb.DropVectorIndex(x.Name)
				if !errors.Is(err, ErrNoVectorIndex) {
					ok(err)
				}
			} else {
				ok(err)
			}
			return
		}
		x := testIndexes[r.IntN(len(testIndexes))]
		if err := tb.AddIndex(x); errors.Is(err, ErrIndexExists) {
			err = tb.DropIndex(x.Name)
			if !errors.Is(err, ErrNoIndex) {
				ok(err)
			}
		} else {
			ok(err)
		}
	case op < 11: // metadata
		v := []byte(fmt.Sprint(r.IntN(100)))
		if r.IntN(4) == 0 {
			v = nil
		}
		if r.IntN(3) == 0 {
			ok(w.db.SetMeta(fmt.Sprint("k", r.IntN(3)), v))
		} else {
			ok(tb.SetMeta(fmt.Sprint("k", r.IntN(3)), v))
		}
	case op < 12: // track item collections (noted in the metadata first)
		if tb.Meta(replayColl) == nil {
			err := tb.SetMeta(replayColl, []byte("on"))
			if err == nil || errors.Is(err, ErrNotDurable) { // set, if not durably
				tb.TrackCollections(collExtra, w.collLimit)
			}
			ok(err)
		}
	case op < 50: // put or write
		g := gen{r: r, ks: tb.KeySchema()}
		k := g.key()
		it := vectorize(r, g.indexItem(k))
		if r.IntN(2) == 0 {
			_, err := tb.Put(k, it)
			ok(err)
		} else {
			_, err := tb.Write(k, func(Item) (Item, error) { return it, nil })
			ok(err)
		}
	case op < 58: // rewrite an item as it is, or with its set members reversed
		g := gen{r: r, ks: tb.KeySchema()}
		_, err := tb.Write(g.key(), func(old Item) (Item, error) {
			if old == nil {
				return nil, ErrNoWrite
			}
			if r.IntN(2) == 0 {
				return old, nil
			}
			nu := Item{}
			for n, v := range old {
				if v.Kind().IsSet() {
					m := slices.Clone(v.Members())
					slices.Reverse(m)
					v = SetOf(v.Kind(), m)
				}
				nu[n] = v
			}
			return nu, nil
		})
		ok(err)
	case op < 68: // delete, by the user or by the service (TTL)
		g := gen{r: r, ks: tb.KeySchema()}
		k := g.key()
		var err error
		switch r.IntN(3) {
		case 0:
			_, err = tb.Put(k, nil)
		case 1:
			_, err = tb.Write(k, func(Item) (Item, error) { return nil, nil })
		default:
			_, err = tb.WriteFrom(OriginService, k, func(old Item) (Item, error) {
				if old == nil {
					return nil, ErrNoWrite
				}
				return nil, nil
			})
		}
		ok(err)
	case op < 72: // writes that write nothing
		g := gen{r: r, ks: tb.KeySchema()}
		k := g.key()
		_, err := tb.Write(k, func(Item) (Item, error) { return g.item(k), []error{ErrNoWrite, errHookTest}[r.IntN(2)] })
		ok(err)
	case op < 74: // restore a snapshot of a table under a new name and ID
		w.mu.Lock()
		w.nextID++
		id := fmt.Sprintf("id%d", w.nextID)
		w.mu.Unlock()
		nt, err := w.db.RestoreTable(fmt.Sprintf("t%d", r.IntN(5)), id, tb.Snapshot())
		if errors.Is(err, ErrTableExists) {
			return
		}
		ok(err)
		if nt == nil {
			return
		}
		if nt.Meta(replayColl) != nil {
			nt.TrackCollections(collExtra, w.collLimit)
		}
		nt.SetObserver(replayObserver{w, id})
		w.mu.Lock()
		w.tables = append(w.tables, nt)
		w.mu.Unlock()
	default: // a transaction over one to three tables, committed or not
		tables := []*Table{tb}
		for range r.IntN(3) {
			if x := w.pick(r); x != nil { // nil: another worker dropped them all meanwhile
				tables = append(tables, x)
			}
		}
		tx := Begin(tables...)
		for range 1 + r.IntN(5) {
			x := tables[r.IntN(len(tables))]
			g := gen{r: r, ks: x.KeySchema()}
			k := g.key()
			var err error
			switch r.IntN(4) {
			case 0:
				_, err = tx.Put(x, k, nil)
			case 1:
				_, err = tx.Write(x, k, func(Item) (Item, error) { return nil, errHookTest })
			default:
				_, err = tx.Put(x, k, vectorize(r, g.indexItem(k)))
			}
			ok(err)
		}
		if r.IntN(4) == 0 {
			tx.Abort()
		} else {
			_, err := tx.Commit()
			ok(err)
		}
	}
}

// replaySeed returns the seed of this run, from STORAGE_SEED if set.
func replaySeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("STORAGE_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with STORAGE_SEED=%d)", seed, seed)
	return seed
}

func TestReplay(t *testing.T) {
	seed := replaySeed(t)
	tests := []struct {
		name    string
		workers int
		steps   int
		failing bool // the hook refuses some records and fails some waits
	}{
		{"sequential", 1, 3000, false},
		{"sequential, failing hook", 1, 3000, true},
		{"concurrent, failing hook", 4, 1000, true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hr := rand.New(rand.NewPCG(seed, uint64(i))) // used under h.mu
			h := &recHook{}
			if tc.failing {
				h.failNext = func(*Record) bool { return hr.IntN(20) == 0 }
				h.failWait = func(*Record) bool { return hr.IntN(20) == 0 }
			}
			limit := int64(0)
			if tc.workers == 1 {
				limit = 300
			}
			w := &replayWorld{db: newDB(t, h), hook: h, collLimit: limit, observed: map[string][]string{}}
			var wg sync.WaitGroup
			for wk := range tc.workers {
				wg.Go(func() {
					r := rand.New(rand.NewPCG(seed, uint64(i)<<8|uint64(wk)))
					for range tc.steps {
						w.step(t, r)
					}
				})
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			want := dumpDB(w.db)
			if len(h.recs) < tc.steps/2 {
				t.Fatalf("only %d records of %d steps", len(h.recs), tc.steps*tc.workers)
			}
			seen := map[RecordKind]bool{}
			for _, r := range h.recs {
				seen[r.Kind] = true
			}
			for k := RecordCommit; k <= RecordDropVectorIndex; k++ {
				if !seen[k] {
					t.Errorf("no %s record in the workload", k)
				}
			}

			// Without observers, Apply stores the images of a commit as
			// they are (writeImage) rather than decode and encode them.
			for _, via := range []string{"records", "binary form", "binary form, no observers"} {
				t.Run(via, func(t *testing.T) {
					h2 := &recHook{}
					rw := &replayWorld{db: newDB(t, h2), hook: h2, collLimit: limit, observed: map[string][]string{}}
					observe := via != "binary form, no observers"
					applied := func(r *Record) error {
						rw.reinstall(r, observe)
						return nil
					}
					for n, rec := range h.recs {
						if via != "records" {
							var err error
							if rec, err = ParseRecord(h.log[n]); err != nil {
								t.Fatalf("record %d: %v", n, err)
							}
						}
						if err := rw.db.Apply(rec, applied); err != nil {
							t.Fatalf("record %d (%s): %v", n, rec.Kind, err)
						}
					}
					if got := dumpDB(rw.db); got != want {
						t.Errorf("replayed DB differs:\n%s\nwant\n%s", got, want)
					}
					if got, want := len(h2.log), len(h.log); got != want {
						t.Fatalf("replay recorded %d records, want %d", got, want)
					}
					for n := range h.log {
						if string(h2.log[n]) != string(h.log[n]) {
							t.Fatalf("record %d: replay recorded %q, want %q", n, h2.log[n], h.log[n])
						}
					}
					for _, tb := range w.db.Tables() { // a dropped table's observer may hear unrecorded writes
						if !observe {
							break
						}
						if got, want := rw.observed[tb.ID()], w.observed[tb.ID()]; !slices.Equal(got, want) {
							t.Errorf("table %s: replay observed %q, want %q", tb.ID(), got, want)
						}
					}
				})
			}
		})
	}
}

// checkDB fails t if a table of db breaks its invariants (DB.Check).
func checkDB(t testing.TB, db *DB) {
	t.Helper()
	if err := db.Check(); err != nil {
		t.Error(err)
	}
}
