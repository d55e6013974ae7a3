// Package capture is the capture format: DynamoDB exchanges, one a line
// in JSON Lines, written by "dynamoemu record", replayed by "dynamoemu
// replay", and the format of the project's table of public AWS records
// (docs/captures.md is the format's text; this package is its reading).
//
// Its nouns:
//
//   - Header and Exchange: a file's first line and each following one.
//   - Read and ReadFile: a whole file, or an error "FILE:LINE: what is
//     wrong" and nothing; a file is never half read.
//   - Writer: a header, then exchanges numbered in order.
//   - Normalise: a JSON body as the recorder writes it and the comparer
//     reads it: the table prefix as ${prefix} where the protocol names a
//     table (never in item data), the account, region and labels of ARNs
//     as ${account}, ${region}, ${label}. Volatile is a recording's
//     stable form of times (0, ${time}) and opaque values (${id1} …).
//   - Session: one replay's state: the fresh prefix it puts in the
//     place of ${prefix}, and the opaque values (stream ARNs, shard
//     iterators, NextToken…) learned from its answers so that a later
//     request names what this upstream answered rather than what the
//     recorded one did. Session.Compare compares an answer with the
//     recorded one and returns the differences (Diff).
//
// Comparison: the status; an error's __type by its part after '#'; every
// other member by value (items in order, LastEvaluatedKey,
// ConsumedCapacity, ItemCollectionMetrics, stream records) but the time
// members (CreationDateTime, ApproximateCreationDateTime…) and opaque
// tokens (ShardIterator, NextToken, SequenceNumber…), compared by
// presence and JSON type; sets (SS, NS, BS) as sets; the members an
// exchange's ignore paths name not at all.
//
// A Session and a Volatile are safe for concurrent use (a replay sends
// overlapping exchanges at once); everything else holds no state.
package capture
