// Package partiql parses the subset of PartiQL that DynamoDB's
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction accept.
// It knows statement text and nothing about tables, items or HTTP: the
// emulator binds parameters, checks the statement against the table and
// runs it.
//
// # Basics
//
// [Parse] turns one statement into a [Statement]: a [*Select], [*Insert],
// [*Update], [*Delete] or [*Exists]. Expressions are [Expr] nodes: paths
// ([*Path], a.b[1]."c"['d']), literals ([*Literal] for strings, numbers,
// TRUE, FALSE, NULL and MISSING; [*ListLit] [..], [*TupleLit] {'k': v},
// [*BagLit] <<..>>), parameters ([*Param], numbered in source order, see
// [ParamCount]) and operators ([*Binary], [*Unary], [*Between], [*In],
// [*Is], [*Call], [*Paren]). Every node carries the byte offset where it
// starts and prints back to canonical source with String(), which parses
// to the same tree.
//
// The pipeline follows package expr: a hand-written [Scanner] (tokens with
// byte offsets; comments -- and /* */ skipped; bad input becomes an
// ILLEGAL token), then recursive descent with precedence climbing
// ([Token.Precedence]: OR < AND < NOT < comparisons < || < + - < * /) and
// a nesting cap. Keywords are case-insensitive; identifiers are plain
// (pk) or double-quoted ("my-table", "" for a quote); strings are
// single-quoted, a quote inside doubled.
//
// # Errors
//
// A statement that does not parse gives an [*Error] wrapping [ErrSyntax].
// It carries the [ErrorKind], the offending token and its place: a byte
// offset and, as DynamoDB reports places ("at 1:53:7"), a 1-based line and
// column and the token's length, counted in UTF-16 code units. Its Error()
// text is for people; the emulator words DynamoDB's message
// ("Statement wasn't well formed, can't be processed: ...").
//
// # Caveats
//
// The parser accepts more than DynamoDB runs, on purpose, because
// DynamoDB's own parser does too and answers with a semantic message
// rather than a syntax error: LIKE, ||, arithmetic in WHERE, MISSING as a
// value, negative list indexes, EXISTS outside a transaction, any
// function name. The emulator rejects those with DynamoDB's wording. Not
// parsed at all: LIMIT, joins, subqueries other than EXISTS, NOT LIKE,
// aggregate calls with * (count(*)), Ion literals and backquotes.
package partiql
