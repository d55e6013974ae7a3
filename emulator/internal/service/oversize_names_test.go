package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
)

// namesBody is a GetItem, Query or Scan of table tab0 whose
// AttributesToGet is names.
func namesBody(op string, names []string) string {
	list := strings.Join(names, ",")
	switch op {
	case "GetItem":
		return `{"TableName":"tab0","Key":{"pk":{"S":"a"}},"AttributesToGet":[` + list + `]}`
	case "BatchGetItem": // the list twice: tab0's and tab1's (absent: ResourceNotFound)
		return `{"RequestItems":{"tab0":{"Keys":[{"pk":{"S":"a"}}],"AttributesToGet":[` + list + `]},"tab1":{"Keys":[{"pk":{"S":"b"}}],"AttributesToGet":[` + list + `,"z"]}}}`
	case "Query":
		return `{"TableName":"tab0","KeyConditions":{"pk":{"AttributeValueList":[{"S":"a"}],"ComparisonOperator":"EQ"}},"AttributesToGet":[` + list + `]}`
	}
	return `{"TableName":"tab0","AttributesToGet":[` + list + `]}`
}

// randomNames is a random AttributesToGet list: names from a small set
// (so some repeat), escaped alike, now and then a fault of its own (an
// empty name, a name too long, a number, a broken string).
func randomNames(r *rand.Rand) []string {
	n := 1 + r.IntN(40)
	names := make([]string, n)
	for i := range names {
		switch k := r.IntN(400); {
		case k == 0:
			names[i] = `""`
		case k == 1:
			names[i] = `"` + strings.Repeat("x", 65536) + `"`
		case k == 2:
			names[i] = `7`
		case k == 3:
			names[i] = `"\u0061"` // "a"
		case k == 4:
			names[i] = `{"S":"a"}`
		default:
			names[i] = `"` + string(rune('a'+r.IntN(12))) + `"`
		}
	}
	return names
}

// TestRepeatedNamesSameAnswer: a GetItem, Query, Scan or BatchGetItem
// whose AttributesToGet repeats a name gets through the prescan (the list cut
// after its first repeat) exactly the answer the whole list decoded
// gets, faults past the repeat included.
func TestRepeatedNamesSameAnswer(t *testing.T) {
	s := oversizeService(t, "tab0")
	seed := oversizeSeed(t)
	r := rand.New(rand.NewPCG(seed, 5))
	oversize.Every.Store(true)
	defer oversize.Every.Store(false)
	reduced := 0
	for _, op := range []string{"GetItem", "Query", "Scan", "BatchGetItem"} {
		for i := range 60 {
			body := namesBody(op, randomNames(r))
			if b, _ := s.seams.prescanOf(op)([]byte(body), Cut{}); b != nil {
				reduced++
			}
			requireSameWithoutPrescan(t, s, op, body, i)
		}
	}
	require.Greater(t, reduced, 80, "the prescan reduced too few of the requests: the test misses them")
}

// TestRepeatedNamesMemory: a 4 MB Scan whose AttributesToGet repeats
// one name is refused at the first repeat, allocating less than twice
// its body in all (it allocated 18 times its body when the names were
// decoded and sorted).
func TestRepeatedNamesMemory(t *testing.T) {
	s := oversizeService(t, "tab0")
	for _, op := range []string{"GetItem", "Query", "Scan"} {
		body := []byte(namesBody(op, strings.Split(strings.TrimSuffix(strings.Repeat(`"name",`, 4<<20/7), ","), ",")))
		o, err := s.Lookup(TargetPrefix + op)
		require.NoError(t, err)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = s.Serve(o, &Request{Ctx: context.Background(), AccessKey: "AKID1", Region: "us-east-1", Body: body})
		runtime.ReadMemStats(&after)
		ae, ok := apierr.Classify(err)
		require.True(t, ok)
		require.Equal(t, "One or more parameter values were invalid: Duplicate value in attribute name: name", ae.Error()[:min(len(ae.Error()), 200)], op)
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes of body, %d allocated", op, len(body), allocated)
		require.Less(t, allocated, uint64(2*len(body)), fmt.Sprintf("%s: allocated %.2fx its body", op, float64(allocated)/float64(len(body))))
	}
}
