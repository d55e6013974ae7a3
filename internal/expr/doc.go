// Package expr implements DynamoDB's expression languages: condition and
// filter expressions, key condition expressions, update expressions and
// projection expressions, plus the legacy parameters (Expected,
// QueryFilter, ScanFilter, KeyConditions, AttributeUpdates,
// AttributesToGet) translated into the same compiled forms.
//
// # Pipeline
//
// Text goes through the scanner of package lex, on the expression
// languages' rules (scanner.go: tokens with byte offsets, ILLEGAL tokens
// for bad input), a recursive-descent parser with precedence
// climbing ([Token.Precedence]: OR < AND < NOT < comparisons) and a nesting
// cap, and then a [Compiler] that, once per request, resolves #names and
// :values, records which were used ([Compiler.Unused]) and checks every rule
// DynamoDB checks, in DynamoDB's order: the placeholder maps themselves
// ([Compiler.Err]: keys of the form #name and :value, no empty name, before
// any expression is looked at), size (4 KB), syntax and redundant
// parentheses, then reserved words, list index range, function names and
// placement and the operator count (300), then placeholders, operand types,
// BETWEEN bounds, IN size (100), path depth (32) and overlapping paths.
// The results ([Condition], [Update], [Projection], [KeyCondition]) are
// immutable and are evaluated per item without re-parsing.
//
// # Trees built by a caller
//
// A caller with a language of its own (PartiQL) builds expr's AST itself
// and compiles it with [Compiler.CompileCondition],
// [Compiler.CompileKeyCondition], [Compiler.CompileMultiKeyCondition],
// [Compiler.CompileUpdate] and [Compiler.CompileProjection]: names and
// values already resolved ([PathElem] Resolved, a [ValueExpr] with Name ""
// and its Value, [ConstExpr] for a decided condition), nothing printed and
// parsed again. The tree goes through the same passes as parsed text (the
// text methods are parse-then-compile over them), except the rules of the
// text alone: size, redundant parentheses, each update section once. A
// tree the parser could not have produced gets an error wrapping
// [ErrMalformedTree]. compile_ast.go has the details.
//
// # Values, the cache and stored items
//
// A compiled expression is a program and its values: the tree holds
// resolved paths and, for each :value placeholder, a slot; the request's
// values are bound beside it (condition.go, update.go). So the program of
// a text compiled with the same #names serves every request, and a
// [Cache] (cache.go) keeps programs by kind, text and what their #names
// stood for: a [Compiler] made by [NewCachedCompiler] binds a hit to the
// request's values after re-running the checks that look at values, and
// compiles afresh whenever a value is missing or a check fails, so its
// answers, errors included, are those of compiling. Programs are never
// changed once built; evaluation only reads them. A Compiler keeps nothing
// its results need, so [NewPooledCompiler] and [Compiler.Release]
// (compile_pool.go) reuse one across requests.
//
// A [Matcher] (eval_encoded.go) evaluates a condition on stored items
// (storage.EncodedItem) without decoding them: it reads the attributes the
// condition names in one walk of the record, follows paths in place and
// allocates nothing per item. A [Projector] (projection_encoded.go) copies
// the projected parts of a stored item into a new record. Their answers
// are Eval's and Apply's; randomized tests and a fuzz target hold them
// together.
//
// Files: token, scanner, parser, ast (syntax); compile, compile_ast,
// condition, keycond, keycond_multi, update, projection, legacy, names,
// reserved (compiling); eval, apply, path (evaluating decoded items);
// eval_encoded, projection_encoded (stored items); legacy_filter (a
// legacy QueryFilter or ScanFilter, a list of conditions evaluated
// without a tree, on both); cache; errors.
//
// # Errors
//
// Every error is an [*Error] whose Error() is the exact message of
// DynamoDB's ValidationException ("Invalid UpdateExpression: Syntax error;
// token: ...") and whose Pos is a byte offset into the expression (-1 when
// there is none). The messages were recorded from DynamoDB Local; the
// goldens under testdata/ replay them. Some messages have no expression
// prefix because DynamoDB gives none (key-condition shape errors, update
// application errors such as [MsgInvalidPathForUpdate], legacy parameter
// errors).
//
// # Semantics
//
// Comparisons of different types are false, = needs both operands present,
// <> is true when either is missing. size() counts UTF-16 code units of a
// string, bytes of a binary and elements of sets, lists and maps. Updates
// resolve every action (its operands and its target path, list indexes
// included) against the item as it was before the update: a SET or ADD at
// or past the end of a list appends, in index order; a REMOVE or DELETE
// past the end does nothing; several REMOVEs name original positions
// (apply.go lists the rules and their sources). [Update.Apply] never
// modifies the item passed to it.
//
// # Caveats
//
// Messages that list several keys (unused placeholders) follow the
// iteration order of a Java HashSet, as DynamoDB's do. When several
// placeholder keys are malformed (or several names empty), DynamoDB names the
// first in request order; Go maps keep none, so [Compiler.Err] names the
// first in sorted order. A few messages come
// from DynamoDB Local and may differ slightly from AWS; the legacy messages
// for an invalid KeyConditions operator and for a bad enum value are not
// verified. Checks that need the table (key attributes in a filter or
// update, the request-level rules about mixing legacy parameters with
// expressions) belong to the caller; [Condition.Attributes] and
// [Update.Attributes] give it what it needs.
package expr
