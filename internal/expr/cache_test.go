package expr

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// outcome is everything a request sees of compiling one expression: the
// error or the canonical text, Unused, and the results of using it.
type outcome struct {
	err, str, unused string
	results          []string
}

func (o outcome) String() string {
	return fmt.Sprintf("err=%q str=%q unused=%q results=%v", o.err, o.str, o.unused, o.results)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// compileOutcome compiles text of kind (condition, keycond, projection,
// update) with comp and uses the result on items.
func compileOutcome(comp *Compiler, kind, text string, items []storage.Item) outcome {
	var o outcome
	var err error
	switch kind {
	case "condition", "filter":
		var cond *Condition
		if cond, err = comp.Condition("FilterExpression", text); err == nil {
			o.str = cond.String() + " " + strings.Join(cond.Attributes(), ",")
			for _, it := range items {
				ok, _ := cond.Eval(it)
				o.results = append(o.results, fmt.Sprint(ok))
			}
		}
	case "keycond":
		var kc *KeyCondition
		if kc, err = comp.KeyCondition(text, oracleKeySchema); err == nil {
			o.str = fmt.Sprintf("%v %v", kc.Partition, kc.Sort)
		}
	case "projection":
		var p *Projection
		if p, err = comp.Projection(text); err == nil {
			o.str = p.String()
			for _, it := range items {
				o.results = append(o.results, encodeItem(p.Apply(it)))
			}
		}
	case "update":
		var u *Update
		if u, err = comp.Update(text); err == nil {
			o.str = u.String()
			for _, it := range items {
				out, err := u.Apply(it)
				o.results = append(o.results, encodeItem(out)+errText(err))
			}
		}
	}
	o.err = errText(err)
	if err == nil {
		o.unused = errText(comp.Unused())
	}
	return o
}

// TestCacheOracle compiles every expression recorded from DynamoDB Local
// through one cache, three times over: each verdict is the uncached one.
func TestCacheOracle(t *testing.T) {
	cache := NewCache(0, 0)
	cases := readOracle(t, "testdata/oracle.txt")
	for pass := range 3 {
		for _, c := range cases {
			var names map[string]string
			if c.names != "" {
				json.Unmarshal([]byte(c.names), &names)
			}
			values := decodeValues(t, c.values)
			want := compileOutcome(NewCompiler(names, values), c.kind, c.expr, []storage.Item{fuzzItem})
			got := compileOutcome(NewCachedCompiler(cache, names, values), c.kind, c.expr, []storage.Item{fuzzItem})
			if got.String() != want.String() {
				t.Fatalf("pass %d, line %d: %s %q\ncached   %v\nuncached %v", pass, c.line, c.kind, c.expr, got, want)
			}
		}
	}
	if st := cache.Stats(); st.Hits == 0 {
		t.Fatalf("no hits: %+v", st)
	}
}

// variant returns the placeholder maps of c with some values replaced
// (by values of any type, or left out), some added, and some #names
// standing for other attributes.
func (g exprGen) variant(c exprCase) exprCase {
	v := exprCase{text: c.text, names: maps.Clone(c.names), values: maps.Clone(c.values)}
	for k := range v.values {
		switch g.r.IntN(6) {
		case 0:
			v.values[k] = g.value(0)
		case 1:
			v.values[k] = g.scalar()
		case 2:
			if g.r.IntN(4) == 0 {
				delete(v.values, k)
			}
		}
	}
	if g.r.IntN(10) == 0 {
		if v.values == nil {
			v.values = map[string]storage.Value{}
		}
		v.values[":extra"] = g.scalar()
	}
	for k := range v.names {
		if g.r.IntN(5) == 0 {
			v.names[k] = g.pick(genTop)
		}
	}
	return v
}

// TestCacheRandom compiles random conditions and projections with
// varied placeholder maps through one cache: every outcome (error,
// canonical text, Unused, evaluations) is the uncached one.
func TestCacheRandom(t *testing.T) {
	g := exprGen{r: rand.New(rand.NewPCG(testSeed(t), 3))}
	items := make([]storage.Item, 20)
	for i := range items {
		items[i] = g.item()
	}
	cache := NewCache(64, 0) // small: entries are evicted too
	hits := 0
	for range 1500 {
		kind, c := "condition", g.condition()
		if g.r.IntN(4) == 0 {
			kind, c = "projection", g.projection()
		}
		for range 6 {
			v := g.variant(c)
			want := compileOutcome(NewCompiler(v.names, v.values), kind, v.text, items)
			before := cache.Stats().Hits
			got := compileOutcome(NewCachedCompiler(cache, v.names, v.values), kind, v.text, items)
			if got.String() != want.String() {
				t.Fatalf("%s %q names %v values %v\ncached   %v\nuncached %v", kind, v.text, v.names, v.values, got, want)
			}
			if cache.Stats().Hits > before {
				hits++
			}
		}
	}
	st := cache.Stats()
	t.Logf("%d hits, stats %+v", hits, st)
	if hits < 1000 || st.Evictions == 0 || st.Entries > 64 {
		t.Fatalf("the cache was not exercised: %d hits, %+v", hits, st)
	}
}

// updateCases are the update expressions of the recorded corpora, with
// the placeholder maps they were recorded with.
func updateCases(t *testing.T) []exprCase {
	var out []exprCase
	add := func(kind, names, values, text string) {
		var n map[string]string
		if names != "" {
			json.Unmarshal([]byte(names), &n)
		}
		out = append(out, exprCase{text: text, names: n, values: decodeValues(t, values)})
	}
	for _, c := range readOracle(t, "testdata/oracle.txt") {
		if c.kind == "update" {
			add(c.kind, c.names, c.values, c.expr)
		}
	}
	for _, c := range readEvalCases(t, "testdata/eval.txt") {
		if c.kind == "apply" {
			add(c.kind, c.names, c.values, c.expr)
		}
	}
	return out
}

// TestCacheUpdates compiles the recorded update expressions with varied
// values through one cache and applies them to random items.
func TestCacheUpdates(t *testing.T) {
	g := exprGen{r: rand.New(rand.NewPCG(testSeed(t), 4))}
	items := []storage.Item{nil, fuzzItem}
	for range 10 {
		items = append(items, g.item())
	}
	cache := NewCache(0, 0)
	cases := updateCases(t)
	if len(cases) < 50 {
		t.Fatalf("only %d update cases", len(cases))
	}
	for range 4 {
		for _, c := range cases {
			v := g.variant(c)
			want := compileOutcome(NewCompiler(v.names, v.values), "update", v.text, items)
			got := compileOutcome(NewCachedCompiler(cache, v.names, v.values), "update", v.text, items)
			if got.String() != want.String() {
				t.Fatalf("update %q names %v values %v\ncached   %v\nuncached %v", v.text, v.names, v.values, got, want)
			}
		}
	}
	if cache.Stats().Hits == 0 {
		t.Fatal("no hits")
	}
}

// TestCacheConcurrent shares one cache among goroutines compiling the
// same texts with different values (run it with -race).
func TestCacheConcurrent(t *testing.T) {
	seed := testSeed(t)
	g := exprGen{r: rand.New(rand.NewPCG(seed, 5))}
	var cases []exprCase
	for range 40 {
		cases = append(cases, g.condition())
	}
	items := []storage.Item{g.item(), g.item(), g.item()}
	encs := store(t, items)
	cache := NewCache(0, 0)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := exprGen{r: rand.New(rand.NewPCG(seed, uint64(100+w)))}
			for range 300 {
				v := g.variant(cases[g.r.IntN(len(cases))])
				want := compileOutcome(NewCompiler(v.names, v.values), "condition", v.text, items)
				comp := NewCachedCompiler(cache, v.names, v.values)
				got := compileOutcome(comp, "condition", v.text, items)
				if got.String() != want.String() {
					errs <- fmt.Sprintf("%q: cached %v, uncached %v", v.text, got, want)
					return
				}
				if cond, err := NewCachedCompiler(cache, v.names, v.values).Condition("FilterExpression", v.text); err == nil {
					m := cond.Matcher()
					for i, e := range encs {
						if want, _ := cond.Eval(items[i]); m.Match(e) != want {
							errs <- fmt.Sprintf("%q: Match differs from Eval", v.text)
							return
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestCacheBounds(t *testing.T) {
	tests := []struct {
		entries  int
		bytes    int64
		texts    int
		maxKept  int
		maxBytes int64
	}{
		{entries: 40, bytes: 1 << 20, texts: 500, maxKept: 40, maxBytes: 1 << 20},
		{entries: 10000, bytes: 64 << 10, texts: 500, maxKept: 10000, maxBytes: 64 << 10},
		{entries: -1, bytes: 0, texts: 50, maxKept: 0, maxBytes: 0},
	}
	for _, tc := range tests {
		cache := NewCache(tc.entries, tc.bytes)
		for i := range tc.texts {
			text := fmt.Sprintf("a%d = :v OR b.c[%d] <> :v", i, i)
			for range 2 {
				if _, err := NewCachedCompiler(cache, nil, map[string]storage.Value{":v": storage.S("x")}).Condition("FilterExpression", text); err != nil {
					t.Fatal(err)
				}
			}
		}
		st := cache.Stats()
		if st.Entries > tc.maxKept || st.Bytes > tc.maxBytes || (tc.maxKept > 0 && st.Entries == 0) {
			t.Errorf("NewCache(%d, %d) after %d texts: got %+v, want at most %d entries and %d bytes", tc.entries, tc.bytes, tc.texts, st, tc.maxKept, tc.maxBytes)
		}
		if tc.maxKept > 0 && st.Evictions == 0 {
			t.Errorf("NewCache(%d, %d): got no evictions", tc.entries, tc.bytes)
		}
	}
}

// TestCacheVariants: one text with its #names standing for different
// attributes is kept once per meaning, and each request gets its own.
func TestCacheVariants(t *testing.T) {
	cache := NewCache(0, 0)
	item := storage.Item{"a": storage.N("1"), "b": storage.N("2")}
	for round := range 3 {
		for _, name := range []string{"a", "b", "c"} {
			cond, err := NewCachedCompiler(cache, map[string]string{"#n": name}, map[string]storage.Value{":v": storage.N("2")}).Condition("FilterExpression", "#n = :v")
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := cond.Eval(item); got != (name == "b") {
				t.Errorf("round %d, #n = %s: got %v", round, name, got)
			}
		}
	}
	if st := cache.Stats(); st.Entries != 3 || st.Hits != 6 {
		t.Errorf("got %+v, want 3 entries and 6 hits", st)
	}
}

// TestCacheHitAllocs: a hit allocates the Compiler and the bound result
// alone.
func TestCacheHitAllocs(t *testing.T) {
	cache := NewCache(0, 0)
	names := map[string]string{"#c": "count"}
	values := map[string]storage.Value{":z": storage.N("0"), ":p": storage.S("user#1")}
	tests := []struct {
		name string
		run  func(c *Compiler) error
		want float64
	}{
		{"condition", func(c *Compiler) error { _, err := c.Condition("FilterExpression", "#c = :z"); return err }, 2},
		{"keycondition", func(c *Compiler) error { _, err := c.KeyCondition("pk = :p", oracleKeySchema); return err }, 2},
		{"projection", func(c *Compiler) error { _, err := c.Projection("#c, pk"); return err }, 1},
		{"update", func(c *Compiler) error { _, err := c.Update("SET #c = #c + :z"); return err }, 2},
	}
	for _, tc := range tests {
		used := map[string]storage.Value{}
		if strings.Contains(tc.name, "key") {
			used[":p"] = values[":p"]
		} else if tc.name != "projection" {
			used[":z"] = values[":z"]
		}
		nm := names
		if strings.Contains(tc.name, "key") {
			nm = nil
		}
		if err := tc.run(NewCachedCompiler(cache, nm, used)); err != nil {
			t.Fatal(err)
		}
		got := testing.AllocsPerRun(100, func() {
			if err := tc.run(NewCachedCompiler(cache, nm, used)); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %v allocations per hit", tc.name, got)
		if got > tc.want {
			t.Errorf("%s: a hit allocates %v times, want at most %v", tc.name, got, tc.want)
		}
	}
}

// TestCacheImmutable: using a shared program (evaluating, matching,
// applying, projecting, reading its attributes and paths) leaves it
// deeply equal to a fresh compilation of the same text: nothing a request
// does writes into what the cache shares.
func TestCacheImmutable(t *testing.T) {
	g := exprGen{r: rand.New(rand.NewPCG(testSeed(t), 6))}
	items := []storage.Item{g.item(), g.item(), g.item(), fuzzItem, nil}
	encs := store(t, items[:3])
	cache := NewCache(0, 0)
	checked := 0
	for range 300 {
		c := g.condition()
		shared, err := NewCachedCompiler(cache, c.names, c.values).Condition("FilterExpression", c.text)
		if err != nil {
			continue
		}
		for range 2 {
			for _, it := range items {
				shared.Eval(it)
			}
			m := shared.Matcher()
			for _, e := range encs {
				m.Match(e)
			}
			attrs := shared.Attributes()
			for i := range attrs {
				attrs[i] = "changed"
			}
			_ = shared.String()
		}
		fresh, _ := NewCompiler(c.names, c.values).Condition("FilterExpression", c.text)
		if !reflect.DeepEqual(shared.condProgram, fresh.condProgram) {
			t.Fatalf("%q: the shared program changed", c.text)
		}
		checked++
	}
	for _, c := range updateCases(t) {
		shared, err := NewCachedCompiler(cache, c.names, c.values).Update(c.text)
		if err != nil {
			continue
		}
		for _, it := range items {
			shared.Apply(it)
			shared.UpdatedOld(it)
		}
		_ = shared.Attributes()
		fresh, _ := NewCompiler(c.names, c.values).Update(c.text)
		if !reflect.DeepEqual(shared.updateProgram, fresh.updateProgram) {
			t.Fatalf("%q: the shared update changed", c.text)
		}
		checked++
	}
	for range 100 {
		c := g.projection()
		shared, err := NewCachedCompiler(cache, c.names, nil).Projection(c.text)
		if err != nil {
			continue
		}
		pr := shared.Projector()
		for i, it := range items[:3] {
			shared.Apply(it)
			pr.Append(nil, encs[i])
		}
		fresh, _ := NewCompiler(c.names, nil).Projection(c.text)
		if !reflect.DeepEqual(shared, fresh) {
			t.Fatalf("%q: the shared projection changed", c.text)
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d programs checked", checked)
	}
}
