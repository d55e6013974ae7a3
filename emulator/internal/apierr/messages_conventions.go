package apierr

// Messages of the conventions layer (conventions.go). They are the
// emulator's own: AWS has no such checks. A rule's violation carries its
// own message (conventions.Violation.Error); these are the emulator's
// additions to it.
const (
	// MsgConvScanGuarded: a tenant-bound caller may not Scan a guarded table.
	MsgConvScanGuarded = "caller tenant %q may not Scan table %q: its items belong to every tenant; only cross-tenant callers may"
	// MsgConvIndexGuarded: a read of an index as a whole (a Scan, or a
	// Query of a key of several attributes) reads every tenant's items.
	MsgConvIndexGuarded = "caller tenant %q may not read index %q of table %q as a whole (a Scan, or a Query of a key of several attributes): its items belong to every tenant; only cross-tenant callers may"
	// MsgConvEdgeGuarded: a tenant-bound caller may not call an admin
	// endpoint, nor make, change or delete an event source mapping.
	MsgConvEdgeGuarded = "caller tenant %q may not call %s (%s): it acts on every tenant's items (rule B10); only cross-tenant callers may"
	// MsgConvWholeGuarded: a tenant-bound caller may not read a guarded
	// table's items of every tenant by another way than a Scan (a copy:
	// a backup, a restore, an export, a replica, its stream or a mapping
	// of it), nor change the table as a whole.
	MsgConvWholeGuarded = "caller tenant %q may not %s table %q (%s): it holds every tenant's items; only cross-tenant callers may"
	// MsgConvBadTags: a table's conventions tags do not parse.
	MsgConvBadTags = "[conventions] table %s: %v"
)
