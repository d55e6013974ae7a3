package conventions

// The messages of the violations, one per way a rule is broken, grouped by
// rule. Each is a fmt format; Violation.Error prefixes "[conventions <rule>] ".
const (
	// A1
	msgTableKey = "%s table %s key is %s; want %s (S)"
	// A11: the command table's stream.
	msgCommandStream = "command table's stream is %s; the framework reads NewImage from a NEW_IMAGE (or NEW_AND_OLD_IMAGES) stream"

	// A2
	msgNoTenant   = "%s partition key %q has no tenant: want PREFIX#TENANT"
	msgNoTenantAt = "%s partition key %q has no tenant at segment %d"

	// A3 (command) and A6 (history)
	msgNoVersion      = "%s sort key %q has no @version suffix"
	msgNoVersionAttr  = "%s item has no version attribute; want %d as in its sort key"
	msgVersionKind    = "%s item version is %s, not a Number"
	msgVersionDiffers = "%s item version %s differs from its sort key's version %d"

	// A5
	msgDataAtInSK       = "data sort key %q contains '@': data rows carry no version (removeSortKeyVersion gives %q)"
	msgDataNoVersion    = "data item has no version attribute"
	msgDataVersionKind  = "data item version is %s, not a Number"
	msgDataVersionRange = "data item version %s is not a whole number of at least 1"
	msgDataCPK          = "data item cpk %s is not its partition key %q"
	msgDataCSK          = "data item csk %s is not %q (sort key @ version)"

	// A7
	msgIDKind    = "id is %s, not a String"
	msgIDDiffers = "id %q is not generateId(pk, sk) = %q"

	// A8
	msgSeqPK   = "sequences partition key %q is not SEQ#<tenant>"
	msgSeqKind = "seq is %s, not a Number"
	msgSeqPut  = "PutItem writes seq; counters change only by UpdateItem SET seq = if_not_exists(seq, :zero) + :n"
	msgSeqDown = "seq goes down from %s to %s"

	// A9
	msgMasterPK               = "master partition key %q is not MASTER#<tenant>"
	msgTTLSettingNoTable      = "TTL setting sort key %q names no table"
	msgTTLSettingAttrs        = "TTL setting attributes is %s, not a Map"
	msgTTLSettingDaysKind     = "TTL setting attributes.days is %s, not a Number"
	msgTTLSettingDaysNegative = "TTL setting attributes.days %s is negative: every publish for the tenant would fail"

	// A10
	msgTTLKind      = "ttl is %s, not a Number of epoch seconds: TTL never expires it"
	msgTTLNotNumber = "ttl %s is not a number"
	msgTTLNegative  = "ttl %s is negative"
	msgTTLFraction  = "ttl %s is not a whole number of epoch seconds"
	msgTTLMillis    = "ttl %s looks like epoch milliseconds; TTL reads epoch seconds"

	// A12
	msgTenantCase = "%s partition key %q has tenant %q, not lower case %q"

	// B1
	msgAtInSK   = "%s sort key %q contains '@': removeSortKeyVersion would cut it to %q"
	msgAtInBase = "%s sort key %q has '@' in its base %q: removeSortKeyVersion would cut it to %q"

	// B2
	msgTenantNotLast = "%s partition key %q has %d segments: getTenantCode reads %q as its tenant; declare the tenant segment if the tenant is elsewhere"

	// B3
	msgVersionSyntax = "%s sort key %q has version suffix %q, not a canonical decimal (getSortKeyVersion reads %s)"

	// B4
	msgVersionRange = "%s sort key %q has version %s; stored versions start at 1 (-1 means latest)"

	// B5
	msgVersionGap = "command version %d written while version %d (sort key %q) does not exist"

	// B6
	msgCreateUnguarded = "PutItem creates command row without the condition attribute_not_exists(pk) AND attribute_not_exists(sk)"

	// B7
	msgUpdateCreates = "UpdateItem creates a command row; the framework only updates existing versions"
	msgUpdateChanges = "UpdateItem changes the command row's %s"

	// B8
	msgDataVersionDown = "data item version goes down from %s to %s"

	// B9
	msgTenantCodeKind    = "tenantCode is %s, not a String"
	msgTenantCodeDiffers = "tenantCode %q differs from the partition key's tenant %q"

	// B10
	msgCallerNoTenant = "partition key %q has no tenant; caller tenant is %q"
	msgCallerTenant   = "caller tenant %q may not use tenant %q (partition key %q)"

	// L1
	msgLatestMissing   = "new item written without its latest item (%s %q) in the same transaction"
	msgLatestNoPointer = "latest item has no String attribute %s naming the item it copies"
	msgLatestDangling  = "latest item points at %s %q, which this transaction does not write"
	msgLatestDiffers   = "latest item's %s differs from the item it copies (%q)"
	msgLatestExtra     = "latest item has %s, which the item it copies (%q) has not"
)
