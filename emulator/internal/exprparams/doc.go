// Package exprparams checks the mix of a request's expression and legacy
// parameters as AWS does before it compiles anything: an expression
// parameter (ConditionExpression, FilterExpression, ...) never beside a
// legacy one (Expected, QueryFilter, AttributesToGet, ...),
// ExpressionAttributeNames and ExpressionAttributeValues only with an
// expression that may use them, and never empty. Each operation lists the
// parameters it was given in AWS's order (Params) and Check answers with
// AWS's message for the first rule broken. It also makes a request's
// compiler over those maps (NewCompiler: the checks of the maps
// themselves and their size, and the process's compiled-expression
// cache). The service calls it as a library on every data-plane path,
// SearchVectors too; it knows nothing of tables.
package exprparams
