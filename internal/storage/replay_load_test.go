package storage

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// replayLog loads the binary records log into db as a log is loaded
// (ParseRecordInto into one Record, DB.Replay), doing after each what
// TestReplay's callback does: observers (when observe) and collection
// sizes, which records do not carry.
func replayLog(t testing.TB, rw *replayWorld, log [][]byte, observe bool) {
	t.Helper()
	var r Record
	for n, b := range log {
		require.NoError(t, ParseRecordInto(b, &r), "record %d", n)
		require.NoError(t, rw.db.Replay(&r), "record %d (%s)", n, r.Kind)
		rw.reinstall(&r, observe)
	}
}

// TestDBReplay: a log loaded through ParseRecordInto and DB.Replay
// builds the DB the workload built, as Apply does (TestReplay): items,
// index entries (kept as it goes, or deferred and filled at the end),
// counts, sizes, collection sizes, metadata, and what observers see.
func TestDBReplay(t *testing.T) {
	seed := replaySeed(t)
	for i, failing := range []bool{false, true} {
		hr := rand.New(rand.NewPCG(seed, uint64(i)))
		h := &recHook{}
		if failing {
			h.failNext = func(*Record) bool { return hr.IntN(20) == 0 }
			h.failWait = func(*Record) bool { return hr.IntN(20) == 0 }
		}
		w := &replayWorld{db: newDB(t, h), hook: h, collLimit: 300, observed: map[string][]string{}}
		r := rand.New(rand.NewPCG(seed, uint64(i)<<8))
		for range 3000 {
			w.step(t, r)
		}
		require.False(t, t.Failed())
		want := dumpDB(w.db)
		tests := []struct {
			name    string
			observe bool // observers on every table: each commit takes a transaction
			deferIx bool // DB.DeferIndexes, then FillIndexes
		}{
			{"observers", true, false},
			{"no observers", false, false},
			{"no observers, deferred indexes", false, true},
		}
		for _, tc := range tests {
			name := tc.name
			if failing {
				name += ", failing hook"
			}
			t.Run(name, func(t *testing.T) {
				h2 := &recHook{}
				rw := &replayWorld{db: newDB(t, h2), hook: h2, collLimit: 300, observed: map[string][]string{}}
				if tc.deferIx {
					rw.db.DeferIndexes()
				}
				replayLog(t, rw, h.log, tc.observe)
				if tc.deferIx {
					rw.db.FillIndexes()
				}
				require.Equal(t, want, dumpDB(rw.db))
				if tc.observe {
					for _, tb := range w.db.Tables() {
						require.Equal(t, w.observed[tb.ID()], rw.observed[tb.ID()], "table %s", tb.ID())
					}
				}
			})
		}
	}
}

// TestDBReplayFailingCommit: a commit one of whose writes does not
// apply (a damaged image, a wrong size or key, a table that is not
// there) fails with Apply's error and applies none of its writes, with
// or without a transaction (a table with an observer and collection
// sizes takes one).
func TestDBReplayFailingCommit(t *testing.T) {
	h := &recHook{}
	src := newDB(t, h)
	def := TableDef{Name: "t", ID: "id-t", Schema: schemaSN, Indexes: testIndexes[:2]}
	tb, err := src.CreateTable(def)
	require.NoError(t, err)
	item := func(pk string, sk int) Item {
		return Item{"pk": S(pk), "sk": N(MustNumber(strconv.Itoa(sk))), "g": S("g" + pk), "h": N(MustNumber(strconv.Itoa(sk)))}
	}
	for i := range 4 {
		put(t, tb, item("a", i))
	}
	tx := Begin(tb)
	for _, it := range []Item{item("b", 1), item("a", 9)} {
		_, err := tx.Put(tb, tb.KeySchema().KeyOf(it), it)
		require.NoError(t, err)
	}
	_, err = tx.Put(tb, Key{Partition: S("a"), Sort: N("0")}, nil)
	require.NoError(t, err)
	_, err = tx.Commit()
	require.NoError(t, err)
	good := h.log[len(h.log)-1]
	var commit Record
	require.NoError(t, ParseRecordInto(good, &commit))
	require.Len(t, commit.Writes, 3)

	// A number not canonical; the table's sort key attribute.
	badImage := EncodedItem{body: string([]byte{encodingVersion, 1, 1, 'v', tagN, 2, '0', '1'}), size: 4}
	keyInImage := EncodedItem{body: string([]byte{encodingVersion, 1, 2, 's', 'k', tagN, 1, '1'}), size: 6}
	tests := []struct {
		name   string
		change func(w []ItemWrite)
		want   error
	}{
		{"image", func(w []ItemWrite) { w[1].New.body = badImage.body }, ErrCorrupt},
		{"image, first write", func(w []ItemWrite) { w[0].New.body = badImage.body }, ErrCorrupt},
		{"key attribute in the image", func(w []ItemWrite) { w[1].New = keyInImage }, ErrCorrupt},
		{"size", func(w []ItemWrite) { w[1].New.size++ }, ErrCorrupt},
		{"key kind", func(w []ItemWrite) { w[1].Key.Sort = S("x") }, ErrKeyKind},
		{"delete's key kind", func(w []ItemWrite) { w[2].Key.Partition = N("1") }, ErrKeyKind},
		{"table", func(w []ItemWrite) { w[2].Table = "nope" }, ErrNoTable},
	}
	for _, tx := range []bool{false, true} {
		for _, tc := range tests {
			name := tc.name
			if tx {
				name += ", transaction"
			}
			t.Run(name, func(t *testing.T) {
				db := newDB(t, nil)
				var r Record
				for _, b := range h.log[:len(h.log)-1] {
					require.NoError(t, ParseRecordInto(b, &r))
					require.NoError(t, db.Replay(&r))
				}
				if tx {
					db.Table("t").SetObserver(replayObserver{&replayWorld{observed: map[string][]string{}}, "id-t"})
					db.Table("t").TrackCollections(collExtra, 0)
				}
				before := dumpDB(db)
				bad := Record{Kind: RecordCommit, Writes: append([]ItemWrite(nil), commit.Writes...)}
				tc.change(bad.Writes)
				b, err := AppendRecord(nil, &bad)
				require.NoError(t, err)
				require.NoError(t, ParseRecordInto(b, &r))
				err = db.Replay(&r)
				require.ErrorIs(t, err, tc.want)
				require.Equal(t, before, dumpDB(db), "a failed commit changed the DB")
				checkDB(t, db)

				// The commit as written applies.
				require.NoError(t, ParseRecordInto(good, &r))
				require.NoError(t, db.Replay(&r))
				require.NotEqual(t, before, dumpDB(db))
			})
		}
	}
}

// TestParseRecordInto: a Record parsed into again and again (a large
// commit, a small one, a catalog record) holds each record as
// ParseRecord reads it.
func TestParseRecordInto(t *testing.T) {
	h := &recHook{}
	db, tb := newHookedTable(t, h)
	tx := Begin(tb)
	for i := range 10 {
		_, err := tx.Put(tb, sKey(strconv.Itoa(i)), numItem(strconv.Itoa(i), i))
		require.NoError(t, err)
	}
	_, err := tx.Commit()
	require.NoError(t, err)
	put(t, tb, numItem("x", 1))
	require.NoError(t, db.SetMeta("k", []byte("v")))
	var r Record
	for _, b := range append(h.log, h.log...) {
		want, err := ParseRecord(b)
		require.NoError(t, err)
		require.NoError(t, ParseRecordInto(b, &r))
		got, err := AppendRecord(nil, &r)
		require.NoError(t, err)
		require.Equal(t, b, got)
		require.Equal(t, want.Kind == RecordCommit, r.unchecked)
	}
	require.ErrorIs(t, ParseRecordInto([]byte{recordVersion, 99}, &r), ErrCorrupt)
	require.Empty(t, r.Writes)
}

// FuzzReplayRecord: a record parsed without its images checked
// (ParseRecordInto) and replayed (DB.Replay) never panics; it applies
// when ParseRecord and Apply do, to the same DB, and fails otherwise,
// leaving the DB as it was: an image is checked once, never not at all.
func FuzzReplayRecord(f *testing.F) {
	log := fuzzRecordSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		db := fuzzDB(t, nil)
		var into Record
		require.NoError(t, ParseRecordInto(log[len(log)-1], &into)) // a Record used before
		before := dumpDB(db)
		err := ParseRecordInto(b, &into)
		if err == nil {
			err = db.Replay(&into)
		}
		want := fuzzDB(t, nil)
		rec, werr := ParseRecord(b)
		if werr == nil {
			werr = want.Apply(rec, nil)
		}
		require.Equal(t, werr != nil, err != nil, "ParseRecordInto and Replay: %v; ParseRecord and Apply: %v", err, werr)
		if err != nil && (rec == nil || rec.Kind == RecordCommit) {
			require.Equal(t, before, dumpDB(db), "a failed commit changed the DB")
		}
		require.Equal(t, dumpDB(want), dumpDB(db))
	})
}

// FuzzReplayView: a record parsed as a view of its bytes
// (ParseRecordView) and replayed by ReplayView, or when that declines
// it parsed again with its copy and replayed (persist's replay), never
// panics and leaves the DB as ParseRecord and Apply do, even once its
// bytes are overwritten after ReplayView applied it: the DB keeps none
// of them.
func FuzzReplayView(f *testing.F) {
	fuzzRecordSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		db := fuzzDB(t, nil)
		buf := slices.Clone(b) // the frame's buffer
		var r Record
		viewed := false
		err := ParseRecordView(buf, &r)
		if err == nil {
			viewed, err = db.ReplayView(&r)
		}
		if viewed {
			for i := range buf {
				buf[i] = 0xEE
			}
		} else {
			if err = ParseRecordInto(b, &r); err == nil {
				err = db.Replay(&r)
			}
		}
		want := fuzzDB(t, nil)
		rec, werr := ParseRecord(b)
		if werr == nil {
			werr = want.Apply(rec, nil)
		}
		require.Equal(t, werr != nil, err != nil, "view and replay: %v; ParseRecord and Apply: %v", err, werr)
		require.Equal(t, dumpDB(want), dumpDB(db))
	})
}
