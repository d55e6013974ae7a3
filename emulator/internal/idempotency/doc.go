// Package idempotency remembers the ClientRequestTokens of
// TransactWriteItems and of ExecuteTransaction's writes. As the API
// reference describes it: a token is valid for 10 minutes after the
// first request that uses it completes; within that window the same
// token with the same request answers success again without writing,
// and the same token with any other parameter changed answers
// IdempotentParameterMismatchException. Only successful transactions use
// up a token: a cancelled or refused one leaves it free. Tokens are per
// namespace (AWS: per account and region).
//
// # Nouns
//
//   - Store: the tokens of every namespace of one emulator, in one
//     memory bound. Do runs a request under a token, or answers it from
//     the token's first use; Expire forgets the tokens whose window a
//     move of the clock ended; Close stops the janitor.
//   - Answer: what a replay answers, the caller's type (the service's:
//     the read capacity of the items written, per table name, and the
//     item collection metrics). A replay reports capacity in its own
//     mode, as the read of the items written (AWS's accounting as
//     recorded in paritysuite/dynamodb-conformance#67 and #74); turning
//     the answer kept into the replay's is the caller's.
//   - Fingerprint: a SHA-256 hash of a decoded request, so that what is
//     kept per token is fixed in size. The order of JSON members and map
//     entries does not matter; the caller leaves out the token itself
//     and ReturnConsumedCapacity. The request and its items are never
//     kept.
//   - Meta: where a namespace's completed tokens are saved across
//     restarts (its DB's metadata, with -dbPath); Restore puts them back
//     when the namespace is loaded (persist.go).
//
// A second request with a token whose first request is still running
// waits for it and then answers as above.
//
// # Bounds
//
// The memory model is in docs/performance.md:
//   - all namespaces share one store of at most Config.MaxBytes
//     (DefaultBytes): past it the oldest tokens are forgotten early, and
//     a replay of a forgotten token runs as a new request;
//   - a token is forgotten when the emulator's clock passes the end of
//     its window, without waiting for another request: the emulator's
//     Advance and SetNow call Expire, and with the real clock
//     (Config.Clock) a janitor goroutine sleeps until the oldest token's
//     window ends. The janitor runs only while tokens are kept and stops
//     on Close. With a test's clock (no Config.Clock), the store never
//     calls that clock from a goroutine of its own (a clock moved
//     between requests would race with it): tokens then expire when the
//     clock is moved, or at the next request with a token.
//
// # Locks
//
// Store.mu guards the tokens; it is a leaf: a request's run, a save
// (Meta.SetMeta) and the wait for a running first request all happen
// with it released.
package idempotency
