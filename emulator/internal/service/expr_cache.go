package service

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// The compiled-expression cache of the data plane. Every request's
// Compiler (newCompiler) looks its condition, filter, key condition,
// projection and update expressions up here first, by text and what their
// #names stand for; the request's ExpressionAttributeValues are bound to
// the cached program, never part of the key. A hit changes what a request
// costs, never what it answers: expr.Cache re-runs the checks that look at
// values and compiles afresh for any error (expr/cache.go).
//
// One cache serves the process: programs depend on nothing but their text
// and names (not on the table, the namespace or the emulator), are
// immutable, and the cache is bounded (expr.DefaultCacheEntries entries,
// expr.DefaultCacheBytes bytes), so emulators in one process share it
// safely. It is made on first use, not at init: start-up pays nothing for it.
var exprCache = sync.OnceValue(func() *expr.Cache { return expr.NewCache(0, 0) })
