package conventions

import "strings"

// The framework's key constants (@mbc-cqrs-serverless/core constants/key.ts
// and constants/tenant.ts).
const (
	// KeySeparator joins key segments: PREFIX#TENANT, TYPE#code, pk#sk.
	KeySeparator = "#"
	// VerSeparator joins a command or history sort key and its version.
	VerSeparator = "@"
	// VersionFirst is the version a new entity is submitted with; the first
	// stored command row is VersionFirst+1.
	VersionFirst = 0
	// VersionLatest asks for the latest version; SortKeyVersion returns it
	// for a sort key without a version suffix.
	VersionLatest = -1
	// TenantCommon is the tenant of data shared by all tenants. The
	// framework derives it from COMMON_TENANT_CODES at load time; this is
	// its default.
	TenantCommon = "common"
	// DefaultTenantCode stands in for an empty tenant in MasterPK and SeqPK.
	DefaultTenantCode = "single"
)

// The prefixes of the framework's own keys.
const (
	masterPrefix = "MASTER"
	seqPrefix    = "SEQ"
	ttlPrefix    = "TTL"
	tenantPrefix = "TENANT" // the tenant package's records, TENANT#<code>
	// userTenantPrefix is seed 000's user-tenant association,
	// USER_TENANT#<common tenant> / <tenantCode>#<userCode> (rule B17).
	userTenantPrefix = "USER_TENANT"
)

// GenerateID returns pk#sk without sk's version suffix, as the framework's
// generateId does. A base sort key that contains '@' loses everything from
// its last '@' on (GenerateID("A#t", "a@b") is "A#t#a"); NewID refuses it.
func GenerateID(pk, sk string) string {
	return pk + KeySeparator + RemoveSortKeyVersion(sk)
}

// TenantCode returns the segment of pk after its last '#', as the
// framework's getTenantCode does, and false (JavaScript's undefined) when pk
// has no '#'. The last segment is not always the tenant: for
// "LOG#t#2024-01" it is "2024-01"; for "A#" it is "" with ok true.
// ParseTenant is the checked counterpart.
func TenantCode(pk string) (tenant string, ok bool) {
	i := strings.LastIndex(pk, KeySeparator)
	if i < 0 {
		return "", false
	}
	return pk[i+len(KeySeparator):], true
}

// AddSortKeyVersion replaces sk's version suffix, if any, with
// "@<version>", as the framework's addSortKeyVersion does: it cuts sk at its
// last '@' first, so AddSortKeyVersion("user@example.com", 1) is "user@1".
// The version is a JavaScript number, formatted as JavaScript formats one
// ("X@-1", "X@1.5", "X@NaN"), and is not checked: VersionedSortKey is the
// checked counterpart, for int versions.
func AddSortKeyVersion(sk string, version float64) string {
	return RemoveSortKeyVersion(sk) + VerSeparator + jsNumberString(version)
}

// RemoveSortKeyVersion returns sk up to its last '@', or sk unchanged when
// it has no '@', as the framework's removeSortKeyVersion does. The suffix is
// not checked: "user@example.com" becomes "user". BaseSortKey is the
// checked counterpart.
func RemoveSortKeyVersion(sk string) string {
	i := strings.LastIndex(sk, VerSeparator)
	if i < 0 {
		return sk
	}
	return sk[:i]
}

// SortKeyVersion returns what the framework's getSortKeyVersion returns:
// VersionLatest when sk has no '@', otherwise JavaScript's unary plus of the
// text after the last '@'. That is why the result is a float64: "X@" gives
// 0, "X@1.5" 1.5, "X@0x10" 16, "X@ 3 " 3, "X@Infinity" +Inf, "X@abc" NaN,
// and "X@-1" -1, which cannot be told from no version. ParseSortKey is the
// checked counterpart.
func SortKeyVersion(sk string) float64 {
	i := strings.LastIndex(sk, VerSeparator)
	if i < 0 {
		return VersionLatest
	}
	return jsToNumber(sk[i+len(VerSeparator):])
}

// MasterPK returns MASTER#<tenant>, with DefaultTenantCode for an empty
// tenant, as the framework's masterPk does. The tenant is not normalized.
func MasterPK(tenant string) string {
	return masterPrefix + KeySeparator + orDefaultTenant(tenant)
}

// SeqPK returns SEQ#<tenant>, with DefaultTenantCode for an empty tenant, as
// the framework's seqPk does. The tenant is not normalized.
func SeqPK(tenant string) string {
	return seqPrefix + KeySeparator + orDefaultTenant(tenant)
}

// TTLSK returns TTL#<table>, the sort key of a table's TTL setting in master
// data, as the framework's ttlSk does. The framework passes the full
// prefixed table name ("<env>-<app>-<module>-<type>"), not the module name
// its guide shows.
func TTLSK(table string) string {
	return ttlPrefix + KeySeparator + table
}

func orDefaultTenant(tenant string) string {
	if tenant == "" {
		return DefaultTenantCode
	}
	return tenant
}
