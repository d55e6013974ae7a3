package emulator

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/storage"
)

// The conventions layer: the rules of package conventions on the write
// path of the tables that opt in (Options.Conventions names them, or their
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
// In ModeEnforce a write with an error-severity violation fails with
// ValidationException and the violation's text ("[conventions A3] ..."),
// and nothing is written; the tenant guard (rule B10) fails with
// AccessDeniedException. Every violation, refused or not, is logged and
// kept in the report (Emulator.ConventionsReport, GET /dynamoemu/conventions).

// headerTenantCode names the caller's tenant, as the framework's
// x-tenant-code request header does.
const headerTenantCode = "X-Tenant-Code"

// ConventionsPath is where the emulator's handler serves the conventions
// report as JSON (GET).
const ConventionsPath = "/dynamoemu/conventions"

// convReportLimit is how many violations the report keeps per table and rule.
const convReportLimit = 20

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
	return &convState{cfg: c, rules: rules, report: conventions.NewReport(convReportLimit), log: log}, nil
}

// tablePolicy is the policy of a table that opted in.
type tablePolicy struct {
	p  conventions.Policy
	st *convState
}

// convPolicy returns the table's conventions policy, nil when it has not
// opted in.
func (t *table) convPolicy() *tablePolicy { return t.conv.Load() }

// attach resolves t's policy from tags and the configuration and keeps it
// with t, checking the key schema (rule A1): when the table is created and
// when its tags change. A malformed conventions tag, or a key schema the
// enforced policy refuses, is a ValidationException and changes nothing.
func (st *convState) attach(t *table, tags []tagPair) error {
	m := make(map[string]string, len(tags))
	for _, tp := range tags {
		m[tp.key] = tp.value
	}
	p, ok, err := st.rules.Lookup(t.name, m)
	if err != nil {
		return errValidationf(msgConvBadTags, t.name, err)
	}
	if !ok || !p.Active() {
		t.conv.Store(nil)
		return nil
	}
	vs := st.rules.CheckTable(t.name, p, t.schema)
	if err := st.settle(nil, vs, func(string) conventions.Mode { return p.Mode }); err != nil {
		return err
	}
	t.conv.Store(&tablePolicy{p: p, st: st})
	// t.meta may be read here: the caller holds t.mu or t is not published.
	st.checkStream(t, p, t.meta.stream)
	return nil
}

// checkStream reports rule A11 (a command table's stream carries the new
// image): a warning, so it never refuses the request.
func (st *convState) checkStream(t *table, p conventions.Policy, spec *StreamSpecification) {
	enabled, view := false, ""
	if spec != nil && spec.StreamEnabled != nil && *spec.StreamEnabled {
		enabled = true
		if spec.StreamViewType != nil {
			view = *spec.StreamViewType
		}
	}
	_ = st.settle(nil, st.rules.CheckStream(t.name, p, enabled, view), func(string) conventions.Mode { return p.Mode })
}

// settle records and logs violations and returns the error that refuses
// the write: ValidationException with the first violation that blocks under
// its table's mode, or nil. c may be nil (no request to log with).
func (st *convState) settle(c *call, vs []conventions.Violation, mode func(table string) conventions.Mode) error {
	if len(vs) == 0 {
		return nil
	}
	st.report.Add(vs...)
	var block *conventions.Violation
	for i := range vs {
		if vs[i].Blocks(mode(vs[i].Table)) {
			block = &vs[i]
			break
		}
	}
	log := st.log
	if c != nil {
		log = c.logger()
	}
	for _, v := range vs {
		log.Warn("conventions violation", "table", v.Table, "rule", v.Rule, "pk", v.Key.PK, "sk", v.Key.SK,
			"severity", v.Severity.String(), "refused", block != nil, "detail", v.Message)
	}
	if block != nil {
		return errValidation(block.Error())
	}
	return nil
}

// write describes one item write of t for the rules.
func (tp *tablePolicy) write(t *table, op conventions.Op, key storage.Key, old, nu storage.Item, guard bool, exists func(pk, sk string) bool) conventions.Write {
	return conventions.Write{
		Table: t.name, Policy: tp.p, Op: op, Key: convKey(key),
		Names: conventions.Key{PK: t.schema.Partition.Name, SK: t.schema.Sort.Name},
		Old:   old, New: nu, NotExistsCondition: guard, Exists: exists,
	}
}

// check runs the rules on one write (inside its storage callback) and
// returns the error that refuses it, or nil.
func (tp *tablePolicy) check(c *call, w conventions.Write) error {
	return tp.st.settle(c, tp.st.rules.CheckWrite(w), func(string) conventions.Mode { return tp.p.Mode })
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
		k := storage.Key{Partition: storage.S(pk)}
		if t.schema.HasSort() {
			k.Sort = storage.S(sk)
		}
		_, ok := tx.GetEncoded(t.data, k)
		return ok
	}
}

// putChecked is PutItem's write to a table with a policy: the condition,
// then the rules, on the current item, in one storage transaction over the
// table.
func (c *call) putChecked(tp *tablePolicy, t *table, key storage.Key, item storage.Item, cond *expr.Condition, rvoccf string, guard bool) (storage.Change, error) {
	tx := storage.Begin(t.data)
	defer tx.Abort()
	ch, err := tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, rvoccf); err != nil {
			return nil, err
		}
		if err := tp.check(c, tp.write(t, conventions.OpPut, key, cur, item, guard, txExists(tx, t))); err != nil {
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

// batchWriteChecked is one BatchWriteItem write to a table with a policy,
// inside the batch's transaction. A batch put carries no condition, so a
// put that creates a command row is reported by rule B6.
func (c *call) batchWriteChecked(tp *tablePolicy, tx *storage.WriteTx, t *table, key storage.Key, item storage.Item) (storage.Change, error) {
	return tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) {
		if item == nil {
			return nil, nil // deletes are not checked
		}
		if err := tp.check(c, tp.write(t, conventions.OpPut, key, cur, item, false, txExists(tx, t))); err != nil {
			return nil, err
		}
		return item, nil
	})
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
	for _, a := range acts {
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
		ws = append(ws, tp.write(a.t, op, a.key, old, a.item, a.createGuard, txExists(tx, a.t)))
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

// guardScan is the tenant guard for a read that is not confined to one
// partition of the table: a Scan (index "") or a Query of a secondary index.
// Only cross-tenant callers, and callers bound to no tenant, may.
func (c *call) guardScan(t *table, index string) error {
	tp := t.convPolicy()
	if tp == nil || tp.p.Roles == 0 || slices.Contains(tp.p.Disabled, "B10") {
		return nil
	}
	tenant, ok := c.guardedTenant()
	if !ok {
		return nil
	}
	msg := fmt.Sprintf(msgConvScanGuarded, tenant, t.name)
	if index != "" {
		msg = fmt.Sprintf(msgConvIndexGuarded, tenant, index, t.name)
	}
	return tp.deny(c, &conventions.Violation{Rule: "B10", Table: t.name, Severity: conventions.SeverityError, Message: msg})
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
	tenant, cross := c.emu.conv.cfg.CallerTenant(c.accessKey, c.tenantHdr)
	return tenant, !cross && tenant != ""
}

// deny records a tenant violation (nil: none) and refuses the request with
// AccessDeniedException unless the table is in warn mode.
func (tp *tablePolicy) deny(c *call, v *conventions.Violation) error {
	if v == nil {
		return nil
	}
	tp.st.report.Add(*v)
	refused := tp.p.Mode == conventions.ModeEnforce
	c.logger().Warn("conventions violation", "table", v.Table, "rule", v.Rule, "pk", v.Key.PK, "sk", v.Key.SK,
		"severity", v.Severity.String(), "refused", refused, "detail", v.Message)
	if refused {
		return errAccessDenied(v.Error())
	}
	return nil
}

// ConventionsReport returns the conventions violations seen since the
// emulator started, per table (in name order), each table's most recent
// first.
func (e *Emulator) ConventionsReport() []conventions.TableReport {
	return e.conv.report.Snapshot()
}

// conventionsReportJSON is the body of GET /dynamodb/conventions.
type conventionsReportJSON struct {
	Tables []conventions.TableReport `json:"tables"`
}

// serveConventions answers GET ConventionsPath with the report as JSON.
func (e *Emulator) serveConventions(w http.ResponseWriter, r *http.Request) {
	e.cors.apply(w, r)
	body, err := json.Marshal(conventionsReportJSON{Tables: e.ConventionsReport()})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
