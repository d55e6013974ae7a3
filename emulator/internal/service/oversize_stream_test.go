package service

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// chunkReader gives its bytes in reads of random sizes (1 to max), as a
// connection does.
type chunkReader struct {
	b   []byte
	r   *rand.Rand
	max int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.b), 1+c.r.IntN(c.max))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

// serveCut serves body as the edge does for an operation whose list is
// cut as it arrives (Operation.ListCut, read in random pieces) and
// returns the status and body of the answer and what was cut.
func serveCut(t testing.TB, s *Service, op, body string, r *rand.Rand) (int, string, Cut) {
	t.Helper()
	o, err := s.Lookup(TargetPrefix + op)
	require.NoError(t, err)
	lc := o.ListCut()
	require.NotNil(t, lc, op)
	var buf bytes.Buffer
	limit := int64(16<<20) + 1
	chunks := testkit.Pick(r, 1, 7, 512, 64<<10)
	src := &chunkReader{b: []byte(body), r: r, max: chunks}
	n, cut, more, err := lc.Read(&buf, src, limit, int64(len(body))+1)
	require.NoError(t, err)
	if more {
		rest, err := io.ReadAll(src)
		require.NoError(t, err)
		buf.Write(rest)
		n += int64(len(rest))
	}
	require.Equal(t, int64(len(body)), n)
	key, region := testkit.Credential(testkit.DefaultAuth)
	out, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: key, Region: region, RequestID: "test", Host: "localhost", Body: buf.Bytes(), Cut: cut})
	status := http.StatusOK
	if err != nil {
		ae, _ := apierr.Classify(err)
		status, out = ae.Class.Status, wire.AppendErrorBody(nil, ae)
	}
	return status, string(out), cut
}

// cutOps are the operations whose lists are cut as the body arrives.
var cutOps = []string{"TransactWriteItems", "TransactGetItems", "ExecuteTransaction", "BatchWriteItem", "BatchExecuteStatement"}

// batchWriteShapes gives a BatchWriteItem body the map shapes whose
// answer the cut must work out: a table given twice (the last list is
// the map's), RequestItems given again (merged) or null (no map), lists
// of 0, 25, 26 or more writes, value faults, and attribute names of
// several bytes a rune, so the echo's cut can fall inside one.
func batchWriteShapes(r *rand.Rand, body string) string {
	writes := func() string {
		m := testkit.Pick(r, 0, 3, 25, 26, 60, 700)
		var b strings.Builder
		b.WriteString("[")
		for i := range m {
			if i > 0 {
				b.WriteString(",")
			}
			switch r.IntN(40) {
			case 0:
				b.WriteString(`{"PutRequest":{"Item":{"pk":{"N":"1e99999"}}}}`)
			case 1:
				fmt.Fprintf(&b, `{"DeleteRequest":{"Key":{"pk":{"S":"d%d"}}}}`, i)
			case 2, 3:
				if r.IntN(16) == 0 || i == 0 {
					b.WriteString(bigWrite(r, i))
					break
				}
				fallthrough
			default:
				fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"k%d"},"%s":{"S":"x"}}}}`, i, strings.Repeat("é€", 1+r.IntN(3)))
			}
		}
		b.WriteString("]")
		return b.String()
	}
	table := func() string { return testkit.Pick(r, "tab0", "tab1", "tab2") }
	head, rest, _ := strings.Cut(body, `{"RequestItems":{`)
	open := head + `{"RequestItems":{`
	trimmed := strings.TrimSuffix(body, "}")
	switch r.IntN(6) {
	case 0: // a table given first, and maybe again after
		return open + `"` + table() + `":` + writes() + "," + rest
	case 1: // RequestItems again, merged
		return trimmed + `,"RequestItems":{"` + table() + `":` + writes() + `}}`
	case 2: // RequestItems null after: no map
		return trimmed + `,"RequestItems":null}`
	case 3: // null, then a map again
		return trimmed + `,"RequestItems":null,"RequestItems":{"` + table() + `":` + writes() + `,"` + table() + `":` + writes() + `}}`
	}
	return body
}

// bigWrite is a write request of an item with a list of 5,000 to 30,000
// numbers (80 to 480 KB: a run of its own, decoded in place, and past
// the item size limit: cut by the wire), sometimes with a value fault or
// a syntax fault at its end.
func bigWrite(r *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"k%d"},"l":{"L":[`, i)
	for j := range testkit.Pick(r, 5000, 12000, 30000) {
		fmt.Fprintf(&b, `{"N":"%07d"},`, j)
	}
	b.WriteString(testkit.Pick(r, `{"S":"x"}`, `{"S":"x"}`, `{"N":"x1"}`, `{"N":5}`))
	b.WriteString(`]}}}}`)
	return b.String()
}

// TestListCutSameAnswer: a request whose list is cut as its body arrives
// (Operation.ListCut) gets exactly the answer the whole body decoded
// gets (the prescans off), byte for byte: random requests of each
// operation cut, over their limit or not, with and without faults
// before and past the limit, read in pieces of random sizes.
func TestListCutSameAnswer(t *testing.T) {
	s := oversizeService(t, "tab0", "tab1", "tab2")
	seed := oversizeSeed(t)
	r := rand.New(rand.NewPCG(seed, 5))
	cut := map[string]int{}
	for _, op := range cutOps {
		for i := range 60 {
			body := oversizeBody(r, op)
			switch {
			case op == "BatchWriteItem":
				body = batchWriteShapes(r, body)
			case op == "BatchExecuteStatement" && r.IntN(4) == 0:
				// shapes the cut does not reduce (the list's name in
				// another case, the list again): the statements dropped
				// come back, with their kinds
				body = strings.TrimSuffix(body, "}") + testkit.Pick(r, `,"statements":[]}`, `,"Statements":[{"Statement":"SELECT * FROM \"tab0\" WHERE pk = 'a'"}]}`)
			}
			if r.IntN(8) == 0 { // spaces between the elements and around the list
				body = strings.ReplaceAll(body, "},{", "} ,\n{")
				body = strings.Replace(body, "[", " [ ", 1)
			}
			requireSameCut(t, s, op, body, r, fmt.Sprintf("case %d", i), cut)
		}
		require.Greater(t, cut[op], 15, "%s: too few requests were cut: the test misses them", op)
	}
}

// requireSameCut serves body cut as it arrives and whole with the
// prescans off, and requires the same answer; it counts the cuts of op.
func requireSameCut(t *testing.T, s *Service, op, body string, r *rand.Rand, name string, cuts map[string]int) {
	t.Helper()
	status, got, cut := serveCut(t, s, op, body, r)
	if cut.Elems > 0 {
		cuts[op]++
	}
	s.prescanOff.Store(true)
	wantRes, want := doService(t, s, TargetPrefix+op, testkit.DefaultAuth, body)
	s.prescanOff.Store(false)
	require.Equal(t, wantRes.StatusCode, status, "%s %s", op, name)
	require.Equal(t, want, got, "%s %s (cut %+v): %.300s", op, name, cut, body)
}

// TestListCutHoldsLittle: a transaction far over its limit, cut as it
// arrives, is held as its first actions and a run, not whole.
func TestListCutHoldsLittle(t *testing.T) {
	const n = 20_000
	var b strings.Builder
	b.WriteString(`{"TransactItems":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"Put":{"TableName":"tab0","Item":{"pk":{"S":"k%d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 100))
	}
	b.WriteString(`],"ReturnConsumedCapacity":"TOTAL"}`)
	body := b.String()
	var buf bytes.Buffer
	n2, cut, more, err := coreCut("TransactWriteItems").Read(&buf, strings.NewReader(body), 16<<20, int64(len(body))+1)
	require.NoError(t, err)
	require.False(t, more)
	require.Equal(t, int64(len(body)), n2)
	require.Equal(t, Cut{Elems: n, Len: len(body), Read: true}, cut)
	require.Less(t, buf.Cap(), 256<<10, "the body kept: %d bytes of %d", buf.Len(), len(body))
	require.True(t, strings.HasSuffix(buf.String(), `],"ReturnConsumedCapacity":"TOTAL"}`))
	t.Logf("%d bytes kept as %d (a buffer of %d)", len(body), buf.Len(), buf.Cap())
}

// FuzzListCut: any body of the operations whose lists are cut as they
// arrive reads through its ListCut without a panic, and gets the
// answer the whole body decoded gets. The body is the fuzzer's bytes,
// or a list of 101 to 400 copies of the fuzzer's element with the
// fuzzer's other element at one place and its bytes after the list.
func FuzzListCut(f *testing.F) {
	f.Add(uint8(0), uint16(150), uint16(140), `{"Put":{"TableName":"tab0","Item":{"pk":{"S":"a"}}}}`, `{"Put":{}}`, `,"ReturnConsumedCapacity":"SOME"}`)
	f.Add(uint8(1), uint16(300), uint16(2), `{"Get":{"TableName":"tab0","Key":{"pk":{"S":"a"}}}}`, `[]`, `}`)
	f.Add(uint8(2), uint16(200), uint16(150), `{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":[{"S":"a"}]}`, `{"Statement":"x","Parameters":[{"N":"x"}]}`, `}`)
	f.Add(uint8(2), uint16(120), uint16(119), `{"Statement":"SELEC t"}`, `{"Statement":5}`, `,"ClientRequestToken":""}`)
	f.Add(uint8(0), uint16(101), uint16(500), `{"Put":{"TableName":"tab0","Item":{"pk":{"S":"a"}}}}`, `{}`, `,"TransactItems":[]}`)
	f.Add(uint8(1), uint16(101), uint16(500), `{"Get":{"TableName":"tab0","Key":{"pk":{"S":"a"}}}}`, `{}`, `,"transactItems":[]}`)
	f.Add(uint8(3), uint16(0), uint16(0), `{"TransactItems":[{},{}]}`, ``, ``)
	f.Add(uint8(3), uint16(150), uint16(140), `{"PutRequest":{"Item":{"pk":{"S":"a"}}}}`, `{"DeleteRequest":{"Key":{"pk":{"N":"x"}}}}`, `,"RequestItems":{"tab0":[]}}`)
	f.Add(uint8(9), uint16(150), uint16(140), `{"Statement":"SELECT * FROM \"tab0\" WHERE pk = 'a'"}`, `{"Statement":"INSERT INTO \"tab0\" VALUE {'pk':'b'}"}`, `}`)
	f.Add(uint8(9), uint16(150), uint16(149), `{"Statement":"SELECT * FROM \"tab0\" WHERE pk = ?","Parameters":[{"S":"a"}]}`, `{"Statement":"x","Parameters":[{"N":"x"}]}`, `,"statements":[]}`)
	f.Add(uint8(3), uint16(40), uint16(500), `{"PutRequest":{"Item":{"pk":{"S":"a"}}}}`, `{}`, `,"RequestItems":null,"ReturnConsumedCapacity":"X"}`)
	s := newTestService(f, Config{})
	for _, name := range []string{"tab0"} {
		_, out := doService(f, s, TargetPrefix+"CreateTable", testkit.DefaultAuth, `{"TableName":"`+name+`","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
		require.Contains(f, out, "TableDescription")
	}
	f.Fuzz(func(t *testing.T, which uint8, n, at uint16, elem, other, tail string) {
		op := cutOps[int(which)%len(cutOps)]
		body := elem + other + tail // the fuzzer's bytes as they are
		if which&4 == 0 {
			open := map[string]string{"TransactWriteItems": `{"TransactItems":[`, "TransactGetItems": `{"TransactItems":[`,
				"ExecuteTransaction": `{"TransactStatements":[`, "BatchWriteItem": `{"RequestItems":{"tab0":[`, "BatchExecuteStatement": `{"Statements":[`}[op]
			count := 101 + int(n)%300
			var b strings.Builder
			b.WriteString(open)
			for i := range count {
				if i > 0 {
					b.WriteString(",")
				}
				if i == int(at)%(count+1) {
					b.WriteString(other)
				} else {
					b.WriteString(elem)
				}
			}
			b.WriteString("]")
			if op == "BatchWriteItem" {
				b.WriteString("}")
			}
			b.WriteString(tail)
			body = b.String()
		}
		r := rand.New(rand.NewPCG(uint64(n), uint64(at)))
		requireSameCut(t, s, op, body, r, "fuzz", map[string]int{})
	})
}
