// Package apierr is the emulator's errors and messages: the DynamoDB error
// classes, the API error value, the one builder of AWS's constraint
// messages, and the text of every message the emulator answers with.
//
// # Basics
//
// A Class is one DynamoDB error class (ValidationException,
// ResourceNotFoundException, ...): its wire name, the namespace that
// prefixes it in "__type", its HTTP status and the spelling of its message
// member. Classes are sentinels (ErrValidation, ...): test an error with
// errors.Is. An Error is an error of one class with AWS's message text,
// and for some classes what their answer carries besides (the old Item of
// a ConditionalCheckFailedException, the CancellationReasons of a
// TransactionCanceledException). The constructors (Validation,
// Validationf, ResourceNotFound, ...) build them; Classify turns any error
// into one at the edge: errors of expr and storage's number errors carry
// AWS's ValidationException text already, storage's collection limit is
// ItemCollectionSizeLimitExceededException, a commit hook's failure is
// InternalServerError, and an error of no class is a bug (500). Only the
// edge (package emulator) turns an Error into a response: wire writes its
// body.
//
// Model constraint violations ("Value 'x' at 'path' failed to satisfy
// constraint: ...") are built by Violation alone, and "N validation
// errors detected: ..." by Constraints.Err alone: a Constraints collects
// the violations of one request (Add, AddViolation, and the helpers
// NotNull, Enum, NameConstraints); ConstraintErrors does the same for a
// list of texts. The one enum builder is EnumPtrViolation (EnumViolation
// for members decoded as strings, Enum on a Constraints), the one limit
// builder LimitViolation; the constraint texts are MemberNotNull,
// EnumConstraint, LenGE, LenLE, ValGE, ValLE and NamePatternConstraint.
// A violation too large to copy (AWS's echo of every element of a list
// far over its limit: TransactItemsLimitPieces, BatchWriteItem's) is
// given in pieces (AddLong); the error's message is then in pieces too
// (Error.Long, Msg ""), written once, into the answer's body, and joined
// only by Error().
//
// # Messages
//
// Every text the emulator answers with is a Msg constant or a Msg function
// in a messages file named by its area (messages_tables.go,
// messages_indexes.go, messages_read.go, ...): the control plane, index
// definitions, items, reads and batches, transactions, PartiQL, streams,
// the wire codec's attribute values, the HTTP edge, and each table-level
// feature (backups, exports and imports, global tables, replicas,
// policies, Kinesis destinations, vector indexes). Where DynamoDB Local
// words a message otherwise, AWS's wording wins and the comment gives
// DynamoDB Local's. WriteRequestEnvelope (write_envelope.go) words the
// single-item writes' request-validation errors inside AWS's "1
// validation error detected" envelope, as AWS answers them. Injected faults and throttling have classes of their
// own (ErrTransactionConflict, ErrThrottling, ...), which AWS answers but
// nothing in an unfaulted emulator does.
//
// # Adding a message
//
// Put the text in the messages file of its area as a Msg constant (or a
// Msg function when it needs arguments of several kinds), with a comment
// naming its source: AWS's recorded answer, AWS's documentation, or
// DynamoDB Local when AWS's wording is unknown. A constraint violation is
// never a constant: build it with Violation and the constraint texts.
package apierr
