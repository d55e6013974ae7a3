package lambdaesm

import (
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
)

// The record view (filter_record.go) against the record's JSON: random
// items of every DynamoDB type written, changed and deleted through the
// DynamoDB API on a table with a string partition key and a number sort
// key, and random patterns made from each record's own fields (so many
// match); each pattern must match the view exactly when it matches the
// record's JSON as Lambda sends it.

// randomAttr is a random attribute value in DynamoDB JSON, nested up to
// depth.
func randomAttr(r *rand.Rand, depth int) string {
	strs := []string{"", "a", "Paid", "paid", "TENANT#acme", "x y", "é", "<&>", `q"u`}
	nums := []string{"0", "5", "-3.25", "1e3", "120", "0.5"}
	k := r.IntN(10)
	if depth <= 0 && k >= 8 {
		k = r.IntN(8)
	}
	switch k {
	case 0, 1:
		return `{"S":` + strconv.Quote(strs[r.IntN(len(strs))]) + `}`
	case 2:
		return `{"N":"` + nums[r.IntN(len(nums))] + `"}`
	case 3:
		return `{"B":"` + base64.StdEncoding.EncodeToString([]byte(strs[1+r.IntN(len(strs)-1)])) + `"}`
	case 4:
		return `{"BOOL":` + strconv.FormatBool(r.IntN(2) == 0) + `}`
	case 5:
		return `{"NULL":true}`
	case 6:
		return `{"SS":["red","blue"]}`
	case 7:
		if r.IntN(2) == 0 {
			return `{"NS":["1","2.5"]}`
		}
		return `{"BS":["` + base64.StdEncoding.EncodeToString([]byte("ab")) + `"]}`
	case 8:
		n := r.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = randomAttr(r, depth-1)
		}
		return `{"L":[` + strings.Join(parts, ",") + `]}`
	default:
		n := 1 + r.IntN(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = `"m` + strconv.Itoa(i) + `":` + randomAttr(r, depth-1)
		}
		return `{"M":{` + strings.Join(parts, ",") + `}}`
	}
}

// randomRule is a value rule for the leaf v of a record (a string,
// json.Number, bool, nil or list), often one that matches it.
func randomRule(r *rand.Rand, v any) any {
	if list, ok := v.([]any); ok && len(list) > 0 {
		v = list[r.IntN(len(list))]
	}
	s, isStr := v.(string)
	switch r.IntN(9) {
	case 0:
		return v
	case 1:
		if isStr && len(s) > 0 {
			return map[string]any{"prefix": s[:r.IntN(len(s))]}
		}
		return "zzz"
	case 2:
		if isStr && len(s) > 0 {
			return map[string]any{"suffix": s[r.IntN(len(s)):]}
		}
		return map[string]any{"suffix": "d"}
	case 3:
		if isStr {
			return map[string]any{"equals-ignore-case": strings.ToUpper(s)}
		}
		return map[string]any{"equals-ignore-case": "PAID"}
	case 4:
		if v == nil {
			return map[string]any{"anything-but": "x"}
		}
		return map[string]any{"anything-but": []any{v}}
	case 5:
		return map[string]any{"anything-but": map[string]any{"prefix": "P"}}
	case 6:
		if n, ok := v.(json.Number); ok {
			f, _ := n.Float64()
			return map[string]any{"numeric": []any{">=", f, "<", f + float64(r.IntN(3))}}
		}
		return map[string]any{"numeric": []any{">", 0}}
	case 7:
		return map[string]any{"exists": r.IntN(2) == 0}
	default:
		return "5"
	}
}

// randomPattern builds a pattern on the record obj (its decoded JSON):
// a few of its fields, nested as the record nests them, and now and then
// a field it does not have, or an $or.
func randomPattern(r *rand.Rand, obj map[string]any, depth int) map[string]any {
	p := map[string]any{}
	keys := sortedKeys(obj)
	for range 1 + r.IntN(2) {
		if len(keys) == 0 || r.IntN(8) == 0 {
			p["nope"+strconv.Itoa(r.IntN(2))] = []any{randomRule(r, "x")}
			continue
		}
		k := keys[r.IntN(len(keys))]
		if sub, ok := obj[k].(map[string]any); ok && depth < 6 && r.IntN(6) != 0 {
			if sp := randomPattern(r, sub, depth+1); len(sp) > 0 {
				p[k] = sp
			}
			continue
		}
		p[k] = []any{randomRule(r, obj[k]), randomRule(r, obj[k])}[:1+r.IntN(2)]
	}
	if r.IntN(10) == 0 {
		p["$or"] = []any{randomPattern(r, obj, depth+1), randomPattern(r, obj, depth+1)}
	}
	return p
}

func TestRecordViewMatchesJSON(t *testing.T) {
	e := newESMEnv(t)
	e.Must("CreateTable", `{"TableName":"nums","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	r := rand.New(rand.NewPCG(esmSeed(t), 7))
	for i := range 60 {
		key := `"pk":{"S":"TENANT#` + strconv.Itoa(i%7) + `"},"sk":{"N":"` + []string{"1", "-2.5", "1e2", "0.125"}[i%4] + `"}`
		if i%9 == 8 {
			e.Must("DeleteItem", `{"TableName":"nums","Key":{`+key+`}}`)
			continue
		}
		attrs := ""
		for j := range r.IntN(5) {
			attrs += `,"a` + strconv.Itoa(j) + `":` + randomAttr(r, 2)
		}
		e.Must("PutItem", `{"TableName":"nums","Item":{`+key+attrs+`}}`)
	}
	s, ok := e.m.tableStream("nums", e.Clock.Now())
	require.True(t, ok)
	recs, _, _, err := s.Read(streamlog.FirstSequenceNumber, 1000, 1<<40, e.Clock.Now())
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	matched, patterns := 0, 0
	for i := range recs {
		rec := recs[i]
		if i%5 == 4 {
			rec.Service = true // a deletion by TTL's userIdentity
		}
		js := encodeRecord(s, &rec)
		var obj map[string]any
		d := json.NewDecoder(strings.NewReader(string(js)))
		d.UseNumber()
		require.NoError(t, d.Decode(&obj))
		for range 40 {
			pj, err := json.Marshal(randomPattern(r, obj, 0))
			require.NoError(t, err)
			p, err := parsePattern(string(pj))
			if err != nil {
				continue // a pattern Lambda refuses ({"$or": [{}]}...)
			}
			patterns++
			want := filterSet{p}.pass(jsonRecord(js))
			require.Equal(t, want, filterSet{p}.pass(recordView(s, &rec)), "pattern %s on %s", pj, js)
			if want {
				matched++
			}
		}
	}
	t.Logf("%d records, %d patterns, %d matched", len(recs), patterns, matched)
	require.Greater(t, matched, patterns/10, "the patterns are made to match often")
	require.Less(t, matched, patterns, "and not always")
}

// BenchmarkFilterRecord: a pattern on an attribute of the new image and
// the event's name matched against one record, through the record view
// ("view") and through the record written as JSON and read back ("json",
// what the view replaced).
func BenchmarkFilterRecord(b *testing.B) {
	e := servicetest.New(b, service.Config{})
	e.Must("CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`)
	e.Must("PutItem", `{"TableName":"tbl","Item":{"id":{"S":"TENANT#acme#1"},"status":{"S":"Paid"},"qty":{"N":"5"},
		"lines":{"L":[{"M":{"sku":{"S":"a"},"n":{"N":"1"}}},{"M":{"sku":{"S":"b"},"n":{"N":"2"}}}]},"note":{"S":"`+strings.Repeat("x", 200)+`"}}}`)
	m := Of(e.Svc)
	b.Cleanup(m.Close)
	s, ok := m.tableStream("tbl", e.Clock.Now())
	require.True(b, ok)
	recs, _, _, err := s.Read(streamlog.FirstSequenceNumber, 1, 1<<40, e.Clock.Now())
	require.NoError(b, err)
	rec := &recs[0]
	p, err := parsePattern(`{"eventName":["INSERT"],"dynamodb":{"NewImage":{"status":{"S":["Paid"]}}}}`)
	require.NoError(b, err)
	fs := filterSet{p}
	b.Run("view", func(b *testing.B) {
		for b.Loop() {
			if !fs.pass(recordView(s, rec)) {
				b.Fatal("no match")
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if !fs.pass(jsonRecord(encodeRecord(s, rec))) {
				b.Fatal("no match")
			}
		}
	})
}
