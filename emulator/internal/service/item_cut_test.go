package service

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// itemCutElems are an item's list elements: small values, faults of
// values.
var itemCutElems = []string{`{"N":"0000001"}`, `{"S":"abc"}`, `{"BOOL":true}`, `{"N":"12.5"}`, `{"S":""}`,
	`{"N":"x"}`, `{"SS":["a","a"]}`, `{}`, `null`, `{"M":{"":{"S":"v"}}}`, `{"S":1}`}

// itemCutItem is an item whose list is about the item size limit, with
// at times a key of the wrong type, a fault of a value before or after
// the list, a second list.
func itemCutItem(r *rand.Rand) string {
	n := 100_000 + r.IntN(110_000)
	first := itemCutElems[r.IntN(5)]
	parts := make([]string, n)
	rare := []int{1 << 30, 50_000, 5}[r.IntN(3)]
	for i := range parts {
		parts[i] = first
		if r.IntN(rare) == 0 {
			parts[i] = itemCutElems[r.IntN(len(itemCutElems))]
		}
	}
	attrs := []string{`"pk":{"S":"k` + fmt.Sprint(r.IntN(3)) + `"}`, `"l":{"L":[` + strings.Join(parts, ",") + `]}`}
	switch r.IntN(8) {
	case 0:
		attrs[0] = `"pk":{"N":"1"}`
	case 1:
		attrs = attrs[1:]
	case 2:
		attrs = append(attrs, `"z":{"N":"bad"}`)
	case 3:
		attrs = append(attrs, `"":{"S":"v"}`)
	case 4:
		attrs = append(attrs, `"l2":{"L":[`+strings.Join(parts[:n/2], ",")+`]}`)
	}
	r.Shuffle(len(attrs), func(i, j int) { attrs[i], attrs[j] = attrs[j], attrs[i] })
	return "{" + strings.Join(attrs, ",") + "}"
}

// itemCutBody is a PutItem, BatchWriteItem or TransactWriteItems with an
// item about the limit and at times another fault: a missing table, a
// bad or failing condition, an unused value, a bad member, bad syntax.
func itemCutBody(r *rand.Rand) (op, body string) {
	table := []string{"tab0", "tab0", "tab0", "missing", "bad name!"}[r.IntN(5)]
	item := itemCutItem(r)
	cond := []string{``, `,"ConditionExpression":"attribute_not_exists(pk)"`, `,"ConditionExpression":"attribute_not_exists("`,
		`,"ConditionExpression":"attribute_exists(pk)"`, `,"ExpressionAttributeValues":{":u":{"S":"x"}}`, `,"ReturnValues":"ALL_NEW"`}[r.IntN(6)]
	small := `{"pk":{"S":"s"}}`
	switch r.IntN(3) {
	case 0:
		op, body = "PutItem", `{"TableName":"`+table+`","Item":`+item+cond+`}`
	case 1:
		puts := []string{`{"PutRequest":{"Item":` + item + `}}`, `{"PutRequest":{"Item":` + small + `}}`}
		switch r.IntN(4) {
		case 0:
			puts = append(puts, `{"DeleteRequest":{"Key":`+small+`},"PutRequest":{"Item":`+small+`}}`)
		case 1: // over 25 writes: read by the batch's cut (oversize)
			for k := range 30 {
				puts = append(puts, `{"PutRequest":{"Item":{"pk":{"S":"m`+fmt.Sprint(k)+`"}}}}`)
			}
		}
		r.Shuffle(len(puts), func(i, j int) { puts[i], puts[j] = puts[j], puts[i] })
		op, body = "BatchWriteItem", `{"RequestItems":{"`+table+`":[`+strings.Join(puts, ",")+`]}}`
	default:
		acts := []string{`{"Put":{"TableName":"` + table + `","Item":` + item + cond + `}}`,
			`{"Put":{"TableName":"tab0","Item":` + small + `}}`}
		if r.IntN(4) == 0 {
			acts = append(acts, `{"Delete":{"TableName":"missing","Key":`+small+`}}`)
		}
		r.Shuffle(len(acts), func(i, j int) { acts[i], acts[j] = acts[j], acts[i] })
		op, body = "TransactWriteItems", `{"TransactItems":[`+strings.Join(acts, ",")+`]}`
	}
	switch r.IntN(12) {
	case 0:
		body = body[:len(body)-1-r.IntN(10)]
	case 1:
		body = body[:len(body)-1] + `,"ReturnConsumedCapacity":"BOGUS"}`
	}
	return op, body
}

// TestItemCutSameAnswer: a write whose item's list is cut once over the
// item size limit gets the same answer as with the item held whole
// (random PutItem, BatchWriteItem and TransactWriteItems about the limit,
// with other faults).
func TestItemCutSameAnswer(t *testing.T) {
	require.Equal(t, maxItemBytes, wire.MaxItemBytes, "the limit the decoder cuts at is the one the writes check")
	r := rand.New(rand.NewPCG(oversizeSeed(t), 9))
	p := newPair(t, r, "tab0") // the service's, the whole item's: the same writes
	rounds := 30
	switch {
	case testkit.RaceEnabled:
		// A round takes 3-4 s under the race detector: 300 ran past go
		// test's 10 minutes, and 30 took 133 s beside other packages.
		rounds = 10
	case os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "":
		rounds = 300
	}
	tooLarge, i := 0, 0
	// Past rounds, on until one is refused for its size (2 of 30 are, on
	// average): at most ten times as many.
	for ; i < rounds || tooLarge == 0 && i < 10*rounds; i++ {
		op, body := itemCutBody(r)
		cut := p.same(t, op, body, fmt.Sprint("case ", i))
		if strings.Contains(cut, apierr.MsgItemTooLarge) {
			tooLarge++
		}
	}
	require.Positive(t, tooLarge, "no item was refused for its size: the test misses the cut")
	t.Logf("%d of %d refused for their size", tooLarge, i)
}
