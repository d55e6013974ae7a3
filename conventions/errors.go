package conventions

import "errors"

// Errors of the checked key helpers and of configuration parsing. Returned
// errors wrap these; test them with errors.Is.
var (
	// ErrNoVersion: a sort key that must carry "@<version>" has no '@'.
	ErrNoVersion = errors.New("conventions: sort key has no @version suffix")
	// ErrVersionSyntax: the text after the last '@' is not a canonical
	// decimal integer (digits, no sign, no leading zero), so the framework's
	// getSortKeyVersion would read it loosely ("007", "1.5", "0x10") or as NaN.
	ErrVersionSyntax = errors.New("conventions: version suffix is not a canonical decimal")
	// ErrVersionRange: a version is below 1 (the framework's first stored
	// version; -1 means "latest") or does not fit an int.
	ErrVersionRange = errors.New("conventions: version out of range")
	// ErrAtInBase: a base sort key contains '@', which the framework's
	// helpers would take for a version separator and cut off.
	ErrAtInBase = errors.New("conventions: base sort key contains '@'")
	// ErrNoTenant: a partition key has no tenant segment, or an empty one.
	ErrNoTenant = errors.New("conventions: partition key has no tenant segment")
	// ErrBadSegment: a key segment given to a builder is empty or contains
	// '#' or '@'.
	ErrBadSegment = errors.New("conventions: bad key segment")
	// ErrConfig: a conventions configuration (file or table tags) is invalid.
	ErrConfig = errors.New("conventions: invalid configuration")
)
