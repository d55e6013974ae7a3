package storage

import "errors"

// Storage errors. Errors a caller can cause by a request are validated by the
// emulator with AWS's wording before storage sees them; these sentinels mark
// misuse of the storage API and control flow.
var (
	// ErrNoWrite is returned by a Write callback to leave the item as it is;
	// Write then reports no error.
	ErrNoWrite = errors.New("storage: no write")
	// ErrKeyKind: a key value is missing or not of the kind the key schema declares.
	ErrKeyKind = errors.New("storage: key value does not match the key schema")
	// ErrKeyMismatch: a Write callback returned an item whose key differs from
	// the key being written.
	ErrKeyMismatch = errors.New("storage: item key differs from the written key")
	// ErrTooDeep: a value nests lists and maps deeper than maxDepth.
	ErrTooDeep = errors.New("storage: value nested too deeply")
	// ErrCorrupt: an encoded item is malformed.
	ErrCorrupt = errors.New("storage: malformed encoded item")
	// ErrInvalidSchema: a KeySchema fails Validate.
	ErrInvalidSchema = errors.New("storage: invalid key schema")
)
