package lower

import (
	"bufio"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The corpus: every PartiQL statement of the emulator's and the
// conformance suite's tests (at d4f96d0), with what the old text
// translation gave for it (testdata/corpus.jsonl, recorded with
// testdata/record-corpus.patch): its error, or the expression texts,
// placeholder maps, key and item it built. The lowering must give an
// equivalent result: the same error, or compiled forms that do the same
// on sample items, except where the old translation was wrong or AWS's
// words are now used (corpusChanges).

type corpusRecord struct {
	Kind       string                     `json:"kind"`
	Stmt       string                     `json:"stmt"`
	Params     []json.RawMessage          `json:"params"`
	Table      map[string]string          `json:"table"`
	Index      map[string]string          `json:"index"`
	IndexMulti bool                       `json:"indexMulti"`
	Names      map[string]string          `json:"names"`
	Values     map[string]json.RawMessage `json:"values"`
	Error      string                     `json:"error"`
	ItemRule   bool                       `json:"itemRule"`
	Filter     string                     `json:"filter"`
	KCs        []string                   `json:"kcs"`
	Equality   bool                       `json:"equality"`
	Forward    *bool                      `json:"forward"`
	Proj       []string                   `json:"proj"`
	Aliases    []string                   `json:"aliases"`
	Item       json.RawMessage            `json:"item"`
	Key        json.RawMessage            `json:"key"`
	RestN      int                        `json:"restN"`
	Update     string                     `json:"update"`
	Order      []int                      `json:"order"`
	Cond       string                     `json:"cond"`
	Rest       *string                    `json:"rest"`
}

func readCorpus(t testing.TB) []corpusRecord {
	t.Helper()
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r corpusRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func keySchema(m map[string]string) storage.KeySchema {
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: m["pk"], Kind: storage.KindFromString(m["pkType"])}}
	if m["sk"] != "" {
		ks.Sort = storage.KeyAttr{Name: m["sk"], Kind: storage.KindFromString(m["skType"])}
	}
	return ks
}

// emulatorErrors are the old errors that come from the emulator (the table
// and index lookup, the key values' rules, the conventions layer), not
// from the translation: the lowering has nothing to say about them.
var emulatorErrors = []string{
	"Requested resource not found",
	"The table does not have the specified index",
	"[conventions",
	"One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string",
	"One or more parameter values were invalid: Cannot update attribute",
	"One or more parameter values were invalid: Type mismatch for",
}

// corpusChanges are the statements (by a part of their text) for which
// the lowering answers otherwise than the old translation, on purpose,
// with what it answers now ("" for success).
var corpusChanges = map[string]string{
	// AWS's wording for the multi-attribute key refusal.
	`."byMatch" WHERE`: msgMultiKey,
	// AWS places an unknown function ("Unrecognized function: foo at ...").
	"foo(x) = 1":      "Unrecognized function: foo at 1:",
	"SET v = nope(1)": "Unrecognized function: nope at 1:65:4",
	// AWS refuses OR branches that read the same sort keys of a partition
	// (overlap.go).
	"AND (sk = 1 OR v = 50)":           msgOverlapping,
	"pk IN ['b', 'zz', 'a', 'b'] AND ": msgOverlapping,
}

// corpusChange returns what the lowering answers now for a statement the
// old translation answered otherwise, and whether it is one.
func corpusChange(stmt string) (string, bool) {
	for k, v := range corpusChanges {
		if strings.Contains(stmt, k) {
			return v, true
		}
	}
	return "", false
}

// TestCorpus runs the corpus through the lowering.
func TestCorpus(t *testing.T) {
	recs := readCorpus(t)
	if len(recs) < 300 {
		t.Fatalf("corpus has %d records, want the whole of it", len(recs))
	}
	compared := 0
	for _, r := range recs {
		if r.Table == nil || isEmulatorError(r.Error) {
			continue
		}
		st, perr := partiql.Parse(r.Stmt)
		if perr != nil {
			t.Errorf("%s: %q no longer parses: %v", r.Kind, r.Stmt, perr)
			continue
		}
		params := make([]storage.Value, len(r.Params))
		for i, p := range r.Params {
			params[i] = decodeAV(t, p)
		}
		b := Binding{Src: r.Stmt, Params: params}
		got, err := lowerRecord(t, r, st, b)
		want := r.Error
		if r.Kind == "exists" && want == "" && (r.Rest == nil || *r.Rest == "") {
			want = msgTxExists // the old code refused it after planning
		}
		if r.Kind == "get" && want == "" && r.RestN > 0 {
			want = msgTxSelectKey
		}
		if r.Kind == "get" && want == msgKeyEquality {
			want = msgTxSelectKey
		}
		gotMsg := ""
		if err != nil {
			gotMsg = err.Error()
		}
		if change, ok := corpusChange(r.Stmt); ok {
			if !strings.HasPrefix(gotMsg, change) || change == "" && gotMsg != "" {
				t.Errorf("%s %q: got %q, want the new answer %q", r.Kind, r.Stmt, gotMsg, change)
			}
			continue
		}
		compared++
		if gotMsg != want {
			t.Errorf("%s %q:\n got error %q\nwant error %q", r.Kind, r.Stmt, gotMsg, want)
			continue
		}
		if err != nil {
			var le *Error
			if ok := asLowerError(err, &le); !ok {
				t.Errorf("%s %q: error %T, want *Error", r.Kind, r.Stmt, err)
			} else if le.Item != r.ItemRule && r.Kind != "get" && r.Kind != "exists" {
				t.Errorf("%s %q: Item %v, want %v", r.Kind, r.Stmt, le.Item, r.ItemRule)
			}
			continue
		}
		compareRecord(t, r, got)
	}
	if compared < 250 {
		t.Errorf("compared %d records, want most of the corpus", compared)
	}
}

func isEmulatorError(msg string) bool {
	for _, e := range emulatorErrors {
		if strings.HasPrefix(msg, e) {
			return true
		}
	}
	return false
}

func asLowerError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

// lowerRecord lowers a record's statement as the emulator will.
func lowerRecord(t *testing.T, r corpusRecord, st partiql.Statement, b Binding) (any, error) {
	ks := keySchema(r.Table)
	switch r.Kind {
	case "select":
		target := Target{Keys: ks}
		if r.Index != nil {
			target = Target{Keys: keySchema(r.Index), Multi: r.IndexMulti}
		}
		return LowerSelect(b, st.(*partiql.Select), target)
	case "insert":
		return LowerInsert(b, st.(*partiql.Insert), ks)
	case "update":
		return LowerUpdate(b, st.(*partiql.Update), ks)
	case "delete":
		return LowerDelete(b, st.(*partiql.Delete), ks)
	case "exists":
		return LowerExists(b, st.(*partiql.Exists), ks)
	case "get":
		return LowerTxGet(b, st.(*partiql.Select), ks)
	}
	t.Fatalf("unknown kind %q", r.Kind)
	return nil, nil
}

// oldCompiler compiles a record's old expression texts.
func oldCompiler(t *testing.T, r corpusRecord) *expr.Compiler {
	vals := map[string]storage.Value{}
	for k, v := range r.Values {
		vals[k] = decodeAV(t, v)
	}
	return expr.NewCompiler(r.Names, vals)
}

// samples are the items conditions and updates are compared on: none,
// the key alone, and the key with each attribute the statement names set
// to each value it uses (and to a list and a map holding them).
func samples(t *testing.T, r corpusRecord) []storage.Item {
	key := decodeItem(t, r.Key)
	if key == nil {
		key = storage.Item{}
	}
	base := func() storage.Item {
		it := storage.Item{}
		for k, v := range key {
			it[k] = v
		}
		return it
	}
	var vals []storage.Value
	for _, v := range r.Values {
		vals = append(vals, decodeAV(t, v))
	}
	vals = append(vals, storage.N("1"), storage.S("p"), storage.Bool(true), storage.Null())
	sort.Slice(vals, func(i, j int) bool { return render(vals[i]) < render(vals[j]) })
	names := make([]string, 0, len(r.Names))
	for _, n := range r.Names {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []storage.Item{nil, base()}
	for _, v := range vals {
		all := base()
		for _, n := range names {
			it := base()
			it[n] = v
			out = append(out, it)
			all[n] = v
			nested := base()
			nested[n] = storage.L([]storage.Value{v, storage.M(map[string]storage.Value{n: v})})
			out = append(out, nested)
		}
		out = append(out, all)
	}
	return out
}

func sameCondition(t *testing.T, r corpusRecord, what string, old, lowered *expr.Condition, items []storage.Item) {
	for _, it := range items {
		a, _ := old.Eval(it)
		b, _ := lowered.Eval(it)
		if a != b {
			t.Errorf("%s %q: %s on %s: old %v, lowered %v", r.Kind, r.Stmt, what, renderItem(it), a, b)
			return
		}
	}
}

// compareRecord compares what the lowering built with what the old
// translation built.
func compareRecord(t *testing.T, r corpusRecord, got any) {
	items := samples(t, r)
	switch r.Kind {
	case "select":
		s := got.(*Select)
		c := oldCompiler(t, r)
		if r.Filter != "" {
			old, err := c.Condition("FilterExpression", r.Filter)
			if err != nil || s.Filter == nil {
				t.Errorf("%q: old filter %v, lowered %v", r.Stmt, err, s.Filter)
				return
			}
			sameCondition(t, r, "filter", old, s.Filter, items)
		} else if s.Filter != nil {
			t.Errorf("%q: a filter the old translation did not have", r.Stmt)
		}
		var oldKeys []*expr.KeyCondition
		ks := keySchema(r.Table)
		if r.Index != nil {
			ks = keySchema(r.Index)
		}
		for _, text := range r.KCs {
			kc, err := c.KeyCondition(text, ks)
			if err != nil {
				continue
			}
			dup := false
			for _, have := range oldKeys {
				dup = dup || storage.Equal(have.Partition, kc.Partition)
			}
			if !dup {
				oldKeys = append(oldKeys, kc)
			}
		}
		if len(oldKeys) != len(s.Keys) || s.Equality != r.Equality || (len(r.KCs) > 0 && len(oldKeys) == 0) != s.None {
			t.Errorf("%q: %d key conditions (equality %v, none %v), old %d (%v)", r.Stmt, len(s.Keys), s.Equality, s.None, len(oldKeys), r.Equality)
			return
		}
		for i, kc := range oldKeys {
			k := s.Keys[i]
			if !storage.Equal(kc.Partition, k.Partition) || kc.Sort.Op != k.Sort.Op ||
				!storage.Equal(kc.Sort.Values[0], k.Sort.Values[0]) || !storage.Equal(kc.Sort.Values[1], k.Sort.Values[1]) {
				t.Errorf("%q: key condition %d differs: %+v, old %+v", r.Stmt, i, k, kc)
			}
		}
		if r.Forward != nil && *r.Forward != s.Forward {
			t.Errorf("%q: forward %v, old %v", r.Stmt, s.Forward, *r.Forward)
		}
		if len(r.Proj) > 0 {
			old, err := c.Projection(strings.Join(r.Proj, ", "))
			if err != nil || s.Projection == nil {
				t.Errorf("%q: old projection %v, lowered %v", r.Stmt, err, s.Projection)
				return
			}
			if a, b := pathsString(old.Paths()), pathsString(s.Projection.Paths()); a != b {
				t.Errorf("%q: projection %s, old %s", r.Stmt, b, a)
			}
			for i, c := range s.Columns {
				if c.Name != r.Aliases[i] {
					t.Errorf("%q: column %d named %q, old %q", r.Stmt, i, c.Name, r.Aliases[i])
				}
			}
		}
	case "insert":
		if a, b := renderItem(decodeItem(t, r.Item)), renderItem(got.(storage.Item)); a != b {
			t.Errorf("%q: item %s, old %s", r.Stmt, b, a)
		}
	case "update":
		u := got.(*Update)
		if a, b := renderItem(decodeItem(t, r.Key)), renderItem(u.Key); a != b {
			t.Errorf("%q: key %s, old %s", r.Stmt, b, a)
		}
		c := oldCompiler(t, r)
		oldU, err := c.UpdateInOrder(r.Update, r.Order)
		if err != nil {
			t.Errorf("%q: the old update does not compile: %v", r.Stmt, err)
			return
		}
		for _, it := range items {
			a, errA := oldU.Apply(it)
			b, errB := u.Update.Apply(it)
			if renderItem(a) != renderItem(b) || (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() {
				t.Errorf("%q: update of %s: lowered %s %v, old %s %v", r.Stmt, renderItem(it), renderItem(b), errB, renderItem(a), errA)
				return
			}
		}
		oldC, err := c.Condition("ConditionExpression", r.Cond)
		if err != nil {
			t.Errorf("%q: the old condition does not compile: %v", r.Stmt, err)
			return
		}
		sameCondition(t, r, "condition", oldC, u.Cond, items)
	case "delete", "exists":
		d := got.(*Delete)
		if a, b := renderItem(decodeItem(t, r.Key)), renderItem(d.Key); a != b {
			t.Errorf("%q: key %s, old %s", r.Stmt, b, a)
		}
		if *r.Rest == "" {
			if d.Cond != nil {
				t.Errorf("%q: a condition the old translation did not have", r.Stmt)
			}
			return
		}
		old, err := oldCompiler(t, r).Condition("ConditionExpression", *r.Rest)
		if err != nil || d.Cond == nil {
			t.Errorf("%q: old condition %v, lowered %v", r.Stmt, err, d.Cond)
			return
		}
		// On an existing item the condition is the old one; on no item a
		// DELETE's holds and an EXISTS's does not (the old translation's
		// known bugs).
		sameCondition(t, r, "condition", old, d.Cond, items[1:])
		if ok, _ := d.Cond.Eval(nil); ok != (r.Kind == "delete") {
			t.Errorf("%q: condition on no item %v", r.Stmt, ok)
		}
	case "get":
		g := got.(*Get)
		if a, b := renderItem(decodeItem(t, r.Key)), renderItem(g.Key); a != b {
			t.Errorf("%q: key %s, old %s", r.Stmt, b, a)
		}
		if len(r.Proj) > 0 {
			old, err := oldCompiler(t, r).Projection(strings.Join(r.Proj, ", "))
			if err != nil || g.Projection == nil {
				t.Errorf("%q: old projection %v, lowered %v", r.Stmt, err, g.Projection)
			} else if a, b := pathsString(old.Paths()), pathsString(g.Projection.Paths()); a != b {
				t.Errorf("%q: projection %s, old %s", r.Stmt, b, a)
			}
		}
	}
}

func pathsString(ps []expr.Path) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = p.String()
	}
	return strings.Join(parts, ", ")
}
