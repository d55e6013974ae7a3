package service

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A QueryFilter or ScanFilter is read as a list (expr.LegacyFilter),
// no longer as a map of Conditions. These check that every answer is the
// map's: the decoder's faults, the operator's enum violation, the
// compiled filter's error, text, attributes and answers on items.

// filterAsMap is a request with a filter read the way it was, as a map;
// filterAsList the same request read as QueryInput and ScanInput do now.
type (
	filterAsMap struct {
		F map[string]Condition `json:"F"`
		C *string              `json:"C"`
	}
	filterAsList struct {
		F *expr.LegacyFilter `json:"F"`
		C *string            `json:"C"`
	}
)

// filterBodyParts are the pieces random filter bodies are made of: names
// (some escaped, one empty, so that names repeat and the escape of one is
// another), operators (all thirteen, wrong case, unknown, absent, null,
// not a string) and values (of every type, malformed ones among them).
var filterBodyParts = struct {
	names, ops, values, conditionalOps, odd []string
}{
	names: []string{`"a"`, `"b"`, `"\u0061"`, `"ab"`, `"a\u0062"`, `""`, `"pk"`, `"é"`, `"z"`},
	ops: []string{`"EQ"`, `"NE"`, `"LE"`, `"LT"`, `"GE"`, `"GT"`, `"NULL"`, `"NOT_NULL"`, `"CONTAINS"`,
		`"NOT_CONTAINS"`, `"BEGINS_WITH"`, `"IN"`, `"BETWEEN"`, `"eq"`, `"DOG"`, `""`, `null`, `5`, `true`, `["EQ"]`},
	// The last three ops are not strings: one entry in twenty takes one.
	values: []string{`{"S":"x"}`, `{"S":"a"}`, `{"S":""}`, `{"N":"1"}`, `{"N":"2.50"}`, `{"N":"-3"}`, `{"B":"eA=="}`,
		`{"BOOL":true}`, `{"NULL":true}`, `{"L":[{"S":"x"}]}`, `{"M":{"k":{"N":"1"}}}`, `{"SS":["x","y"]}`,
		`{"NS":["1","2"]}`, `{"BS":["eA=="]}`, `{"S":5}`, `{"N":"abc"}`, `{}`, `{"S":"a","N":"1"}`, `null`, `"x"`},
	conditionalOps: []string{``, `,"C":"AND"`, `,"C":"OR"`, `,"C":"XOR"`, `,"C":null`, `,"C":""`},
	odd:            []string{`null`, `5`, `"x"`, `[]`, `true`, `{}`},
}

// randomFilterBody is a request body of a random filter.
func randomFilterBody(r *rand.Rand) string {
	return randomLegacyBody(r, "F", writeRandomFilter)
}

// randomLegacyBody is a request body of a random member named member
// (write writes it) and ConditionalOperator.
func randomLegacyBody(r *rand.Rand, member string, write func(*rand.Rand, *strings.Builder)) string {
	var b strings.Builder
	b.WriteString(`{"` + member + `":`)
	write(r, &b)
	if r.IntN(10) == 0 { // given twice: a map adds the second's entries
		b.WriteString(`,"` + member + `":`)
		write(r, &b)
	}
	b.WriteString(filterBodyParts.conditionalOps[r.IntN(len(filterBodyParts.conditionalOps))])
	b.WriteByte('}')
	return b.String()
}

// decodeBothWays decodes body into asMap and asList and requires the
// same faults of both; false when there is one.
func decodeBothWays(t testing.TB, body string, asMap, asList any) bool {
	dm, errM := wire.DecodeRequestDeferred([]byte(body), asMap)
	dl, errL := wire.DecodeRequestDeferred([]byte(body), asList)
	require.Equal(t, errText(errM), errText(errL), "decoding %s", body)
	if errM != nil {
		return false
	}
	require.Equal(t, dm == nil, dl == nil, "deferred of %s", body)
	if dm != nil {
		require.Equal(t, errText(dm.Err), errText(dl.Err), "deferred of %s", body)
		require.Equal(t, dm.OlderForm, dl.OlderForm, "%s", body)
	}
	return true
}

// writeRandomFilter writes a random filter's JSON to b.
func writeRandomFilter(r *rand.Rand, b *strings.Builder) {
	p := filterBodyParts
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	if r.IntN(15) == 0 {
		b.WriteString(pick(p.odd))
	} else {
		b.WriteByte('{')
		n := r.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pick(p.names) + ":")
			if r.IntN(60) == 0 {
				b.WriteString(pick(p.odd))
				continue
			}
			var members []string
			ops := p.ops[:len(p.ops)-3]
			if r.IntN(20) == 0 {
				ops = p.ops
			}
			if r.IntN(8) != 0 {
				members = append(members, `"ComparisonOperator":`+pick(ops))
			}
			if r.IntN(6) != 0 {
				var vals []string
				switch r.IntN(10) {
				case 0:
					members = append(members, `"AttributeValueList":null`)
				default:
					for range r.IntN(4) {
						vals = append(vals, pick(p.values[:14])) // well-formed
					}
					if r.IntN(10) == 0 && len(vals) > 0 {
						vals[r.IntN(len(vals))] = pick(p.values)
					}
					members = append(members, `"AttributeValueList":[`+strings.Join(vals, ",")+`]`)
				}
			}
			if r.IntN(12) == 0 { // a member given twice
				members = append(members, `"ComparisonOperator":`+pick(ops))
			}
			if r.IntN(15) == 0 {
				members = append(members, `"Other":1`)
			}
			r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
			b.WriteString("{" + strings.Join(members, ",") + "}")
		}
		b.WriteByte('}')
	}
}

// errText is err's text, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// filterItem is an item for the filters to answer on, and its stored
// form, which Match reads.
type filterItem struct {
	item storage.Item
	enc  storage.EncodedItem
}

// randomFilterItems are n items for the filters to answer on.
func randomFilterItems(t testing.TB, r *rand.Rand, n int) []filterItem {
	vals := []storage.Value{storage.S("x"), storage.S("a"), storage.S("xa"), storage.N("1"), storage.N("2.5"),
		storage.N("-3"), storage.B([]byte("x")), storage.Bool(true), storage.Null(), storage.SS([]string{"x", "y"}),
		storage.NS([]storage.Number{"1", "2"}), storage.L([]storage.Value{storage.S("x")})}
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "k", Kind: storage.KindS}}
	tbl := storage.NewTable(ks)
	items := make([]filterItem, n)
	for i := range items {
		it := storage.Item{"k": storage.S(fmt.Sprint(i))}
		for _, name := range []string{"a", "b", "ab", "pk", "é", "z"} {
			if r.IntN(3) != 0 {
				it[name] = vals[r.IntN(len(vals))]
			}
		}
		k := ks.KeyOf(it)
		_, err := tbl.Put(k, it)
		require.NoError(t, err)
		e, ok := tbl.GetEncoded(k)
		require.True(t, ok)
		items[i] = filterItem{item: it, enc: e}
	}
	return items
}

// checkFilterSameAnswer decodes body both ways and requires the same
// answers of each step.
func checkFilterSameAnswer(t testing.TB, body string, items []filterItem) {
	var m filterAsMap
	var l filterAsList
	if !decodeBothWays(t, body, &m, &l) {
		return
	}
	require.Equal(t, m.F == nil, l.F == nil, "given: %s", body)
	require.Equal(t, readparams.ComparisonOpViolation("scanFilter", m.F, conditionOp), readparams.ComparisonOpViolation("scanFilter", l.F.UnknownOps(), expr.LegacyOp.String), "%s", body)
	if m.F == nil {
		return
	}
	require.Equal(t, len(m.F), l.F.Len(), "%s", body)
	cop := ""
	if m.C != nil {
		cop = *m.C
	}
	want, errWant := expr.Filter(legacyConditions(m.F), cop)
	got, errGot := legacyFilter(l.F, l.C)
	require.Equal(t, errText(errWant), errText(errGot), "compiling %s", body)
	require.Equal(t, want == nil, got == nil, "%s", body)
	if want == nil {
		return
	}
	requireSameCondition(t, body, want, got, items)
}

// requireSameCondition requires that want and got print alike, read the
// same attributes and answer alike on items, decoded and stored.
func requireSameCondition(t testing.TB, body string, want, got *expr.Condition, items []filterItem) {
	require.Equal(t, want.String(), got.String(), "%s", body)
	require.Equal(t, want.Attributes(), got.Attributes(), "%s", body)
	require.Equal(t, want.Reads(), got.Reads(), "%s", body)
	mw, mg := want.Matcher(), got.Matcher()
	for _, it := range items {
		w, errW := want.Eval(it.item)
		g, errG := got.Eval(it.item)
		require.Equal(t, w, g, "%s on %v", body, it.item)
		require.Equal(t, errText(errW), errText(errG))
		require.Equal(t, mw.Match(it.enc), mg.Match(it.enc), "%s on %v", body, it.item)
	}
}

// TestLegacyFilterSameAnswer holds the list to the map on random
// filters: repeated names (plain and escaped), every operator and wrong
// ones, wrong value counts and types, malformed values, JSON of the
// wrong type, members given twice, and every ConditionalOperator.
func TestLegacyFilterSameAnswer(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	items := randomFilterItems(t, r, 12)
	kinds := map[string]int{}
	for range 4000 {
		body := randomFilterBody(r)
		checkFilterSameAnswer(t, body, items)
		var m filterAsMap
		_, err := wire.DecodeRequestDeferred([]byte(body), &m)
		cop := ""
		if m.C != nil {
			cop = *m.C
		}
		switch _, errF := expr.Filter(legacyConditions(m.F), cop); {
		case err != nil:
			kinds["decode fault"]++
		case m.F == nil:
			kinds["no filter"]++
		case errF != nil:
			kinds["refused: "+strings.SplitN(errF.Error(), ":", 2)[0]]++
		default:
			kinds["compiled"]++
		}
	}
	requireEveryKind(t, kinds, "no filter")
}

// requireEveryKind requires that random bodies tried every kind of
// answer: decode faults, none given (absent), compiled and refused.
func requireEveryKind(t *testing.T, kinds map[string]int, absent string) {
	t.Logf("%v", kinds)
	require.Greater(t, kinds["decode fault"], 50)
	require.Greater(t, kinds[absent], 15)
	require.Greater(t, kinds["compiled"], 200)
	refused := 0
	for k, n := range kinds {
		if strings.HasPrefix(k, "refused: ") {
			refused += n
		}
	}
	require.Greater(t, refused, 500)
}

// TestLegacyFilterLongList holds the list to the map on filters of
// more entries than longList, where the decoder sizes its arrays at once,
// with names repeated.
func TestLegacyFilterLongList(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	items := randomFilterItems(t, r, 8)
	for _, n := range []int{255, 256, 257, 1000, 3000} {
		var b strings.Builder
		b.WriteString(`{"F":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"a%d":{"ComparisonOperator":"IN","AttributeValueList":[%s]}`, r.IntN(n*3/4), strings.Repeat(`{"S":"x"},`, r.IntN(3))+`{"S":"a"}`)
		}
		b.WriteString(`},"C":"OR"}`)
		checkFilterSameAnswer(t, b.String(), items)
	}
}

// FuzzLegacyFilter holds the list to the map on fuzzed bodies.
func FuzzLegacyFilter(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 40 {
		f.Add(randomFilterBody(r))
	}
	f.Add(`{"F":{"a":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"1"},{"N":"2"}]},"a":{"ComparisonOperator":"NULL"}},"C":"AND"}`)
	items := randomFilterItems(f, rand.New(rand.NewPCG(5, 6)), 6)
	f.Fuzz(func(t *testing.T, body string) {
		checkFilterSameAnswer(t, body, items)
	})
}
