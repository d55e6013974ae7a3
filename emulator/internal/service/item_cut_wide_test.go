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
)

// wideItem is a PutItem's item of many attributes about the item size
// limit, at times with faults (an empty or null attribute, a bad
// number, a value of no type), without its key or with one of the
// wrong type, and with attributes given again after the cut: small
// values for the first ones, which can take the item back under the
// limit (a big first value replaced makes it small), or big ones.
func wideItem(r *rand.Rand) string {
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
	return "{" + strings.Join(attrs, ",") + "}"
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
