package conventions

import (
	"math/big"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// tenantOf reads the tenant of pk under p: the last segment of a
// two-segment key by default, or the declared segment.
func tenantOf(p Policy, pk string) (string, error) {
	if p.TenantSegment == 0 {
		return ParseTenant(pk)
	}
	return TenantAt(pk, p.TenantSegment)
}

// TenantOf reads the tenant of a partition key as the rules read it
// under p: the last segment of PREFIX#TENANT, or the segment p declares
// (TenantSegment). It fails with ErrNoTenant when the key has none.
func (p Policy) TenantOf(pk string) (string, error) { return tenantOf(p, pk) }

// keyShape checks the partition key (A2, B2, A12), the item's tenantCode
// (B9) and its id (A7).
func (c *checker) keyShape() {
	p, pk := c.w.Policy, c.w.Key.PK
	role := roleName(p.Roles)
	if prefix, _, ok := strings.Cut(pk, KeySeparator); ok && prefix == "" {
		c.add("A2", msgEmptyPrefix, role, pk)
	}
	tenant, err := tenantOf(p, pk)
	switch {
	case err != nil && p.TenantSegment == 0:
		c.add("A2", msgNoTenant, role, pk)
	case err != nil:
		c.add("A2", msgNoTenantAt, role, pk, p.TenantSegment)
	case p.TenantSegment == 0 && strings.Count(pk, KeySeparator) > 1:
		c.add("B2", msgTenantNotLast, role, pk, strings.Count(pk, KeySeparator)+1, tenant)
	}
	if err != nil {
		return
	}
	c.timeSeries()
	prefix, _, _ := strings.Cut(pk, KeySeparator)
	switch lower := strings.ToLower(tenant); {
	case strings.TrimSpace(tenant) != tenant:
		c.add("A12", msgTenantSpace, role, pk, tenant)
	case prefix == tenantPrefix:
		// The tenant package's own record, TENANT#<code>: the code as the
		// tenant was registered (TENANT#MBC), which the framework does
		// not lower-case; not a key to report on every check.
	case lower != tenant:
		c.add("A12", msgTenantCase, role, pk, tenant, lower)
	}
	if upper := strings.ToUpper(prefix); upper != prefix && !p.Roles.Has(RoleSession) {
		c.add("A17", msgPrefixCase, role, pk, prefix, upper)
	}
	if v, ok := c.w.New["tenantCode"]; ok {
		if v.Kind() != storage.KindS {
			c.add("B9", msgTenantCodeKind, v.Kind())
		} else if v.Str() != tenant {
			c.add("B9", msgTenantCodeDiffers, v.Str(), tenant)
		}
	}
	if p.Roles&(RoleCommand|RoleData|RoleHistory|RoleTasks) != 0 {
		c.id()
	}
}

// id checks A7: id, when present, is GenerateID(pk, sk).
func (c *checker) id() {
	v, ok := c.w.New["id"]
	if !ok {
		return
	}
	want := GenerateID(c.w.Key.PK, c.w.Key.SK)
	switch {
	case v.Kind() != storage.KindS:
		c.add("A7", msgIDKind, v.Kind())
	case v.Str() != want:
		c.add("A7", msgIDDiffers, v.Str(), want)
	}
}

// plainSK checks B1 for tables whose sort keys carry no version.
func (c *checker) plainSK() {
	if sk := c.w.Key.SK; strings.Contains(sk, VerSeparator) {
		c.add("B1", msgAtInSK, roleName(c.w.Policy.Roles), sk, RemoveSortKeyVersion(sk))
	}
}

// ttlMillisFloor is where a ttl stops looking like epoch seconds (year
// 5138) and starts looking like epoch milliseconds (1973).
var ttlMillisFloor = big.NewFloat(1e11)

// ttl checks A10: ttl, when present, is NULL or a whole, non-negative
// number of epoch seconds.
func (c *checker) ttl() {
	v, ok := c.w.New["ttl"]
	if !ok || v.Kind() == storage.KindNULL {
		return
	}
	if v.Kind() != storage.KindN {
		c.add("A10", msgTTLKind, v.Kind())
		return
	}
	n := v.Number()
	f, _, err := big.ParseFloat(string(n), 10, 128, big.ToNearestEven)
	switch {
	case err != nil:
		c.add("A10", msgTTLNotNumber, n)
	case f.Sign() < 0:
		c.add("A10", msgTTLNegative, n)
	case !f.IsInt():
		c.add("A10", msgTTLFraction, n)
	case f.Cmp(ttlMillisFloor) >= 0:
		c.add("A10", msgTTLMillis, n)
	}
}

// roleName names a table's base role in messages.
func roleName(rs Roles) string {
	switch {
	case rs.Has(RoleCommand):
		return "command"
	case rs.Has(RoleData):
		return "data"
	case rs.Has(RoleHistory):
		return "history"
	case rs.Has(RoleSequences):
		return "sequences"
	case rs.Has(RoleTasks):
		return "tasks"
	case rs.Has(RoleSession):
		return "session"
	case rs.Has(RoleMaster):
		return "master"
	}
	return "table"
}
