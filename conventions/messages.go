package conventions

// The messages of the violations, one per way a rule is broken, grouped by
// rule. Each is a fmt format; Violation.Error prefixes "[conventions <rule>] ".
const (
	// A1
	msgTableKey = "%s table %s key is %s; want %s (S)"
	// A11: the command table's stream.
	msgCommandStream = "command table's stream is %s; the framework reads NewImage from a NEW_IMAGE (or NEW_AND_OLD_IMAGES) stream"

	// A2
	msgEmptyPrefix = "%s partition key %q has an empty prefix: want PREFIX#TENANT"
	msgNoTenant    = "%s partition key %q has no tenant: want PREFIX#TENANT"
	msgNoTenantAt  = "%s partition key %q has no tenant at segment %d"

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
	msgDataDropsLink    = "%s removes %s from a data row; DataService.publish writes cpk and csk on every version, naming the command row the row syncs"
	msgDataCSK          = "data item csk %s is neither %q (sort key @ version) nor %q (the sort key, as publishSync writes it)"

	// A7
	msgIDKind    = "id is %s, not a String"
	msgIDDiffers = "id %q is not generateId(pk, sk) = %q"

	// A8
	msgSeqPK       = "sequences partition key %q is not SEQ#<tenant>"
	msgSeqKind     = "seq is %s, not a Number"
	msgSeqPut      = "PutItem writes seq; counters change only by UpdateItem SET seq = if_not_exists(seq, :zero) + :n%s"
	msgSeqStart    = "seq starts at %s; a counter's first UpdateItem gives 1 (if_not_exists(seq, 0) + 1)%s"
	msgSeqBelowOne = "seq %s is not a whole number of at least 1: if_not_exists(seq, 0) + 1 gives 1 first, and a counter goes only up (or back to 1)"
	msgSeqStep     = "seq goes from %s to %s; counters move by one UpdateItem if_not_exists(seq, 0) + 1 at a time (or back to 1)"

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
	msgTenantCase  = "%s partition key %q has tenant %q, not lower case %q"
	msgTenantSpace = "%s partition key %q has tenant %q, with spaces around it"

	msgTimeSeriesSK      = "%s sort key %q does not start with an ISO 8601 timestamp: the time series' sort key is <timestamp>#<eventId>"
	msgTimeSeriesNoEvent = "%s sort key %q has no event id after its timestamp: the time series' sort key is <timestamp>#<eventId>, so that two events of one instant are two rows"
	msgTimeSeriesMonth   = "%s sort key %q has timestamp %s, in %s, but its partition key %q is the month %s"
	msgPrefixCase        = "%s partition key %q has prefix %q, not upper case %q"
	msgTTLSettingCase    = "master sort key %q is not a TTL setting: TtlService reads %q"
	msgLatestMarkerCase  = "%s %q is not the latest item %q: a reader of %q does not find it"

	// A13
	msgMonthMissing      = "%s partition key %q has no month segment %d; the table's time series is PREFIX#<tenant>#<%s>"
	msgMonthFormat       = "%s partition key %q has %q as its month (segment %d), not a month as %s (such as %q)"
	msgMonthBeforeTenant = "%s partition key %q has the month %q where the tenant belongs (segment %d) and %q where the month does (segment %d): the guide's time series is PREFIX#<tenant>#<%s>"

	// A14
	msgReadVersioned = "%s reads the data table with sort key %q, which carries a version; data rows have none (removeSortKeyVersion gives %q)"

	// A15
	msgSKEmptySegment = "%s sort key %q has an empty segment (%d): segments are joined by one '#'"
	msgSKSeparator    = "%s sort key %q separates with %q inside segment %q: the guide joins every segment with '#'"

	// A16
	msgMasterSKOne   = "master sort key %q has one segment; want TYPE#category#code (the guide) or <setting>#<code> (the master package)"
	msgMasterSKGuide = "master sort key %q has %d segments; type %s takes TYPE#category#code"
	msgMasterSKType  = "master sort key %q has %d segments, the guide's TYPE#category#code, but its type %q is not an upper-case TYPE"
	msgMasterSKLong  = "master sort key %q has %d segments; want TYPE#category#code (the guide) or <setting>#<code> (the master package)"

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
	msgCreateUnguarded  = "PutItem creates command row without the condition attribute_not_exists(pk) AND attribute_not_exists(sk)"
	msgOverwriteChanges = "PutItem overwrites an existing command version and changes %s; a version is written once (only updateTtl rewrites it, changing ttl and what its execution's status updates change: %s)"

	// B7
	msgUpdateCreates = "UpdateItem creates a command row; the framework only updates existing versions"
	msgUpdateChanges = "UpdateItem changes the command row's %s; an update may change only %s"

	// B8
	msgDataVersionDown = "data item version goes down from %d to %d"
	msgDataVersionJump = "data item version jumps from %d to %d; the next version is %d"

	// B9
	msgTenantCodeKind    = "tenantCode is %s, not a String"
	msgTenantCodeDiffers = "tenantCode %q differs from the partition key's tenant %q"

	// B10
	msgCallerNoTenant   = "partition key %q has no tenant; caller tenant is %q"
	msgCallerTenant     = "caller tenant %q may not use tenant %q (partition key %q)"
	msgCallerIndex      = "caller tenant %q may not query index %s's partition %q, which does not name its tenant (nor a common tenant) as a # segment"
	msgCallerIndexOther = "caller tenant %q may not query index %s's partition %q, which names tenant %q too"

	// B11
	msgTaskPK         = "tasks partition key %q is not TASK#<tenant> or SFN_TASK#<tenant>"
	msgTaskSK         = "tasks sort key %q is not <taskType>#<code>"
	msgTaskSubIndex   = "tasks sort key %q is not a sub-task's <taskType>#<code>#<index>: its index is not a number"
	msgSessionSK      = "session sort key %q is not <module>#<itemId>"
	msgSessionVersion = "session item has no version Number of at least 1"
	msgSessionTTL     = "session item has no ttl: it would never expire"

	// B14
	msgCommonWrite = "%s by a caller bound to tenant %q writes the common tenant %q (partition key %q); shared data is written by cross-tenant callers (B14 enabled)"

	// B17
	msgUserTenantOther = "%s by a caller bound to tenant %q names tenant %q in the user-tenant row %q under the common tenant's partition key %q: a tenant attaches and detaches only its own users"

	// B18
	msgDataNoCommand = "data row version %d has no command row: table %s holds no pk %q sk %q; a data row is the sync of a stored command version"
	msgDataNoCSK     = "data row version %d has no csk naming its command row; DataService.publish writes cpk and csk"

	msgHistoryNoCommand = "history row version %d has no command row: table %s holds no pk %q sk %q; a history row is the copy of a data row synced from a stored command version"

	// D1
	msgDesignNoEntity = "item matches no entity of the table's design; compared with %s"

	// D2
	msgDesignReplaces = "%s turns a %s into a %s under the same primary key (%s): the %s is lost; give each entity's keys its own prefix, or condition the write on attribute_not_exists"

	// B12
	msgCommandDeleted = "%s deletes a command row; the command table keeps every version"

	msgHistoryDeleted        = "%s deletes a history row; the history keeps what each version was"
	msgHistoryUpdated        = "UpdateItem edits a history row; a history version is written once, by PutItem"
	msgHistoryExpiresEarlier = "PutItem moves an existing history version's ttl earlier, from %s to %s; a retried publish never shortens it"
	msgHistoryExpiresPast    = "PutItem gives an existing history version that had ttl %s the ttl %s, before now (%d): the record would expire at once; a publish computes ttl from now, never in the past"
	msgHistoryOverwritten    = "PutItem overwrites an existing history version and changes %s; a history version is written once"

	// L1
	msgLatestMissing   = "new item written without its latest item (%s %q) in the same transaction (the table's latest write is transaction)"
	msgLatestNoPointer = "latest item has no String attribute %s naming the item it copies"
	msgLatestDangling  = "latest item points at %s %q, which this transaction does not write"
	msgLatestDiffers   = "latest item's %s differs from the item it copies (%q)"
	msgLatestExtra     = "latest item has %s, which the item it copies (%q) has not"
	msgLatestDeleted   = "%s deletes %s %q, which the latest item (%s %q) points at"

	msgLatestItemDeleted = "%s deletes the latest item (%s %q) while the item it points at (%q) stays; delete both in one transaction, or neither"

	msgLatestRewrite        = "%s rewrites %s %q (its %s), the version the latest item (%q) copies; a version is written once: write a new version and move the latest item to it"
	msgLatestRewriteWith    = "%s rewrites the existing version %s %q (its %s) and points the latest item (%q) at it in the same transaction; a version is written once: write a new version and move the latest item to it"
	msgLatestUnpinned       = "latest item written apart from the version it copies (latest write %s) without a condition that fails when it moved: add %s = :seen (the pointer as read), or attribute_not_exists(%s) for the first"
	msgIndexTenant          = "index %s's partition key %s %q does not name the item's tenant %q (nor a common tenant) as a # segment: a Query of the index would cross tenants"
	msgIndexOtherTenant     = "index %s's partition key %s %q names tenant %q besides the item's tenant %q: a LeadingKeys pattern for %q matches it, and the index partition would hold two tenants' items"
	msgTwoTenants           = "%s writes tenant %q (partition key %q) in a transaction that writes tenant %q (%s); one transaction writes one tenant's items"
	msgLatestBackwards      = "latest item moves back from %s %q to %q, an older version; write the old content as a new version instead"
	msgLatestDanglingStored = "latest item points at %s %q, which the table does not hold; write the version first"
)
