package conventions

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The key design guide's shapes beyond the framework's own: time-series
// partition keys (A13), sort key separators (A15), master data sort keys
// (A16); the common tenant's items written by a tenant's caller (B14);
// a declared single-table design's entity templates (D1); and reads of a
// data table by a versioned sort key (A14).

// monthLayout turns a month format of YYYY, MM, DD and '-' ("" is the
// guide's YYYY-MM) into a Go time layout.
func monthLayout(format string) (string, error) {
	if format == "" {
		format = "YYYY-MM"
	}
	var b strings.Builder
	rest := format
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "YYYY"):
			b.WriteString("2006")
			rest = rest[4:]
		case strings.HasPrefix(rest, "MM"):
			b.WriteString("01")
			rest = rest[2:]
		case strings.HasPrefix(rest, "DD"):
			b.WriteString("02")
			rest = rest[2:]
		case rest[0] == '-':
			b.WriteByte('-')
			rest = rest[1:]
		default:
			return "", fmt.Errorf("%w: month format %q: want YYYY, MM, DD and '-' (such as YYYY-MM)", ErrConfig, format)
		}
	}
	if !strings.Contains(format, "YYYY") {
		return "", fmt.Errorf("%w: month format %q has no YYYY", ErrConfig, format)
	}
	return b.String(), nil
}

// isMonth reports whether s is a date in layout, written as the layout
// writes it (fixed width: "2024-1" is not "2024-01").
func isMonth(s, layout string) bool {
	t, err := time.Parse(layout, s)
	return err == nil && t.Format(layout) == s
}

// timeSeries checks A13 on a table that declares its month segment: the
// partition key has the segment, in the declared format, and the month is
// not where the tenant belongs.
func (c *checker) timeSeries() {
	p, pk := c.w.Policy, c.w.Key.PK
	if p.MonthSegment == 0 {
		return
	}
	role := roleName(p.Roles)
	format := p.MonthFormat
	if format == "" {
		format = "YYYY-MM"
	}
	layout, err := monthLayout(format)
	if err != nil {
		return // Validate refuses the policy
	}
	segs := strings.Split(pk, KeySeparator)
	if len(segs) <= p.MonthSegment {
		c.add("A13", msgMonthMissing, role, pk, p.MonthSegment, format)
		return
	}
	month := segs[p.MonthSegment]
	if isMonth(month, layout) {
		c.timeSeriesSK(role, month, layout)
		return
	}
	if ts := p.TenantSegment; ts < len(segs) && isMonth(segs[ts], layout) {
		c.add("A13", msgMonthBeforeTenant, role, pk, segs[ts], ts, month, p.MonthSegment, format)
		return
	}
	c.add("A13", msgMonthFormat, role, pk, month, p.MonthSegment, format, time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC).Format(layout))
}

// timeSeriesSK checks the rest of A13 on a time-series row whose
// partition key has its month: the sort key is the guide's
// <timestamp>#<eventId>, an ISO 8601 timestamp first (toISOString), then
// a non-empty event id (two events of one instant are two rows), and
// that timestamp falls in the partition key's month (in UTC, as the
// guide's generateLogKeys slices toISOString).
func (c *checker) timeSeriesSK(role, month, layout string) {
	sk := c.w.Key.SK
	if c.w.Policy.Roles.Has(RoleCommand) || c.w.Policy.Roles.Has(RoleHistory) {
		sk = RemoveSortKeyVersion(sk)
	}
	first, event, _ := strings.Cut(sk, KeySeparator)
	ts, err := time.Parse(time.RFC3339Nano, first)
	if err != nil {
		c.add("A13", msgTimeSeriesSK, role, sk)
		return
	}
	if event == "" {
		c.add("A13", msgTimeSeriesNoEvent, role, sk)
	}
	if got := ts.UTC().Format(layout); got != month {
		c.add("A13", msgTimeSeriesMonth, role, sk, first, got, c.w.Key.PK, month)
	}
}

// skSeparators are the characters A15 reports inside a sort key segment.
const skSeparators = ":|/\\;, \t"

// sortKeySegments checks A15: the sort key (without a command or history
// row's version) is segments joined by single '#'s, none holding another
// separator unless it is an ISO 8601 timestamp (the guide's time-series
// sort key starts with one).
func (c *checker) sortKeySegments() {
	sk, p := c.w.Key.SK, c.w.Policy
	if sk == "" {
		return
	}
	base := sk
	if p.Roles.Has(RoleCommand) || p.Roles.Has(RoleHistory) {
		base = RemoveSortKeyVersion(sk)
	}
	role := roleName(p.Roles)
	for i, rest := 0, base; ; i++ {
		seg, after, more := strings.Cut(rest, KeySeparator)
		if seg == "" {
			c.add("A15", msgSKEmptySegment, role, sk, i)
			return
		}
		if j := strings.IndexAny(seg, skSeparators); j >= 0 && !isTimestamp(seg) {
			c.add("A15", msgSKSeparator, role, sk, seg[j:j+1], seg)
			return
		}
		if !more {
			return
		}
		rest = after
	}
}

// isTimestamp reports whether s is an RFC 3339 (ISO 8601) timestamp, as
// JavaScript's toISOString and the framework's toISOStringWithTimezone
// write them.
func isTimestamp(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// guideMasterTypes are the master data types the guide names; each takes
// TYPE#category#code.
var guideMasterTypes = []string{"SETTING", "DATA", "COPY"}

// masterSK checks A16 on a master table: TYPE#category#code (the guide),
// or two segments (the master package's <setting>#<code>,
// MASTER_SETTING#<code>, TTL#<table>).
func (c *checker) masterSK() {
	sk := c.w.Key.SK
	if sk == "" {
		return
	}
	base := sk
	if c.w.Policy.Roles.Has(RoleCommand) || c.w.Policy.Roles.Has(RoleHistory) {
		base = RemoveSortKeyVersion(sk)
	}
	segs := strings.Split(base, KeySeparator)
	switch n := len(segs); {
	case n == 1:
		c.add("A16", msgMasterSKOne, sk)
	case slices.Contains(guideMasterTypes, segs[0]) && n != 3:
		c.add("A16", msgMasterSKGuide, sk, n, segs[0])
	case n == 3 && !isUpperType(segs[0]):
		c.add("A16", msgMasterSKType, sk, n, segs[0])
	case n > 3:
		c.add("A16", msgMasterSKLong, sk, n)
	}
}

// isUpperType reports whether s is an upper-case type: A-Z first, then
// A-Z, 0-9 and '_'.
func isUpperType(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// commonTenant checks B14 (opt-in): a caller bound to a tenant writes
// or deletes no item of a common tenant.
func (c *checker) commonTenant(common []string) {
	w := c.w
	if w.CallerTenant == "" || !w.Policy.enabled("B14") {
		return
	}
	tenant, err := tenantOf(w.Policy, w.Key.PK)
	if err != nil || strings.EqualFold(tenant, w.CallerTenant) {
		return
	}
	if slices.ContainsFunc(common, func(t string) bool { return strings.EqualFold(t, tenant) }) {
		c.add("B14", msgCommonWrite, w.Op, w.CallerTenant, tenant, w.Key.PK)
	}
}

// design checks D1: an item put or updated on a table with a declared
// design matches one of its entities' templates.
func (c *checker) design() {
	w := c.w
	if w.Design == nil || w.New == nil || !w.Policy.Design {
		return
	}
	entity, compared := w.Design(w.New)
	if entity != "" {
		return
	}
	list := "no entity (the design declares none)"
	if len(compared) > 0 {
		list = strings.Join(compared, "; ")
	}
	c.add("D1", msgDesignNoEntity, list)
}

// CheckRead checks rule A14 for one key a read names (GetItem,
// BatchGetItem, TransactGetItems; a Query's sort key value): a data
// table's sort keys carry no version. op names the read. Nil when it
// passes.
func (r *Rules) CheckRead(table string, p Policy, op string, k Key) *Violation {
	if !p.Active() || !p.Roles.Has(RoleData) || !p.enabled("A14") || p.exempt(k.PK) {
		return nil
	}
	if !strings.Contains(k.SK, VerSeparator) {
		return nil
	}
	return &Violation{Rule: "A14", Table: table, Key: k, Severity: p.severity("A14"),
		Message: fmt.Sprintf(msgReadVersioned, op, k.SK, RemoveSortKeyVersion(k.SK))}
}

// indexTenant is rule B16: the partition key of each global secondary
// index the item is in names the item's tenant (or a common tenant) as
// one of its '#' segments, so that a Query of the index stays inside one
// tenant, as a dynamodb:LeadingKeys policy needs; and it names no other
// tenant the caller knows (Write.KnownTenant): CATEGORY#mbc#acme on an
// mbc row would be handed to acme by a LeadingKeys pattern *#acme, and
// its partition would hold both tenants' items. An item without the
// attribute is not in the index; a String value only is judged.
func (c *checker) indexTenant(common []string) {
	w := c.w
	if len(w.IndexKeys) == 0 {
		return
	}
	tenant, err := tenantOf(w.Policy, w.Key.PK)
	if err != nil {
		return // no tenant to compare with (A2)
	}
	for _, ik := range w.IndexKeys {
		v, ok := w.New[ik.Attr]
		if !ok || v.Kind() != storage.KindS {
			continue
		}
		named, other := indexTenants(v.Str(), tenant, common, w.KnownTenant)
		switch {
		case !named:
			c.add("B16", msgIndexTenant, ik.Index, ik.Attr, v.Str(), tenant)
		case other != "":
			c.add("B16", msgIndexOtherTenant, ik.Index, ik.Attr, v.Str(), other, tenant, other)
		}
	}
}

// indexTenants reads an index partition key value for tenant: whether one
// of its '#' segments is tenant or a common tenant (named), and the first
// segment that is another tenant known (other, "" for none). Tenants
// compare without regard to case, as the tenant guard compares them.
func indexTenants(value, tenant string, common []string, known func(string) bool) (named bool, other string) {
	for _, seg := range strings.Split(value, KeySeparator) {
		switch {
		case strings.EqualFold(seg, tenant) || isCommon(common, seg):
			named = true
		case other == "" && seg != "" && known != nil && known(seg):
			other = seg
		}
	}
	return named, other
}

// CheckIndexTenant is the tenant guard (rule B10) for a Query of a global
// secondary index of table whose partition key value is value: a caller
// bound to callerTenant may read the index partition that names its
// tenant (or a common tenant) as a '#' segment and no other tenant known
// (the partitions rule B16 lets its items into: STATUS#tenant001#PENDING,
// CATEGORY#mbc#toys); any other partition of the index is a violation.
// Nil when the read is allowed, or the table's policy does not guard it.
func (r *Rules) CheckIndexTenant(table string, p Policy, callerTenant, index, value string, known func(string) bool) *Violation {
	if !p.Active() || p.Roles == 0 || !p.enabled("B10") || callerTenant == "" {
		return nil
	}
	common := r.cfg.commonTenants()
	named, other := indexTenants(value, callerTenant, common, known)
	v := &Violation{Rule: "B10", Table: table, Key: Key{PK: value}, Severity: p.severity("B10")}
	switch {
	case !named:
		v.Message = fmt.Sprintf(msgCallerIndex, callerTenant, index, value)
	case other != "":
		v.Message = fmt.Sprintf(msgCallerIndexOther, callerTenant, index, value, other)
	default:
		return nil
	}
	return v
}
