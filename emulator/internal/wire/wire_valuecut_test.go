package wire

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// updateRequest has UpdateItem's values (cut) beside a Key (never cut).
type updateRequest struct {
	Key                       WireItem
	ExpressionAttributeValues UpdateValues
}

// checkValueCutSameAnswer decodes body with the cut on and off: the
// same error and deferred fault, the same key, each stand-in as deep as
// its list and as large by the 2 MB limit's measure, and the same values
// once the cut lists are decoded again. It reports how many were cut.
func checkValueCutSameAnswer(t *testing.T, body string) int {
	t.Helper()
	got, gotDef, gotErr := decodeCutAs[updateRequest](body, true)
	want, wantDef, wantErr := decodeCutAs[updateRequest](body, false)
	requireSameDecode(t, body, gotDef, wantDef, gotErr, wantErr)
	if wantErr != nil {
		return 0
	}
	require.Equal(t, want.Key, got.Key, "%.300s", body)
	gotValues, wantValues := ExpressionValues(got.ExpressionAttributeValues), ExpressionValues(want.ExpressionAttributeValues)
	require.Equal(t, wantValues == nil, gotValues == nil)
	cuts := 0
	for k, v := range gotValues {
		if !IsCut(v) {
			continue
		}
		cuts++
		w := wantValues[k]
		require.Greater(t, storage.ValueSize(w), MaxItemBytes, "cut a list within the limit: %.300s", body)
		require.Greater(t, storage.ValueSize(v), MaxItemBytes)
		require.Equal(t, storage.ValueSize(w), cutValueSize(v), "%q's size: %.300s", k, body)
		require.Equal(t, w.Depth(), v.Depth(), "%q's depth: %.300s", k, body)
		require.Equal(t, storage.KindL, v.Kind())
	}
	if cuts > 0 {
		named := []storage.Value{}
		for _, v := range gotValues {
			named = append(named, v)
		}
		require.False(t, Uncut(gotValues, named, false), "every cut list is named")
		require.True(t, Uncut(gotValues, named, true), "a vector index needs them whole")
	} else {
		require.False(t, Uncut(gotValues, nil, true))
	}
	require.Equal(t, wantValues, gotValues, "%.300s", body)
	return cuts
}

// valueCutBody is an UpdateItem's values with one or two lists about
// the limit, at times nested in another value, faults of values before
// and after them, bad syntax.
func valueCutBody(rng *rand.Rand) string {
	n, rare := cutShape(rng)
	values := []string{`":l":` + cutList(rng, n, rare), `":s":{"S":"x"}`}
	switch rng.IntN(6) {
	case 0:
		values = append(values, `":z":{"N":"bad"}`)
	case 1:
		values = append(values, `":m":`+cutList(rng, n/2, rare))
	case 2:
		values = append(values, `":d":{"L":[`+strings.Repeat(`{"L":[`, 33)+`{"S":"d"}`+strings.Repeat(`]}`, 33)+`]}`)
	case 3:
		values = append(values, `":l":{"S":"again"}`)
	}
	rng.Shuffle(len(values), func(i, j int) { values[i], values[j] = values[j], values[i] })
	body := `{"Key":{"pk":{"S":"k"}},"ExpressionAttributeValues":{` + strings.Join(values, ",") + `}}`
	switch rng.IntN(10) {
	case 0:
		body = body[:len(body)-rng.IntN(20)]
	case 1:
		body = strings.Replace(body, `"ExpressionAttributeValues":`, `"ExpressionAttributeValues":null,"ExpressionAttributeValues":`, 1)
	case 2:
		body = strings.Replace(body, `"Key":`, `"Pad":"`+strings.Repeat("x", 2<<20)+`","Key":`, 1) // read by UnmarshalJSON
	}
	return body
}

// TestValueCutSameAnswer: UpdateItem's values whose lists are cut once
// over the limit decode to the same answer as values held whole, and
// Uncut gives back the very values (random lists about the limit, faults
// of values, bad syntax), and some are cut.
func TestValueCutSameAnswer(t *testing.T) {
	cutRounds(t, 13, 30, func(rng *rand.Rand) int { return checkValueCutSameAnswer(t, valueCutBody(rng)) })
}

// cutRounds runs round rounds times (ten times as many with
// DYNAMOEMU_HEAVY_TESTS, but not under the race detector, where 400 ran
// past go test's 10 minutes) on a random stream of its own, and on until
// a list is cut (at most ten times as many), and requires that the
// rounds cut a list.
func cutRounds(t *testing.T, stream uint64, rounds int, round func(*rand.Rand) (cuts int)) {
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" && !testkit.RaceEnabled {
		rounds *= 10
	}
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, stream))
	cuts, i := 0, 0
	for ; i < rounds || cuts == 0 && i < 10*rounds; i++ {
		cuts += round(rng)
	}
	require.Positive(t, cuts, "no list was cut: the test misses the cut")
	t.Logf("%d lists cut in %d rounds", cuts, i)
}

// FuzzValueCut: any element, among n strings of 200 bytes (the limit is
// passed at 2,037), decodes to the same values and parameters with the
// cut on and off.
func FuzzValueCut(f *testing.F) {
	for i, s := range cutElems {
		f.Add(s, 1900+20*i)
	}
	f.Add(`{"N":"x"}`, 300)
	filler := `{"S":"` + strings.Repeat("x", 200) + `"},`
	f.Fuzz(func(t *testing.T, elem string, n int) {
		n = min(max(n, 0), 3000)
		checkValueCutSameAnswer(t, `{"ExpressionAttributeValues":{":l":{"L":[`+strings.Repeat(filler, n)+elem+`]}}}`)
		checkValueCutSameAnswer(t, fmt.Sprintf(`{"ExpressionAttributeValues":{":a":%s,":l":{"L":[%s,%s{"N":"1"}]}},"Key":{"pk":%s}}`, elem, elem, strings.Repeat(filler, n), elem))
		checkParamsCutSameAnswer(t, fmt.Sprintf(`[%s,{"L":[%s%s]}]`, elem, strings.Repeat(filler, n), elem))
	})
}

// statementRequest has ExecuteStatement's Parameters (cut).
type statementRequest struct {
	Parameters Params
}

// checkParamsCutSameAnswer decodes the values of body as Parameters
// with the cut on and off: the same error and deferred fault, and the
// same values once the cut lists are decoded again. It reports how many
// were cut.
func checkParamsCutSameAnswer(t *testing.T, params string) int {
	t.Helper()
	body := `{"Parameters":` + params + `}`
	got, gotDef, gotErr := decodeCutAs[statementRequest](body, true)
	want, wantDef, wantErr := decodeCutAs[statementRequest](body, false)
	requireSameDecode(t, body, gotDef, wantDef, gotErr, wantErr)
	if wantErr != nil {
		return 0
	}
	require.Equal(t, want.Parameters.Len(), got.Parameters.Len())
	require.Equal(t, want.Parameters.Given(), got.Parameters.Given())
	vals := make([]storage.Value, len(got.Parameters.Kept()))
	cuts := 0
	for i, v := range got.Parameters.Kept() {
		vals[i] = v.Value
		if IsCut(v.Value) {
			cuts++
			require.Equal(t, want.Parameters.Kept()[i].Value.Depth(), v.Value.Depth(), "%.300s", body)
		}
	}
	UncutEach(vals)
	require.Equal(t, len(want.Parameters.Kept()), len(vals))
	for i, w := range want.Parameters.Kept() {
		require.Equal(t, w.Value, vals[i], "%d: %.300s", i, body)
	}
	return cuts
}

// TestParamsCutSameAnswer: ExecuteStatement's Parameters whose lists are
// cut once over the limit decode to the same answer, and UncutEach gives
// back the very values.
func TestParamsCutSameAnswer(t *testing.T) {
	cutRounds(t, 14, 30, func(rng *rand.Rand) int {
		n, rare := cutShape(rng)
		params := []string{cutList(rng, n, rare), `{"S":"x"}`}
		if rng.IntN(3) == 0 {
			params = append(params, cutList(rng, n/2, rare))
		}
		rng.Shuffle(len(params), func(i, j int) { params[i], params[j] = params[j], params[i] })
		list := "[" + strings.Join(params, ",") + "]"
		if rng.IntN(10) == 0 {
			list = list[:len(list)-1-rng.IntN(10)]
		}
		return checkParamsCutSameAnswer(t, list)
	})
}
