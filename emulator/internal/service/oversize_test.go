package service

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// oversizeBody makes a random request of op with a list over its limit
// (sometimes just over, sometimes far over) and, now and then, faults
// the answer must report the same way: an element with a serialization
// error or a value fault before or past the limit, an element with a
// constraint violation of its own, a malformed top-level member, a
// member named twice or in another case.
func oversizeBody(r *rand.Rand, op string) string {
	n := func(limit int) int {
		return testkit.Pick(r, limit+1, limit+2, limit+r.IntN(50)+1, limit*10+r.IntN(500))
	}
	defect := func() int { return r.IntN(12) } // 0..5: a fault; others: none
	value := func() string {
		return testkit.Pick(r, `{"S":"x"}`, `{"N":"12.5"}`, `{"B":"AAEC"}`, `{"SS":["a","b"]}`, `{"NS":["1","2"]}`,
			`{"L":[{"S":"a"},{"BOOL":true}]}`, `{"M":{"k":{"NULL":true}}}`, `{"BOOL":false}`)
	}
	item := func(i int) string {
		return fmt.Sprintf(`{"pk":{"S":"k%d"},"v":%s}`, i, value())
	}
	var b strings.Builder
	switch op {
	case "BatchGetItem":
		b.WriteString(`{"RequestItems":{`)
		tables := 1 + r.IntN(2)
		for t := range tables {
			if t > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"%s%d":{"Keys":[`, testkit.Pick(r, "tab", "tab", "tab", "t!"), t) // "t!0": no table name
			keys := n(maxBatchGetKeys)
			if t > 0 && r.IntN(2) == 0 {
				keys = 1 + r.IntN(maxBatchGetKeys)
			}
			bad, at := defect(), r.IntN(keys)
			for i := range keys {
				if i > 0 {
					b.WriteString(",")
				}
				switch {
				case i == at && bad == 0:
					b.WriteString(`{"pk":{"S":5}}`) // serialization
				case i == at && bad == 1:
					b.WriteString(`{"pk":{"N":"x1"}}`) // a value fault
				default:
					fmt.Fprintf(&b, `{"pk":{"S":"k%d"}}`, i)
				}
			}
			b.WriteString(`]`)
			if r.IntN(4) == 0 {
				b.WriteString(`,"ProjectionExpression":"pk","AttributesToGet":["pk"]`)
			}
			b.WriteString(`}`)
		}
		b.WriteString(`}`)
		if r.IntN(4) == 0 {
			b.WriteString(`,"ReturnConsumedCapacity":"SOME"`)
		}
		if r.IntN(10) == 0 {
			b.WriteString(`,"requestItems":{}`)
		}
		b.WriteString(`}`)
	case "BatchWriteItem":
		b.WriteString(`{"RequestItems":{`)
		tables := 1 + r.IntN(3)
		for t := range tables {
			if t > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"%s%d":[`, testkit.Pick(r, "tab", "tab", "tab", "t!"), (t*7)%3)
			writes := n(maxBatchWrites)
			if t > 0 && r.IntN(2) == 0 {
				writes = r.IntN(maxBatchWrites + 1)
			}
			bad, at := defect(), r.IntN(writes+1)
			for i := range writes {
				if i > 0 {
					b.WriteString(",")
				}
				switch {
				case i == at && bad == 0:
					b.WriteString(`7`)
				case i == at && bad == 1:
					b.WriteString(`{"PutRequest":{"Item":{"pk":{"N":"1e99999"}}}}`)
				case i == at && bad == 2:
					b.WriteString(`{"PutRequest":{}}`)
				case i%5 == 4:
					fmt.Fprintf(&b, `{"DeleteRequest":{"Key":{"pk":{"S":"k%d"}}}}`, i)
				default:
					fmt.Fprintf(&b, `{"PutRequest":{"Item":%s}}`, item(i))
				}
			}
			b.WriteString(`]`)
		}
		b.WriteString(`}`)
		if r.IntN(4) == 0 {
			b.WriteString(`,"ReturnItemCollectionMetrics":"ALL"`)
		}
		b.WriteString(`}`)
	case "TransactWriteItems", "TransactGetItems":
		b.WriteString(`{"TransactItems":[`)
		actions := n(maxTransactItems)
		bad, at := defect(), r.IntN(actions)
		for i := range actions {
			if i > 0 {
				b.WriteString(",")
			}
			switch {
			case i == at && bad == 0:
				b.WriteString(`[]`)
			case i == at && bad == 1:
				b.WriteString(`{"Put":{"Item":{"pk":{"S":"a"}}}}`) // no TableName
			case i == at && bad == 2:
				b.WriteString(`{}`)
			case i == at && bad == 3:
				b.WriteString(`{"Get":{"TableName":"tab0"}}`) // no Key
			case op == "TransactGetItems":
				fmt.Fprintf(&b, `{"Get":{"TableName":"tab0","Key":{"pk":{"S":"k%d"}}}}`, i)
			case i%3 == 0:
				fmt.Fprintf(&b, `{"Update":{"TableName":"tab0","Key":{"pk":{"S":"k%d"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":%s}}}`, i, value())
			default:
				fmt.Fprintf(&b, `{"Put":{"TableName":"tab0","Item":%s}}`, item(i))
			}
		}
		b.WriteString(`]`)
		if r.IntN(4) == 0 {
			b.WriteString(`,"ReturnConsumedCapacity":"SOME"`)
		}
		if r.IntN(4) == 0 && op == "TransactWriteItems" {
			b.WriteString(`,"ClientRequestToken":"` + strings.Repeat("t", 40) + `"`)
		}
		b.WriteString(`}`)
	case "BatchExecuteStatement":
		// Reads or writes, and now and then one of the other kind (a
		// mixed batch), before or past the 26th; faults of a
		// statement's own (constraints), of its parse and of its
		// parameters, before or past it.
		b.WriteString(`{"Statements":[`)
		stmts := n(maxBatchStatementsTest)
		read := r.IntN(2) == 0
		other := -1
		if r.IntN(3) == 0 {
			other = r.IntN(stmts)
		}
		bad, at := defect(), r.IntN(stmts)
		for i := range stmts {
			if i > 0 {
				b.WriteString(",")
			}
			switch {
			case i == at && bad == 0:
				b.WriteString(`{"Statement":""}`) // a constraint
			case i == at && bad == 1:
				b.WriteString(`{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":[]}`) // a constraint
			case i == at && bad == 2:
				b.WriteString(`{"Statement":"SELEC nothing"}`) // no parse: neither kind
			case i == at && bad == 3:
				b.WriteString(`{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?"}`) // a parameter missing
			case i == at && bad == 4:
				b.WriteString(`{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":[{"N":"x"}]}`) // a value fault
			case i == at && bad == 5:
				b.WriteString(`[]`) // serialization
			case read != (i == other):
				fmt.Fprintf(&b, `{"Statement":"SELECT * FROM \"tab0\" WHERE pk = 'k%d'"}`, i)
			default:
				fmt.Fprintf(&b, `{"Statement":"INSERT INTO \"tab0\" VALUE {'pk':?,'v':?}","Parameters":[{"S":"k%d"},%s]}`, i, value())
			}
		}
		b.WriteString(`]`)
		if r.IntN(4) == 0 {
			b.WriteString(`,"ReturnConsumedCapacity":"SOME"`)
		}
		b.WriteString(`}`)
	case "ExecuteTransaction":
		// Writes or reads, faults the answer reports before the count
		// (a value fault, a serialization error: a statement, its
		// parameters or the element of the wrong type, a member named
		// twice with a fault in the one that does not stay) and faults
		// it does not (a statement that does not parse, a constraint),
		// before or past the 101st.
		b.WriteString(`{"TransactStatements":[`)
		stmts := n(maxTransactItems)
		read := r.IntN(2) == 0
		bad, at := r.IntN(14), r.IntN(stmts) // 0..8: a fault; others: none
		for i := range stmts {
			if i > 0 {
				b.WriteString(",")
			}
			switch {
			case i == at && bad == 0:
				b.WriteString(`{"Statement":"INSERT INTO \"tab0\" VALUE {'pk':?}","Parameters":[{"N":"x"}]}`) // a value fault
			case i == at && bad == 1:
				b.WriteString(`{"Statement":"SELEC nothing"}`) // no parse
			case i == at && bad == 2:
				b.WriteString(`{"Statement":5}`) // serialization
			case i == at && bad == 3:
				b.WriteString(`{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":{"S":"a"}}`) // serialization
			case i == at && bad == 4:
				b.WriteString(`[]`) // serialization
			case i == at && bad == 5:
				b.WriteString(`{"Statement":""}`) // a constraint
			case i == at && bad == 6:
				b.WriteString(`{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":[],"ReturnValuesOnConditionCheckFailure":"NO"}`) // constraints
			case i == at && bad == 7:
				b.WriteString(`{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":[{"S":"1e99999"}],"Parameters":[{"NS":["1","1"]}]}`) // a value fault, named twice
			case i == at && bad == 8:
				b.WriteString(`{"Statement":"SELEC nothing","Statement":"SELECT * FROM \"tab0\" WHERE pk = 'a'","statement":"x"}`) // named twice and in another case
			case read:
				fmt.Fprintf(&b, `{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":[{"S":"k%d"}]}`, i)
			default:
				fmt.Fprintf(&b, `{"Statement":"INSERT INTO \"tab0\" VALUE {'pk':?,'v':?}","Parameters":[{"S":"k%d"},%s]}`, i, value())
			}
		}
		b.WriteString(`]`)
		if r.IntN(4) == 0 {
			b.WriteString(`,"ReturnConsumedCapacity":"` + testkit.Pick(r, "SOME", "TOTAL", "NONE") + `"`)
		}
		if r.IntN(4) == 0 {
			b.WriteString(`,"ClientRequestToken":"` + strings.Repeat("t", testkit.Pick(r, 40, 37, 0)) + `"`)
		}
		if r.IntN(10) == 0 {
			b.WriteString(testkit.Pick(r, `,"transactStatements":[]`, `,"TransactStatements":[]`, `,"ReturnConsumedCapacity":5`))
		}
		b.WriteString(`}`)
	}
	return b.String()
}

// maxBatchStatementsTest is BatchExecuteStatement's limit (partiqlops).
const maxBatchStatementsTest = 25

// TestOversizeSameAnswer: a request whose list is over its limit gets,
// through the prescan (oversize.go), exactly the answer the whole body
// decoded gets: random requests of each operation, with and without
// faults before and past the limit.
func TestOversizeSameAnswer(t *testing.T) {
	s := oversizeService(t, "tab0", "tab1", "tab2")
	seed := oversizeSeed(t)
	r := rand.New(rand.NewPCG(seed, 3))
	oversize.Every.Store(true)
	defer oversize.Every.Store(false)
	reduced := 0
	for _, op := range []string{"BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems", "BatchExecuteStatement", "ExecuteTransaction"} {
		for i := range 40 {
			body := oversizeBody(r, op)
			if b, _ := s.seams.prescanOf(op)([]byte(body), Cut{}); b != nil {
				reduced++
			}
			requireSameWithoutPrescan(t, s, op, body, i)
		}
	}
	require.Greater(t, reduced, 120, "the prescans reduced too few of the requests: the test misses them")
}

// requireSameWithoutPrescan serves body (case i of op) with the prescans
// on, then off, and requires the same answer.
func requireSameWithoutPrescan(t *testing.T, s *Service, op, body string, i int) {
	t.Helper()
	s.prescanOff.Store(false)
	res, got := doService(t, s, TargetPrefix+op, testkit.DefaultAuth, body)
	s.prescanOff.Store(true)
	wantRes, want := doService(t, s, TargetPrefix+op, testkit.DefaultAuth, body)
	s.prescanOff.Store(false)
	require.Equal(t, wantRes.StatusCode, res.StatusCode, "%s case %d", op, i)
	require.Equal(t, want, got, "%s case %d: %.300s", op, i, body)
}

// TestOversizeReduced: a request far over its list limit is decoded
// from a body that no longer grows with the list (the elements past the
// limit are checked and left out), so what it costs is its bytes and a
// run of elements at a time.
func TestOversizeReduced(t *testing.T) {
	s := newTestService(t, Config{})
	const n = 20_000
	list := func(elem func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = elem(i)
		}
		return strings.Join(parts, ",")
	}
	bodies := map[string]string{
		"BatchGetItem": `{"RequestItems":{"tab0":{"Keys":[` + list(func(i int) string { return fmt.Sprintf(`{"pk":{"S":"k%d"}}`, i) }) + `]}}}`,
		"BatchWriteItem": `{"RequestItems":{"tab0":[` + list(func(i int) string {
			return fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"k%d"},"v":{"S":"some text"}}}}`, i)
		}) + `]}}`,
		"TransactWriteItems": `{"TransactItems":[` + list(func(i int) string {
			return fmt.Sprintf(`{"Put":{"TableName":"tab0","Item":{"pk":{"S":"k%d"}}}}`, i)
		}) + `]}`,
		"TransactGetItems": `{"TransactItems":[` + list(func(i int) string {
			return fmt.Sprintf(`{"Get":{"TableName":"tab0","Key":{"pk":{"S":"k%d"}}}}`, i)
		}) + `]}`,
		"BatchExecuteStatement": `{"Statements":[` + list(func(i int) string {
			return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab0\" VALUE {'pk':?}","Parameters":[{"S":"k%d"}]}`, i)
		}) + `]}`,
		"ExecuteTransaction": `{"TransactStatements":[` + list(func(i int) string {
			return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab0\" VALUE {'pk':?}","Parameters":[{"S":"k%d"}]}`, i)
		}) + `]}`,
	}
	for op, body := range bodies {
		reduced, _ := s.seams.prescanOf(op)([]byte(body), Cut{})
		require.NotNil(t, reduced, op)
		most := 64 << 10
		if op == "BatchGetItem" { // the keys its echo shows (64 KB), to the end of their run
			most = 128 << 10
		}
		require.Less(t, len(reduced), most, "%s: %d bytes reduced to %d", op, len(body), len(reduced))
		t.Logf("%s: %d bytes decoded as %d", op, len(body), len(reduced))
	}
}

// FuzzOversizePrescan: any body of the six list operations, and of
// GetItem, Query and Scan (AttributesToGet), reads through
// the prescan without a panic, and gets the answer the whole body
// decoded gets.
func FuzzOversizePrescan(f *testing.F) {
	ops := []string{"BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems", "BatchExecuteStatement", "ExecuteTransaction", "GetItem", "Query", "Scan"}
	f.Add(uint8(8), `{"TableName":"t","AttributesToGet":["a","b","a",""]}`)
	f.Add(uint8(6), `{"TableName":"t","Key":{"pk":{"S":"a"}},"AttributesToGet":["\u0061","a",7]}`)
	f.Add(uint8(7), `{"TableName":"t","AttributesToGet":["a","a"],"attributesToGet":["b"]}`)
	f.Add(uint8(0), `{"RequestItems":{"t":{"Keys":[`+strings.Repeat(`{"pk":{"S":"a"}},`, 101)+`{"pk":{"N":"1"}}]}}}`)
	f.Add(uint8(3), `{"TransactItems":[`+strings.Repeat(`{"Get":{"TableName":"tab","Key":{}}},`, 101)+`{"Get":{}}]}`)
	f.Add(uint8(1), `{"RequestItems":{"t":[`+strings.Repeat(`{"PutRequest":{"Item":{"pk":{"S":"a"}}}},`, 26)+`7]}}`)
	f.Add(uint8(2), `{"TransactItems":[`+strings.Repeat(`{},`, 101)+`{"Put":[]}]}`)
	f.Add(uint8(0), `{"RequestItems":{"t":{"Keys":[`+strings.Repeat(`{"pk":{"S":"a"}},`, 101)+`{"pk":{"S":"\ud800"}}]}}}`)
	f.Add(uint8(4), `{"Statements":[`+strings.Repeat(`{"Statement":"SELECT * FROM t"},`, 30)+`{"Statement":"DELETE FROM t WHERE pk = 'a'"}]}`)
	f.Add(uint8(5), `{"TransactStatements":[`+strings.Repeat(`{"Statement":"SELECT * FROM t WHERE pk = ?","Parameters":[{"S":"a"}]},`, 102)+`{"Statement":"x","Parameters":[{"N":"x"}]}]}`)
	f.Add(uint8(5), `{"TransactStatements":[`+strings.Repeat(`{"Statement":"SELEC t"},`, 102)+`{"Statement":5}],"ClientRequestToken":""}`)
	s := newTestService(f, Config{})
	oversize.Every.Store(true)
	f.Cleanup(func() { oversize.Every.Store(false) })
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		op := ops[int(which)%len(ops)]
		_, _ = s.seams.prescanOf(op)([]byte(body), Cut{}) // never a panic
		s.prescanOff.Store(false)
		res, got := doService(t, s, TargetPrefix+op, testkit.DefaultAuth, body)
		s.prescanOff.Store(true)
		wantRes, want := doService(t, s, TargetPrefix+op, testkit.DefaultAuth, body)
		s.prescanOff.Store(false)
		require.Equal(t, wantRes.StatusCode, res.StatusCode)
		require.Equal(t, want, got)
	})
}

// TestOversizeExecuteTransaction: an ExecuteTransaction over 100
// statements is reduced to its first 101 when no later statement has a
// fault the answer reports before the count (a value fault, a
// serialization error), and gets the answer the whole body gets: at
// the limit and just past it, with faults before and past the 101st,
// with members named twice.
func TestOversizeExecuteTransaction(t *testing.T) {
	s := newTestService(t, Config{})
	_, out := doService(t, s, TargetPrefix+"CreateTable", testkit.DefaultAuth, `{"TableName":"tab0","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	require.Contains(t, out, "TableDescription")
	update := func(i int) string {
		return fmt.Sprintf(`{"Statement":"UPDATE \"tab0\" SET v = ? WHERE pk = ?","Parameters":[{"N":"1"},{"S":"k%d"}]}`, i)
	}
	// body is a transaction of n statements made by update but for
	// those of faults; tail ends the request after the list.
	body := func(n int, faults map[int]string, tail string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = update(i)
			if f, ok := faults[i]; ok {
				parts[i] = f
			}
		}
		return `{"TransactStatements":[` + strings.Join(parts, ",") + `]` + tail + `}`
	}
	const (
		valueFault = `{"Statement":"UPDATE \"tab0\" SET v = ? WHERE pk = 'a'","Parameters":[{"N":"x"}]}`
		noParse    = `{"Statement":"SELEC nothing"}`
		tooMany    = "Member must have length less than or equal to 100"
	)
	cases := []struct {
		name, body string
		reduced    bool
		want       string // in the answer
	}{
		{"100 statements", body(100, nil, ""), false, "TransactionCanceledException"},
		{"101 statements", body(101, nil, ""), false, tooMany},
		{"102 statements", body(102, nil, ""), true, tooMany},
		{"5000 statements", body(5000, nil, `,"ReturnConsumedCapacity":"TOTAL"`), true, tooMany},
		{"a bad parameter value past the 101st", body(500, map[int]string{101: valueFault}, ""), false, "ValidationException"},
		{"a bad parameter value last", body(500, map[int]string{499: `{"Statement":"x","Parameters":[{"NS":["1","1"]}]}`}, ""), false, "ValidationException"},
		{"a malformed statement past the 101st", body(500, map[int]string{300: noParse}, ""), true, tooMany},
		{"an empty statement past the 101st", body(500, map[int]string{300: `{"Statement":""}`}, ""), true, tooMany},
		{"a bad return value past the 101st", body(500, map[int]string{300: `{"Statement":"x","ReturnValuesOnConditionCheckFailure":"NO"}`}, ""), true, tooMany},
		{"a statement of the wrong type past the 101st", body(500, map[int]string{300: `{"Statement":5}`}, ""), false, "SerializationException"},
		{"parameters of the wrong type past the 101st", body(500, map[int]string{300: `{"Statement":"x","Parameters":{"S":"a"}}`}, ""), false, "SerializationException"},
		{"an element of the wrong type past the 101st", body(500, map[int]string{300: `7`}, ""), false, "SerializationException"},
		{"a bad parameter value among the first 100", body(500, map[int]string{5: valueFault}, ""), true, "ValidationException"},
		{"a malformed statement among the first 100", body(500, map[int]string{5: noParse}, ""), true, tooMany},
		{"a statement of the wrong type among the first 100", body(500, map[int]string{5: `{"Statement":5}`}, ""), true, "SerializationException"},
		{"bad parameter values before and past the 101st", body(500, map[int]string{5: valueFault, 300: `{"Statement":"x","Parameters":[{"N":"y"}]}`}, ""), false, "numeric value: x"},
		{"a bad parameter value before, one of the wrong form past", body(500, map[int]string{5: valueFault, 300: `{"Statement":"x","Parameters":[{"B":"!"}]}`}, ""), false, "SerializationException"},
		{"the 101st's bad parameter value", body(500, map[int]string{100: valueFault}, ""), true, "ValidationException"},
		{"a member after the list of the wrong type", body(500, nil, `,"ReturnConsumedCapacity":5`), true, "SerializationException"},
		{"constraints outside the list", body(500, nil, `,"ReturnConsumedCapacity":"ALL","ClientRequestToken":""`), true, tooMany},
		{"TransactStatements twice", body(500, nil, `,"TransactStatements":[]`), false, ""},
		{"TransactStatements in another case", body(500, nil, `,"transactStatements":[]`), false, ""},
		{"a statement's members named twice", body(500, map[int]string{300: `{"Statement":"SELEC x","Statement":"y","statement":"z","Parameters":[{"S":"a"}],"Parameters":[]}`}, ""), true, tooMany},
		{"a parameter named twice, a value fault in the first", body(500, map[int]string{300: `{"Statement":"x","Parameters":[{"N":"x"}],"Parameters":[{"N":"1"}]}`}, ""), false, "ValidationException"},
	}
	oversize.Every.Store(true)
	defer oversize.Every.Store(false)
	pre := s.seams.prescanOf("ExecuteTransaction")
	require.NotNil(t, pre, "ExecuteTransaction has no prescan")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reduced, fill := pre([]byte(tc.body), Cut{})
			require.Nil(t, fill)
			require.Equal(t, tc.reduced, reduced != nil, "got reduced %v, want %v", reduced != nil, tc.reduced)
			if reduced != nil {
				require.Equal(t, 101, strings.Count(string(reduced), `{"Statement"`)+strings.Count(string(reduced), `,7`)+strings.Count(string(reduced), `[7`))
			}
			s.prescanOff.Store(false)
			res, got := doService(t, s, TargetPrefix+"ExecuteTransaction", testkit.DefaultAuth, tc.body)
			s.prescanOff.Store(true)
			wantRes, want := doService(t, s, TargetPrefix+"ExecuteTransaction", testkit.DefaultAuth, tc.body)
			s.prescanOff.Store(false)
			require.Equal(t, wantRes.StatusCode, res.StatusCode)
			require.Equal(t, want, got)
			require.Contains(t, got, tc.want)
			t.Logf("%d: %.200s", res.StatusCode, got)
		})
	}
}

// oversizeService is a service with a table of each name (key pk, a
// string), for the oversize tests' requests.
func oversizeService(t *testing.T, names ...string) *Service {
	t.Helper()
	s := newTestService(t, Config{})
	for _, name := range names {
		_, out := doService(t, s, TargetPrefix+"CreateTable", testkit.DefaultAuth, `{"TableName":"`+name+`","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
		require.Contains(t, out, "TableDescription")
	}
	return s
}

// oversizeSeed is the oversize tests' random seed: the clock's, or
// DYNAMOEMU_OVERSIZE_SEED's to replay one, logged either way.
func oversizeSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("DYNAMOEMU_OVERSIZE_SEED"); v != "" {
		var err error
		seed, err = strconv.ParseUint(v, 10, 64)
		require.NoError(t, err, "DYNAMOEMU_OVERSIZE_SEED")
	}
	t.Logf("seed %d (replay: DYNAMOEMU_OVERSIZE_SEED=%d)", seed, seed)
	return seed
}
