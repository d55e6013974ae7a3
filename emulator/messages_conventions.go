package emulator

// Messages of the conventions layer (conventions.go). They are the
// emulator's own: AWS has no such checks. A rule's violation carries its
// own message (conventions.Violation.Error); these are the emulator's
// additions to it.
const (
	// msgConvScanGuarded: a tenant-bound caller may not Scan a guarded table.
	msgConvScanGuarded = "caller tenant %q may not Scan table %q: its items belong to every tenant; only cross-tenant callers may"
	// msgConvIndexGuarded: an index query reads partitions whose tenant the
	// index key does not tell.
	msgConvIndexGuarded = "caller tenant %q may not Query index %q of table %q: the index key does not tell the items' tenant; only cross-tenant callers may"
	// msgConvBadTags: a table's conventions tags do not parse.
	msgConvBadTags = "[conventions] table %s: %v"
)
