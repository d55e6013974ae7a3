// Package faults makes DynamoDB's failures happen on demand, so that a
// test can run the code paths production hits: throttling, transaction
// conflicts, server errors, slow calls. It knows AWS's error names,
// statuses and messages, and nothing about HTTP or the emulator; the
// emulator asks it, before each call runs, whether to fail the call, and
// builds the error from its answer.
//
// # Basics
//
// A Rule matches calls by table, index, operation, and partition or sort
// key (exact or prefix), fires on them always, with a probability, on
// every Nth one or on the first N, and injects a fault of one Kind:
// TransactionConflict, TransactionInProgress, ConditionalCheckFailed,
// InternalServerError, RequestLimitExceeded, Throttling,
// ProvisionedThroughputExceeded, or a Delay (alone, or before another
// kind's error). Rules come from Go or from a JSON config (Config,
// ParseConfig, MarshalConfig).
//
// An Injector holds one rule list, replaced whole by SetRules or emptied
// by Clear at any time. Decide(Call) returns the Fault of the first rule
// that matches and fires, or the zero Fault; each injected fault is
// counted (Stats: per rule and per kind), kept in a bounded event log and,
// with a Logger, logged. Kind says what the emulator answers: ErrorType,
// Status, Message (IndexMessage for a call on an index),
// CancellationCode inside a transaction, and Retried, whether
// aws-sdk-go-v2's standard retryer retries it.
//
// # Determinism
//
// A rule's probability draws from its own generator (PCG), seeded by the
// injector's seed and the rule's index, and Every and Count count the
// calls the rule matched: one sequence of calls, in one order, fires the
// same way on every run, and SetRules with the same list and seed starts
// the same sequence again. Concurrent calls are counted in the order
// they reach the rule.
//
// # Costs
//
// With no rules, the hook "if in.Active() { in.Decide(c) }" is one
// inlined nil check and one atomic load, and allocates nothing
// (BenchmarkDecide, TestDecideAllocs). With rules, Decide allocates
// nothing unless a rule fires (the event's key text).
//
// # Caveats
//
// Key values are compared as text (an S value's string, an N value's
// canonical number, a B value's bytes), so a rule for "1" matches the S
// value "1" and the N value 1 alike. The capacity throttling of
// provisioned and on-demand tables, which answers the same errors from
// token buckets rather than rules, is package faults/throttle; the clock
// that lags index reads, eventually consistent reads and stream records
// is package faults/lag. WIRING.md is how the emulator hangs them off its
// operations.
package faults
