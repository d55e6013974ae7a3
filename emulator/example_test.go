package emulator_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// call sends one DynamoDB API request to h, signed (as far as the
// emulator reads a signature) by access key "demo" in us-east-1, and
// returns the answer's body.
func call(h http.Handler, op, body string) string {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=demo/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return strings.TrimSpace(w.Body.String())
}

// createOrders creates table Orders, keyed by pk, through h.
func createOrders(h http.Handler) {
	call(h, "CreateTable", `{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
}

// An emulator serves the AWS SDK like DynamoDB: point the client's
// BaseEndpoint at a server of its Handler.
func ExampleNew() {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		panic(err)
	}
	defer emu.Close()
	srv := httptest.NewServer(emu.Handler())
	defer srv.Close()

	ctx := context.Background()
	db := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("demo", "secret", ""),
	})
	_, err = db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("Orders"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	if err != nil {
		panic(err)
	}
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("Orders"), Item: map[string]types.AttributeValue{
		"pk":    &types.AttributeValueMemberS{Value: "ORDER#1"},
		"total": &types.AttributeValueMemberN{Value: "12.50"},
	}})
	if err != nil {
		panic(err)
	}
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("Orders"),
		Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "ORDER#1"}}})
	if err != nil {
		panic(err)
	}
	fmt.Println(out.Item["total"].(*types.AttributeValueMemberN).Value)
	// Output: 12.5
}

// The handler speaks the DynamoDB JSON protocol: POST / with the
// operation in X-Amz-Target. Each access key and region is a database of
// its own, as on DynamoDB Local.
func ExampleEmulator_Handler() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it
	createOrders(h)
	fmt.Println(call(h, "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"ORDER#1"}}}`))
	fmt.Println(call(h, "GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"ORDER#1"}}}`))
	fmt.Println(call(h, "ListTables", `{}`))
	// Output:
	// {}
	// {"Item":{"pk":{"S":"ORDER#1"}}}
	// {"TableNames":["Orders"]}
}

// NewServer is the http.Server cmd/dynamoemu runs: the emulator's
// handler with limits on what one connection may hold, and its own
// connection loop for API calls.
func ExampleEmulator_NewServer() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	srv := emu.NewServer(emulator.ServerOptions{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())

	req, _ := http.NewRequest(http.MethodPost, "http://"+ln.Addr().String()+"/", strings.NewReader(`{}`))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=demo/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	// Output: 200 {"TableNames":[]}
}

// Every time the emulator uses (TTL expiry, stream retention, request
// times) comes from one clock that a test moves.
func ExampleClock_Advance() {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	emu, _ := emulator.New(emulator.Options{Clock: func() time.Time { return start }})
	defer emu.Close()
	now, _ := emu.Clock().Advance(36 * time.Hour)
	fmt.Println(now.Format(time.RFC3339))
	now, _ = emu.Clock().SetNow(start.Add(-time.Hour))
	fmt.Println(now.Format(time.RFC3339))
	// Output:
	// 2026-01-03T00:00:00Z
	// 2026-01-01T11:00:00Z
}

// A snapshot rewinds the whole emulator: a test suite takes one after
// its fixtures and restores it before each test.
func ExampleBranches_Snapshot() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it
	createOrders(h)
	id := emu.Branches().Snapshot()

	call(h, "DeleteTable", `{"TableName":"Orders"}`)
	fmt.Println(call(h, "ListTables", `{}`))
	if err := emu.Branches().Restore(id); err != nil {
		panic(err)
	}
	fmt.Println(call(h, "ListTables", `{}`))
	fmt.Println(emu.Branches().DropSnapshot(id) == nil, errors.Is(emu.Branches().Restore(id), emulator.ErrNoSnapshot))
	// Output:
	// {"TableNames":[]}
	// {"TableNames":["Orders"]}
	// true true
}

// Fault rules make chosen calls fail as DynamoDB's do under load, so
// that a test sees its retries and error paths run.
func ExampleEmulator_Faults() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it
	createOrders(h)
	err := emu.Faults().SetRules(1, []emulator.FaultRule{{
		Name:       "first-read-throttled",
		Table:      "Orders",
		Operations: []string{"GetItem"},
		Count:      1,
		Fault:      emulator.FaultThrottling,
	}})
	if err != nil {
		panic(err)
	}
	get := `{"TableName":"Orders","Key":{"pk":{"S":"ORDER#1"}}}`
	fmt.Println(strings.Contains(call(h, "GetItem", get), "ThrottlingException"))
	fmt.Println(call(h, "GetItem", get))
	for _, r := range emu.Faults().Stats().Rules {
		fmt.Println(r.Name, r.Fault, r.Fired)
	}
	// Output:
	// true
	// {}
	// first-read-throttled Throttling 1
}

// The access-pattern report counts each table's and index's traffic: a
// test reads it to see that a query does not scan.
func ExampleReports_Access() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it
	createOrders(h)
	emu.Reports().SetReporting(true)
	call(h, "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"ORDER#1"}}}`)
	call(h, "GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"ORDER#1"}}}`)
	call(h, "Scan", `{"TableName":"Orders"}`)
	for _, ns := range emu.Reports().Access() {
		for _, tb := range ns.Report.Tables {
			r := tb.Resources[0]
			fmt.Printf("%s: %d gets, %d scans, %d writes\n", tb.Table, r.Gets, r.Scans, r.Writes)
		}
	}
	// Output: Orders: 1 gets, 1 scans, 1 writes
}

// A lag gate shows a GSI's queries the table's writes late, as
// DynamoDB's asynchronous index updates do; the emulator's clock, not
// the wall clock, lets them through.
func ExampleLags_Index() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it
	call(h, "CreateTable", `{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"status","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeySchema":[{"AttributeName":"status","KeyType":"HASH"}],
			"Projection":{"ProjectionType":"ALL"}}]}`)
	gate, err := emu.Lags().Index("demo", "us-east-1", "Orders", "byStatus")
	if err != nil {
		panic(err)
	}
	gate.SetDelay(time.Second)

	call(h, "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"ORDER#1"},"status":{"S":"SHIPPED"}}}`)
	shipped := `{"TableName":"Orders","IndexName":"byStatus","Select":"COUNT",
		"KeyConditionExpression":"#s = :s","ExpressionAttributeNames":{"#s":"status"},
		"ExpressionAttributeValues":{":s":{"S":"SHIPPED"}}}`
	fmt.Println(call(h, "Query", shipped), gate.Pending())
	emu.Clock().Advance(time.Second)
	fmt.Println(call(h, "Query", shipped), gate.Pending())
	// Output:
	// {"Count":0,"ScannedCount":0} 1
	// {"Count":1,"ScannedCount":1} 0
}

// A rules file (cmd/dynamoemu -faults FILE) holds a seed and the rules,
// in the shape GET /dynamoemu/faults answers; FaultOptions take them at
// start.
func ExampleParseFaultRules() {
	seed, rules, err := emulator.ParseFaultRules([]byte(`{"seed": 7, "rules": [
		{"name": "slow-writes", "table": "Orders", "operations": ["PutItem"],
		 "fault": "Delay", "delay": "250ms", "every": 10},
		{"name": "hot-order", "partitionKey": "ORDER#1", "probability": 0.5,
		 "fault": "ProvisionedThroughputExceeded"}]}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(seed)
	for _, r := range rules {
		fmt.Println(r.Name, r.Fault, r.Delay, r.Every, r.Probability)
	}
	emu, err := emulator.New(emulator.Options{Faults: emulator.FaultOptions{Seed: seed, Rules: rules}})
	if err != nil {
		panic(err)
	}
	defer emu.Close()
	fmt.Println(emu.Faults().Active())
	// Output:
	// 7
	// slow-writes Delay 250ms 10 0
	// hot-order ProvisionedThroughputExceeded 0s 0 0.5
	// true
}

// TTL runs on the emulator's clock: move it past an item's expiry and
// sweep, and the item is gone, without a test waiting for it.
func ExampleClock_SweepTTL() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	emu, _ := emulator.New(emulator.Options{Clock: func() time.Time { return start }})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it
	createOrders(h)
	call(h, "UpdateTimeToLive", `{"TableName":"Orders","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expires"}}`)
	expires := start.Add(time.Hour).Unix()
	call(h, "PutItem", fmt.Sprintf(`{"TableName":"Orders","Item":{"pk":{"S":"CART#1"},"expires":{"N":"%d"}}}`, expires))

	fmt.Println(emu.Clock().SweepTTL())
	emu.Clock().Advance(2 * time.Hour)
	fmt.Println(emu.Clock().SweepTTL())
	fmt.Println(call(h, "GetItem", `{"TableName":"Orders","Key":{"pk":{"S":"CART#1"}}}`))
	// Output:
	// 0
	// 1
	// {}
}

// A stream handler: a mapping sends the records of a table's stream to
// a function (here a Go one), with Lambda's batching and filters; Drain
// returns once every record written has been handled, so a test asserts
// right after it.
func ExampleStreams() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it
	call(h, "CreateTable", `{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`)

	var seen []string // the function runs on the mapping's goroutine; Drain orders it before the reads below
	emu.Streams().SetFunction("audit", func(ctx context.Context, event []byte) ([]byte, error) {
		var ev struct {
			Records []struct {
				EventName string `json:"eventName"`
				Dynamodb  struct {
					Keys map[string]map[string]string
				} `json:"dynamodb"`
			}
		}
		if err := json.Unmarshal(event, &ev); err != nil {
			return nil, err
		}
		for _, r := range ev.Records {
			seen = append(seen, r.EventName+" "+r.Dynamodb.Keys["pk"]["S"])
		}
		return nil, nil
	})
	_, err := emu.Streams().CreateMapping(emulator.EventSourceMapping{
		TableName: aws.String("Orders"), FunctionName: aws.String("audit"),
		StartingPosition: aws.String("TRIM_HORIZON"),
		FilterPatterns:   []string{`{"eventName":["INSERT","REMOVE"]}`},
	})
	if err != nil {
		panic(err)
	}
	call(h, "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"ORDER#1"}}}`)
	call(h, "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"ORDER#1"},"paid":{"BOOL":true}}}`) // MODIFY: filtered out
	call(h, "DeleteItem", `{"TableName":"Orders","Key":{"pk":{"S":"ORDER#1"}}}`)
	if err := emu.Streams().Drain(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(strings.Join(seen, "\n"))
	m := emu.Streams().Mappings()[0]
	fmt.Println(m.State, m.Filtered)
	// Output:
	// INSERT ORDER#1
	// REMOVE ORDER#1
	// Enabled 1
}

// A branch is a namespace forked from another in O(1) per table: each
// test of a suite gets the seeded tables to change as it likes, the base
// untouched. Requests reach it signed with its name as their access key
// (or with the X-Dynamoemu-Branch header).
func ExampleBranches_Fork() {
	emu, _ := emulator.New(emulator.Options{})
	defer emu.Close()
	h := emu.Handler() // call(h, op, body) posts one API request to it, as access key "demo"
	createOrders(h)
	call(h, "PutItem", `{"TableName":"Orders","Item":{"pk":{"S":"ORDER#1"}}}`)

	base := emu.Branches().NamespaceID("demo", "us-east-1")
	b, err := emu.Branches().Fork(base, "test1")
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Namespace, b.AccessKey)
	branch := func(op, body string) string {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=test1/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return strings.TrimSpace(w.Body.String())
	}
	branch("DeleteItem", `{"TableName":"Orders","Key":{"pk":{"S":"ORDER#1"}}}`)
	fmt.Println(branch("Scan", `{"TableName":"Orders","Select":"COUNT"}`))
	fmt.Println(call(h, "Scan", `{"TableName":"Orders","Select":"COUNT"}`))
	fmt.Println(emu.Branches().Drop("test1"), len(emu.Branches().List()))
	// Output:
	// test1/us-east-1 test1
	// {"Count":0,"ScannedCount":0}
	// {"Count":1,"ScannedCount":1}
	// <nil> 0
}
