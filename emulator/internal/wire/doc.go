// Package wire is the emulator's JSON codec: DynamoDB's attribute values
// in their JSON form, the request decoder and the response appenders. It
// knows storage's values, apierr's messages and the shared answer shapes
// (internal/shapes), nothing of tables or operations.
//
// # The request decoder
//
// What it must do is simple: read a request's body into its operation's
// input struct, with DynamoDB's validation and AWS's order of faults,
// and have the operation check the input. The simple version decodes
// the whole body, then checks it; DecodeRequest still does that for a
// body held in memory, and a service with no Limits reads every body
// so (the service's same-answer tests keep one as the reference).
//
// The one invariant: every answer is the one the whole body gets, the
// order of its faults included, whatever the decoder keeps.
//
// Why it is not done that way: a client may send a list member far over
// AWS's limit (a BatchWriteItem of 300,000 writes, where AWS takes 25),
// and decoded whole such a body costs many times its bytes in elements
// the answer never reads: eight BatchWriteItems of 15 MB took the server
// to 8 times the bytes sent, eight BatchGetItems to 20 times, and 32
// clients sending 15.7 MB bodies at once took it to 1.23 GB. So
// DecodeBody reads a body once, front to back, as it arrives (Body: a
// window of it, refilled from its reader as the scanner needs bytes,
// body.go), and each member a table of Limits names keeps what its
// policy says: its first elements; each later one is decoded into one
// scratch value, shown to the policy (which keeps what the answer needs
// of it: a count, the violations, the echo to its cap) and dropped, its
// bytes with it (limits.go). The faults and their order are the whole
// body's by construction: there is one body and one reading of it, and
// an element dropped is decoded as a kept one is. An attribute's own
// list over the item size limit is kept to the elements that prove it
// over (overList). What a request costs is the bytes it keeps and what
// its answer needs: at 15 MB, 0.1 to 0.5 times its bytes
// (cmd/dynamoemu's TestOversizedRequests).
//
// What was tried first: a prescan of the body held whole, reducing it to
// a body that got the same answer (the oversized lists' elements past the
// limit decoded a run at a time, as the only elements of their list);
// then byte-level state machines that cut the body as it arrived (a
// list's, a map of lists', a map of objects with a list and names), with
// stand-in values in the data model for lists over the item size limit
// and a second scanner. Each was two readings of one body that had to
// give one answer, proven by equivalence tests and argued in prose, and
// decoded the elements they kept twice: a BatchWriteItem of 256 KB or
// more cost the server 2.0-2.3 times the CPU it had before.
//
// The decoder is a plan per Go type, built once from its fields and
// their json tags (and a table of Limits), run on the attribute-value
// scanner; it gives encoding/json's results and error precedence, except
// that member names match exactly, as AWS matches them. A struct may
// leave some of its members to an owner field (MemberOwner: a feature of
// the service owns a member of a core operation's request), which says
// where each decodes; they decode as fields would, in place. Bad JSON,
// wrong JSON types and invalid values are apierr errors
// (SerializationException, ValidationException).
//
// The Append functions write JSON into a caller's buffer: AppendString,
// AppendValue, AppendItem (names sorted, so equal items encode to equal
// bytes), AppendStoredItem (straight from a stored record, without
// decoding it), AppendMember, AppendFloat, AppendMarshal,
// AppendConsumed (an answer's ConsumedCapacity), and AppendErrorBody, the
// body of an error answer.
//
// # Files
//
//   - body.go: a body read as it arrives (Body), the decoder's window of
//     it, and the line count of what the window drops (place) for a
//     strict request's errors; wire_scan.go: the JSON scanner the decoders share; wire_plain.go:
//     the leading bytes of a string that need no escaping, eight at a time.
//   - limits.go: the Limits of the members far over AWS's limits, and
//     an attribute's own list over the item size limit (overList);
//     overitem.go: an item of many attributes over it (Limits.CutItem:
//     the items PutItem, BatchWriteItem and TransactWriteItems put), its
//     later attributes kept as text, ItemNames and ItemHead.
//   - wire_decode.go: attribute values (AttributeValue, WireItem,
//     DecodeItem), decoded and validated.
//   - wire_exprvalues.go, wire_placeholders.go: ExpressionAttributeValues
//     and ExpressionAttributeNames, and AWS's 2 MB limit on them (maps over
//     it are never built); wire_compact.go: an ExpressionAttributeValues
//     map of more entries than expressions can name, kept as its text and
//     sorted offsets (CompactValues, an expr.ValueTable).
//   - wire_names.go: AttributesToGet's names read into an expr.NameList,
//     offsets into the body; wire_params.go: ExecuteStatement's
//     Parameters, every value checked and the first KeptParams kept
//     (Params).
//   - wire_conditions.go: the legacy conditions. KeyConditions, Query's
//     legacy key conditions, decoded as the compiler's list instead of a
//     map; a QueryFilter or ScanFilter read straight into the filter's
//     names, terms and values (expr.LegacyFilter), not a map; an Expected
//     into the same form (expr.LegacyExpected).
//   - wire_text.go: text that is not Unicode (SerializationException).
//   - decode.go: the request decoder (reqDecoder), the objects and lists
//     it reads, its codecs of scalars, and values that keep their own
//     fault (ValueKeeper), read on the request's scanner as any value;
//     plans.go: its plans, a codec per Go type (embedded structs'
//     members promoted as encoding/json promotes them), and the members
//     an owner field decodes (MemberOwner). A type with an UnmarshalJSON
//     of its own is read twice, skipped then parsed, so no request type
//     holding attribute values has one (a timestamp's, shapes.EpochTime,
//     remains). A Go type it does not support (a channel, a func, a json
//     tag option it does not know, an input that is not a pointer) gets
//     an InternalServerError naming it, never a panic
//     (FuzzDecodeAnyType builds types from its bytes).
//   - wire_strict.go: a request read as a strict deserializer reads it
//     (its struct's strict tags: SearchVectors'), in the same one pass:
//     an explicit null of a member it names and a missing required
//     member are refused, with their line and column, ahead of the
//     decoder's other errors but a syntax error.
//   - unknown.go: the first member of a request that its types do not
//     take, for callers that must refuse it (UnknownMember).
//   - wire_deferred.go: faults of attribute values the request decoder
//     reads past (Deferred, DecodeRequestDeferred, DecodeBody), for the
//     operations to report at their place in AWS's order.
//   - wire_recycle.go: small item and placeholder maps an operation gives
//     back (Recycle*) for the decoder to reuse.
//   - wire_encode.go: the appenders; capacity.go: the answers'
//     ConsumedCapacity; wire_error.go: error bodies.
//
// # Caveats
//
// See the emulator's doc.go: a body with both a member of the wrong JSON
// type and an invalid attribute value reports the attribute value's
// error; a JSON null where an AttributeValue is expected leaves it
// invalid; some SerializationException texts are inferred. Of a list
// member given twice whose first list was past its limit, the second
// list's elements past the limit are read into a fresh scratch value,
// not into the first list's (which encoding/json would merge them into):
// the elements past a limit are not kept to be merged into.
package wire
