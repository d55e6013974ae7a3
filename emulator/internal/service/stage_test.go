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

// stageCall is one call of a stage the seam made, as recordingStage saw it.
type stageCall struct {
	stage    int // the stage's place in installed
	end      bool
	op       string
	table    string
	refused  bool
	consumed bool // End: the outcome charged units or search bytes
}

// stageLog is the calls the recording stages saw.
type stageLog struct {
	mu    sync.Mutex
	calls []stageCall
}

func (l *stageLog) add(c stageCall) {
	l.mu.Lock()
	l.calls = append(l.calls, c)
	l.mu.Unlock()
}

// recordingStage wraps an installed stage: it watches every table,
// records each Begin and End the seam calls, and hands them on to the
// stage it wraps when that stage watches the table.
type recordingStage struct {
	i     int
	inner Stage
	log   *stageLog
}

func (r recordingStage) Watches(Table) bool { return true }

func (r recordingStage) Begin(u *TableUse) error {
	r.log.add(stageCall{stage: r.i, op: u.Op(), table: u.Table().Info().Name})
	if !r.inner.Watches(u.Table()) {
		return nil
	}
	return r.inner.Begin(u)
}

func (r recordingStage) End(u *TableUse, o Outcome) {
	r.log.add(stageCall{stage: r.i, end: true, op: u.Op(), table: u.Table().Info().Name, refused: o.Refused != nil,
		consumed: o.ReadUnits+o.WriteUnits+o.SearchBytes > 0 || o.HasChange})
	if r.inner.Watches(u.Table()) {
		r.inner.End(u, o)
	}
}

// checkCall is one call of a stage's check (stage_check.go), as the
// recording checks saw it.
type checkCall struct {
	stage int // the check's place among keyGuards or writeCheckers
	write bool
	op    string
	table string
}

// checkLog is the checks the recording checks saw.
type checkLog struct {
	mu    sync.Mutex
	calls []checkCall
}

func (l *checkLog) add(c checkCall) {
	l.mu.Lock()
	l.calls = append(l.calls, c)
	l.mu.Unlock()
}

// recordingGuard wraps an installed KeyGuard: it records each check the
// seam makes and hands it on.
type recordingGuard struct {
	i     int
	inner KeyGuard
	log   *checkLog
}

func (r recordingGuard) GuardsKeys(t Table) bool { return r.inner.GuardsKeys(t) }

func (r recordingGuard) GuardKey(c Call, t Table, k storage.Key) error {
	r.log.add(checkCall{stage: r.i, op: c.Op(), table: t.Info().Name})
	return r.inner.GuardKey(c, t, k)
}

func (r recordingGuard) GuardRead(c Call, t Table, k storage.Key) error {
	r.log.add(checkCall{stage: r.i, op: c.Op(), table: t.Info().Name})
	return r.inner.GuardRead(c, t, k)
}

func (r recordingGuard) GuardScan(c Call, t Table, index string, partition storage.Value) error {
	r.log.add(checkCall{stage: r.i, op: c.Op(), table: t.Info().Name})
	return r.inner.GuardScan(c, t, index, partition)
}

// recordingWrites wraps an installed WriteChecker: it records each write
// the seam puts to it (alone or in a batch) and hands it on.
type recordingWrites struct {
	i     int
	inner WriteChecker
	log   *checkLog
}

func (r recordingWrites) ChecksWrites(t Table) WriteCheck { return r.inner.ChecksWrites(t) }

func (r recordingWrites) CheckWrite(c Call, w *Write) error {
	r.log.add(checkCall{stage: r.i, write: true, op: c.Op(), table: w.Table.Info().Name})
	return r.inner.CheckWrite(c, w)
}

func (r recordingWrites) NewWriteBatch(c Call, tx bool) WriteBatch {
	return recordingBatch{r: r, op: c.Op(), inner: r.inner.NewWriteBatch(c, tx)}
}

type recordingBatch struct {
	r     recordingWrites
	op    string
	inner WriteBatch
}

func (b recordingBatch) Add(w *Write) {
	b.r.log.add(checkCall{stage: b.r.i, write: true, op: b.op, table: w.Table.Info().Name})
	b.inner.Add(w)
}

func (b recordingBatch) Settle() error { return b.inner.Settle() }

// recordChecks puts the installed KeyGuards and WriteCheckers behind
// recording wrappers for the test's time.
func recordChecks(t *testing.T, log *checkLog) {
	savedG, savedW := keyGuards, writeCheckers
	t.Cleanup(func() { keyGuards, writeCheckers = savedG, savedW })
	keyGuards, writeCheckers = make([]KeyGuard, len(savedG)), make([]WriteChecker, len(savedW))
	for i, g := range savedG {
		keyGuards[i] = recordingGuard{i: i, inner: g, log: log}
	}
	for i, w := range savedW {
		writeCheckers[i] = recordingWrites{i: i, inner: w, log: log}
	}
}

// checkChecks checks that every KeyGuard checked op's request on table,
// and, for a write, that every WriteChecker checked one of its writes.
func checkChecks(t *testing.T, calls []checkCall, op, table string, write bool) {
	t.Helper()
	guarded, checked := make([]bool, len(keyGuards)), make([]bool, len(writeCheckers))
	for _, c := range calls {
		require.Equal(t, op, c.op, "a check of another operation")
		require.Equal(t, table, c.table, "a check of another table")
		if c.write {
			checked[c.stage] = true
		} else {
			guarded[c.stage] = true
		}
	}
	for i, ok := range guarded {
		require.Truef(t, ok, "%s: the KeyGuard %T checked nothing", op, keyGuards[i].(recordingGuard).inner)
	}
	if !write {
		return
	}
	for i, ok := range checked {
		require.Truef(t, ok, "%s: the WriteChecker %T checked no write", op, writeCheckers[i].(recordingWrites).inner)
	}
}

// TestPipelineStages walks every data-plane operation through every
// installed stage by the stage seam: each stage, wrapped to record what
// the seam calls, is put in its place; each operation's
// request (and its request refused by its condition) begins a use of
// its table on every stage, in the installed order, and ends each use it
// began with what the use consumed, so that a stage outside the core
// sees every operation as the core's own instruments do. The core's
// stages are all on (a fault rule that never fires, the report, hot-key
// throttling, the conventions check in warn mode), and the operations
// answer as they do without the wrappers. The stages' checks are walked
// too: every KeyGuard checks each operation's keys, and every
// WriteChecker each write's item.
func TestPipelineStages(t *testing.T) {
	require.NotEmpty(t, keyGuards, "no KeyGuard installed")
	require.NotEmpty(t, writeCheckers, "no WriteChecker installed")
	checks := &checkLog{}
	recordChecks(t, checks)
	log := &stageLog{}
	saved := installed
	t.Cleanup(func() { installed = saved })
	installed = make([]Stage, len(saved))
	for i, s := range saved {
		installed[i] = recordingStage{i: i, inner: s, log: log}
	}
	for _, op := range dataPlane {
		tc, ok := pipelineCases[op]
		require.Truef(t, ok, "data-plane operation %s has no case in pipelineCases", op)
		t.Run(op, func(t *testing.T) {
			p := newPipelineEnv(t, Config{Settings: []any{throttle.Settings{HotKeys: true}, &conventions.Config{Tables: []conventions.TableConfig{
				{Match: tc.table(), Policy: conventions.Policy{Roles: conventions.RoleData, Mode: conventions.ModeWarn}}}}}})
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
				log.mu.Lock()
				log.calls = nil
				log.mu.Unlock()
				checks.mu.Lock()
				checks.calls = nil
				checks.mu.Unlock()
				status, out := p.do(op, r.body)
				if r.refused {
					require.Contains(t, out, "ConditionalCheckFailed", "the condition did not fail")
				} else {
					require.Equal(t, http.StatusOK, status, out)
				}
				log.mu.Lock()
				calls := slices.Clone(log.calls)
				log.mu.Unlock()
				checkStageCalls(t, calls, len(saved), op, tc.table())
				checks.mu.Lock()
				ccalls := slices.Clone(checks.calls)
				checks.mu.Unlock()
				checkChecks(t, ccalls, op, tc.table(), r.write)
			}
		})
	}
}

// checkStageCalls checks that every one of n stages began and ended the
// uses of op on table in installed order, none refused, and that an End
// reported what the use consumed.
func checkStageCalls(t *testing.T, calls []stageCall, n int, op, table string) {
	t.Helper()
	begins, ends := make([]int, n), make([]int, n)
	consumed := false
	next := 0 // the stage whose Begin comes next
	for _, c := range calls {
		require.Equal(t, op, c.op, "a use of another operation")
		require.Equal(t, table, c.table, "a use of another table")
		require.False(t, c.refused, "%s: a use refused", op)
		if c.end {
			ends[c.stage]++
			consumed = consumed || c.consumed
			continue
		}
		require.Equal(t, next, c.stage, "%s: stage %d began out of the installed order", op, c.stage)
		next = (next + 1) % n
		begins[c.stage]++
	}
	for i := range n {
		require.Positivef(t, begins[i], "%s: stage %d (%T) began no use", op, i, installed[i].(recordingStage).inner)
		require.Equalf(t, begins[i], ends[i], "%s: stage %d began %d uses and ended %d", op, i, begins[i], ends[i])
	}
	require.True(t, consumed, "%s: no End reported what its use consumed", op)
}

// TestStageWatchesPerDefinition: the seam asks a stage whether it
// watches a table once per definition of the table, not per request,
// and a table no stage watches runs none.
func TestStageWatchesPerDefinition(t *testing.T) {
	saved := installed
	t.Cleanup(func() { installed = saved })
	cs := &countingStage{}
	installed = []Stage{cs}
	p := newPipelineEnv(t, Config{})
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
	return slices.ContainsFunc(t.t.snapshot().tags, func(tg tablespec.TagPair) bool { return tg.Key == "watch" && tg.Value == "yes" })
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

// TestStagesShareTheirList: tables the same stages watch, a branch's
// included, share one list of them; a table watched only by Switches
// runs none while they are off.
func TestStagesShareTheirList(t *testing.T) {
	saved := installed
	t.Cleanup(func() { installed = saved })
	cs, sw := &countingStage{}, &switchStage{}
	installed = []Stage{sw, cs}
	p := newPipelineEnv(t, Config{})
	ns := p.s.namespaceOf(pipelineAuthKey, pipelineRegion)
	for _, name := range []string{"pipe", "lsi"} {
		status, body := p.do("TagResource", `{"ResourceArn":"`+ns.getTable(name).arn+`","Tags":[{"Key":"watch","Value":"yes"}]}`)
		require.Equal(t, http.StatusOK, status, body)
	}
	pipe, lsi := ns.getTable("pipe").watchers(), ns.getTable("lsi").watchers()
	require.Equal(t, []Stage{sw, cs}, pipe)
	require.Equal(t, pipe, lsi)
	require.Same(t, &pipe[0], &lsi[0], "two tables the same stages watch hold a list each")

	const branch = "t1/" + pipelineRegion
	require.NoError(t, p.s.Fork(branch, ns.DB().Snapshot(nil)))
	bt := p.s.Namespace(branch).getTable("pipe")
	require.NotNil(t, bt)
	require.NotSame(t, ns.getTable("pipe"), bt)
	require.Same(t, &pipe[0], &bt.watchers()[0], "a branch's table holds its own list of the stages")

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
	saved := keyGuards
	t.Cleanup(func() { keyGuards = saved })
	g := &switchedGuard{}
	keyGuards = []KeyGuard{g}
	p := newPipelineEnv(t, Config{})
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

// switchedGuard guards every table while on, and counts.
type switchedGuard struct {
	on             atomic.Bool
	asked, guarded atomic.Int64
}

func (g *switchedGuard) GuardsKeys(Table) bool { g.asked.Add(1); return g.on.Load() }

func (g *switchedGuard) GuardKey(Call, Table, storage.Key) error { g.guarded.Add(1); return nil }

func (g *switchedGuard) GuardRead(Call, Table, storage.Key) error { return nil }

func (g *switchedGuard) GuardScan(Call, Table, string, storage.Value) error { return nil }
