// Package wire is the emulator's JSON codec: DynamoDB's attribute values
// in their JSON form, the request decoder and the response appenders. It
// knows storage's values, apierr's messages and the shared answer shapes
// (internal/shapes), nothing of tables or operations.
//
// # Basics
//
// AttributeValue, WireItem (an item or key), ExpressionValues and
// ExpressionNames (the placeholder maps) decode themselves with
// DynamoDB's validation and messages; DecodeItem decodes an item straight
// into storage values. DecodeRequest decodes a request body into an
// operation's input struct (a pointer) without encoding/json: a plan per
// Go type, built once from its fields and their json tags, runs on the
// attribute-value scanner and gives encoding/json's results and error
// precedence, except that member names match exactly, as AWS matches them.
// A struct may leave some of its members to an owner field (MemberOwner:
// a feature of the service owns a member of a core operation's request),
// which says where each decodes; they decode as fields would, in place.
// Bad JSON, wrong JSON types and invalid values are apierr errors
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
//   - wire.go: AttributeValue, WireItem, DecodeItem.
//   - wire_scan.go: the JSON scanner the decoders share; wire_plain.go:
//     the leading bytes of a string that need no escaping, eight at a time.
//   - listscan.go: a request's members and list elements as byte ranges,
//     read without decoding (the oversized lists, service/oversize.go).
//   - wire_decode.go: decoding and validating attribute values;
//     wire_itemcut.go: an item to write keeps no list proven over the
//     item size limit (a stand-in instead).
//   - wire_exprvalues.go, wire_placeholders.go: ExpressionAttributeValues
//     and ExpressionAttributeNames, and AWS's 2 MB limit on them (maps over
//     it are never built); wire_compact.go: an ExpressionAttributeValues
//     map of more entries than expressions can name, kept as its text and
//     sorted offsets (CompactValues, an expr.ValueTable);
//     wire_valuecut.go: UpdateItem's values (UpdateValues) and
//     ExecuteStatement's Parameters keep no list proven over the item
//     size limit until its use is known to be refused for its size
//     (Uncut and UncutEach decode it again otherwise).
//   - wire_names.go: AttributesToGet's names read into an expr.NameList,
//     offsets into the body; wire_params.go: ExecuteStatement's
//     Parameters, every value checked and the first KeptParams kept
//     (Params); wire_conditions.go: KeyConditions, Query's legacy key
//     conditions decoded as the compiler's list instead of a map.
//   - wire_filters.go: a QueryFilter or ScanFilter read straight into
//     the filter's names, terms and values (expr.LegacyFilter), not a map;
//     an Expected into the same form (expr.LegacyExpected).
//   - wire_text.go: text that is not Unicode (SerializationException).
//   - decode.go: the request decoder's plans (embedded structs' members
//     promoted as encoding/json promotes them), and the members an owner
//     field decodes (MemberOwner). A Go type it does not support (a
//     channel, a func, a json tag option it does not know, an input that
//     is not a pointer) gets an InternalServerError naming it, never a
//     panic (FuzzDecodeAnyType builds types from its bytes).
//   - unknown.go: the first member of a request that its types do not
//     take, for callers that must refuse it (UnknownMember).
//   - wire_deferred.go: faults of attribute values the request decoder
//     reads past (Deferred, DecodeRequestDeferred), for the operations to
//     report at their place in AWS's order.
//   - wire_recycle.go: small item and placeholder maps an operation gives
//     back (Recycle*) for the decoder to reuse.
//   - wire_encode.go, encode.go: the appenders; capacity.go: the answers'
//     ConsumedCapacity; wire_error.go: error bodies.
//   - ion_write.go, ion_read.go: items as Amazon Ion text, the second
//     format of exports and imports (AppendIonStoredItem, ReadIonItems,
//     which gives DynamoDB JSON for DecodeItem to check).
//
// # Caveats
//
// See the emulator's doc.go: a body with both a member of the wrong JSON
// type and an invalid attribute value reports the attribute value's
// error; a JSON null where an AttributeValue is expected leaves it
// invalid; some SerializationException texts are inferred.
package wire
