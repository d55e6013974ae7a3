// Package oversize keeps what a request far over its limits parks until
// its answer says whether it needs it: a Parking of records (a
// BatchGetItem's names past what its echo shows, its keys past 101 in
// all), compressed into an unlinked temporary file. The request decoder
// reads such a body once, as it arrives (emulator/internal/wire's doc.go
// and limits.go); a few of its members are needed whole only when their
// table turns out to be served, which a reader of one pass cannot know
// before the body ends: those are parked, and read back or let go by the
// service (its limits.go, BatchGetItemInput.finish).
package oversize
