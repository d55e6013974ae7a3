package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCaps: a Query pages at the item cap; items past the byte cap are
// left out, and paging on from the LastEvaluatedKey it gives reads every
// item once; a BatchGetItem past the caps returns the rest as
// UnprocessedKeys.
func TestCaps(t *testing.T) {
	f := newFixture(t, "memory", Options{MaxItems: 4, MaxBytes: 2048})
	f.ok("create_table", `{"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}]}`)
	blob := strings.Repeat("x", 600)
	const n = 10
	for i := range n {
		f.ok("put_item", fmt.Sprintf(`{"TableName":"Tab","Item":{"pk":{"S":"p"},"sk":{"S":"%02d"},"blob":{"S":"%s"}}}`, i, blob))
	}
	type page struct {
		Count, ScannedCount int
		Items               []map[string]struct{ S string }
		LastEvaluatedKey    json.RawMessage
		Notes               struct{ Notes []string } `json:"_dynamoemu"`
	}
	var seen []string
	start := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, n, "paging does not end")
		text := f.ok("query", `{"TableName":"Tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}}`+start+`}`)
		require.LessOrEqual(t, len(text), 2048, "an answer over the byte cap")
		var p page
		require.NoError(t, json.Unmarshal([]byte(text), &p))
		require.LessOrEqual(t, len(p.Items), 4, "an answer over the item cap")
		require.Equal(t, len(p.Items), p.Count)
		for _, it := range p.Items {
			seen = append(seen, it["sk"].S)
		}
		if p.LastEvaluatedKey == nil {
			break
		}
		require.NotEmpty(t, p.Notes.Notes, "a cut page says so")
		start = `,"ExclusiveStartKey":` + string(p.LastEvaluatedKey)
	}
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("%02d", i))
	}
	require.Equal(t, want, seen, "every item once, in order")

	var keys []string
	for i := range 6 {
		keys = append(keys, fmt.Sprintf(`{"pk":{"S":"p"},"sk":{"S":"%02d"}}`, i))
	}
	text := f.ok("batch_get_item", `{"RequestItems":{"Tab":{"Keys":[`+strings.Join(keys, ",")+`]}}}`)
	require.LessOrEqual(t, len(text), 2048)
	var bg struct {
		Responses       map[string][]json.RawMessage
		UnprocessedKeys map[string]struct{ Keys []json.RawMessage }
	}
	require.NoError(t, json.Unmarshal([]byte(text), &bg))
	require.Equal(t, 6, len(bg.Responses["Tab"])+len(bg.UnprocessedKeys["Tab"].Keys), "every key read or given back: %s", text)
	require.NotEmpty(t, bg.UnprocessedKeys["Tab"].Keys)
	require.Contains(t, text, "their keys are in UnprocessedKeys")
}

// TestCapText: a result of another kind over the byte cap is cut with a
// note, on a UTF-8 boundary.
func TestCapText(t *testing.T) {
	s := &Server{opts: Options{MaxBytes: 1024}}
	short := strings.Repeat("é", 100)
	require.Equal(t, short, s.capText(short))
	long := strings.Repeat("é", 1000)
	got := s.capText(long)
	require.Less(t, len(got), 1100)
	require.Contains(t, got, "over the server's cap of 1024")
	require.True(t, strings.HasPrefix(got, "éé"))
	require.True(t, strings.ToValidUTF8(got, "?") == got, "cut inside a character")
}
