package lower

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// BenchmarkLowerSelectKey lowers a SELECT by its full key (the statement
// already parsed, as the emulator caches parses): key condition and
// filter built and compiled.
func BenchmarkLowerSelectKey(b *testing.B) {
	src := `SELECT * FROM "t" WHERE pk = ? AND sk = ?`
	st, err := partiql.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	bind := Binding{Src: src, Params: []storage.Value{storage.S("p"), storage.N("1")}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LowerSelect(bind, st.(*partiql.Select), Target{Keys: rangeKeys}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTextSelectKey is what the old text translation compiled for the
// same statement (the expression texts it printed, parsed and compiled
// again), not counting the printing.
func BenchmarkTextSelectKey(b *testing.B) {
	names := map[string]string{"#n0": "pk", "#n1": "sk"}
	values := map[string]storage.Value{":v0": storage.S("p"), ":v1": storage.N("1"), ":v2": storage.S("p"), ":v3": storage.N("1")}
	b.ReportAllocs()
	for b.Loop() {
		c := expr.NewCompiler(names, values)
		if _, err := c.KeyCondition("#n0 = :v2 AND #n1 = :v3", rangeKeys); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Condition("FilterExpression", "#n0 = :v0 AND #n1 = :v1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLowerUpdate lowers an UPDATE with a condition.
func BenchmarkLowerUpdate(b *testing.B) {
	src := `UPDATE "t" SET a = ?, b = b + 1 REMOVE c WHERE pk = ? AND (x = 5 OR x = 6)`
	st, err := partiql.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	bind := Binding{Src: src, Params: []storage.Value{storage.S("v"), storage.S("p")}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LowerUpdate(bind, st.(*partiql.Update), hashKeys); err != nil {
			b.Fatal(err)
		}
	}
}
