package service

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// A write's Expected is read as a list (expr.LegacyExpected), no longer
// as a map of ExpectedAttributeValues. These check that every answer is
// the map's: the decoder's faults, the operator's enum violation, the
// compiled condition's error, text, attributes and answers on items.

// expectedAsMap is a request with an Expected read the way it was, as a
// map, compiled by expr.Expected; expectedAsList the same request read
// as PutItemInput, UpdateItemInput and DeleteItemInput do now.
type (
	expectedAsMap struct {
		E map[string]ExpectedAttributeValue `json:"E"`
		C string                            `json:"C"`
	}
	expectedAsList struct {
		E *expr.LegacyExpected `json:"E"`
		C string               `json:"C"`
	}
)

// randomExpectedBody is a request body of a random Expected: the names,
// operators and values of the filters' bodies (filterBodyParts), with
// Value and Exists (true, false, null, not a boolean) beside them.
func randomExpectedBody(r *rand.Rand) string {
	return randomLegacyBody(r, "E", writeRandomExpected)
}

// writeRandomExpected writes a random Expected's JSON to b.
func writeRandomExpected(r *rand.Rand, b *strings.Builder) {
	p := filterBodyParts
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	if r.IntN(15) == 0 {
		b.WriteString(pick(p.odd))
		return
	}
	exists := []string{`true`, `false`, `null`, `"true"`, `1`}
	b.WriteByte('{')
	for i := range r.IntN(6) {
		if i > 0 {
			b.WriteByte(',')
		}
		name := pick(p.names)
		for name == `""` && r.IntN(4) != 0 { // one in forty or so
			name = pick(p.names)
		}
		b.WriteString(name + ":")
		if r.IntN(60) == 0 {
			b.WriteString(pick(p.odd))
			continue
		}
		ops := p.ops[:len(p.ops)-3]
		if r.IntN(20) == 0 {
			ops = p.ops
		}
		value := func() string {
			if r.IntN(10) == 0 {
				return pick(p.values)
			}
			return pick(p.values[:14]) // well-formed
		}
		var members []string
		switch r.IntN(3) { // one in three of each well-formed kind
		case 0:
			members = append(members, `"ComparisonOperator":`+pick(p.ops[:13]))
			var vals []string
			for range r.IntN(3) {
				vals = append(vals, pick(p.values[:7])) // scalars
			}
			members = append(members, `"AttributeValueList":[`+strings.Join(vals, ",")+`]`)
			writeMembers(r, b, members)
			continue
		case 1:
			members = append(members, [][]string{{`"Exists":false`}, {`"Value":` + pick(p.values[:14])},
				{`"Value":` + pick(p.values[:14]), `"Exists":true`}}[r.IntN(3)]...)
			writeMembers(r, b, members)
			continue
		}
		if r.IntN(2) == 0 {
			members = append(members, `"ComparisonOperator":`+pick(ops))
		}
		if r.IntN(3) == 0 {
			switch r.IntN(8) {
			case 0:
				members = append(members, `"AttributeValueList":null`)
			default:
				var vals []string
				for range r.IntN(4) {
					vals = append(vals, value())
				}
				members = append(members, `"AttributeValueList":[`+strings.Join(vals, ",")+`]`)
			}
		}
		if r.IntN(2) == 0 {
			members = append(members, `"Value":`+value())
		}
		if r.IntN(2) == 0 {
			e := exists[:3]
			if r.IntN(20) == 0 {
				e = exists
			}
			members = append(members, `"Exists":`+pick(e))
		}
		if r.IntN(12) == 0 && len(members) > 0 { // a member given twice
			members = append(members, members[r.IntN(len(members))])
		}
		if r.IntN(15) == 0 {
			members = append(members, `"Other":1`)
		}
		writeMembers(r, b, members)
	}
	b.WriteByte('}')
}

// writeMembers writes an object of members, shuffled, to b.
func writeMembers(r *rand.Rand, b *strings.Builder, members []string) {
	r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	b.WriteString("{" + strings.Join(members, ",") + "}")
}

// checkExpectedSameAnswer decodes body both ways and requires the same
// answers of each step; it returns the kind of answer, for the counts.
func checkExpectedSameAnswer(t testing.TB, body string, items []filterItem) string {
	var m expectedAsMap
	var l expectedAsList
	if !decodeBothWays(t, body, &m, &l) {
		return "decode fault"
	}
	require.Equal(t, m.E == nil, l.E == nil, "given: %s", body)
	require.Equal(t, readparams.ComparisonOpViolation("expected", m.E, func(e ExpectedAttributeValue) string { return e.ComparisonOperator }),
		readparams.ComparisonOpViolation("expected", l.E.UnknownOps(), expr.LegacyOp.String), "%s", body)
	if m.E == nil {
		return "no Expected"
	}
	require.Equal(t, len(m.E), l.E.Len(), "%s", body)
	require.Equal(t, expectedConditions(m.E), l.E.Conditions(), "%s", body)
	want, errWant := expr.Expected(expectedConditions(m.E), m.C)
	got, errGot := expr.ExpectedOf(l.E, l.C)
	require.Equal(t, errText(errWant), errText(errGot), "compiling %s", body)
	if errWant != nil {
		return "refused: " + strings.SplitN(errWant.Error(), ":", 2)[0]
	}
	require.Equal(t, want == nil, got == nil, "%s", body)
	if want == nil {
		return "no condition"
	}
	requireSameCondition(t, body, want, got, items)
	w, _ := want.Eval(nil) // no item: a write's condition on a new item
	g, _ := got.Eval(nil)
	require.Equal(t, w, g, "%s on no item", body)
	return "compiled"
}

// TestLegacyExpectedSameAnswer holds the list to the map on random
// Expected: repeated names (plain and escaped), every operator and wrong
// ones, Value, AttributeValueList and Exists in every mix, wrong value
// counts and types, malformed values, JSON of the wrong type, members
// given twice, and every ConditionalOperator.
func TestLegacyExpectedSameAnswer(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	items := randomFilterItems(t, r, 12)
	kinds := map[string]int{}
	for range 4000 {
		kinds[checkExpectedSameAnswer(t, randomExpectedBody(r), items)]++
	}
	requireEveryKind(t, kinds, "no Expected")
	require.Greater(t, kinds["no condition"], 15)
}

// TestLegacyExpectedLongList holds the list to the map on Expected of
// more entries than longList, where the decoder sizes its arrays at once,
// with names repeated and every form of entry.
func TestLegacyExpectedLongList(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	items := randomFilterItems(t, r, 8)
	forms := []string{
		`{"ComparisonOperator":"IN","AttributeValueList":[{"S":"x"},{"S":"a"}]}`,
		`{"ComparisonOperator":"NE","AttributeValueList":[{"S":"x"}]}`,
		`{"ComparisonOperator":"NOT_NULL"}`,
		`{"Exists":false}`,
		`{"Value":{"S":"x"}}`,
		`{"Value":{"S":"a"},"Exists":true}`,
		`{"ComparisonOperator":"EQ","Value":{"S":"x"}}`,
	}
	for _, n := range []int{255, 256, 257, 1000, 3000} {
		var b strings.Builder
		b.WriteString(`{"E":{`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"a%d":%s`, r.IntN(n*3/4), forms[r.IntN(len(forms))])
		}
		b.WriteString(`},"C":"OR"}`)
		require.Equal(t, "compiled", checkExpectedSameAnswer(t, b.String(), items))
	}
}

// FuzzLegacyExpected holds the list to the map on fuzzed bodies.
func FuzzLegacyExpected(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 40 {
		f.Add(randomExpectedBody(r))
	}
	f.Add(`{"E":{"a":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"1"},{"N":"2"}]},"a":{"Exists":false}},"C":"AND"}`)
	f.Add(`{"E":{"a":{"ComparisonOperator":"EQ","AttributeValueList":[]},"b":{"Value":{"S":"x"},"AttributeValueList":null}}}`)
	items := randomFilterItems(f, rand.New(rand.NewPCG(5, 6)), 6)
	f.Fuzz(func(t *testing.T, body string) {
		checkExpectedSameAnswer(t, body, items)
	})
}
