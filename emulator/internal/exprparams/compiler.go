package exprparams

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// The compiled-expression cache of the data plane and of SearchVectors.
// Every request's Compiler (NewCompiler) looks its condition, filter, key
// condition, projection and update expressions up here first, by text
// and what their #names stand for; the request's
// ExpressionAttributeValues are bound to the cached program, never part
// of the key. A hit changes what a request costs, never what it answers:
// expr.Cache re-runs the checks that look at values and compiles afresh
// for any error (expr/cache.go).
//
// One cache serves the process: programs depend on nothing but their text
// and names (not on the table, the namespace or the emulator), are
// immutable, and the cache is bounded (expr.DefaultCacheEntries entries,
// expr.DefaultCacheBytes bytes), so emulators in one process share it
// safely. It is made on first use, not at init: start-up pays nothing for it.
var exprCache = sync.OnceValue(func() *expr.Cache { return expr.NewCache(0, 0) })

// NewCompiler returns the request's expression compiler over its
// ExpressionAttributeNames and ExpressionAttributeValues (either may be
// nil), or the error of the maps themselves (a key that is no placeholder,
// an empty name), which AWS reports before looking at any expression.
// Two differences from DynamoDB Local remain: a name mapped to JSON null
// decodes as "" and is reported as empty ("null for key #v" there), and a
// bad ExpressionAttributeValues value is reported by the decoder, before
// any of these checks (there, after the maps' keys).
//
// Expressions are looked up in the process's cache first (exprCache).
//
// Then the maps' size (wire's wire_placeholders.go): a map of more than 2 MB
// arrives as a stand-in holding only what Err could report.
func NewCompiler(names map[string]string, values wire.ExpressionValues) (*expr.Compiler, error) {
	names, namesOver := wire.WithoutStandIn(names)
	vals := wire.SplitValues(values)          // a map, or a table of many values (wire_compact.go)
	comp := vals.Compiler(exprCache(), names) // a caller done with it may Release it
	if err := comp.Err(); err != nil {
		return nil, err
	}
	if err := wire.SubstitutionSizeError(names, namesOver, vals); err != nil {
		return nil, err
	}
	return comp, nil
}
