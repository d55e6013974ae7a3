package apierr

// Messages of the conventions layer (conventions.go). They are the
// emulator's own: AWS has no such checks. A rule's violation carries its
// own message (conventions.Violation.Error); these are the emulator's
// additions to it.
const (
	// MsgConvScanGuarded: a tenant-bound caller may not Scan a guarded table.
	MsgConvScanGuarded = "caller tenant %q may not Scan table %q: its items belong to every tenant; only cross-tenant callers may"
	// MsgConvIndexGuarded: an index query reads partitions whose tenant the
	// index key does not tell.
	MsgConvIndexGuarded = "caller tenant %q may not Query index %q of table %q: the index key does not tell the items' tenant; only cross-tenant callers may"
	// MsgConvBadTags: a table's conventions tags do not parse.
	MsgConvBadTags = "[conventions] table %s: %v"
)
