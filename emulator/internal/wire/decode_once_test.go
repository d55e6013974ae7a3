package wire_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// attrValues finds the attribute values of a body built by TestDecodeOnce:
// each is an object whose first member is a type key.
var attrValues = regexp.MustCompile(`\{"(S|N|B|SS|NS|BS|M|L|NULL|BOOL)":`)

// serve starts a Server of a fresh emulator on 127.0.0.1:0, with its
// connection loop (net/http alone with DYNAMOEMU_HTTP_LOOP=std) and read
// and write timeouts that only catch a hang (5 minutes times
// DYNAMOEMU_TEST_TIMEOUT_SCALE): under -race on a busy machine the server
// decodes a list of 420,000 values as it reads it, which can outlast the
// 60 s default.
func serve(t *testing.T) string {
	t.Helper()
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	bound := testkit.Scaled(5 * time.Minute)
	srv := e.NewServer(emulator.ServerOptions{Loop: emulator.HTTPLoop(os.Getenv("DYNAMOEMU_HTTP_LOOP")), ReadTimeout: bound, WriteTimeout: bound})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// TestDecodeOnce: "Nothing is parsed twice" (docs/architecture.md). Each
// request a server gets, of every data operation and at every size
// (small, past the bytes read whole, far over a list's limit, an item's
// list over 400 KB), is read by exactly one pass of the request decoder,
// which decodes each of its attribute values exactly once: the elements
// past a limit included, none of them decoded again for the answer.
func TestDecodeOnce(t *testing.T) {
	url := serve(t)
	hc := &http.Client{}
	send := func(op, body string) (int, []byte) {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", testkit.Auth("AKIDDECODEONCE", "us-east-1"))
		res, err := hc.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		answer, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, answer
	}
	for _, name := range []string{"tab", "two"} {
		status, answer := send("CreateTable", `{"TableName":"`+name+`","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
			`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
		require.Equal(t, http.StatusOK, status, "%s", answer)
	}
	status, answer := send("CreateTable", `{"TableName":"vec","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST",`+
		`"VectorIndexes":[{"IndexName":"byV","VectorAttribute":{"AttributeName":"v"},"Dimensions":3,"DistanceFunction":"COSINE",`+
		`"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	require.Equal(t, http.StatusOK, status, "%s", answer)
	var (
		mu             sync.Mutex
		passes, values int
	)
	defer wire.CountDecodes(func(n int) {
		mu.Lock()
		passes, values = passes+1, values+n
		mu.Unlock()
	})()

	list := func(n int, each func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = each(i)
		}
		return strings.Join(parts, ",")
	}
	item := func(i, pad int) string {
		return fmt.Sprintf(`{"pk":{"S":"k%d"},"n":{"N":"%d"},"pad":{"S":"%s"}}`, i, i, strings.Repeat("x", pad))
	}
	key := func(i int) string { return fmt.Sprintf(`{"pk":{"S":"k%d"}}`, i) }
	bigList := `{"L":[` + list(420_000, func(int) string { return `{"S":""}` }) + `]}`
	writes := func(n, pad int) string {
		return `{"RequestItems":{"tab":[` + list(n, func(i int) string { return `{"PutRequest":{"Item":` + item(i, pad) + `}}` }) + `]}}`
	}
	gets := func(n int) string {
		return `{"RequestItems":{"tab":{"Keys":[` + list(n, key) + `],"AttributesToGet":["pk","n"]},"two":{"Keys":[` + key(0) + `]}}}`
	}
	txWrites := func(n, pad int) string {
		return `{"TransactItems":[` + list(n, func(i int) string { return `{"Put":{"TableName":"tab","Item":` + item(i, pad) + `}}` }) + `]}`
	}
	txGets := func(n int) string {
		return `{"TransactItems":[` + list(n, func(i int) string { return `{"Get":{"TableName":"tab","Key":` + key(i) + `}}` }) + `]}`
	}
	statements := func(n int) string {
		return `{"Statements":[` + list(n, func(i int) string {
			return fmt.Sprintf(`{"Statement":"SELECT * FROM \"tab\" WHERE pk = ?","Parameters":[{"S":"k%d"}]}`, i)
		}) + `]}`
	}
	cases := []struct{ op, size, body string }{
		{"PutItem", "small", `{"TableName":"tab","Item":` + item(1, 10) + `}`},
		{"PutItem", "100 KB", `{"TableName":"tab","Item":` + item(2, 100_000) + `}`},
		{"PutItem", "a list over 400 KB", `{"TableName":"tab","Item":{"pk":{"S":"big"},"l":` + bigList + `}}`},
		{"GetItem", "small", `{"TableName":"tab","Key":` + key(1) + `}`},
		{"GetItem", "AttributesToGet", `{"TableName":"tab","Key":` + key(1) + `,"AttributesToGet":[` + list(20_000, func(i int) string { return fmt.Sprintf(`"a%d"`, i) }) + `]}`},
		{"UpdateItem", "small", `{"TableName":"tab","Key":` + key(1) + `,"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"N":"1"}}}`},
		{"UpdateItem", "a list over 400 KB", `{"TableName":"tab","Key":` + key(1) + `,"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":` + bigList + `}}`},
		{"DeleteItem", "small", `{"TableName":"tab","Key":` + key(9) + `,"ConditionExpression":"attribute_not_exists(v) OR v <> :v","ExpressionAttributeValues":{":v":{"S":"x"}}}`},
		{"Query", "small", `{"TableName":"tab","KeyConditionExpression":"pk = :k","FilterExpression":"n > :n","ExpressionAttributeValues":{":k":{"S":"k1"},":n":{"N":"0"}}}`},
		{"Query", "legacy", `{"TableName":"tab","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"k1"}]}},"QueryFilter":{"n":{"ComparisonOperator":"GT","AttributeValueList":[{"N":"0"}]}}}`},
		{"Scan", "small", `{"TableName":"tab","FilterExpression":"n >= :n","ExpressionAttributeValues":{":n":{"N":"0"}}}`},
		{"BatchWriteItem", "25 × 400 B", writes(25, 400)},
		{"BatchWriteItem", "25 × 40 KB", writes(25, 40_000)},
		{"BatchWriteItem", "3,000 writes", writes(3_000, 10)},
		{"BatchGetItem", "small", gets(5)},
		{"BatchGetItem", "3,000 keys", gets(3_000)},
		{"BatchGetItem", "20,000 names, parked", `{"RequestItems":{"tab":{"Keys":[` + list(5, key) + `],"AttributesToGet":[` +
			list(20_000, func(i int) string { return fmt.Sprintf(`"a%d"`, i) }) + `]}}}`},
		{"TransactWriteItems", "small", txWrites(10, 10)},
		{"TransactWriteItems", "3,000 actions", txWrites(3_000, 10)},
		{"TransactGetItems", "small", txGets(10)},
		{"TransactGetItems", "3,000 actions", txGets(3_000)},
		{"ExecuteStatement", "small", `{"Statement":"SELECT * FROM \"tab\" WHERE pk = ?","Parameters":[{"S":"k1"}]}`},
		{"ExecuteStatement", "3,000 parameters", `{"Statement":"SELECT * FROM \"tab\" WHERE pk = ?","Parameters":[` + list(3_000, func(int) string { return `{"S":"k1"}` }) + `]}`},
		{"BatchExecuteStatement", "small", statements(5)},
		{"BatchExecuteStatement", "3,000 statements", statements(3_000)},
		{"ExecuteTransaction", "small", `{"TransactStatements":[{"Statement":"SELECT * FROM \"tab\" WHERE pk = ?","Parameters":[{"S":"k1"}]}]}`},
		{"ExecuteTransaction", "3,000 statements", `{"TransactStatements":[` + list(3_000, func(int) string {
			return `{"Statement":"SELECT * FROM \"tab\" WHERE pk = ?","Parameters":[{"S":"k1"}]}`
		}) + `]}`},
		{"SearchVectors", "small", `{"TableName":"vec","IndexName":"byV","TopK":2,"SearchVector":[{"N":"1"},{"N":"0.5"},{"N":"-1"}]}`},
		{"SearchVectors", "a search condition", `{"TableName":"vec","IndexName":"byV","TopK":2,"SearchVector":[{"N":"1"},{"N":"0.5"},{"N":"-1"}],` +
			`"SearchConditionExpression":"pk = :k","ExpressionAttributeValues":{":k":{"S":"k1"}},"ProjectionExpression":"pk"}`},
		{"SearchVectors", "a strict null", "{\"TableName\":\"vec\",\"SearchVector\":[{\"N\":\"1\"}],\n\"TopK\":null}"},
		{"SearchVectors", "no TableName", `{"IndexName":"byV","TopK":2,"SearchVector":[{"N":"1"},{"N":"0.5"},{"N":"-1"}]}`},
		{"SearchVectors", "a value that ends the reading", `{"SearchVector":[{"B":"!"}],"IndexName":"byV","TopK":null}`},
		{"SearchVectors", "10,000 dimensions", `{"TableName":"vec","IndexName":"byV","TopK":2,"SearchVector":[` +
			list(10_000, func(int) string { return `{"N":"1"}` }) + `]}`},
		{"DescribeTable", "small", `{"TableName":"tab"}`},
		{"ListTables", "small", `{"Limit":10}`},
	}
	for _, tc := range cases {
		mu.Lock()
		passes, values = 0, 0
		mu.Unlock()
		status, answer := send(tc.op, tc.body)
		require.Less(t, status, 500, "%s %s: %s", tc.op, tc.size, answer)
		mu.Lock()
		gotPasses, gotValues := passes, values
		mu.Unlock()
		want := len(attrValues.FindAllStringIndex(tc.body, -1))
		require.Equal(t, 1, gotPasses, "%s %s: decoder passes (answer %.200s)", tc.op, tc.size, answer)
		require.Equal(t, want, gotValues, "%s %s: attribute values decoded (answer %.200s)", tc.op, tc.size, answer)
	}
}
