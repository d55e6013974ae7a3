// Package convcheck is the service's conventions stage: the rules of
// package conventions applied to what a request does to the tables that
// opt in, the violations logged and kept in the report, and the error
// that refuses a request. It needs nothing of the service core: the core
// resolves a table's policy here when the table is created, tagged or
// restored, keeps it with the table, and hands the stage each write (in
// its storage callback, where the current item is at hand and the table
// locked), each key a read names and each request's identity (Req); its
// conventions.go says where each runs on the write path.
//
// In ModeEnforce a write with error-severity violations fails with
// ValidationException naming every one of them, each with its item (its
// position in a batch or transaction, and key) and the rule's reason
// (conventions.Refusal): a BatchWriteItem is checked whole before it is
// refused (Batch), as a transaction is. Nothing is written then. The
// tenant rules (B10, and B14 and B17 when every refusing violation is
// one of them) fail with AccessDeniedException. Every violation, refused or not, is logged
// (with the request's id and the rule's reason) and kept in the report
// (Reports.Conventions, GET /dynamoemu/conventions;
// Reports.ResetConventions, DELETE /dynamoemu/conventions), which
// also lists the tables checked, with their role and mode. Each table that
// opts in is logged once with its role and mode (when created, tagged or
// restored), and a table that no entry of a non-empty configuration
// matches is logged with the entries that match no table yet.
package convcheck

import (
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// State is an Emulator's conventions layer: the configuration, the
// rules and the report of the violations seen.
type State struct {
	cfg     conventions.Config
	rules   *conventions.Rules
	report  *conventions.Report
	log     *slog.Logger
	design  func() *insights.Design // the service's declared design (nil: none)
	tenants tenants                 // the tenants known (rule B16, the index guard)
	known   func(string) bool       // tenants.known, made once: a method value per write allocates
}

// New makes the layer of a configuration (nil: none); design returns
// the service's declared design, whose entity templates rule D1 reads.
func New(cfg *conventions.Config, log *slog.Logger, design func() *insights.Design) (*State, error) {
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
	st := &State{cfg: c, rules: rules, report: conventions.NewReport(0), log: log, design: design}
	st.known = st.tenants.known
	for _, t := range c.CommonTenants {
		st.tenants.add(t)
	}
	for _, t := range c.Callers {
		st.tenants.add(t)
	}
	return st, nil
}

// ResetReport forgets the violations seen.
func (st *State) ResetReport() { st.report.Reset() }

// Count returns how many violations of rule ("" for all) a table has had
// since the last reset.
func (st *State) Count(table, rule string) uint64 { return st.report.Count(table, rule) }

// Snapshot is the report with the tables that follow the conventions
// (checked), sorted, and the configuration's entries with how many of
// the tables (names: every table) each gave its policy.
func (st *State) Snapshot(checked []conventions.CheckedTable, names []string) conventions.Snapshot {
	snap := st.report.Snapshot()
	snap.Checked = append(snap.Checked, checked...)
	compare := func(a, b conventions.CheckedTable) int {
		return strings.Compare(a.Table+"\x00"+a.Namespace, b.Table+"\x00"+b.Namespace)
	}
	sort.Slice(snap.Checked, func(i, j int) bool { return compare(snap.Checked[i], snap.Checked[j]) < 0 })
	snap.Config = st.cfg.Entries(names)
	return snap
}

// Req is one request as the rules see it: its operation, id and clock
// reading, the caller's credential and x-tenant-code header (the tenant
// guard), and the service's logger.
type Req struct {
	Op, RequestID        string
	Now                  time.Time
	AccessKey, TenantHdr string
	Log                  *slog.Logger
}

// logger is the service's logger with the request's op and id.
func (r Req) logger() *slog.Logger { return r.Log.With("op", r.Op, "request_id", r.RequestID) }

// Table is a table as the rules check its definition.
type Table struct {
	Name string
	Keys conventions.KeySchema
	// Stream: whether its stream is enabled, and its view type.
	StreamEnabled bool
	StreamView    string
}

// Policy is the policy of a table that opted in.
type Policy struct {
	P  conventions.Policy
	st *State
	// Source is where the policy comes from: the configuration entry's
	// match, or "tags".
	Source string
}

// Attach resolves t's policy from tags and the configuration, checking
// the key schema (rule A1) and the stream (rule A11): when the table is
// created (created; tables: the names of its namespace's tables) and
// when its tags change. It returns the policy (nil: t does not opt in),
// which the caller keeps with t once the change is recorded. A malformed
// conventions tag, or a key schema the enforced policy refuses, is a
// ValidationException.
func (st *State) Attach(r Req, t Table, tags map[string]string, created bool, tables func() []string) (*Policy, error) {
	p, ok, err := st.lookup(t.Name, tags)
	if err != nil {
		return nil, apierr.Validationf(apierr.MsgConvBadTags, t.Name, err)
	}
	if !ok {
		if created {
			st.unmatched(r, t.Name, tables)
		}
		return nil, nil
	}
	vs := st.rules.CheckTable(t.Name, p, t.Keys)
	vs = append(vs, st.rules.CheckStream(t.Name, p, t.StreamEnabled, t.StreamView)...)
	if err := st.settle(r, vs, func(string) conventions.Mode { return p.Mode }); err != nil {
		return nil, err
	}
	tp := &Policy{P: p, st: st, Source: st.source(t.Name, tags)}
	tp.logged(st.log, t.Name)
	return tp, nil
}

// logged logs the table's role, mode and the policy's source: once per
// table when it opts in (created, tagged or restored).
func (tp *Policy) logged(log *slog.Logger, table string) {
	log.Info("conventions table", "table", table, "roles", tp.P.Roles.String(), "mode", tp.P.Mode.String(), "source", tp.Source)
}

// source says where a table's policy comes from: "tags" or the
// configuration entry's match.
func (st *State) source(table string, tags map[string]string) string {
	if _, ok := tags[conventions.TagRoles]; ok {
		return "tags"
	}
	m, _ := st.cfg.Match(table)
	return m
}

// unmatched warns that table takes no policy from a configuration that
// has entries, naming the entries that match no table of its namespace
// yet: a misspelt glob shows when the first table it was meant for is
// created.
func (st *State) unmatched(r Req, table string, tables func() []string) {
	if len(st.cfg.Tables) == 0 {
		return
	}
	var none []string
	for _, e := range st.cfg.Entries(append(tables(), table)) {
		if e.Tables == 0 {
			none = append(none, e.Match)
		}
	}
	r.logger().Warn("conventions: table matches no configuration entry, not checked", "table", table, "entries_matching_no_table", strings.Join(none, " "))
}

// lookup resolves a table's policy from tags and the configuration: ok
// false when it does not opt in.
func (st *State) lookup(table string, tags map[string]string) (conventions.Policy, bool, error) {
	p, ok, err := st.rules.Lookup(table, tags)
	if err != nil || !ok || !p.Active() {
		return conventions.Policy{}, false, err
	}
	return p, true, nil
}

// Restored is the policy of a table, rebuilt from its recorded tags:
// Attach without its checks, which the change passed when it was made
// (nil: none, or tags the configuration now refuses).
func (st *State) Restored(table string, tags map[string]string) *Policy {
	p, ok, err := st.lookup(table, tags)
	if err != nil || !ok {
		return nil
	}
	tp := &Policy{P: p, st: st, Source: st.source(table, tags)}
	tp.logged(st.log, table)
	return tp
}

// Named is the policy the configuration gives a table of that name
// without tags (nil: none): a table that is gone, judged by its name.
func (st *State) Named(table string) *Policy {
	p, ok, err := st.lookup(table, nil)
	if err != nil || !ok {
		return nil
	}
	return &Policy{P: p, st: st, Source: st.source(table, nil)}
}

// CheckStream checks rule A11 (a command table's stream carries the new
// image) when UpdateTable changes the stream: a warning by default, so it
// refuses nothing unless the table makes A11 strict, and even then the
// change is made (UpdateTable has no way back here); it is reported.
func (tp *Policy) CheckStream(r Req, table string, enabled bool, view string) {
	_ = tp.st.settle(r, tp.st.rules.CheckStream(table, tp.P, enabled, view), tp.mode)
}

// mode is the policy's mode, for every table.
func (tp *Policy) mode(string) conventions.Mode { return tp.P.Mode }

// settle records and logs the violations of request r and returns the
// error that refuses it: ValidationException naming every violation that
// blocks under its table's mode, or nil. The report dates them by the
// request's clock reading.
func (st *State) settle(r Req, vs []conventions.Violation, mode func(table string) conventions.Mode) error {
	if len(vs) == 0 {
		return nil
	}
	for i := range vs {
		vs[i].RequestID = r.RequestID
	}
	refusal := conventions.Refuse(vs, mode)
	st.report.Add(r.Op, r.Now, vs...)
	for _, v := range vs {
		r.logger().Warn("conventions violation", "table", v.Table, "rule", v.Rule, "pk", v.Key.PK, "sk", v.Key.SK,
			"position", v.Position, "severity", v.Severity.String(), "refused", refusal != nil, "detail", v.Message,
			"reason", v.Reason())
	}
	if refusal == nil {
		return nil
	}
	if slices.IndexFunc(refusal.Violations, func(v conventions.Violation) bool { return !callerRule(v.Rule) }) < 0 {
		return apierr.AccessDenied(refusal.Error()) // the caller may not, as the tenant guard
	}
	return apierr.Validation(refusal.Error())
}

// callerRule reports whether rule judges what the caller's tenant may
// write (B14, B17): a refusal of those rules alone is
// AccessDeniedException, as the tenant guard's.
func callerRule(rule string) bool { return rule == "B14" || rule == "B17" }

// Cond is a write's condition as the rules read it: its
// ConditionExpression and names, Holds its evaluation on an item (nil:
// none; a PartiQL WHERE clause has no text, rule L1 reads it so), or
// Guard for a write whose own semantics are the create guard (PartiQL
// INSERT).
type Cond struct {
	Text  *string
	Names map[string]string
	Holds func(storage.Item) bool
	Guard bool
}

// Write describes one item write of table (its key attributes' names)
// for the rules.
func (tp *Policy) Write(table string, names conventions.Key, op conventions.Op, key storage.Key, old, nu storage.Item, cond Cond) conventions.Write {
	w := conventions.Write{
		Table: table, Policy: tp.P, Op: op, Key: KeyOf(key), Names: names,
		Old: old, New: nu, NotExistsCondition: cond.Guard || isCreateGuard(cond.Text, cond.Names), Holds: cond.Holds,
	}
	if cond.Text != nil {
		w.Condition, w.ConditionNames = *cond.Text, cond.Names
	}
	return w
}

// ofCall completes w with what the rules read of the request: the
// caller's tenant (rule B14) and, on a table that declares a design, the
// design's entity templates (rule D1).
func (tp *Policy) ofCall(r Req, w conventions.Write) conventions.Write {
	if tenant, ok := tp.st.guardedTenant(r); ok {
		w.CallerTenant = tenant
	}
	_, w.CrossTenant = tp.st.cfg.CallerTenant(r.AccessKey, r.TenantHdr)
	w.Now, w.KnownTenant = r.Now, tp.st.known
	if tp.P.Design && tp.st.design != nil {
		if d := tp.st.design(); d != nil && d.Declares(w.Table) {
			table := w.Table
			w.Design = func(item storage.Item) (string, []string) { return d.MatchItem(table, item) }
		}
	}
	return w
}

// Check runs the rules on one write (inside its storage callback) and
// returns the error that refuses it, or nil.
func (tp *Policy) Check(r Req, w conventions.Write) error {
	err := tp.st.settle(r, tp.st.rules.CheckWrite(tp.ofCall(r, w)), tp.mode)
	if err == nil {
		tp.st.tenants.addKey(tp.P, w)
	}
	return err
}

// CommandLock appends to locks the command table whose rows the data
// rows of storage table t, of policy tp (nil: none), must have (rule
// B18, conventions.Policy.CommandTable), when t's DB has it. A write's
// storage transaction locks it with t, in storage's lock order, so that
// the rule reads the command table inside the data row's write
// (WithCommand). It takes the DB's lock: call it before any table's.
func CommandLock(locks []*storage.Table, tp *Policy, t *storage.Table) []*storage.Table {
	if tp == nil {
		return locks
	}
	if ct := t.Sibling(tp.P.CommandTable(t.Name())); ct != nil && ct != t {
		locks = append(locks, ct)
	}
	return locks
}

// LockedTables is what rule B18's lookup needs of a write's storage
// transaction: the tables it locked, and their items as it sees them
// (storage.WriteTx; the service's checked Write).
type LockedTables interface {
	Locked(name string) *storage.Table
	GetEncoded(t *storage.Table, k storage.Key) (storage.EncodedItem, bool)
}

// WithCommand completes w with rule B18's lookup of its command table,
// when the write's transaction tx locked it (CommandLock).
func WithCommand(w conventions.Write, tx LockedTables) conventions.Write {
	if ct := tx.Locked(w.Policy.CommandTable(w.Table)); ct != nil {
		w.Command = func(pk, sk string) bool {
			_, ok := tx.GetEncoded(ct, ct.KeySchema().StringKey(pk, sk))
			return ok
		}
	}
	return w
}

// KeyOf is a storage key as the rules name it.
func KeyOf(k storage.Key) conventions.Key {
	return conventions.Key{PK: k.Partition.Str(), SK: k.Sort.Str()}
}

// isCreateGuard reports whether a write's ConditionExpression is the
// framework's attribute_not_exists(pk) AND attribute_not_exists(sk).
func isCreateGuard(cond *string, names map[string]string) bool {
	return cond != nil && conventions.IsNotExistsCondition(*cond, names)
}

// Batch collects the violations of the writes of a BatchWriteItem or a
// transaction, so that a refusal names every item that broke a rule,
// not only the first: Settle, before the writes commit, refuses them
// all (nothing is written) or lets them commit. The zero value is
// ready.
type Batch struct {
	st    *State
	vs    []conventions.Violation
	ws    []conventions.Write
	modes map[string]conventions.Mode
	keys  []conventions.Write // the writes checked, whose tenants become known when they pass
}

// Check runs the rules on one write of a BatchWriteItem and keeps its
// violations.
func (b *Batch) Check(tp *Policy, r Req, w conventions.Write) {
	b.use(tp)
	w = tp.ofCall(r, w)
	b.keys = append(b.keys, w)
	if vs := tp.st.rules.CheckWrite(w); len(vs) > 0 {
		b.vs = append(b.vs, vs...)
		b.modes[w.Table] = tp.P.Mode
	}
}

// Add adds one write of a transaction, which CheckTransaction sees with
// the others (Settle).
func (b *Batch) Add(tp *Policy, r Req, w conventions.Write) {
	b.use(tp)
	b.ws = append(b.ws, tp.ofCall(r, w))
	b.modes[w.Table] = tp.P.Mode
}

func (b *Batch) use(tp *Policy) {
	if b.modes == nil {
		b.st, b.modes = tp.st, map[string]conventions.Mode{}
	}
}

// Settle checks a transaction's writes together (rule L1, and B5
// counting the transaction's own puts), records the violations and
// returns the error that refuses the writes, or nil.
func (b *Batch) Settle(r Req) error {
	if b.st == nil {
		return nil // no write of a table that opts in
	}
	vs := b.vs
	if len(b.ws) > 0 {
		vs = append(vs, b.st.rules.CheckTransaction(b.ws)...)
	}
	err := b.st.settle(r, vs, func(table string) conventions.Mode { return b.modes[table] })
	if err == nil {
		for _, w := range slices.Concat(b.keys, b.ws) {
			b.st.tenants.addKey(w.Policy, w)
		}
	}
	return err
}

// GuardKey is the tenant guard (rule B10) for one key of table a
// request touches: AccessDeniedException when the caller is bound to a
// tenant that may not use the key's (warn mode: reported only).
func (tp *Policy) GuardKey(r Req, table string, k storage.Key) error {
	tenant, ok := tp.st.guardedTenant(r)
	if !ok {
		return nil
	}
	return tp.deny(r, tp.st.rules.CheckTenant(table, tp.P, tenant, KeyOf(k)))
}

// CheckRead is rule A14 for one key a read of table names: a data table
// read by a versioned sort key (a warning by default: it is reported,
// and refuses the read only where the table makes A14 strict).
func (tp *Policy) CheckRead(r Req, table string, k storage.Key) error {
	v := tp.st.rules.CheckRead(table, tp.P, r.Op, KeyOf(k))
	if v == nil {
		return nil
	}
	return tp.st.settle(r, []conventions.Violation{*v}, tp.mode)
}

// GuardScan is the tenant guard for a read of table that is not
// confined to one partition: a Scan (index ""), a Query of a secondary
// index. Only cross-tenant callers, and callers bound to no tenant, may.
func (tp *Policy) GuardScan(r Req, table, index string) error {
	if tp.P.Roles == 0 || !tp.P.Enabled("B10") {
		return nil
	}
	tenant, ok := tp.st.guardedTenant(r)
	if !ok {
		return nil
	}
	msg := fmt.Sprintf(apierr.MsgConvScanGuarded, tenant, table)
	if index != "" {
		msg = fmt.Sprintf(apierr.MsgConvIndexGuarded, tenant, index, table)
	}
	return tp.deny(r, &conventions.Violation{Rule: "B10", Table: table, Severity: tp.P.Severity("B10"), Message: msg})
}

// GuardWhole is the tenant guard for a call that reads table as a whole
// (a copy: a backup, a restore, an export, a replica, a stream or a
// mapping of it) or changes it as a whole (deleted, reconfigured,
// tagged, its stream, TTL or backups changed): either hands a caller
// every tenant's items or the means to take them from the others, so
// only cross-tenant callers, and callers bound to no tenant, may (rule
// B10). what says what the call does ("read the stream of", "export", "copy
// or read as a whole", "change as a whole").
func (tp *Policy) GuardWhole(r Req, table, what string) error {
	if tp.P.Roles == 0 || !tp.P.Enabled("B10") {
		return nil
	}
	tenant, ok := tp.st.guardedTenant(r)
	if !ok {
		return nil
	}
	msg := fmt.Sprintf(apierr.MsgConvWholeGuarded, tenant, what, table, r.Op)
	return tp.deny(r, &conventions.Violation{Rule: "B10", Table: table, Severity: tp.P.Severity("B10"), Message: msg})
}

// GuardIndex is the tenant guard for a Query of table's global
// secondary index whose partition key value is partition (rule B10,
// conventions.Rules.CheckIndexTenant): a caller bound to a tenant reads
// the index partitions that name its tenant and no other known one.
// A partition value that is not a String is guarded as a Scan.
func (tp *Policy) GuardIndex(r Req, table, index string, partition storage.Value) error {
	if partition.Kind() != storage.KindS {
		return tp.GuardScan(r, table, index)
	}
	tenant, ok := tp.st.guardedTenant(r)
	if !ok {
		return nil
	}
	return tp.deny(r, tp.st.rules.CheckIndexTenant(table, tp.P, tenant, index, partition.Str(), tp.st.known))
}

// guardedTenant returns the tenant the caller is bound to, false when it is
// bound to none or is a cross-tenant caller. The tenant becomes known.
func (st *State) guardedTenant(r Req) (string, bool) {
	tenant, cross := st.cfg.CallerTenant(r.AccessKey, r.TenantHdr)
	if tenant != "" {
		st.tenants.add(tenant)
	}
	return tenant, !cross && tenant != ""
}

// deny records a tenant violation (nil: none) and refuses the request with
// AccessDeniedException when it blocks (enforce mode, error severity).
func (tp *Policy) deny(r Req, v *conventions.Violation) error {
	if v == nil {
		return nil
	}
	v.RequestID = r.RequestID
	vs := []conventions.Violation{*v}
	refusal := conventions.Refuse(vs, tp.mode)
	tp.st.report.Add(r.Op, r.Now, vs...)
	r.logger().Warn("conventions violation", "table", v.Table, "rule", v.Rule, "pk", v.Key.PK, "sk", v.Key.SK,
		"severity", v.Severity.String(), "refused", refusal != nil, "detail", v.Message, "reason", v.Reason())
	if refusal != nil {
		return apierr.AccessDenied(refusal.Error())
	}
	return nil
}
