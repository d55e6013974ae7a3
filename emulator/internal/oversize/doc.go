// Package oversize reads the list members of a request's raw body before
// it is decoded, for requests far over AWS's limits. AWS refuses a
// BatchGetItem of more than 100 keys a table, a BatchWriteItem of more
// than 25 writes a table, a transaction of more than 100 actions, with a
// ValidationException that comes before anything else the request says.
// Decoded whole, such a request of 15 MB (hundreds of thousands of
// elements) cost 8 to 20 times its bytes in items and keys the answer
// never uses. So the service reads these members in the raw body first
// (wire.ObjectMembers and ArrayElements) and, when one is over its
// limit, decodes a reduced body instead that gets the same answer: the
// elements past the limit are decoded a run at a time and dropped, and
// left out. A run's keys and items give their maps back to the decoder
// (wire.RecycleItem), which the next run's reuse, and a run's body is a
// buffer of a pool (lease) that the next run's is.
//
// A fault of one of them that would change the answer (a syntax or
// serialization error; for a transaction a constraint violation of its
// own; for ExecuteTransaction a value fault)
// sends the whole body to the decoder as before. A transaction is told
// how many actions it left out (its answer echoes each by its
// position); a BatchWriteItem's answer echoes every write request,
// rendered a run at a time while the body is read (MapCut).
//
// # Nouns
//
//   - Few: whether a body is small enough to decode as it is, by a
//     count of its opening braces (a vectorised pass).
//   - TransactStatements, Statements: the reductions of
//     ExecuteTransaction's and BatchExecuteStatement's lists in a body
//     held whole; what decodes an element, checks its
//     own faults and echoes it is the caller's (the service's and the
//     PartiQL feature's input types), given as a function.
//   - ListCut: firstOf's reduction done while the body arrives, for the
//     lists whose elements past the limit only count (the transactions'):
//     each run past the limit is checked and dropped from the bytes kept,
//     so the body is never held whole; where a later element has a fault,
//     or the body's shape is not the one firstOf reduces, a clean element
//     dropped is put back in the place of each, which gets the whole
//     body's answer (the list's length, and every fault at its place).
//   - A ListCut with a Picker: the same for a list whose answer depends
//     on its elements' kinds too (BatchExecuteStatement's reads and
//     writes): the first later element of each kind is kept after the
//     first Keep, and put back with the stand-ins where those are.
//   - MapCut (a ListCut with an Echoer): the same for a map of lists
//     whose answer echoes every element (BatchWriteItem's RequestItems):
//     each list's first elements are kept, every element is echoed and
//     checked, the clean runs past the limit dropped, and the answer's
//     echo (64 KB of it) kept (mapcut.go says what the answer is a
//     function of). A ListCut's Reduce does the same for a body held
//     whole.
//   - KeysCut (a ListCut with a Measurer): the same for a map of objects
//     with a list member (BatchGetItem's RequestItems and their Keys):
//     each list keeps its first elements and those whose echo the
//     answer shows, the later ones are checked and the clean runs
//     dropped; with Names, a names list beside it (AttributesToGet)
//     keeps the names its echo shows, and the later ones are dropped
//     and parked (compressed, in a temporary file) until the object
//     closes, let go when the
//     object's last list is over the limit; with Table, past Keep
//     elements in all, each later list under the limit keeps its first
//     element and parks the rest until the body ends, let go when the
//     map is refused for its total whatever its elements are
//     (keyscut.go says why the answer is the whole body's).
//   - Again: Reduce for the service's prescan of a body that may have
//     been read through its ListCut already (Cut.Read), which has
//     nothing more to cut.
//   - DecodeAlone, DecodeClean, DecodeRun: decode a run of elements as
//     the only elements of their list, for those functions (DecodeClean
//     fails on a value fault too, for an operation that reports one
//     before its count; DecodeRun tells both, and decodes a large run
//     where it is in a reading's own buffer instead of a copy).
//
// The answer is the one the whole body gets (the service's
// TestOversizeSameAnswer and FuzzOversizePrescan); what a request costs
// is its bytes, its answer and a run of elements at a time
// (TestOversizeReduced; the server's peak memory: cmd/dynamoemu
// TestOversizedRequests).
package oversize
