// Package lease lends out reusable objects and takes them back, and says
// in types who owns one.
//
// # Basics
//
// A Pool[T] holds values of T, a pointer or a map, that requests borrow
// and give back: Get lends one (a new one when none is there), Put gives
// it back. The Config says how to make one (New), how to ready a given-
// back one for its next borrower and whether it is worth keeping (Reset:
// a buffer grown past a bound is left to the collector), and what a given-
// back one becomes in the checked mode (Poison). Pool is sync.Pool with a
// type and those three rules: a Get and a Put cost 19-21 ns against
// sync.Pool's 15-16 ns with the same zeroing (BenchmarkGetPut, the Reset
// call), about 45 ns of a request's 4-10 us for the ten or so values a
// request borrows.
//
// A struct that is lent embeds Owned; Check(v) then panics, in the checked
// mode, when v is used after it was given back. Put panics when a value
// is given back twice. A function that takes over a borrowed value names
// the value's type so (or says "takes ownership" in its doc): from then
// on the caller must not use it.
//
// # The checked mode
//
// Under the race detector (go test -race: the build tag race) the pools
// check their borrowers. Put does not keep the value: it poisons it (the
// Config's Poison in place of Reset, such as overwriting a buffer's bytes or a map's values,
// so a reader that kept it sees garbage instead of the next request's
// data), marks an Owned value released, and remembers the last pointers
// given back; Get always makes a new one. So a use after release reads
// poison or panics in Check, and a second Put panics, in a unit test run
// with -race, instead of corrupting another request in production.
//
// # Caveats
//
// A value given back must not be used again: what it pointed to (strings,
// records) may still be, the value itself may not. A borrower that fails
// or panics may simply not give the value back: the collector takes it.
// Only the last 4096 pointers given back are remembered (weakly: the
// checked mode keeps no memory alive) for the double-Put check of values
// that do not embed Owned; a map given back twice is not caught there.
//
// # What is pooled, and why
//
// A pool stays only where a benchmark of the operation it serves shows it
// pays at least 10% (allocations or bytes a request, foremost; time on a
// shared machine with care). Each pool's comment gives its figures, pool
// on and off.
package lease
