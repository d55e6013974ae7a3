package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// Each injected fault, and each throttled request, reaches
// aws-sdk-go-v2 as AWS's would: its typed error, retried by the standard
// retryer when AWS's would be and given up after MaxAttempts, batches'
// UnprocessedItems drained by a standard loop, a TransactionConflict in
// CancellationReasons. Emulator-only: DynamoDB Local injects no fault and
// never throttles.

// stillClock is a clock that stands still, so that only Advance fills
// the throttler's buckets.
func stillClock() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }

// faultTable creates table name (pk S, sk S; PROVISIONED rcu/wcu, or on
// demand when wcu is 0).
func faultTable(t *testing.T, db *dynamodb.Client, name string, rcu, wcu int64) {
	t.Helper()
	in := &dynamodb.CreateTableInput{
		TableName: aws.String(name),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
		BillingMode: types.BillingModePayPerRequest,
	}
	if wcu > 0 {
		in.BillingMode = types.BillingModeProvisioned
		in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(rcu), WriteCapacityUnits: aws.Int64(wcu)}
	}
	if _, err := db.CreateTable(context.Background(), in); err != nil {
		t.Fatal(err)
	}
}

// item is an item of a faultTable.
func item(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: pk},
		"sk": &types.AttributeValueMemberS{Value: sk},
	}
}

// TestFaultsSDKRetries: a fault of each kind on PutItem (TransactWriteItems
// for TransactionInProgress) reaches the SDK as its typed error; the
// kinds AWS's SDK retries are tried MaxAttempts times and then given up,
// and a rule with Count 2 lets the third attempt through; the others are
// tried once.
func TestFaultsSDKRetries(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		kind  emulator.FaultKind
		op    string
		isErr func(error) bool
	}{
		{emulator.FaultInternalServerError, "PutItem", func(err error) bool { var e *types.InternalServerError; return errors.As(err, &e) }},
		{emulator.FaultThrottling, "PutItem", func(err error) bool { var e *types.ThrottlingException; return errors.As(err, &e) }},
		{emulator.FaultProvisionedThroughputExceeded, "PutItem", func(err error) bool {
			var e *types.ProvisionedThroughputExceededException
			return errors.As(err, &e) && len(e.ThrottlingReasons) == 1 &&
				aws.ToString(e.ThrottlingReasons[0].Reason) == "TableWriteProvisionedThroughputExceeded" &&
				strings.HasSuffix(aws.ToString(e.ThrottlingReasons[0].Resource), ":table/tbl")
		}},
		{emulator.FaultRequestLimitExceeded, "PutItem", func(err error) bool { var e *types.RequestLimitExceeded; return errors.As(err, &e) }},
		{emulator.FaultTransactionInProgress, "TransactWriteItems", func(err error) bool {
			var e *types.TransactionInProgressException
			return errors.As(err, &e)
		}},
		{emulator.FaultTransactionConflict, "PutItem", func(err error) bool {
			var e *types.TransactionConflictException
			return errors.As(err, &e) && strings.Contains(e.ErrorMessage(), "Transaction is ongoing")
		}},
		{emulator.FaultConditionalCheckFailed, "PutItem", func(err error) bool {
			var e *types.ConditionalCheckFailedException
			return errors.As(err, &e)
		}},
	}
	const attempts = 3
	for _, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			e, db := emulatortest.NewWith(t, emulator.Options{})
			faultTable(t, db, "tbl", 0, 0)
			client := emulatortest.RetryingClient(t, e, emulatortest.AccessKeyOf(t, db), attempts)
			call := func() error {
				if tc.op == "TransactWriteItems" {
					_, err := client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
						{Put: &types.Put{TableName: aws.String("tbl"), Item: item("a", "1")}},
					}})
					return err
				}
				_, err := client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("a", "1")})
				return err
			}
			for _, count := range []int{0, 2} {
				emulatortest.Inject(t, e, emulator.FaultRule{Name: "r", Table: "tbl", Operations: []string{tc.op}, Fault: tc.kind, Count: count})
				err := call()
				matched := e.Faults().Stats().Rules[0].Matched
				wantCalls := int64(1)
				if internalKind(tc.kind).Retried() {
					wantCalls = attempts
				}
				switch {
				case count == 0:
					if !tc.isErr(err) {
						t.Fatalf("got %T %v, want %s's error", err, err, tc.kind)
					}
					if matched != wantCalls {
						t.Errorf("got %d calls, want %d", matched, wantCalls)
					}
				case internalKind(tc.kind).Retried():
					if err != nil {
						t.Errorf("Count 2: got %v, want the third attempt to pass", err)
					}
					if matched != 3 {
						t.Errorf("Count 2: got %d calls, want 3", matched)
					}
				default:
					if !tc.isErr(err) || matched != 1 {
						t.Errorf("Count 2: got %v after %d calls, want the error after 1", err, matched)
					}
				}
			}
		})
	}
}

// TestFaultsSDKTransactionConflict: a TransactionConflict injected on one
// action of a TransactWriteItems shows in CancellationReasons at that
// action's index, with AWS's code and message; the other actions are
// None and nothing is written.
func TestFaultsSDKTransactionConflict(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	faultTable(t, db, "tbl", 0, 0)
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", PartitionKey: "b", Fault: emulator.FaultTransactionConflict})
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String("tbl"), Item: item("a", "1")}},
		{Put: &types.Put{TableName: aws.String("tbl"), Item: item("b", "1")}},
		{Put: &types.Put{TableName: aws.String("tbl"), Item: item("c", "1")}},
	}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		t.Fatalf("got %v, want TransactionCanceledException", err)
	}
	var got []string
	for _, r := range tce.CancellationReasons {
		got = append(got, aws.ToString(r.Code)+":"+aws.ToString(r.Message))
	}
	want := []string{"None:", "TransactionConflict:Transaction is ongoing for the item", "None:"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got reasons %q, want %q", got, want)
	}
	if !strings.Contains(tce.ErrorMessage(), "[None, TransactionConflict, None]") {
		t.Errorf("got message %q", tce.ErrorMessage())
	}
	out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
	if err != nil || out.Count != 0 {
		t.Errorf("got %v items (%v), want none written", out.Count, err)
	}
	// TransactGetItems: the same reason.
	_, err = db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
		{Get: &types.Get{TableName: aws.String("tbl"), Key: item("b", "1")}},
	}})
	if !errors.As(err, &tce) || aws.ToString(tce.CancellationReasons[0].Code) != "TransactionConflict" {
		t.Errorf("TransactGetItems: got %v, want a TransactionConflict reason", err)
	}
}

// throttled returns an emulator on a still clock that enforces
// provisioned capacity with one second of burst, and a client that does
// not retry.
func throttled(t *testing.T, th emulator.Throttle) (*emulator.Emulator, *dynamodb.Client) {
	return emulatortest.NewWith(t, emulator.Options{Clock: stillClock, Faults: emulator.FaultOptions{Throttle: th}})
}

// TestThrottleSDKProvisioned: a table of 1 WCU with one second of burst
// takes one PutItem per second of the emulator's clock: the second in
// the same second is ProvisionedThroughputExceededException with the
// table's ThrottlingReason, and Advance(1s) lets the next through.
func TestThrottleSDKProvisioned(t *testing.T) {
	ctx := context.Background()
	e, db := throttled(t, emulator.Throttle{Provisioned: true, Burst: time.Second})
	faultTable(t, db, "tbl", 1, 1)
	put := func(sk string) error {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item("a", sk)})
		return err
	}
	if err := put("1"); err != nil {
		t.Fatal(err)
	}
	err := put("2")
	var pe *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want ProvisionedThroughputExceededException", err)
	}
	if got := aws.ToString(pe.ThrottlingReasons[0].Reason); got != "TableWriteProvisionedThroughputExceeded" {
		t.Errorf("got reason %q", got)
	}
	if !strings.HasPrefix(pe.ErrorMessage(), "The level of configured provisioned throughput for the table was exceeded") {
		t.Errorf("got message %q", pe.ErrorMessage())
	}
	if _, err := e.Clock().Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := put("3"); err != nil {
		t.Errorf("after a second: %v", err)
	}
	// Reads have their own bucket.
	if _, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("tbl"), Key: item("a", "1")}); err != nil {
		t.Errorf("GetItem: %v", err)
	}
}

// TestThrottleSDKBatchDrain: a BatchWriteItem of 25 items on a 1 WCU
// table comes back with UnprocessedItems, and the standard drain loop
// (resend UnprocessedItems, with time between rounds) writes all 25.
func TestThrottleSDKBatchDrain(t *testing.T) {
	ctx := context.Background()
	e, db := throttled(t, emulator.Throttle{Provisioned: true, Burst: time.Second})
	faultTable(t, db, "tbl", 1, 1)
	var reqs []types.WriteRequest
	for i := range 25 {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: item("a", fmt.Sprint(i))}})
	}
	pending := map[string][]types.WriteRequest{"tbl": reqs}
	rounds := 0
	for len(pending) > 0 {
		rounds++
		if rounds > 100 {
			t.Fatal("not drained after 100 rounds")
		}
		out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
		if err != nil {
			t.Fatalf("round %d: %v", rounds, err)
		}
		if rounds == 1 && len(out.UnprocessedItems["tbl"]) == 0 {
			t.Fatal("round 1: no UnprocessedItems")
		}
		pending = out.UnprocessedItems
		if _, err := e.Clock().Advance(time.Second); err != nil {
			t.Fatal(err)
		}
	}
	out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("tbl")})
	if err != nil || out.Count != 25 {
		t.Fatalf("got %d items (%v), want 25", out.Count, err)
	}
	t.Logf("drained in %d rounds", rounds)
	// A batch none of whose items is admitted fails with the error.
	for range 2 {
		_, err = db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{"tbl": reqs[:2]}})
	}
	var pe *types.ProvisionedThroughputExceededException
	if !errors.As(err, &pe) {
		t.Errorf("got %v, want ProvisionedThroughputExceededException for a batch of no admitted item", err)
	}
}

// TestThrottleSDKHotKey: on an on-demand table with HotKeys, one
// partition key that takes more than 1,000 WCU in one second gets
// ThrottlingException; another key is not throttled.
func TestThrottleSDKHotKey(t *testing.T) {
	ctx := context.Background()
	e, db := throttled(t, emulator.Throttle{HotKeys: true})
	faultTable(t, db, "tbl", 0, 0)
	big := strings.Repeat("x", 300<<10) // 300 KB: 300 WCU a put
	put := func(pk, sk string) error {
		it := item(pk, sk)
		it["blob"] = &types.AttributeValueMemberS{Value: big}
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: it})
		return err
	}
	var err error
	n := 0
	for n = 1; n <= 10 && err == nil; n++ {
		err = put("hot", fmt.Sprint(n))
	}
	var te *types.ThrottlingException
	if !errors.As(err, &te) {
		t.Fatalf("got %v, want ThrottlingException", err)
	}
	if n-1 != 5 {
		t.Errorf("throttled at put %d, want 5 (after 4 x 300 WCU)", n-1)
	}
	if err := put("cold", "1"); err != nil {
		t.Errorf("another key: %v", err)
	}
	if _, err := e.Clock().Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := put("hot", "x"); err != nil {
		t.Errorf("a second later: %v", err)
	}
}

// TestFaultsSDKExecuteStatement: a rule on a table reaches a PartiQL
// statement naming it.
func TestFaultsSDKExecuteStatement(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	faultTable(t, db, "tbl", 0, 0)
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", Operations: []string{"ExecuteStatement"}, Fault: emulator.FaultInternalServerError})
	_, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "tbl" WHERE pk = 'a'`)})
	var ie *types.InternalServerError
	if !errors.As(err, &ie) {
		t.Errorf("got %v, want InternalServerError", err)
	}
	if _, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "tbl" WHERE pk = `)}); err == nil || errors.As(err, &ie) {
		t.Errorf("a syntax error: got %v, want its ValidationException first", err)
	}
}
