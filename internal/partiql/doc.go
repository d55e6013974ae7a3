// Package partiql parses the subset of PartiQL that DynamoDB's
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction accept.
// It knows statement text and nothing about tables, items or HTTP: the
// emulator binds parameters, checks the statement against the table and
// runs it.
//
// # Basics
//
// [Parse] turns one statement into a [Statement]: a [*Select], [*Insert],
// [*Update] (also PartiQL's FROM-first form, FROM t WHERE ... SET ...,
// which DynamoDB runs as an UPDATE), [*Delete] or [*Exists]. Expressions
// are [Expr] nodes: paths
// ([*Path], a.b[1]."c"['d']), literals ([*Literal] for strings, numbers,
// TRUE, FALSE, NULL and MISSING; [*ListLit] [..], [*TupleLit] {'k': v},
// [*BagLit] <<..>>), parameters ([*Param], numbered in source order, see
// [ParamCount]) and operators ([*Binary], [*Unary], [*Between], [*In],
// [*Is] with MISSING, NULL or a [TypeName], [*Call], [*Paren]). Every node
// carries the byte offset where it
// starts and prints back to canonical source with String(), which parses
// to the same tree.
//
// The pipeline follows package expr: package lex's scanner on PartiQL's
// rules (scanner.go: tokens with byte offsets; comments -- and /* */
// skipped; bad input becomes an ILLEGAL token), then recursive descent with precedence climbing
// ([Token.Precedence]: OR < AND < NOT < comparisons < || < + - < * /) and
// a nesting cap. Keywords are case-insensitive; identifiers are plain
// (pk) or double-quoted ("my-table", "" for a quote); strings are
// single-quoted, a quote inside doubled. PartiQL reserves some 240 words
// (reserved.go: key, size, inner, string, value, ...): a plain identifier
// may not be one, neither as a name nor after a dot; quoted, or as a
// function's name (size(a)), they are fine.
//
// # Errors
//
// A statement that does not parse gives an [*Error] wrapping [ErrSyntax].
// It carries the [ErrorKind], the offending token and its place: a byte
// offset and, as DynamoDB reports places ("at 1:53:7"), a 1-based line and
// column and the token's length, counted in UTF-16 code units. Its Error()
// text is for people; [Error.Message] gives DynamoDB's message
// ("Statement wasn't well formed, can't be processed: " and AWS's reason
// where a public record of an AWS answer gives it, else DynamoDB Local's
// echo of the statement; "Aliasing is not supported" for an alias). As
// DynamoDB's lexer reads the whole statement first, a token it cannot read
// (a stray character, an unterminated string or comment, a number whose
// exponent or scale does not fit 32 bits) is reported before any syntax
// error.
//
// # Caveats
//
// The parser accepts more than DynamoDB runs, on purpose, because
// DynamoDB's own parser does too and answers with a semantic message
// rather than a syntax error: LIKE, ||, arithmetic in WHERE, MISSING as a
// value, negative list indexes, EXISTS outside a transaction, any
// function name, every type name after IS. partiql/lower rejects those
// with DynamoDB's wording; so is an aggregate over all items (count(*)),
// read only as an element of a SELECT list, which partiql/lower refuses
// after the multi-attribute key refusal. Not parsed at all: LIMIT, joins,
// subqueries other than EXISTS, NOT LIKE, aggregate calls elsewhere, Ion
// literals and backquotes, IS TRUE and IS FALSE (DynamoDB Local refuses
// them: TRUE names no type).
package partiql
