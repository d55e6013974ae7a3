package expr

import (
	"strconv"
	"testing"

	"github.com/dynamoemu/dynamoemu/storage"
)

const benchCondition = "attribute_exists(pk) AND #st IN (:a, :b) AND (size(tags) > :n OR begins_with(title, :p)) AND price BETWEEN :lo AND :hi"

func benchValues() map[string]storage.Value {
	return map[string]storage.Value{
		":a": storage.S("active"), ":b": storage.S("pending"), ":n": storage.N("2"), ":p": storage.S("Go"),
		":lo": storage.N("10"), ":hi": storage.N("99.5"),
	}
}

func BenchmarkCompileCondition(b *testing.B) {
	names := map[string]string{"#st": "status"}
	vals := benchValues()
	b.ReportAllocs()
	for b.Loop() {
		c := NewCompiler(names, vals)
		if _, err := c.Condition("ConditionExpression", benchCondition); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvalCondition(b *testing.B) {
	cond, err := NewCompiler(map[string]string{"#st": "status"}, benchValues()).Condition("ConditionExpression", benchCondition)
	if err != nil {
		b.Fatal(err)
	}
	item := storage.Item{
		"pk": storage.S("p#1"), "status": storage.S("pending"), "title": storage.S("Go in action"),
		"tags": storage.SS([]string{"a", "b", "c"}), "price": storage.N("42.5"),
	}
	b.ReportAllocs()
	for b.Loop() {
		if ok, _ := cond.Eval(item); !ok {
			b.Fatal("want true")
		}
	}
}

func BenchmarkApplyUpdate(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			item := storage.Item{"n": storage.N("1")}
			for i := 0; i < n; i++ {
				item["attr"+strconv.Itoa(i)] = storage.S("value")
			}
			u, err := NewCompiler(nil, map[string]storage.Value{":one": storage.N("1"), ":t": storage.S("x")}).
				Update("SET n = n + :one, t = :t REMOVE attr0")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := u.Apply(item); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
