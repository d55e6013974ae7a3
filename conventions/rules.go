package conventions

import (
	"fmt"
	"slices"
	"strings"
)

// Rules checks writes against the policies of a Config. It holds no state
// besides the configuration and is safe for concurrent use.
type Rules struct {
	cfg Config
}

// New returns the rules of cfg, which must be valid.
func New(cfg Config) (*Rules, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Rules{cfg: cfg}, nil
}

// Lookup resolves a table's policy from its tags or the configuration
// (Config.Lookup). The emulator resolves it when a table is created or
// tagged and keeps it with the table.
func (r *Rules) Lookup(table string, tags map[string]string) (Policy, bool, error) {
	return r.cfg.Lookup(table, tags)
}

// CheckWrite checks one item write or delete; a write outside a
// transaction is a transaction of one for rule L1. The emulator calls it
// after the request's own condition has passed and before the item is
// stored, and rejects the write when Refuse finds a blocking violation.
func (r *Rules) CheckWrite(w Write) []Violation {
	out := checkItem(nil, &w, r.cfg.commonTenants())
	if w.Policy.Latest != "" {
		out = checkLatest(out, []Write{w})
	}
	return out
}

// CheckTransaction checks the writes of one TransactWriteItems request: each
// write as CheckWrite does, an item put by another write of the transaction
// counting as existing (B5), then rule L1 across them.
func (r *Rules) CheckTransaction(ws []Write) []Violation {
	var out []Violation
	for i := range ws {
		w := ws[i]
		if w.Exists != nil && len(ws) > 1 {
			w.Exists = existsWithin(ws, w.Table, w.Exists)
		}
		if w.Command != nil && len(ws) > 1 { // a command row the transaction puts (B18)
			w.Command = existsWithin(ws, w.Policy.CommandTable(w.Table), w.Command)
		}
		out = checkItem(out, &w, r.cfg.commonTenants())
	}
	out = checkOneTenant(out, ws, r.cfg.commonTenants())
	return checkLatest(out, ws)
}

// checkOneTenant is rule B15: the writes of one transaction to tables
// that follow the conventions name one tenant, besides the common ones.
// The first write's tenant is the transaction's; each write naming
// another is a violation. A cross-tenant caller's transactions, exempt
// keys and keys without a tenant (A2's) are not judged.
func checkOneTenant(out []Violation, ws []Write, common []string) []Violation {
	first, firstAt := "", ""
	for i := range ws {
		w := &ws[i]
		p := w.Policy
		if w.CrossTenant || !p.Active() || p.Roles == 0 || p.exempt(w.Key.PK) {
			continue
		}
		tenant, err := tenantOf(p, w.Key.PK)
		if err != nil || slices.ContainsFunc(common, func(c string) bool { return strings.EqualFold(c, tenant) }) {
			continue
		}
		switch {
		case first == "":
			first, firstAt = tenant, w.Position
		case !strings.EqualFold(first, tenant):
			c := checker{w: w, out: out}
			c.add("B15", msgTwoTenants, w.Op, tenant, w.Key.PK, first, firstAt)
			out = c.out
		}
	}
	return out
}

// existsWithin extends exists with the items that ws puts into table.
func existsWithin(ws []Write, table string, exists func(pk, sk string) bool) func(pk, sk string) bool {
	return func(pk, sk string) bool {
		for _, o := range ws {
			if o.Table == table && o.Op != OpDelete && o.New != nil && o.Key == (Key{PK: pk, SK: sk}) {
				return true
			}
		}
		return exists(pk, sk)
	}
}

// CheckTable checks a table's key schema for its policy (rule A1), when
// the table is created or when it opts in.
func (r *Rules) CheckTable(table string, p Policy, ks KeySchema) []Violation {
	if !p.Active() || !p.enabled("A1") {
		return nil
	}
	vs := CheckTable(p.Roles, ks)
	for i := range vs {
		vs[i].Table, vs[i].Severity = table, p.severity(vs[i].Rule)
	}
	return vs
}

// CheckStream is the package's CheckStream (rule A11) for one table.
func (r *Rules) CheckStream(table string, p Policy, enabled bool, viewType string) []Violation {
	if !p.Active() || !p.enabled("A11") {
		return nil
	}
	vs := CheckStream(p.Roles, enabled, viewType)
	for i := range vs {
		vs[i].Table, vs[i].Severity = table, p.severity(vs[i].Rule)
	}
	return vs
}

// CheckTenant is the package's CheckTenant for one table: the tenant is
// read at the policy's tenant segment and the configuration's common
// tenants are allowed. Two kinds of key carry no tenant to check: an
// exempt partition key, and on a master table a TTL setting (TTL#<table>)
// of a table whose policy declares a tenant segment. The framework's TTL
// lookup reads that setting under masterPk(getTenantCode(pk)), and
// getTenantCode reads the last segment of pk, which on such a table is not
// the tenant (LOG#t1#2026-11 gives MASTER#2026-11): the read names no
// tenant, so the guard lets it through, reads and writes alike.
func (r *Rules) CheckTenant(table string, p Policy, callerTenant string, k Key) *Violation {
	if !p.Active() || p.Roles == 0 || !p.enabled("B10") || p.exempt(k.PK) || r.ttlSettingOfDeclaredTable(p, k) {
		return nil
	}
	v := checkTenant(callerTenant, k, r.cfg.commonTenants(), func(pk string) (string, error) {
		return tenantOf(p, pk)
	})
	if v != nil {
		v.Table, v.Severity = table, p.severity(v.Rule)
	}
	return v
}

// ttlSettingOfDeclaredTable reports whether k is a master table's TTL
// setting for a table whose configured policy declares a tenant segment.
// Only the configuration is consulted: a table that declares its segment
// by tags is not known here.
func (r *Rules) ttlSettingOfDeclaredTable(p Policy, k Key) bool {
	if !p.Roles.Has(RoleMaster) {
		return false
	}
	table, ok := strings.CutPrefix(RemoveSortKeyVersion(k.SK), ttlPrefix+KeySeparator)
	if !ok {
		return false
	}
	tp, ok := r.cfg.Policy(table)
	return ok && tp.TenantSegment > 0
}

var _ Checker = (*Rules)(nil)

// checker collects the violations of one write.
type checker struct {
	w   *Write
	out []Violation
}

func (c *checker) add(rule, format string, args ...any) {
	if !c.w.Policy.enabled(rule) {
		return
	}
	c.out = append(c.out, Violation{
		Rule: rule, Table: c.w.Table, Key: c.w.Key, Position: c.w.Position,
		Severity: c.w.Policy.severity(rule), Message: fmt.Sprintf(format, args...),
	})
}

// checkItem appends the per-item violations of w to out; common are the
// common tenants (rule B14).
func checkItem(out []Violation, w *Write, common []string) []Violation {
	p := w.Policy
	if !p.Active() || p.exempt(w.Key.PK) {
		return out
	}
	c := checker{w: w, out: out}
	c.design()
	c.designReplaces()
	c.latestMarkerCase()
	if p.Roles == 0 {
		return c.out
	}
	c.commonTenant(common)
	c.userTenant(common)
	if w.Op == OpDelete || w.New == nil {
		c.deleted()
		return c.out
	}
	c.keyShape()
	c.sortKeySegments()
	c.indexTenant(common)
	switch {
	case p.Roles.Has(RoleCommand):
		c.versionedSK("command", "A3")
		c.commandWrite()
	case p.Roles.Has(RoleHistory):
		c.versionedSK("history", "A6")
		c.historyWrite()
	case p.Roles.Has(RoleData):
		c.dataItem()
	case p.Roles.Has(RoleSequences):
		c.sequence()
	case p.Roles.Has(RoleTasks):
		c.task()
	case p.Roles.Has(RoleSession):
		c.session()
	default:
		c.plainSK()
	}
	if p.Roles.Has(RoleMaster) {
		c.master()
		c.masterSK()
	}
	c.ttl()
	return c.out
}
