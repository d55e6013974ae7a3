package wire

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/expr"
)

type conditionsRequest struct {
	TableName     string
	KeyConditions KeyConditions
	Limit         int
}

type refConditionsRequest struct {
	TableName     string
	KeyConditions map[string]Condition
	Limit         int
}

// refList is the list a map of conditions stands for: by name, an absent
// operator "".
func refList(m map[string]Condition) KeyConditions {
	if m == nil {
		return nil
	}
	out := KeyConditions{}
	for name, c := range m {
		nc := expr.NamedCondition{Name: name, AttributeValueList: ValuesOf(c.AttributeValueList)}
		if c.ComparisonOperator != nil {
			nc.ComparisonOperator = *c.ComparisonOperator
		}
		out = append(out, nc)
	}
	slices.SortFunc(out, func(a, b expr.NamedCondition) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// checkConditionsSameAnswer decodes body with KeyConditions as
// KeyConditions and as a map: the same error, the same deferred value
// fault, the same conditions.
func checkConditionsSameAnswer(t *testing.T, body string) {
	t.Helper()
	var got conditionsRequest
	var want refConditionsRequest
	if !decodeSameDeferred(t, body, &got, &want) {
		return
	}
	require.Equal(t, want.KeyConditions == nil, got.KeyConditions == nil, "%s", body)
	require.Equal(t, refList(want.KeyConditions), got.KeyConditions, "%s", body)
	require.Equal(t, want.Limit, got.Limit, "%s", body)
}

// randomConditions is a KeyConditions member of up to 9 entries: names
// repeated, operators valid, unknown, absent or null, value lists with
// faults, values of the wrong type, members twice, unknown members.
func randomConditions(rng *rand.Rand) string {
	if rng.IntN(12) == 0 {
		return []string{`null`, `[]`, `"x"`, `1`, `{}`}[rng.IntN(5)]
	}
	ops := []string{`"EQ"`, `"BETWEEN"`, `"BEGINS_WITH"`, `"FOO"`, `""`, `null`, `1`, `[]`}
	lists := []string{`[{"S":"x"}]`, `[]`, `null`, `[{"N":"1"},{"N":"2"}]`, `[{"N":"x"}]`, `[{"S":1}]`, `"x"`,
		`[{"SS":["a","a"]}]`, `[{"M":{"a":{"L":[{"BOOL":true}]}}}]`, `[null]`}
	entries := make([]string, 1+rng.IntN(9))
	for i := range entries {
		var members []string
		if rng.IntN(5) > 0 {
			members = append(members, `"ComparisonOperator":`+ops[rng.IntN(len(ops))])
		}
		if rng.IntN(5) > 0 {
			members = append(members, `"AttributeValueList":`+lists[rng.IntN(len(lists))])
		}
		if rng.IntN(6) == 0 {
			members = append(members, `"ComparisonOperator":`+ops[rng.IntN(len(ops))])
		}
		if rng.IntN(8) == 0 {
			members = append(members, `"Other":{"a":[1]}`)
		}
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		name := []string{`"a"`, `"b"`, `"pk"`, `"sk"`, `""`, `"\u00e9"`, `"c\"d"`}[rng.IntN(7)]
		value := "{" + strings.Join(members, ",") + "}"
		if rng.IntN(15) == 0 {
			value = []string{`null`, `[]`, `"x"`, `7`}[rng.IntN(4)]
		}
		entries[i] = name + ":" + value
	}
	return "{" + strings.Join(entries, ",") + "}"
}

// TestKeyConditionsSameAnswer: KeyConditions decodes random members
// (and the member twice, and bodies cut short) as a map of them does.
func TestKeyConditionsSameAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 17))
	for range 4000 {
		body := `{"TableName":"t","KeyConditions":` + randomConditions(rng) + `,"Limit":3}`
		switch rng.IntN(6) {
		case 0:
			body = `{"KeyConditions":` + randomConditions(rng) + `,` + body[1:]
		case 1:
			body = body[:rng.IntN(len(body)+1)]
		case 2:
			body = strings.Replace(body, `"Limit":3`, `"Limit":"3"`, 1)
		}
		checkConditionsSameAnswer(t, body)
	}
}

// TestKeyConditionsLongList: past the list's first growth (longList
// entries) the list is made for all the entries left, and a long list
// with repeats keeps each name's last condition.
func TestKeyConditionsLongList(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"KeyConditions":{`)
	for i := range 3 * longList {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"n` + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + `":{"ComparisonOperator":"EQ","AttributeValueList":[{"N":"` + string(rune('0'+i%10)) + `"}]}`)
	}
	b.WriteString(`}}`)
	checkConditionsSameAnswer(t, b.String())
	var got conditionsRequest
	require.NoError(t, DecodeRequest([]byte(b.String()), &got))
	require.Len(t, got.KeyConditions, 26*26)
}

// FuzzKeyConditions: KeyConditions decodes any member as a map of
// conditions does.
func FuzzKeyConditions(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 16 {
		f.Add(randomConditions(rng))
	}
	f.Add(`{"a":{"ComparisonOperator":"EQ"},"a":{"ComparisonOperator":null}}`)
	f.Fuzz(func(t *testing.T, member string) {
		checkConditionsSameAnswer(t, `{"TableName":"t","KeyConditions":`+member+`,"Limit":3}`)
	})
}
