package lower

import (
	"errors"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// FuzzLower parses statements and lowers every one that parses, against a
// table with a sort key and one without, an index and a multi-attribute
// one: lowering never panics, every error is an *Error, and what it builds
// evaluates and applies.
func FuzzLower(f *testing.F) {
	for _, r := range readCorpus(f) {
		f.Add(r.Stmt)
	}
	for _, s := range []string{
		"UPDATE t SET ss = set_add(ss, <<'x'>>) WHERE pk = 'a' AND (c = 5 OR c = 6)",
		"FROM t WHERE pk = ? AND attribute_exists(x) = true SET c = ? REMOVE d RETURNING ALL NEW *",
		"SELECT a, m.l[1] FROM t WHERE pk IN ['a', ?] AND sk BETWEEN 1 AND 9 AND x IS NOT STRING ORDER BY sk DESC",
		"EXISTS(SELECT * FROM t WHERE pk = 'a' AND sk = 1 AND (n = 5) = flag)",
		"DELETE FROM t WHERE pk = 'a' AND sk = 2 AND 5 IS NUMERIC",
		"INSERT INTO t VALUE {'pk': 'a', 'sk': 1, 's': <<1, 2>>, 'l': [1e5, {'m': NULL}]}",
	} {
		f.Add(s)
	}
	params := []storage.Value{storage.S("a"), storage.N("1"), storage.SS([]string{"x"}), storage.Bool(true)}
	targets := []Target{{Keys: rangeKeys}, {Keys: hashKeys}, {Multi: true}}
	f.Fuzz(func(t *testing.T, src string) {
		st, err := partiql.Parse(src)
		if err != nil {
			return
		}
		b := Binding{Src: src, Params: params}
		for _, target := range targets {
			var err error
			switch s := st.(type) {
			case *partiql.Select:
				var sel *Select
				if sel, err = LowerSelect(b, s, target); err == nil {
					if sel.Filter != nil {
						sel.Filter.Eval(item)
						sel.Filter.Eval(nil)
					}
					sel.Project(item)
				}
				if _, e := LowerTxGet(b, s, target.Keys); e != nil {
					checkErr(t, src, e)
				}
				if _, e := LowerBatchGet(b, s, target); e != nil {
					checkErr(t, src, e)
				}
			case *partiql.Insert:
				_, err = LowerInsert(b, s, target.Keys)
			case *partiql.Update:
				var u *Update
				if u, err = LowerUpdate(b, s, target.Keys); err == nil {
					u.Cond.Eval(item)
					u.Update.Apply(item)
					u.Update.Apply(nil)
				}
			case *partiql.Delete:
				var d *Delete
				if d, err = LowerDelete(b, s, target.Keys); err == nil && d.Cond != nil {
					d.Cond.Eval(item)
				}
			case *partiql.Exists:
				var d *Delete
				if d, err = LowerExists(b, s, target.Keys); err == nil {
					d.Cond.Eval(nil)
				}
			}
			if err != nil {
				checkErr(t, src, err)
			}
		}
	})
}

func checkErr(t *testing.T, src string, err error) {
	var le *Error
	if !errors.As(err, &le) {
		t.Fatalf("%q: error %T %v, want *Error", src, err, err)
	}
	if le.Msg == "" {
		t.Fatalf("%q: an error without a message", src)
	}
	if errors.Is(err, expr.ErrMalformedTree) {
		t.Fatalf("%q: the lowering built a malformed tree: %v", src, err)
	}
}
