package service

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// wideItem is a PutItem's item of many attributes about the item size
// limit, at times with faults (an empty or null attribute, a bad
// number, a value of no type), without its key or with one of the
// wrong type, and with attributes given again after the cut: small
// values for the first ones, which can take the item back under the
// limit (a big first value replaced makes it small), or big ones.
func wideItem(r *rand.Rand) string { return "{" + strings.Join(wideAttrs(r), ",") + "}" }

// wideAttrs are wideItem's attributes, in their order.
func wideAttrs(r *rand.Rand) []string {
	n := 9_000 + r.IntN(6_000)
	vlen := 20 + r.IntN(20)
	val := strings.Repeat("v", vlen)
	attrs := make([]string, 0, n+8)
	if r.IntN(3) == 0 {
		attrs = append(attrs, `"big":{"S":"`+strings.Repeat("b", 200_000+r.IntN(200_000))+`"}`)
	}
	for i := range n {
		attrs = append(attrs, fmt.Sprintf(`"a%06d":{"S":"%s"}`, i, val))
	}
	switch r.IntN(10) {
	case 0:
		attrs = append(attrs, `"pk":{"N":"1"}`)
	case 1: // no key
	default:
		attrs = append(attrs, `"pk":{"S":"k`+fmt.Sprint(r.IntN(3))+`"}`)
	}
	faults := []string{`"":{"S":"v"}`, `"nul":null`, `"num":{"N":"bad"}`, `"none":{}`, `"two":{"S":"a","N":"1"}`}
	for range max(0, r.IntN(6)-3) {
		at := r.IntN(len(attrs) + 1)
		attrs = append(attrs[:at], append([]string{faults[r.IntN(len(faults))]}, attrs[at:]...)...)
	}
	switch r.IntN(4) {
	case 0: // the first ones again, small: the item may come back under the limit
		for i := range r.IntN(n) {
			attrs = append(attrs, fmt.Sprintf(`"a%06d":{"N":"1"}`, i))
		}
		if r.IntN(2) == 0 {
			attrs = append(attrs, `"big":{"S":"small"}`)
		}
	case 1: // some again, bigger
		for range r.IntN(100) {
			attrs = append(attrs, fmt.Sprintf(`"a%06d":{"S":"%s"}`, r.IntN(n), strings.Repeat("w", 100)))
		}
	}
	return attrs
}

// TestWideItemCutSameAnswer: a PutItem whose item of many attributes is
// cut once over the item size limit (wire.Limits.CutItem) gets the same
// answer as with the item held whole, and an item taken back under the
// limit by attributes given again is written whole: a GetItem after
// each PutItem answers the same too.
func TestWideItemCutSameAnswer(t *testing.T) {
	r := rand.New(rand.NewPCG(oversizeSeed(t), 11))
	p := newPair(t, r, "tab0")
	rounds := 24
	switch {
	case testkit.RaceEnabled:
		rounds = 8
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "":
		rounds = 240
	}
	tooLarge, written := 0, 0
	// Past its rounds it goes on (at most 20 times as many) until both
	// kinds were seen: under -race its 8 rounds could draw no write.
	i := 0
	for ; i < rounds || (tooLarge == 0 || written == 0) && i < 20*rounds; i++ {
		cond := []string{``, ``, ``, ``, `,"ConditionExpression":"attribute_not_exists(pk)"`, `,"ConditionExpression":"attribute_not_exists("`,
			`,"ExpressionAttributeValues":{":u":{"S":"x"}}`}[r.IntN(7)]
		table := []string{"tab0", "tab0", "tab0", "tab0", "tab0", "missing"}[r.IntN(6)]
		body := `{"TableName":"` + table + `","Item":` + wideItem(r) + cond + `}`
		got := p.same(t, "PutItem", body, fmt.Sprint("case ", i))
		switch {
		case strings.Contains(got, apierr.MsgItemTooLarge):
			tooLarge++
		case got == "{}":
			written++
		}
		for _, k := range []string{"k0", "k1", "k2"} {
			p.same(t, "GetItem", `{"TableName":"tab0","Key":{"pk":{"S":"`+k+`"}}}`, fmt.Sprint("case ", i, " get ", k))
		}
	}
	t.Logf("%d of %d refused for their size, %d written", tooLarge, i, written)
	require.Positive(t, tooLarge, "no item was refused for its size: the test misses the cut")
	require.Positive(t, written, "no item was written: the test misses the items under the limit")
}

// wideWritesBody is a BatchWriteItem or TransactWriteItems with one to
// three items of many attributes (wideItem), at times with their
// attributes in reverse (the first names by sort then come past the
// cut), beside small writes: at times over 25 writes in a batch (its
// echo shows each item's first names), two writes of one key, a missing
// table, a bad member.
func wideWritesBody(r *rand.Rand) (op, body string) {
	table := []string{"tab0", "tab0", "tab0", "missing"}[r.IntN(4)]
	var items []string
	for range 1 + r.IntN(3) {
		attrs := wideAttrs(r)
		if r.IntN(2) == 0 { // reversed: the smallest names past the cut
			slices.Reverse(attrs)
		}
		items = append(items, "{"+strings.Join(attrs, ",")+"}")
	}
	small := func(k int) string { return `{"pk":{"S":"s` + fmt.Sprint(k) + `"}}` }
	var parts []string
	if r.IntN(2) == 0 {
		for _, item := range items {
			parts = append(parts, `{"PutRequest":{"Item":`+item+`}}`)
		}
		for k := range []int{1, 2, 30}[r.IntN(3)] { // 30: over 25 writes, echoed
			parts = append(parts, `{"PutRequest":{"Item":`+small(k)+`}}`)
		}
		if r.IntN(6) == 0 {
			parts = append(parts, `{"DeleteRequest":{"Key":`+small(0)+`}}`)
		}
		r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		op, body = "BatchWriteItem", `{"RequestItems":{"`+table+`":[`+strings.Join(parts, ",")+`]}}`
	} else {
		for _, item := range items {
			parts = append(parts, `{"Put":{"TableName":"`+table+`","Item":`+item+`}}`)
		}
		for k := range 1 + r.IntN(2) {
			parts = append(parts, `{"Put":{"TableName":"tab0","Item":`+small(k)+`}}`)
		}
		if r.IntN(6) == 0 {
			parts = append(parts, `{"Delete":{"TableName":"tab0","Key":`+small(0)+`}}`)
		}
		r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		op, body = "TransactWriteItems", `{"TransactItems":[`+strings.Join(parts, ",")+`]}`
	}
	if r.IntN(10) == 0 {
		body = body[:len(body)-1] + `,"ReturnConsumedCapacity":"BOGUS"}`
	}
	return op, body
}

// TestWideItemCutWritesSameAnswer: BatchWriteItem's and
// TransactWriteItems' items of many attributes, cut as PutItem's are
// (wire.Limits.CutItem), get the answer of the items held whole (a
// batch's echo over its count limit included), and nothing of a
// refused request is written: a GetItem of each key after each request
// answers the same too.
func TestWideItemCutWritesSameAnswer(t *testing.T) {
	r := rand.New(rand.NewPCG(oversizeSeed(t), 13))
	p := newPair(t, r, "tab0")
	rounds := 24
	switch {
	case testkit.RaceEnabled:
		rounds = 8
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "":
		rounds = 240
	}
	tooLarge, echoed, written := 0, 0, 0
	i := 0
	for ; i < rounds || (tooLarge == 0 || written == 0) && i < 20*rounds; i++ {
		op, body := wideWritesBody(r)
		got := p.same(t, op, body, fmt.Sprint("case ", i))
		switch {
		case strings.Contains(got, apierr.MsgItemTooLarge):
			tooLarge++
		case strings.Contains(got, "AttributeValue@"):
			echoed++
		case !strings.Contains(got, "__type"):
			written++
		}
		for _, k := range []string{"k0", "k1", "k2", "s0", "s1"} {
			p.same(t, "GetItem", `{"TableName":"tab0","Key":{"pk":{"S":"`+k+`"}}}`, fmt.Sprint("case ", i, " get ", k))
		}
	}
	t.Logf("%d of %d refused for their size, %d echoed, %d written", tooLarge, i, echoed, written)
	require.Positive(t, tooLarge, "no item was refused for its size: the test misses the cut")
	require.Positive(t, written, "no write was made: the test misses the items under the limit")
}
