// Package lower turns a parsed PartiQL statement (package partiql) into
// what package expr compiles and evaluates: key conditions, a filter, a
// projection, an update, a write's condition. It builds expr's AST
// directly, with attribute names and values resolved (expr.PathElem
// Resolved, expr.ValueExpr with its Value), and compiles it with expr's
// tree entry points: no expression text is printed and parsed again, so a
// user's parentheses are only grouping (UPDATE t SET x = 1 WHERE pk = 'b'
// AND (c = 5 OR c = 6) works), and every check of expr runs as it does for
// UpdateItem's expressions, its messages without the "Invalid ...:"
// prefix, as DynamoDB's PartiQL messages have none.
//
// It knows statements and key schemas, nothing of tables, items, requests
// or HTTP: the caller looks the table up, binds the parameters
// ([Binding]), calls the function of the statement's kind and runs what it
// gets on storage.
//
// # Basics
//
//   - [LowerSelect]: the key conditions of the partitions a SELECT reads
//     (pk = v, pk IN [...], with a sort key range or begins_with), the
//     whole WHERE clause as the filter, the SELECT list, ORDER BY's
//     direction ([Select]).
//   - [LowerInsert]: the item.
//   - [LowerUpdate]: the key, the update, the condition (the item exists,
//     and the rest of the WHERE clause) ([Update]). Also PartiQL's
//     FROM-first form (FROM t WHERE ... SET ...).
//   - [LowerDelete] and [LowerExists]: the key and the condition
//     ([Delete]).
//   - [LowerTxGet] and [LowerBatchGet]: one item by its full key ([Get]).
//
// The WHERE clause: comparisons, BETWEEN, IN, AND, OR, NOT, the functions
// begins_with, contains, attribute_type, size, attribute_exists and
// attribute_not_exists (any case), IS [NOT] MISSING, NULL and the types
// DynamoDB tests (BOOLEAN, BLOB, STRING, NUMERIC, STRUCT, TUPLE, LIST), and
// comparisons of a condition's value with TRUE or FALSE
// (attribute_exists(a) = true, as DynamoDB Local answers).
//
// # Errors
//
// Every error is an [*Error]: a ValidationException's message, exactly
// (AWS's words where public records of AWS answers give them, else
// DynamoDB Local 3.3.0's; errors.go says which for each), with Item set
// for an error of the item a statement reads or writes (ExecuteTransaction
// cancels with those rather than failing). The order follows DynamoDB's
// where it is known: a value that cannot be stored (a number out of range,
// "... under root.x") before the multi-attribute key refusal, that before
// the key conditions' rules.
//
// # Caveats
//
// Not done here: whatever needs the table or the request (the table and
// index lookup, the count of parameters, the key values' own rules such as
// no empty string, item sizes, index keys, the key attributes an update
// may not change, the conventions layer). A SELECT whose WHERE clause is
// an OR of branches that each fix the partition key is read as a Scan with
// a filter (same items; DynamoDB reads each branch's partition, so the
// order of the items may differ); its refusal of branches that overlap is
// built (overlap.go).
package lower
