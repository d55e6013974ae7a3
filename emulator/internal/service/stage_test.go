package service

import (
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// seamCall is one call the seam made of a recorder.
type seamCall struct {
	stage    int    // the recorder's place among the service's stages
	kind     string // begin, end, guard, view, write, batch, settle, call
	op       string
	table    string
	write    bool // begin, end: a use that writes
	refused  bool // end: the use was refused
	consumed bool // end: the outcome charged units or search bytes, or a change
	value    any  // end: what the use kept for the recorder (TableUse.Value)
}

// seamLog is the calls recorders saw.
type seamLog struct {
	mu    sync.Mutex
	calls []seamCall
}

func (l *seamLog) add(c seamCall) {
	l.mu.Lock()
	l.calls = append(l.calls, c)
	l.mu.Unlock()
}

// take returns the calls logged since the last take.
func (l *seamLog) take() []seamCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.calls
	l.calls = nil
	return out
}

// kinds are the calls of kind kind among calls.
func kinds(calls []seamCall, kind string) []seamCall {
	var out []seamCall
	for _, c := range calls {
		if c.kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// recorder is a stage that takes part in everything the seam offers a
// stage (it watches every table; it is a KeyGuard, a WriteChecker, a
// ReadViewer and a Hooker with a CheckCall) and records each call in
// log. With inner it wraps that stage: each call is handed on to it
// where it takes part, and its hooks are its own. Without, it keeps its
// place (i) on each use it begins and finds it at the use's End, and it
// refuses every use with refuse when set.
type recorder struct {
	i      int
	inner  Stage
	log    *seamLog
	refuse error
}

func (r *recorder) add(c seamCall) {
	c.stage = r.i
	r.log.add(c)
}

func (r *recorder) Watches(Table) bool { return true }

func (r *recorder) Begin(u *TableUse) error {
	r.add(seamCall{kind: "begin", op: u.Op(), table: u.Table().Info().Name, write: u.Write()})
	if r.inner == nil {
		u.SetValue(uint8(r.i)) // a byte: kept without allocating
		return r.refuse
	}
	if !r.inner.Watches(u.Table()) {
		return nil
	}
	return r.inner.Begin(u)
}

func (r *recorder) End(u *TableUse, o Outcome) {
	r.add(seamCall{kind: "end", op: u.Op(), table: u.Table().Info().Name, write: u.Write(), refused: o.Refused != nil,
		consumed: o.ReadUnits+o.WriteUnits+o.SearchBytes > 0 || o.HasChange, value: u.Value()})
	if r.inner != nil && r.inner.Watches(u.Table()) {
		r.inner.End(u, o)
	}
}

func (r *recorder) GuardsKeys(t Table) bool {
	if g, ok := r.inner.(KeyGuard); ok {
		return g.GuardsKeys(t)
	}
	return r.inner == nil
}

func (r *recorder) guard(c Call, t Table, inner func(g KeyGuard) error) error {
	r.add(seamCall{kind: "guard", op: c.Op(), table: t.Info().Name})
	if g, ok := r.inner.(KeyGuard); ok {
		return inner(g)
	}
	return nil
}

func (r *recorder) GuardKey(c Call, t Table, k storage.Key) error {
	return r.guard(c, t, func(g KeyGuard) error { return g.GuardKey(c, t, k) })
}

func (r *recorder) GuardRead(c Call, t Table, k storage.Key) error {
	return r.guard(c, t, func(g KeyGuard) error { return g.GuardRead(c, t, k) })
}

func (r *recorder) GuardScan(c Call, t Table, index string, partition storage.Value) error {
	return r.guard(c, t, func(g KeyGuard) error { return g.GuardScan(c, t, index, partition) })
}

func (r *recorder) ChecksWrites(t Table) WriteCheck {
	if w, ok := r.inner.(WriteChecker); ok {
		return w.ChecksWrites(t)
	}
	if r.inner == nil {
		return CheckWrites
	}
	return NoWriteCheck
}

func (r *recorder) CheckWrite(c Call, w *Write) error {
	r.add(seamCall{kind: "write", op: c.Op(), table: w.Table.Info().Name})
	if wc, ok := r.inner.(WriteChecker); ok {
		return wc.CheckWrite(c, w)
	}
	return nil
}

func (r *recorder) NewWriteBatch(c Call, tx bool) WriteBatch {
	b := &recordingBatch{r: r, op: c.Op()}
	if wc, ok := r.inner.(WriteChecker); ok {
		b.inner = wc.NewWriteBatch(c, tx)
	}
	return b
}

func (r *recorder) WriteLocks(dst []*storage.Table, t Table) []*storage.Table {
	if wc, ok := r.inner.(WriteChecker); ok {
		return wc.WriteLocks(dst, t)
	}
	return dst
}

func (r *recorder) ViewRead(u *TableUse) {
	r.add(seamCall{kind: "view", op: u.Op(), table: u.Table().Info().Name})
	if v, ok := r.inner.(ReadViewer); ok {
		v.ViewRead(u)
	}
}

func (r *recorder) Hooks() Hooks {
	if h, ok := r.inner.(Hooker); ok {
		return h.Hooks()
	}
	if r.inner != nil {
		return Hooks{}
	}
	return Hooks{CheckCall: func(c Call, op string, in any) error {
		r.add(seamCall{kind: "call", op: op})
		return nil
	}}
}

// recordingBatch records each write of a batch or a transaction put to
// the recorder, and its settling.
type recordingBatch struct {
	r     *recorder
	op    string
	inner WriteBatch // nil: the recorder wraps no WriteChecker
}

func (b *recordingBatch) Add(w *Write) {
	b.r.add(seamCall{kind: "batch", op: b.op, table: w.Table.Info().Name})
	if b.inner != nil {
		b.inner.Add(w)
	}
}

func (b *recordingBatch) Settle() error {
	b.r.add(seamCall{kind: "settle", op: b.op})
	if b.inner != nil {
		return b.inner.Settle()
	}
	return nil
}

// TestPipelineStages walks every data-plane operation through every
// stage the emulator installs, by the stage seam: each stage, wrapped in
// a recorder, is put in its place; each operation's request (and its
// request refused by its condition) begins a use of its table on every
// stage, in Config's order, and ends each use it began with what the
// use consumed, so that a stage outside the core sees every operation as
// the core's own instruments do. The stages are all on (a fault rule
// that never fires, the report, hot-key throttling, the conventions
// check in warn mode), and the operations answer as they do without the
// recorders. The stages' checks are walked too: every KeyGuard checks
// each operation's keys, and every WriteChecker each write's item.
func TestPipelineStages(t *testing.T) {
	log := &seamLog{}
	var stages []Stage
	var guards, writers []int // the places of the stages that are KeyGuards, WriteCheckers
	for i, s := range wired.stages {
		stages = append(stages, &recorder{i: i, inner: s, log: log})
		if _, ok := s.(KeyGuard); ok {
			guards = append(guards, i)
		}
		if _, ok := s.(WriteChecker); ok {
			writers = append(writers, i)
		}
	}
	require.NotEmpty(t, guards, "no KeyGuard installed")
	require.NotEmpty(t, writers, "no WriteChecker installed")
	cfg := func(table string) Config {
		return Config{Features: wiredFeatures(), Stages: stages, Settings: []Setting{SettingOf[throttle.Settings]{}.With(throttle.Settings{HotKeys: true}),
			SettingOf[*conventions.Config]{}.With(&conventions.Config{Tables: []conventions.TableConfig{
				{Match: table, Policy: conventions.Policy{Roles: conventions.RoleData, Mode: conventions.ModeWarn}}}})}}
	}
	for _, op := range dataPlaneOps(newTestService(t, cfg("pipe"))) {
		tc, ok := pipelineCases[op]
		require.Truef(t, ok, "data-plane operation %s has no case in pipelineCases", op)
		t.Run(op, func(t *testing.T) {
			p := newPipelineEnv(t, cfg(tc.table()))
			require.NoError(t, p.inj.SetRules(1, []faults.Rule{{Table: "nosuchtable",
				Fault: faults.InternalServerError}}))
			ReportHooks.SetReporting(p.s, true)
			// The write the conventions check sees (the stages' checks of
			// a write: first, while the item it deletes is there), the
			// request, and the one its condition refuses.
			type request struct {
				body           string
				refused, write bool
			}
			var reqs []request
			if tc.write != "" {
				reqs = append(reqs, request{body: tc.write, write: true})
			}
			reqs = append(reqs, request{body: tc.body})
			if tc.condFail != "" {
				reqs = append(reqs, request{body: tc.condFail, refused: true})
			}
			for _, r := range reqs {
				log.take()
				status, out := p.do(op, r.body)
				if r.refused {
					require.Contains(t, out, "ConditionalCheckFailed", "the condition did not fail")
				} else {
					require.Equal(t, http.StatusOK, status, out)
				}
				calls := log.take()
				checkStageCalls(t, calls, len(stages), op, tc.table())
				checkChecks(t, calls, guards, writers, op, tc.table(), r.write)
			}
		})
	}
}

// dataPlaneOps are the names of s's data-plane operations, in order.
func dataPlaneOps(s *Service) []string {
	var out []string
	for name, h := range s.seams.ops {
		if h.data {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// checkStageCalls checks that every one of n stages began and ended the
// uses of op on table in Config's order, none refused, and that an End
// reported what the use consumed.
func checkStageCalls(t *testing.T, calls []seamCall, n int, op, table string) {
	t.Helper()
	begins, ends := make([]int, n), make([]int, n)
	consumed := false
	next := 0 // the stage whose Begin comes next
	for _, c := range calls {
		if c.kind != "begin" && c.kind != "end" {
			continue
		}
		require.Equal(t, op, c.op, "a use of another operation")
		require.Equal(t, table, c.table, "a use of another table")
		require.False(t, c.refused, "%s: a use refused", op)
		if c.kind == "end" {
			ends[c.stage]++
			consumed = consumed || c.consumed
			continue
		}
		require.Equal(t, next, c.stage, "%s: stage %d began out of Config's order", op, c.stage)
		next = (next + 1) % n
		begins[c.stage]++
	}
	for i := range n {
		require.Positivef(t, begins[i], "%s: stage %d (%T) began no use", op, i, wired.stages[i])
		require.Equalf(t, begins[i], ends[i], "%s: stage %d began %d uses and ended %d", op, i, begins[i], ends[i])
	}
	require.True(t, consumed, "%s: no End reported what its use consumed", op)
}

// checkChecks checks that every KeyGuard (its place among the stages:
// guards) checked op's request on table, and, for a write, that every
// WriteChecker (writers) checked one of its writes.
func checkChecks(t *testing.T, calls []seamCall, guards, writers []int, op, table string, write bool) {
	t.Helper()
	guarded, checked := map[int]bool{}, map[int]bool{}
	for _, c := range calls {
		switch c.kind {
		case "guard":
			guarded[c.stage] = true
		case "write", "batch":
			checked[c.stage] = true
		default:
			continue
		}
		require.Equal(t, op, c.op, "a check of another operation")
		require.Equal(t, table, c.table, "a check of another table")
	}
	for _, i := range guards {
		require.Truef(t, guarded[i], "%s: the KeyGuard %T checked nothing", op, wired.stages[i])
	}
	if !write {
		return
	}
	for _, i := range writers {
		require.Truef(t, checked[i], "%s: the WriteChecker %T checked no write", op, wired.stages[i])
	}
}

// TestStageWatchesPerDefinition: the seam asks a stage whether it
// watches a table once per definition of the table, not per request,
// and a table no stage watches runs none.
func TestStageWatchesPerDefinition(t *testing.T) {
	cs := &countingStage{}
	p := newPipelineEnv(t, Config{Features: wiredFeatures(), Stages: []Stage{cs}})
	cs.reset()
	for range 3 {
		status, body := p.do("GetItem", `{"TableName":"pipe","Key":{"pk":{"S":"a"}}}`)
		require.Equal(t, http.StatusOK, status, body)
	}
	require.Zero(t, cs.watches, "Watches asked per request") // asked by the seeding PutItem
	require.Zero(t, cs.begins, "a stage that does not watch the table began a use")
	status, body := p.do("TagResource", `{"ResourceArn":"`+p.s.namespaceOf(pipelineAuthKey, pipelineRegion).getTable("pipe").arn+
		`","Tags":[{"Key":"watch","Value":"yes"}]}`)
	require.Equal(t, http.StatusOK, status, body)
	for range 3 {
		status, body := p.do("GetItem", `{"TableName":"pipe","Key":{"pk":{"S":"a"}}}`)
		require.Equal(t, http.StatusOK, status, body)
	}
	require.Equal(t, 1, cs.watches, "the new definition was not asked once")
	require.Equal(t, 3, cs.begins, "the stage watching the new definition did not begin each use")
	require.Equal(t, 3, cs.ends)
}

// countingStage watches the tables tagged watch=yes, and counts.
type countingStage struct {
	mu                    sync.Mutex
	watches, begins, ends int
}

func (s *countingStage) reset() {
	s.mu.Lock()
	s.watches, s.begins, s.ends = 0, 0, 0
	s.mu.Unlock()
}

func (s *countingStage) Watches(t Table) bool {
	s.mu.Lock()
	s.watches++
	s.mu.Unlock()
	return slices.ContainsFunc(t.t.snapshot().Tags, func(tg tablespec.TagPair) bool { return tg.Key == "watch" && tg.Value == "yes" })
}

func (s *countingStage) Begin(*TableUse) error {
	s.mu.Lock()
	s.begins++
	s.mu.Unlock()
	return nil
}

func (s *countingStage) End(*TableUse, Outcome) {
	s.mu.Lock()
	s.ends++
	s.mu.Unlock()
}

// TestSwitchStages: the stages watching a table are asked for each of
// its definitions, a branch's table's too; a table watched only by
// Switches runs none while they are off.
func TestSwitchStages(t *testing.T) {
	cs, sw := &countingStage{}, &switchStage{}
	p := newPipelineEnv(t, Config{Features: wiredFeatures(), Stages: []Stage{sw, cs}})
	ns := p.s.namespaceOf(pipelineAuthKey, pipelineRegion)
	for _, name := range []string{"pipe", "lsi"} {
		status, body := p.do("TagResource", `{"ResourceArn":"`+ns.getTable(name).arn+`","Tags":[{"Key":"watch","Value":"yes"}]}`)
		require.Equal(t, http.StatusOK, status, body)
	}
	require.Equal(t, []Stage{sw, cs}, ns.getTable("pipe").watchers())
	require.Equal(t, []Stage{sw, cs}, ns.getTable("lsi").watchers())

	const branch = "t1/" + pipelineRegion
	require.NoError(t, p.s.Fork(branch, ns.DB().Snapshot(nil)))
	bt := p.s.Namespace(branch).getTable("pipe")
	require.NotNil(t, bt)
	require.NotSame(t, ns.getTable("pipe"), bt)
	require.Equal(t, []Stage{sw, cs}, bt.watchers(), "a branch's table is watched as its base's")

	vec := ns.getTable("vec")
	require.Nil(t, vec.watchers(), "a use ran the stages while the only one watching is a Switch that is off")
	require.Equal(t, []Stage{sw}, vec.stages().stages)
	sw.on.Store(true)
	require.Equal(t, []Stage{sw}, vec.watchers())
}

// switchStage watches every table, and is on while on is set.
type switchStage struct{ on atomic.Bool }

func (s *switchStage) Watches(Table) bool     { return true }
func (s *switchStage) On(Table) bool          { return s.on.Load() }
func (s *switchStage) Begin(*TableUse) error  { return nil }
func (s *switchStage) End(*TableUse, Outcome) {}

// TestKeyGuardsPerDefinition: whether a KeyGuard guards a table is asked
// once per definition, not per request; a guard that decides to guard a
// table after its definition was published (as the conventions check
// stores a new table's policy) has it guarded from its Reask on, while
// requests run beside it.
func TestKeyGuardsPerDefinition(t *testing.T) {
	g := &switchedGuard{}
	p := newPipelineEnv(t, Config{Features: wiredFeatures(), Stages: []Stage{g}})
	get := func() {
		status, body := p.do("GetItem", `{"TableName":"pipe","Key":{"pk":{"S":"a"}}}`)
		require.Equal(t, http.StatusOK, status, body)
	}
	get()
	asked := g.asked.Load()
	for range 3 {
		get()
	}
	require.Equal(t, asked, g.asked.Load(), "GuardsKeys asked per request")
	require.Zero(t, g.guarded.Load(), "a table the guard does not guard had its keys put to it")

	tbl := Table{t: p.s.namespaceOf(pipelineAuthKey, pipelineRegion).getTable("pipe")}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				p.do("GetItem", `{"TableName":"pipe","Key":{"pk":{"S":"a"}}}`)
			}
		}()
	}
	for range 50 {
		g.on.Store(true)
		tbl.Reask()
		before := g.guarded.Load()
		get()
		require.Greater(t, g.guarded.Load(), before, "a request after Reask went unguarded")
		g.on.Store(false)
		tbl.Reask()
	}
	close(stop)
	wg.Wait()
}

// switchedGuard is a stage that watches no table and guards every
// table while on, and counts.
type switchedGuard struct {
	on             atomic.Bool
	asked, guarded atomic.Int64
}

func (g *switchedGuard) Watches(Table) bool     { return false }
func (g *switchedGuard) Begin(*TableUse) error  { return nil }
func (g *switchedGuard) End(*TableUse, Outcome) {}

func (g *switchedGuard) GuardsKeys(Table) bool { g.asked.Add(1); return g.on.Load() }

func (g *switchedGuard) GuardKey(Call, Table, storage.Key) error { g.guarded.Add(1); return nil }

func (g *switchedGuard) GuardRead(Call, Table, storage.Key) error { return nil }

func (g *switchedGuard) GuardScan(Call, Table, string, storage.Value) error { return nil }
