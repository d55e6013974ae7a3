package conventions

import (
	"fmt"
	"strings"
	"time"
)

// Keys is a built item key and its id: ID is GenerateID(PK, SK). SK has no
// version; a command row's sort key is VersionedSortKey(SK, version).
type Keys struct {
	PK, SK, ID string
}

func newKeys(pk string, skSegments ...string) Keys {
	sk := strings.Join(skSegments, KeySeparator)
	return Keys{PK: pk, SK: sk, ID: pk + KeySeparator + sk}
}

// EntityPK returns PREFIX#tenant, the partition key of the guide's entity
// patterns. Prefix and tenant must be non-empty and free of '#' and '@'
// (ErrBadSegment). The tenant's case is kept; the guide asks for lower case
// (rule A12).
func EntityPK(prefix, tenant string) (string, error) {
	if err := checkSegments("prefix", prefix, "tenant", tenant); err != nil {
		return "", err
	}
	return prefix + KeySeparator + tenant, nil
}

// SimpleEntity builds the guide's simple entity: PK PREFIX#tenant, SK an id
// (a ULID from package conventions/ids, so items sort by creation).
// Example: PRODUCT#tenant001 / 01HX7MBJK3V9WQBZ7XNDK5ZT2M.
func SimpleEntity(prefix, tenant, id string) (Keys, error) {
	return Hierarchy(prefix, tenant, id)
}

// Hierarchy builds the guide's parent-child pattern: parent and children
// share PK PREFIX#tenant and the SK segments, joined by '#', distinguish
// them. Example: ORDER#t1 / ORDER#<orderId> for the order and
// ORDER#t1 / ORDER_ITEM#<orderId>#<itemId> for its lines, so a Query with
// begins_with(sk, "ORDER_ITEM#<orderId>") lists one order's lines.
func Hierarchy(prefix, tenant string, skSegments ...string) (Keys, error) {
	pk, err := EntityPK(prefix, tenant)
	if err != nil {
		return Keys{}, err
	}
	if len(skSegments) == 0 {
		return Keys{}, fmt.Errorf("%w: no sort key segments", ErrBadSegment)
	}
	for _, s := range skSegments {
		if err := checkSegments("sort key segment", s); err != nil {
			return Keys{}, err
		}
	}
	return newKeys(pk, skSegments...), nil
}

// CompositeSK builds the guide's composite sort key: PK PREFIX#tenant,
// SK variant#identifier, for one entity with several variants (a user's
// local, sso and oauth identities: USER#common / sso#<userId>).
func CompositeSK(prefix, tenant, variant, identifier string) (Keys, error) {
	return Hierarchy(prefix, tenant, variant, identifier)
}

// CommonTenant builds the guide's cross-tenant association: PK
// PREFIX#common (TenantCommon), SK tenant#code, so one partition lists a
// code's memberships in every tenant (USER_TENANT#common / tenant001#user123).
func CommonTenant(prefix, tenant, code string) (Keys, error) {
	return Hierarchy(prefix, TenantCommon, tenant, code)
}

// MasterData builds the guide's master data pattern: PK MasterPK(tenant)
// (MASTER#single for an empty tenant), SK type#category#code, for example
// MASTER#tenant001 / DATA#product_category#electronics.
func MasterData(tenant, typ, category, code string) (Keys, error) {
	return Hierarchy(masterPrefix, orDefaultTenant(tenant), typ, category, code)
}

// TimeSeries builds the guide's time series pattern: PK
// PREFIX#tenant#YYYY-MM, SK <timestamp>#eventID, the timestamp in UTC in
// JavaScript's toISOString form (millisecond precision, fixed width, so the
// sort key order is time order), for example LOG#tenant001#2024-01 /
// 2024-01-15T10:30:00.000Z#evt001.
//
// The tenant is not the last segment of this PK, so the framework's
// getTenantCode reads the month: a table of this pattern declares tenant
// segment 1 in its conventions policy (rule B2).
func TimeSeries(prefix, tenant string, t time.Time, eventID string) (Keys, error) {
	pk, err := EntityPK(prefix, tenant)
	if err != nil {
		return Keys{}, err
	}
	if err := checkSegments("event id", eventID); err != nil {
		return Keys{}, err
	}
	t = t.UTC()
	return newKeys(pk+KeySeparator+t.Format("2006-01"), t.Format(isoMillis), eventID), nil
}

// isoMillis is JavaScript's Date.prototype.toISOString layout for years
// 0 to 9999.
const isoMillis = "2006-01-02T15:04:05.000Z"

// checkSegments takes (what, value) pairs and fails with ErrBadSegment on
// the first value that is empty or contains '#' or '@'.
func checkSegments(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		what, s := pairs[i], pairs[i+1]
		switch {
		case s == "":
			return fmt.Errorf("%w: empty %s", ErrBadSegment, what)
		case strings.Contains(s, KeySeparator):
			return fmt.Errorf("%w: %s %q contains %q", ErrBadSegment, what, s, KeySeparator)
		case strings.Contains(s, VerSeparator):
			return fmt.Errorf("%w: %s %q contains %q", ErrBadSegment, what, s, VerSeparator)
		}
	}
	return nil
}
