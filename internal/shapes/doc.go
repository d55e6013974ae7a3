// Package shapes declares once each of DynamoDB's API shapes that more
// than one package of ours reads or writes: the nested shapes a request
// and an answer share (KeySchemaElement, AttributeDefinition, Projection,
// ProvisionedThroughput, Tag, ...), and the whole shapes that a client of
// ours reads as the emulator writes them: CreateTableInput (the MCP
// server reads a data model's tables as CreateTable requests;
// internal/iac writes a template's, with TimeToLiveSpecification and
// PointInTimeRecoverySpecification for what CreateTable does not take) and
// TableDescription (DescribeTable's answer, which the MCP server and
// the conventions check read), with their members and EpochTime, the
// wire's timestamp. Put is a transaction's put and a bulk import file's
// line. It imports nothing of ours, so the emulator's packages, its
// clients (cmd/internal/mcp, cmd/internal/conventionscheck), the
// templates' reader (internal/iac) and DynamoDB Local's reader
// (internal/ddblocal) all use these.
//
// # Basics
//
// A shape is one generic struct: its fields are the model's members, in
// the model's order, each with a json tag of the member's name (the one
// tag style); its type parameters say how a member is held. S holds a
// string member (an enum too: the one enum convention) and N a number:
//
//   - in a request, pointers (*string, *int64): a member left out is told
//     from an empty one, as AWS tells "Member must not be null" from an
//     invalid value;
//   - in an answer, and in what a client reads of one, values (string,
//     int64).
//
// So a request's KeySchema is []KeySchemaElement[*string] and a
// description's []KeySchemaElement[string]: one declaration, two forms.
// The same rule holds for the request shapes declared where their one
// operation is (service's PutItemInput, ...): a member is a pointer when
// AWS tells it left out from its zero value, a value when it does not
// (ReturnConsumedCapacity, ReturnValues: "" is taken as left out, as
// DynamoDB Local takes it), enums and strings alike.
// The packages that use them name each form once, as aliases
// (tablespec.KeySchemaElement, tablespec.KeySchemaElementDesc).
//
// internal/lint's TestShapesDeclaredOnce holds the rule: no shape of the
// AWS SDK's model is declared by two Go types of ours, with no exception;
// TestShapesOneTagStyle that every field of a shape has a json
// tag naming its member.
//
// # Caveats
//
// A member tagged omitempty is left out of an answer when it is its zero
// value in both forms: a description never has an empty ProjectionType,
// so Projection's tag serves both.
//
// A TableDescription carries, after its own members, those the features
// add (Add: DescribeTable's Replicas, ...), which only the emulator
// writes; a client decoding one drops them.
package shapes
