package lag

import (
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stagestate"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Lags across restarts (-dbPath) and their listing. Each change of the
// mode of a gate handed out (IndexLag, TableReadLag, StreamLag: SetDelay,
// Hold; the admin endpoint goes through them) saves the mode of every
// gate of the namespace that lags (a delay, or held) as one DB metadata
// key, stagestate.MetaKeyLags: a RecordMeta, logged and kept in snapshots.
// A deleted table's gates, and a deleted GSI's, leave the record at the
// next save (Dropped; Watches of a definition without the GSI). Loaded
// puts the modes back on new gates of the tables, GSIs and enabled
// streams that exist, unless lags are given at start (Settings), which
// replace what was saved. A restart shows every commit made before it:
// what a gate held back when the emulator stopped comes back visible
// (the data is the table's), and a held gate holds what is written after
// the restart.

// entry is one gate made in a namespace, and the view it lags.
type entry struct {
	t     service.Table
	state LagState
	gate  *lag.Gate
	data  *storage.Table // a GSI's: the storage table that holds the gate
	label string         // a stream's: the stream's label
}

// live reports whether e's view still has e's gate: its table is its
// namespace's, its GSI the storage table's with the gate, its stream
// the enabled one. It takes no table's lock.
func (e *entry) live() bool {
	switch {
	case !e.t.Live():
		return false
	case e.state.Index != "":
		return e.data.IndexLag(e.state.Index) == storage.Lag(e.gate)
	case e.state.Stream:
		return e.t.Definition().StreamView() != "" && e.t.StreamLabel() == e.label
	}
	return true
}

// spaceGates are the gates made in a namespace. An entry whose view is
// gone (its table deleted or rewound, its GSI deleted, its stream
// disabled) is forgotten at the next listing or save, and at the latest
// when the list has doubled since the last (add), so that it does not
// keep a deleted table.
type spaceGates struct {
	mu      sync.Mutex // guards list and pruneAt; a leaf
	list    []entry
	pruneAt int        // the length of list at which add forgets the dead entries
	saveMu  sync.Mutex // serializes saves
}

// spaces holds each namespace's spaceGates.
var spaces = service.NewState[spaceGates]()

// registered returns sp's spaceGates.
func registered(sp service.Space) *spaceGates { return spaces.In(sp) }

// add records a gate made.
func (sg *spaceGates) add(e entry) {
	sg.mu.Lock()
	sg.list = append(sg.list, e)
	prune := len(sg.list) >= sg.pruneAt
	sg.mu.Unlock()
	if prune {
		n := len(sg.gates())
		sg.mu.Lock()
		sg.pruneAt = 2*n + 16
		sg.mu.Unlock()
	}
}

// gates returns the live gates, by table, each with its mode and the
// commits it holds back now (the gate's count: storage's queues shrink
// only when a read applies what the gate shows), forgetting the others.
func (sg *spaceGates) gates() []entry {
	sg.mu.Lock()
	list := slices.Clone(sg.list)
	sg.mu.Unlock()
	var out, dead []entry
	for _, e := range list {
		if e.live() {
			out = append(out, e)
		} else {
			dead = append(dead, e)
		}
	}
	if len(dead) > 0 {
		sg.mu.Lock()
		sg.list = slices.DeleteFunc(sg.list, func(e entry) bool {
			return slices.ContainsFunc(dead, func(d entry) bool { return d.gate == e.gate })
		})
		sg.mu.Unlock()
	}
	for i := range out {
		out[i].state.Delay, out[i].state.Hold = out[i].gate.Settings()
		out[i].state.Pending = out[i].gate.Pending()
	}
	compare := func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.state.Table, b.state.Table), cmp.Compare(a.rank(), b.rank()))
	}
	sort.SliceStable(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

// rank orders a table's gates: its reads, its GSIs in the definition's
// order, its stream.
func (e *entry) rank() int {
	switch {
	case e.state.Reads:
		return 0
	case e.state.Stream:
		return 1 << 20
	}
	return 1 + e.t.Definition().Indexes().GSIIndex(e.state.Index)
}

// gone reports whether one of t's GSI gates is no longer live (its GSI
// deleted).
func (sg *spaceGates) gone(t service.Table) bool {
	sg.mu.Lock()
	list := slices.Clone(sg.list)
	sg.mu.Unlock()
	return slices.ContainsFunc(list, func(e entry) bool {
		return e.state.Index != "" && e.t == t && !e.live()
	})
}

// Lags lists every namespace's gates (GET /dynamoemu/lag), by namespace
// and table.
func Lags(s *service.Service) []LagState {
	var out []LagState
	for _, sp := range s.Spaces() {
		for _, e := range registered(sp).gates() {
			e.state.Namespace = sp.ID()
			out = append(out, e.state)
		}
	}
	compare := func(a, b LagState) int { return cmp.Compare(a.Namespace, b.Namespace) }
	sort.SliceStable(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

// saveLags saves the modes of sp's gates that lag, when its DB is kept
// on disk. Saves are serialized, each writing the modes as they are when
// it runs, so the last one saved is the latest. A failed save is logged:
// the change is made all the same, and a restart forgets it.
func saveLags(sp service.Space) {
	if !sp.Persisted() {
		return
	}
	sg := registered(sp)
	sg.saveMu.Lock()
	defer sg.saveMu.Unlock()
	var lags []LagState
	for _, e := range sg.gates() {
		if e.state.Delay > 0 || e.state.Hold {
			e.state.Pending = 0
			lags = append(lags, e.state)
		}
	}
	if len(lags) == 0 && sp.Meta(stagestate.MetaKeyLags) == nil {
		return
	}
	var b []byte
	if len(lags) > 0 {
		var err error
		if b, err = json.Marshal(stagestate.Lags(lags)); err != nil {
			sp.Log().Warn("cannot save the lags: a restart forgets this change", "err", err)
			return
		}
	}
	if err := sp.SetMeta(stagestate.MetaKeyLags, b); err != nil {
		sp.Log().Warn("cannot save the lags: a restart forgets this change", "err", err)
	}
}

// loaded puts back the lags saved in the DB of sp, loaded again, on the
// tables, GSIs and enabled streams that exist, unless lags were given at
// start (its Loaded hook).
func loaded(sp service.Space, _ time.Time) {
	b := sp.Meta(stagestate.MetaKeyLags)
	if b == nil || len(settingsOf(sp)) > 0 {
		return // none saved, or the lags given at start replace them
	}
	lags, v, err := stagestate.DecodeLags(b)
	if err != nil || v != stagestate.LagsVersion {
		sp.Log().Warn("the saved lags are not readable: left out", "err", err, "version", v)
		return
	}
	for _, l := range lags {
		t, ok := sp.Table(l.Table)
		if !ok {
			continue
		}
		var g *lag.Gate
		switch {
		case l.Reads:
			g = readGate(t)
		case l.Stream:
			if g, _, ok = streamGate(t); !ok {
				continue
			}
		default:
			if g, err = indexGate(t, l.Index); err != nil {
				continue
			}
		}
		if l.Hold {
			g.Hold()
		} else {
			g.SetDelay(l.Delay)
		}
		if l.Reads {
			syncRead(t, g)
		}
	}
}

// dropped forgets a deleted table's gates, and fuzzing its views, and
// saves the namespace's lags without them (its Dropped hook).
func dropped(d service.Dropped) {
	registered(d.Table().Space()).gates()
	saveLags(d.Table().Space())
	if f := fuzzerOf(d.Table().Space()); f != nil {
		f.forget(func(t service.Table) bool { return t == d.Table() })
	}
}

// closed forgets the views fuzzing keeps of the namespace's tables (its
// Closed hook): the namespace is gone (a branch dropped, or the catalog
// the forks of a snapshot shared), or the service closes.
func closed(sp service.Space) {
	if f := fuzzerOf(sp); f != nil {
		f.forget(func(t service.Table) bool { return t.Space() == sp })
	}
}

// lagTable finds a table to lag in the namespace an access key and
// region select.
func lagTable(s *service.Service, accessKey, region, table string) (service.Table, error) {
	t, ok := s.SpaceFor(accessKey, region).Table(table)
	if !ok {
		return service.Table{}, errors.New("no table " + table)
	}
	return t, nil
}

// IndexLag returns the gate that delays a GSI's view of its table's
// writes, in the namespace an access key and region select, setting one
// (lagging nothing) if it has none. Each change of its mode is saved.
func IndexLag(s *service.Service, accessKey, region, table, index string) (*lag.Gate, error) {
	t, err := lagTable(s, accessKey, region, table)
	if err != nil {
		return nil, err
	}
	g, err := indexGate(t, index)
	if err != nil {
		return nil, err
	}
	g.OnChange(func() { saveLags(t.Space()) })
	return g, nil
}

// TableReadLag returns the gate that delays what a table's eventually
// consistent reads see of its writes (strongly consistent reads and
// transactions see every write), setting one if it has none: from then
// on, until the gate shows them, such reads answer an item as it was
// before the writes the gate holds back. Each change of its mode is
// saved.
func TableReadLag(s *service.Service, accessKey, region, table string) (*lag.Gate, error) {
	t, err := lagTable(s, accessKey, region, table)
	if err != nil {
		return nil, err
	}
	g := readGate(t)
	g.OnChange(func() { saveLags(t.Space()) }) // storage gets g at the switch (switchRead)
	return g, nil
}

// StreamLag returns the gate of the enabled stream of a table, setting
// one (lagging nothing until SetDelay or Hold) if it has none: each
// record is stamped on it at commit, and GetRecords returns only the
// records it shows, stopping at the first it does not. A stream enabled
// later (after a disable) starts without one. Each change of its mode is
// saved.
func StreamLag(s *service.Service, accessKey, region, table string) (*lag.Gate, error) {
	t, err := lagTable(s, accessKey, region, table)
	if err != nil {
		return nil, err
	}
	g, _, ok := streamGate(t)
	if !ok {
		return nil, ErrNoStream
	}
	g.OnChange(func() { saveLags(t.Space()) })
	return g, nil
}
