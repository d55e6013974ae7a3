package service

import "testing"

// PartiQL through the handler on the item of BenchmarkGetItem and
// BenchmarkUpdateItemWithCondition, so the three compare: the statement
// text is parsed once (the cache), lowered and compiled per request.

func BenchmarkExecuteStatementSelectKey(b *testing.B) {
	env := newItemsBenchEnv(b)
	b.ReportAllocs()
	benchCall(b, env.h, "ExecuteStatement", []byte(`{"Statement":"SELECT * FROM ths WHERE pk = ? AND sk = 1","Parameters":[{"S":"bench"}]}`))
}

func BenchmarkExecuteStatementUpdate(b *testing.B) {
	env := newItemsBenchEnv(b)
	b.ReportAllocs()
	benchCall(b, env.h, "ExecuteStatement", []byte(`{"Statement":"UPDATE ths SET v = v + ? WHERE pk = 'bench' AND sk = 1 AND v >= 0","Parameters":[{"N":"1"}]}`))
}
