package lag

import (
	"reflect"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/internal/faults/lag"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Stage is the lag stage (service.Stage, service.ReadViewer and
// service.Hooker).
type Stage struct{}

// Hooks count a control-plane call that reads a stream or an index
// (checkCall), put back a namespace's lags when it is loaded, and forget
// a table's when it is deleted and fuzzing's views of a namespace's
// tables when it is gone.
func (Stage) Hooks() service.Hooks {
	return service.Hooks{CheckCall: checkCall, Loaded: loaded, Dropped: dropped, Closed: closed}
}

// fuzzerOf returns the fuzzing of a service (nil: none).
func fuzzerOf(sp service.Space) *Fuzzer {
	f, _ := FuzzerSetting.Of(sp)
	return f
}

// Watches gives the table's views the gates the lag settings ask for
// (settings.go), saves the namespace's lags when a GSI with a gate is
// gone, and watches every table of a service that fuzzes, putting the
// gates of the table's views in fuzz mode: its eventually consistent
// reads, each GSI, its enabled stream. Asked again for each new
// definition, it does so for a GSI or a stream added since too.
func (Stage) Watches(t service.Table) bool {
	applySettings(t)
	if sg := spaces.Made(t.Space()); sg != nil && sg.gone(t) { // no gates made: none gone
		saveLags(t.Space())
	}
	f := fuzzerOf(t.Space())
	if f == nil {
		return false
	}
	keys := tableKeys(t)
	fg := &fuzzedGates{read: readGate(t), index: map[string]*lag.Gate{}}
	f.install(fg.read, &view{of: t, kind: ViewTable, table: t.Info().Name, keys: keys})
	for _, x := range t.Definition().Indexes().GSIList() {
		if g, err := indexGate(t, x.Name()); err == nil {
			pk, sk := x.Keys()
			f.install(g, &view{of: t, kind: ViewIndex, table: t.Info().Name, index: x.Name(), keys: [2]string{pk, sk}})
			fg.index[x.Name()] = g
		}
	}
	if g, base, ok := streamGate(t); ok {
		f.install(g, &view{of: t, kind: ViewStream, table: t.Info().Name, keys: keys, base: base})
		fg.stream = g
	}
	gatesOf(t).fuzzed.Store(fg)
	return true
}

// tableKeys are the names of t's key attributes.
func tableKeys(t service.Table) (keys [2]string) {
	copy(keys[:], t.Info().KeyNames())
	return keys
}

// Begin does nothing: the stage lags views, it refuses nothing.
func (Stage) Begin(*service.TableUse) error { return nil }

// End records a write that committed with each view of its table whose
// gate numbered it, for the report.
func (Stage) End(u *service.TableUse, o service.Outcome) {
	if !u.Write() || o.Refused != nil || o.HasChange && o.Change.OldSize == 0 && o.Change.NewSize == 0 {
		return
	}
	t := u.Table()
	f := fuzzerOf(t.Space())
	if f == nil {
		return
	}
	// The gates Watches installed, never found afresh: End may run under
	// storage's lock (fuzzedGates).
	fg := gatesOf(t).fuzzed.Load()
	if fg == nil {
		return
	}
	kc := u.Key()
	w := write{op: u.Op(), key: storage.Key{Partition: kc.Partition}, keyAttr: tableKeys(t), at: u.Call().Now()}
	if kc.SortOp == insights.SortEQ {
		w.key.Sort = kc.Sort
	}
	if o.HasChange {
		switch {
		case o.Change.OldSize == 0:
			w.event = "INSERT"
		case o.Change.NewSize == 0:
			w.event = "REMOVE"
		default:
			w.event = "MODIFY"
		}
	}
	// A transaction's applied actions share its commit (a cancelled one
	// ends its actions with no change, and committed nothing).
	tx := o.HasChange && (u.Op() == "TransactWriteItems" || u.Op() == "ExecuteTransaction")
	f.wrote(fg.read, w, tx)
	for _, x := range t.Definition().Indexes().GSIList() {
		g := fg.index[x.Name()]
		if g == nil {
			continue
		}
		xw := w
		if pk, _ := x.Keys(); o.HasChange {
			old, hadOld := partOf(o.Change.Old, o.Change.OldSize, pk)
			nu, hasNew := partOf(o.Change.New, o.Change.NewSize, pk)
			if hadOld && hasNew && !old.IsValid() && !nu.IsValid() {
				continue // the item is in the index neither before nor after
			}
			xw.parts, xw.partKnown = [2]storage.Value{old, nu}, hadOld && hasNew
		}
		f.wrote(g, xw, tx)
	}
	if fg.stream != nil {
		f.wrote(fg.stream, w, tx)
	}
}

// partOf returns the value of attribute name in an item of size bytes
// (size 0: none); known false when the item was not kept.
func partOf(it storage.Item, size int, name string) (v storage.Value, known bool) {
	if size == 0 {
		return storage.Value{}, true
	}
	if it == nil {
		return storage.Value{}, false
	}
	return it[name], true
}

// wrote records w with the view of gate g, numbered by g's last commit;
// a transaction's writes share their commit.
func (f *Fuzzer) wrote(g *lag.Gate, w write, tx bool) {
	seq, vis := g.Last(), g.Visible()
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.views[g]
	if v == nil {
		return
	}
	v.pruneLocked(vis)
	if seq <= vis || seq < v.lastSeq || seq == v.lastSeq && !tx {
		return
	}
	w.seq, v.lastSeq = seq, seq
	v.writes = append(v.writes, w)
}

// pruneLocked forgets the writes the view shows now (up to vis).
func (v *view) pruneLocked(vis uint64) {
	i := 0
	for i < len(v.writes) && v.writes[i].seq <= vis {
		i++
	}
	if i > 0 {
		v.writes = append(v.writes[:0], v.writes[i:]...)
	}
}

// ViewRead counts an eventually consistent read of a table, an LSI or a
// GSI on the view's gate, which then shows it what its reads made
// visible, and reports the read if it misses a write its key condition
// covers.
func (Stage) ViewRead(u *service.TableUse) {
	t := u.Table()
	f := fuzzerOf(t.Space())
	if f == nil {
		return
	}
	var g *lag.Gate
	if u.OwnIndex() {
		var err error
		if g, err = indexGate(t, u.Index()); err != nil {
			return
		}
	} else {
		g = readGate(t)
	}
	v := f.viewOf(g)
	if v == nil {
		return
	}
	n := g.Read()
	vis := g.Visible()
	kc := u.Key()
	f.mu.Lock()
	defer f.mu.Unlock()
	v.pruneLocked(vis)
	var missed []MissedWrite
	for i := range v.writes {
		if w := &v.writes[i]; v.covers(w, kc, u.Index()) {
			missed = append(missed, w.missed(0))
		}
	}
	if len(missed) == 0 {
		return
	}
	keys := v.keys
	if v.kind == ViewTable && u.Index() != "" {
		keys[1] = "" // an LSI's sort key is not the table's
	}
	f.reportLocked(StaleRead{N: n, Op: u.Op(), Namespace: t.Space().ID(), Table: v.table, Index: u.Index(), View: v.kind,
		Key: condJSON(keys, kc), At: u.Call().Now(), Missed: missed})
}

// covers reports whether a read of the view with key condition kc (of
// index: an LSI's for a table view) would have seen w.
func (v *view) covers(w *write, kc insights.KeyCondition, index string) bool {
	if !kc.Partition.IsValid() {
		return true // a Scan
	}
	if v.kind == ViewIndex {
		return !w.partKnown || storage.Equal(w.parts[0], kc.Partition) || storage.Equal(w.parts[1], kc.Partition)
	}
	if !storage.Equal(w.key.Partition, kc.Partition) {
		return false
	}
	if index != "" || kc.SortOp != insights.SortEQ || !w.key.Sort.IsValid() {
		return true
	}
	return storage.Equal(w.key.Sort, kc.Sort)
}

// missed is w as a read missed it; base is the view's first record's
// number less one (a stream's), 0 otherwise.
func (w *write) missed(base uint64) MissedWrite {
	return MissedWrite{Commit: base + w.seq, Op: w.op, Key: keyJSON(w.keyAttr, [2]storage.Value{w.key.Partition, w.key.Sort}),
		Event: w.event, At: w.at}
}

// streamTable returns the table of the request's namespace whose
// enabled stream has ARN arn, or false: none, or the stream is no longer
// its table's (the table was deleted and made again under its name, or
// its stream disabled and enabled again), and the gate of the stream the
// table has now is not the one this stream's reads count on.
func streamTable(c service.Call, arn string) (service.Table, bool) {
	for _, s := range c.Space().Streams(c.Now()) {
		if s.ARN() != arn {
			continue
		}
		t, ok := c.Table(s.TableName())
		if !ok || t.StreamLabel() != s.Label() {
			return service.Table{}, false
		}
		return t, true
	}
	return service.Table{}, false
}

// checkCall counts a GetRecords call on its stream's gate, which then
// shows it what its reads made visible, and reports the call if it
// misses records at or after its iterator's position. Other calls pass.
func checkCall(c service.Call, op string, in any) error {
	if op != "GetRecords" {
		return nil
	}
	f := fuzzerOf(c.Space())
	if f == nil {
		return nil
	}
	it, ok := streamlog.DecodeIterator(iteratorOf(in))
	if !ok {
		return nil // GetRecords refuses it
	}
	t, ok := streamTable(c, it.ARN)
	if !ok {
		return nil
	}
	g, base, ok := streamGate(t)
	if !ok {
		return nil
	}
	v := f.viewOf(g)
	if v == nil {
		return nil
	}
	n := g.Read()
	vis := g.Visible()
	f.mu.Lock()
	defer f.mu.Unlock()
	v.pruneLocked(vis)
	var missed []MissedWrite
	for i := range v.writes {
		if w := &v.writes[i]; base+w.seq >= it.Pos {
			missed = append(missed, w.missed(base))
		}
	}
	if len(missed) > 0 {
		f.reportLocked(StaleRead{N: n, Op: op, Namespace: t.Space().ID(), Table: v.table, View: ViewStream, At: c.Now(), Missed: missed})
	}
	return nil
}

// iteratorOf returns the ShardIterator member of a decoded GetRecords
// input ("": none).
func iteratorOf(in any) string {
	v := reflect.ValueOf(in)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return ""
	}
	f := v.FieldByName("ShardIterator")
	for f.IsValid() && f.Kind() == reflect.Pointer && !f.IsNil() {
		f = f.Elem()
	}
	if !f.IsValid() || f.Kind() != reflect.String {
		return ""
	}
	return f.String()
}
