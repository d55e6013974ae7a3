package expr

import (
	"strconv"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
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

// BenchmarkApplyListUpdate: several actions on one list of n elements
// (the list is copied once per update, not once per action).
func BenchmarkApplyListUpdate(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			l := make([]storage.Value, n)
			for i := range l {
				l[i] = storage.N(storage.Number(strconv.Itoa(i)))
			}
			item := storage.Item{"pk": storage.S("k"), "l": storage.L(l)}
			u, err := NewCompiler(nil, map[string]storage.Value{":v": storage.S("x")}).
				Update("SET l[" + strconv.Itoa(n) + "] = :v, l[1] = :v, l[3] = :v REMOVE l[0], l[2]")
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
