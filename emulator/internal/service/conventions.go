package service

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The conventions layer: the rules of package conventions on the write
// path of the tables that opt in (Config.Conventions names them, or their
// tags do). A table keeps its resolved policy (table.conv); a table that
// does not opt in has none, and its requests pay one nil check. The rules
// run inside the storage write callback, where the current item is at hand
// and the table is locked, so what they judge is what is replaced: PutItem
// and BatchWriteItem through a storage.WriteTx (whose reads inside the
// callback let rule B5 ask whether the previous version exists),
// UpdateItem and PartiQL's INSERT and UPDATE through their Table.Write
// (without rule B5 for INSERT: no other item can be read there),
// TransactWriteItems once all its conditions have passed (CheckTransaction
// sees every write of it). The tenant guard runs before any of them, on
// every key a request names, in reads too.
//
// Deletes (DeleteItem, PartiQL DELETE, BatchWriteItem and transaction
// deletes) run the rules too, on the item they remove (rules B12, B13,
// B14 and L1). Reads of one key (GetItem, BatchGetItem, TransactGetItems,
// a Query's sort key equality) are checked by rule A14 (checkRead).
//
// In ModeEnforce a write with error-severity violations fails with
// ValidationException naming every one of them, each with its item (its
// position in a batch or transaction, and key) and the rule's reason
// (conventions.Refusal): a BatchWriteItem is checked whole before it is
// refused (convBatch), as a transaction is. Nothing is written then. The
// tenant rules (B10, and B14 when every refusing violation is B14) fail
// with AccessDeniedException. Every violation, refused or not, is logged
// (with the request's id and the rule's reason) and kept in the report
// (Emulator.ConventionsReport, GET /dynamoemu/conventions;
// Emulator.ResetConventionsReport, DELETE /dynamoemu/conventions), which
// also lists the tables checked, with their role and mode. Each table that
// opts in is logged once with its role and mode (when created, tagged or
// restored), and a table that no entry of a non-empty configuration
// matches is logged with the entries that match no table yet.

// convState is an Emulator's conventions layer: the configuration, the
// rules and the report of the violations seen.
type convState struct {
	cfg    conventions.Config
	rules  *conventions.Rules
	report *conventions.Report
	log    *slog.Logger
}

func newConvState(cfg *conventions.Config, log *slog.Logger) (*convState, error) {
	var c conventions.Config
	if cfg != nil {
		c = *cfg
	}
	rules, err := conventions.New(c)
	if err != nil {
		return nil, fmt.Errorf("emulator: Conventions: %w", err)
	}
	for _, e := range c.Entries(nil) {
		log.Info("conventions entry", "match", e.Match, "roles", e.Roles, "mode", e.Mode)
	}
	return &convState{cfg: c, rules: rules, report: conventions.NewReport(0), log: log}, nil
}

// conventionsSnapshot is the report (Service.ConventionsReport) with the
// tables that follow the conventions, their role, mode and source, and
// the configuration's entries with how many tables each gave its policy.
func (s *Service) conventionsSnapshot() conventions.Snapshot {
	snap := s.conv.report.Snapshot()
	var names []string
	for _, ns := range s.dbs.all() {
		for _, name := range ns.tableNames() {
			names = append(names, name)
			t := ns.getTable(name)
			if t == nil {
				continue
			}
			if tp := t.convPolicy(); tp != nil {
				ct := conventions.CheckedTable{Table: name, Roles: tp.p.Roles.String(), Mode: tp.p.Mode.String(), Source: tp.source}
				if !s.cfg.SharedDB {
					ct.Namespace = ns.key
				}
				snap.Checked = append(snap.Checked, ct)
			}
		}
	}
	slices.SortFunc(snap.Checked, func(a, b conventions.CheckedTable) int {
		return strings.Compare(a.Table+"\x00"+a.Namespace, b.Table+"\x00"+b.Namespace)
	})
	snap.Config = s.conv.cfg.Entries(names)
	return snap
}

// tablePolicy is the policy of a table that opted in.
type tablePolicy struct {
	p  conventions.Policy
	st *convState
	// source is where the policy comes from: the configuration entry's
	// match, or "tags".
	source string
}

// convPolicy returns the table's conventions policy, nil when it has not
// opted in.
func (t *table) convPolicy() *tablePolicy { return t.conv.Load() }

// attach resolves t's policy from tags and the configuration, checking
// the key schema (rule A1) and the stream (rule A11): when the table is
// created and when its tags change. It returns the policy (nil: t does
// not opt in), which the caller stores in t.conv once the change is
// recorded. A malformed conventions tag, or a key schema the enforced
// policy refuses, is a ValidationException.
func (st *convState) attach(c *call, t *table, tags []tagPair) (*tablePolicy, error) {
	p, ok, err := st.lookup(t, tags)
	if err != nil {
		return nil, apierr.Validationf(apierr.MsgConvBadTags, t.name, err)
	}
	if !ok {
		if c.op == "CreateTable" {
			st.unmatched(c, t)
		}
		return nil, nil
	}
	vs := st.rules.CheckTable(t.name, p, conventions.KeySchema{
		Partition: conventions.KeyAttribute{Name: t.schema.Partition.Name, Type: t.schema.Partition.Kind.String()},
		Sort:      conventions.KeyAttribute{Name: t.schema.Sort.Name, Type: t.schema.Sort.Kind.String()}})
	// The stream is read from the published definition: attach runs
	// inside changeMeta (tags change, the stream does not) or after
	// CreateTable stored the new table's definition.
	vs = append(vs, st.streamViolations(t, p, t.snapshot().stream)...)
	if err := st.settle(c, vs, func(string) conventions.Mode { return p.Mode }); err != nil {
		return nil, err
	}
	tp := &tablePolicy{p: p, st: st, source: st.source(t.name, tags)}
	tp.logged(st.log, t.name)
	return tp, nil
}

// logged logs the table's role, mode and the policy's source: once per
// table when it opts in (created, tagged or restored).
func (tp *tablePolicy) logged(log *slog.Logger, table string) {
	log.Info("conventions table", "table", table, "roles", tp.p.Roles.String(), "mode", tp.p.Mode.String(), "source", tp.source)
}

// source says where a table's policy comes from: "tags" or the
// configuration entry's match.
func (st *convState) source(table string, tags []tagPair) string {
	for _, tp := range tags {
		if tp.key == conventions.TagRoles {
			return "tags"
		}
	}
	m, _ := st.cfg.Match(table)
	return m
}

// unmatched warns that table t takes no policy from a configuration that
// has entries, naming the entries that match no table of c's namespace
// yet: a misspelt glob shows when the first table it was meant for is
// created.
func (st *convState) unmatched(c *call, t *table) {
	if len(st.cfg.Tables) == 0 {
		return
	}
	var none []string
	for _, e := range st.cfg.Entries(append(c.ns.tableNames(), t.name)) {
		if e.Tables == 0 {
			none = append(none, e.Match)
		}
	}
	c.logger().Warn("conventions: table matches no configuration entry, not checked", "table", t.name, "entries_matching_no_table", strings.Join(none, " "))
}

// lookup resolves t's policy from tags and the configuration: ok false
// when t does not opt in.
func (st *convState) lookup(t *table, tags []tagPair) (conventions.Policy, bool, error) {
	m := make(map[string]string, len(tags))
	for _, tp := range tags {
		m[tp.key] = tp.value
	}
	p, ok, err := st.rules.Lookup(t.name, m)
	if err != nil || !ok || !p.Active() {
		return conventions.Policy{}, false, err
	}
	return p, true, nil
}

// restored is the policy of t, rebuilt from its recorded tags
// (catalog_apply.go): attach without its checks, which the change passed
// when it was made (nil: none, or tags the configuration now refuses).
func (st *convState) restored(t *table, tags []tagPair) *tablePolicy {
	p, ok, err := st.lookup(t, tags)
	if err != nil || !ok {
		return nil
	}
	tp := &tablePolicy{p: p, st: st, source: st.source(t.name, tags)}
	tp.logged(st.log, t.name)
	return tp
}

// checkStream checks rule A11 (a command table's stream carries the new
// image) when UpdateTable changes the stream: a warning by default, so it
// refuses nothing unless the table makes A11 strict, and even then the
// change is made (UpdateTable has no way back here); it is reported.
func (st *convState) checkStream(c *call, t *table, p conventions.Policy, spec *StreamSpecification) {
	_ = st.settle(c, st.streamViolations(t, p, spec), func(string) conventions.Mode { return p.Mode })
}

// streamViolations are rule A11's violations for t's stream spec.
func (st *convState) streamViolations(t *table, p conventions.Policy, spec *StreamSpecification) []conventions.Violation {
	enabled, view := false, ""
	if spec != nil && spec.StreamEnabled != nil && *spec.StreamEnabled {
		enabled = true
		if spec.StreamViewType != nil {
			view = *spec.StreamViewType
		}
	}
	return st.rules.CheckStream(t.name, p, enabled, view)
}

// settle records and logs the violations of request c and returns the
// error that refuses it: ValidationException naming every violation that
// blocks under its table's mode, or nil. The report dates them by the
// request's clock reading.
func (st *convState) settle(c *call, vs []conventions.Violation, mode func(table string) conventions.Mode) error {
	if len(vs) == 0 {
		return nil
	}
	for i := range vs {
		vs[i].RequestID = c.requestID
	}
	refusal := conventions.Refuse(vs, mode)
	st.report.Add(c.op, c.now, vs...)
	for _, v := range vs {
		c.logger().Warn("conventions violation", "table", v.Table, "rule", v.Rule, "pk", v.Key.PK, "sk", v.Key.SK,
			"position", v.Position, "severity", v.Severity.String(), "refused", refusal != nil, "detail", v.Message,
			"reason", v.Reason())
	}
	if refusal == nil {
		return nil
	}
	if slices.IndexFunc(refusal.Violations, func(v conventions.Violation) bool { return v.Rule != "B14" }) < 0 {
		return apierr.AccessDenied(refusal.Error()) // the caller may not, as the tenant guard
	}
	return apierr.Validation(refusal.Error())
}

// convCond is a write's condition as the rules read it: its
// ConditionExpression and names, or guard for a write whose own semantics
// are the create guard (PartiQL INSERT).
type convCond struct {
	text  *string
	names map[string]string
	guard bool
}

// write describes one item write of t for the rules.
func (tp *tablePolicy) write(t *table, op conventions.Op, key storage.Key, old, nu storage.Item, cond convCond, exists func(pk, sk string) bool) conventions.Write {
	w := conventions.Write{
		Table: t.name, Policy: tp.p, Op: op, Key: convKey(key),
		Names: conventions.Key{PK: t.schema.Partition.Name, SK: t.schema.Sort.Name},
		Old:   old, New: nu, NotExistsCondition: cond.guard || isCreateGuard(cond.text, cond.names), Exists: exists,
	}
	if cond.text != nil {
		w.Condition, w.ConditionNames = *cond.text, cond.names
	}
	return w
}

// ofCall completes w with what the rules read of the request: the
// caller's tenant (rule B14) and, on a table that declares a design, the
// design's entity templates (rule D1).
func (tp *tablePolicy) ofCall(c *call, w conventions.Write) conventions.Write {
	if tenant, ok := c.guardedTenant(); ok {
		w.CallerTenant = tenant
	}
	if tp.p.Design {
		if d := c.svc.Design(); d != nil && d.Declares(w.Table) {
			table := w.Table
			w.Design = func(item storage.Item) (string, []string) { return d.MatchItem(table, item) }
		}
	}
	return w
}

// inTx completes w with the lookups of transaction tx over w's table:
// Exists (rule B5) and, for a table that keeps a latest item, Get (rule L1
// on deletes).
func inTx(w conventions.Write, tx *storage.WriteTx, t *table) conventions.Write {
	w.Exists = txExists(tx, t)
	if w.Policy.Latest != "" {
		w.Get = convTxGet(tx, t)
	}
	return w
}

// check runs the rules on one write (inside its storage callback) and
// returns the error that refuses it, or nil.
func (tp *tablePolicy) check(c *call, w conventions.Write) error {
	return tp.st.settle(c, tp.st.rules.CheckWrite(tp.ofCall(c, w)), func(string) conventions.Mode { return tp.p.Mode })
}

func convKey(k storage.Key) conventions.Key {
	return conventions.Key{PK: k.Partition.Str(), SK: k.Sort.Str()}
}

// isCreateGuard reports whether a write's ConditionExpression is the
// framework's attribute_not_exists(pk) AND attribute_not_exists(sk).
func isCreateGuard(cond *string, names map[string]string) bool {
	return cond != nil && conventions.IsNotExistsCondition(*cond, names)
}

// txExists answers rule B5's question inside tx: is there an item with this
// key in t? It reads under the locks tx holds.
func txExists(tx *storage.WriteTx, t *table) func(pk, sk string) bool {
	return func(pk, sk string) bool {
		_, ok := tx.GetEncoded(t.data, keyOfStrings(t, pk, sk))
		return ok
	}
}

// convTxGet returns rule L1's lookup inside tx: the item with this key in t,
// nil when there is none.
func convTxGet(tx *storage.WriteTx, t *table) func(pk, sk string) storage.Item {
	return func(pk, sk string) storage.Item {
		item, _ := tx.Get(t.data, keyOfStrings(t, pk, sk))
		return item
	}
}

// keyOfStrings is t's key with these string values.
func keyOfStrings(t *table, pk, sk string) storage.Key {
	k := storage.Key{Partition: storage.S(pk)}
	if t.schema.HasSort() {
		k.Sort = storage.S(sk)
	}
	return k
}

// putChecked is PutItem's write to a table with a policy: the condition,
// then the rules, on the current item, in one storage transaction over the
// table.
func (c *call) putChecked(tp *tablePolicy, t *table, key storage.Key, item storage.Item, cond *expr.Condition, rvoccf string, text convCond) (storage.Change, error) {
	tx := storage.Begin(t.data)
	defer tx.Abort()
	ch, err := tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, rvoccf); err != nil {
			return nil, err
		}
		if err := tp.check(c, inTx(tp.write(t, conventions.OpPut, key, cur, item, text, nil), tx, t)); err != nil {
			return nil, err
		}
		return item, nil
	})
	if err != nil {
		return storage.Change{}, err
	}
	if _, err := tx.Commit(); err != nil {
		return storage.Change{}, err
	}
	return ch, nil
}

// deleteChecked is DeleteItem's (and PartiQL DELETE's) delete from a table
// with a policy: the condition, then the rules (B12, L1), on the current
// item, in one storage transaction over the table.
func (c *call) deleteChecked(tp *tablePolicy, t *table, key storage.Key, cond *expr.Condition, rvoccf string) (storage.Change, error) {
	tx := storage.Begin(t.data)
	defer tx.Abort()
	ch, err := tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, rvoccf); err != nil {
			return nil, err
		}
		if cur == nil {
			return nil, storage.ErrNoWrite
		}
		if err := tp.check(c, inTx(tp.write(t, conventions.OpDelete, key, cur, nil, convCond{}, nil), tx, t)); err != nil {
			return nil, err
		}
		return nil, nil
	})
	if err != nil {
		return storage.Change{}, err
	}
	if _, err := tx.Commit(); err != nil {
		return storage.Change{}, err
	}
	return ch, nil
}

// convBatch collects the violations of a BatchWriteItem's writes, so that
// a refusal names every item that broke a rule, not only the first: the
// writes go into the batch's storage transaction as they are checked, and
// settle, before it commits, refuses the batch (nothing of it is written)
// or lets it commit.
type convBatch struct {
	st    *convState
	vs    []conventions.Violation
	modes map[string]conventions.Mode
}

// batchWriteChecked is one BatchWriteItem write (item nil: a delete) to a
// table with a policy, inside the batch's transaction: the rules check it
// and cb keeps its violations. A batch put carries no condition, so a put
// that creates a command row breaks rule B6. i is the write's position in
// the table's list of the request.
func (c *call) batchWriteChecked(cb *convBatch, tp *tablePolicy, tx *storage.WriteTx, t *table, i int, key storage.Key, item storage.Item) (storage.Change, error) {
	return tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) {
		op := conventions.OpPut
		if item == nil {
			if cur == nil {
				return nil, nil // deletes nothing
			}
			op = conventions.OpDelete
		}
		w := tp.ofCall(c, inTx(tp.write(t, op, key, cur, item, convCond{}, nil), tx, t))
		w.Position = fmt.Sprintf("RequestItems[%q][%d]", t.name, i)
		if vs := tp.st.rules.CheckWrite(w); len(vs) > 0 {
			if cb.modes == nil {
				cb.st, cb.modes = tp.st, map[string]conventions.Mode{}
			}
			cb.vs = append(cb.vs, vs...)
			cb.modes[t.name] = tp.p.Mode
		}
		return item, nil
	})
}

// settle records the batch's violations and returns the error that
// refuses it, or nil.
func (cb *convBatch) settle(c *call) error {
	if len(cb.vs) == 0 {
		return nil
	}
	return cb.st.settle(c, cb.vs, func(table string) conventions.Mode { return cb.modes[table] })
}

// checkTransactConventions runs the rules on the writes of a transaction
// whose conditions all passed, before any is applied, under its locks:
// CheckTransaction sees them together (rule L1, and B5 counting the
// transaction's own puts). It returns the error that refuses the
// transaction, or nil.
func checkTransactConventions(c *call, tx *storage.WriteTx, acts []*txAction) error {
	var ws []conventions.Write
	var st *convState
	var modes map[string]conventions.Mode // made for the first table with a policy
	for i, a := range acts {
		tp := a.t.convPolicy()
		if tp == nil || a.kind == txCheck {
			continue
		}
		if modes == nil {
			st, modes = tp.st, map[string]conventions.Mode{}
		}
		op := conventions.OpPut
		switch a.kind {
		case txUpdate:
			op = conventions.OpUpdate
		case txDelete:
			op = conventions.OpDelete
		}
		old, _ := tx.Get(a.t.data, a.key)
		w := tp.ofCall(c, inTx(tp.write(a.t, op, a.key, old, a.item, a.convCond, nil), tx, a.t))
		w.Position = fmt.Sprintf("TransactItems[%d]", i)
		ws = append(ws, w)
		modes[a.t.name] = tp.p.Mode
	}
	if len(ws) == 0 {
		return nil
	}
	return st.settle(c, st.rules.CheckTransaction(ws), func(table string) conventions.Mode { return modes[table] })
}

// guardKey is the tenant guard (rule B10) for one key a request touches:
// AccessDeniedException when the caller is bound to a tenant that may not
// use the key's (warn mode: reported only).
func (c *call) guardKey(t *table, k storage.Key) error {
	tp := t.convPolicy()
	if tp == nil {
		return nil
	}
	tenant, ok := c.guardedTenant()
	if !ok {
		return nil
	}
	v := tp.st.rules.CheckTenant(t.name, tp.p, tenant, convKey(k))
	return tp.deny(c, v)
}

// readKey is the pipeline's first stage for a key a read names (GetItem,
// BatchGetItem, TransactGetItems): the tenant guard, then rule A14, a
// data table read by a versioned sort key (a warning by default: it is
// reported, and refuses the read only where the table makes A14 strict).
func (c *call) readKey(t *table, k storage.Key) error {
	if err := c.guardKey(t, k); err != nil {
		return err
	}
	return c.checkRead(t, k)
}

// checkRead is rule A14 for one key a read names.
func (c *call) checkRead(t *table, k storage.Key) error {
	tp := t.convPolicy()
	if tp == nil || !t.schema.HasSort() || k.Sort.Kind() != storage.KindS {
		return nil
	}
	v := tp.st.rules.CheckRead(t.name, tp.p, c.op, convKey(k))
	if v == nil {
		return nil
	}
	return tp.st.settle(c, []conventions.Violation{*v}, func(string) conventions.Mode { return tp.p.Mode })
}

// checkQuery is rule A14 for a Query of table t whose sort key condition
// is an equality: the key it names.
func (c *call) checkQuery(t *table, kc *expr.KeyCondition) error {
	if t.convPolicy() == nil || kc.Sort.Op != storage.SortEQ {
		return nil
	}
	return c.checkRead(t, storage.Key{Partition: kc.Partition, Sort: kc.Sort.Values[0]})
}

// guardScan is the tenant guard for a read that is not confined to one
// partition of the table: a Scan (index "") or a Query of a secondary index.
// Only cross-tenant callers, and callers bound to no tenant, may.
func (c *call) guardScan(t *table, index string) error {
	tp := t.convPolicy()
	if tp == nil || tp.p.Roles == 0 || !tp.p.Enabled("B10") {
		return nil
	}
	tenant, ok := c.guardedTenant()
	if !ok {
		return nil
	}
	msg := fmt.Sprintf(apierr.MsgConvScanGuarded, tenant, t.name)
	if index != "" {
		msg = fmt.Sprintf(apierr.MsgConvIndexGuarded, tenant, index, t.name)
	}
	return tp.deny(c, &conventions.Violation{Rule: "B10", Table: t.name, Severity: tp.p.Severity("B10"), Message: msg})
}

// guardSelect is the tenant guard for a PartiQL SELECT: each partition it
// reads (kcs), or the whole table when scan.
func (c *call) guardSelect(t *table, kcs []*expr.KeyCondition, scan bool) error {
	if t.convPolicy() == nil {
		return nil
	}
	if scan {
		return c.guardScan(t, "")
	}
	for _, kc := range kcs {
		if err := c.guardKey(t, storage.Key{Partition: kc.Partition}); err != nil {
			return err
		}
	}
	return nil
}

// guardedTenant returns the tenant the caller is bound to, false when it is
// bound to none or is a cross-tenant caller.
func (c *call) guardedTenant() (string, bool) {
	tenant, cross := c.svc.conv.cfg.CallerTenant(c.accessKey, c.tenantHdr)
	return tenant, !cross && tenant != ""
}

// deny records a tenant violation (nil: none) and refuses the request with
// AccessDeniedException when it blocks (enforce mode, error severity).
func (tp *tablePolicy) deny(c *call, v *conventions.Violation) error {
	if v == nil {
		return nil
	}
	v.RequestID = c.requestID
	vs := []conventions.Violation{*v}
	refusal := conventions.Refuse(vs, func(string) conventions.Mode { return tp.p.Mode })
	tp.st.report.Add(c.op, c.now, vs...)
	c.logger().Warn("conventions violation", "table", v.Table, "rule", v.Rule, "pk", v.Key.PK, "sk", v.Key.SK,
		"severity", v.Severity.String(), "refused", refusal != nil, "detail", v.Message, "reason", v.Reason())
	if refusal != nil {
		return apierr.AccessDenied(refusal.Error())
	}
	return nil
}
