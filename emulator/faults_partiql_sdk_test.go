package emulator_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// stmt is a BatchStatementRequest of statement text.
func stmt(text string) types.BatchStatementRequest {
	return types.BatchStatementRequest{Statement: aws.String(text)}
}

// batchCodes returns each response's error code ("" for none).
func batchCodes(out *dynamodb.BatchExecuteStatementOutput) []string {
	codes := make([]string, len(out.Responses))
	for i, r := range out.Responses {
		if r.Error != nil {
			codes[i] = string(r.Error.Code)
		}
	}
	return codes
}

// TestFaultsSDKBatchExecuteStatement: in BatchExecuteStatement a fault is
// decided per statement, with the key the statement names: a rule on
// partition key "b" fails the statements on "b" only, each with its
// statement's Error (the fault's code, as BatchStatementErrorCodeEnum
// names it, and its message); the other statements run. A fault the enum
// has no code for (TransactionInProgress) fails the call.
func TestFaultsSDKBatchExecuteStatement(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		kind emulator.FaultKind
		code types.BatchStatementErrorCodeEnum
	}{
		{emulator.FaultTransactionConflict, types.BatchStatementErrorCodeEnumTransactionConflict},
		{emulator.FaultConditionalCheckFailed, types.BatchStatementErrorCodeEnumConditionalCheckFailed},
		{emulator.FaultProvisionedThroughputExceeded, types.BatchStatementErrorCodeEnumProvisionedThroughputExceeded},
		{emulator.FaultThrottling, types.BatchStatementErrorCodeEnumThrottlingError},
		{emulator.FaultRequestLimitExceeded, types.BatchStatementErrorCodeEnumRequestLimitExceeded},
		{emulator.FaultInternalServerError, types.BatchStatementErrorCodeEnumInternalServerError},
	}
	for _, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			e, db := emulatortest.NewWith(t, emulator.Options{})
			faultTable(t, db, "tbl", 0, 0)
			emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", PartitionKey: "b", Operations: []string{"BatchExecuteStatement"}, Fault: tc.kind})
			writes, err := db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				stmt(`INSERT INTO "tbl" VALUE {'pk': 'a', 'sk': '1'}`),
				stmt(`INSERT INTO "tbl" VALUE {'pk': 'b', 'sk': '1'}`),
				stmt(`INSERT INTO "tbl" VALUE {'pk': 'c', 'sk': '1'}`),
			}})
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"", string(tc.code), ""}
			if got := batchCodes(writes); !equalStrings(got, want) {
				t.Errorf("writes: got codes %q, want %q", got, want)
			}
			if r := writes.Responses[1]; r.Error != nil && (aws.ToString(r.Error.Message) != kindMessage(tc.kind) || aws.ToString(r.TableName) != "tbl") {
				t.Errorf("got message %q table %q, want %q on tbl", aws.ToString(r.Error.Message), aws.ToString(r.TableName), kindMessage(tc.kind))
			}
			reads, err := db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
				stmt(`SELECT * FROM "tbl" WHERE pk = 'b' AND sk = '1'`),
				stmt(`SELECT * FROM "tbl" WHERE pk = 'a' AND sk = '1'`),
				stmt(`SELECT * FROM "tbl" WHERE pk = 'c' AND sk = '1'`),
			}})
			if err != nil {
				t.Fatal(err)
			}
			want = []string{string(tc.code), "", ""}
			if got := batchCodes(reads); !equalStrings(got, want) {
				t.Errorf("reads: got codes %q, want %q", got, want)
			}
			if reads.Responses[1].Item == nil || reads.Responses[2].Item == nil {
				t.Errorf("the statements on a and c read no item: %+v", reads.Responses)
			}
		})
	}
	t.Run("TransactionInProgress", func(t *testing.T) {
		e, db := emulatortest.NewWith(t, emulator.Options{})
		faultTable(t, db, "tbl", 0, 0)
		emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", PartitionKey: "b", Fault: emulator.FaultTransactionInProgress})
		_, err := db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
			stmt(`INSERT INTO "tbl" VALUE {'pk': 'b', 'sk': '1'}`),
		}})
		var te *types.TransactionInProgressException
		if !errors.As(err, &te) {
			t.Errorf("got %v, want TransactionInProgressException", err)
		}
	})
}

// equalStrings reports whether a and b hold the same strings in order.
func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestThrottleSDKBatchExecuteStatement: a throttled statement of
// BatchExecuteStatement fails alone, with the code
// ProvisionedThroughputExceeded; the batch is not refused.
func TestThrottleSDKBatchExecuteStatement(t *testing.T) {
	ctx := context.Background()
	e, db := throttled(t, emulator.Throttle{Provisioned: true, Burst: time.Second})
	faultTable(t, db, "tbl", 1, 1)
	out, err := db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		stmt(`INSERT INTO "tbl" VALUE {'pk': 'a', 'sk': '1'}`),
		stmt(`INSERT INTO "tbl" VALUE {'pk': 'b', 'sk': '1'}`),
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "ProvisionedThroughputExceeded"}
	if got := batchCodes(out); !equalStrings(got, want) {
		t.Errorf("got codes %q, want %q", got, want)
	}
	if _, err := e.Clock().Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	out, err = db.BatchExecuteStatement(ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		stmt(`INSERT INTO "tbl" VALUE {'pk': 'b', 'sk': '1'}`),
	}})
	if err != nil || batchCodes(out)[0] != "" {
		t.Errorf("a second later: got %v %q", err, batchCodes(out))
	}
}

// TestFaultsSDKPartiQLKeys: rules by key match PartiQL statements that
// name the key: ExecuteStatement's INSERT, UPDATE, DELETE and SELECT (by
// the partition it fixes, and its sort key), and ExecuteTransaction's
// statements (the refused one's CancellationReason).
func TestFaultsSDKPartiQLKeys(t *testing.T) {
	ctx := context.Background()
	e, db := emulatortest.NewWith(t, emulator.Options{})
	faultTable(t, db, "tbl", 0, 0)
	for _, pk := range []string{"a", "b"} {
		if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item(pk, "1")}); err != nil {
			t.Fatal(err)
		}
	}
	emulatortest.Inject(t, e, emulator.FaultRule{Table: "tbl", PartitionKey: "b", SortKeyPrefix: "1",
		Operations: []string{"ExecuteStatement", "ExecuteTransaction"}, Fault: emulator.FaultTransactionConflict})
	exec := func(text string) error {
		_, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(text)})
		return err
	}
	tests := []struct {
		text  string
		fault bool
	}{
		{`UPDATE "tbl" SET x = 1 WHERE pk = 'b' AND sk = '1'`, true},
		{`UPDATE "tbl" SET x = 1 WHERE pk = 'a' AND sk = '1'`, false},
		{`SELECT * FROM "tbl" WHERE pk = 'b' AND sk = '1'`, true},
		{`SELECT * FROM "tbl" WHERE pk = 'b' AND sk >= '1'`, false}, // no sort key to match the prefix
		{`SELECT * FROM "tbl" WHERE pk = 'a'`, false},
		{`SELECT * FROM "tbl"`, false}, // a Scan names no key
		{`INSERT INTO "tbl" VALUE {'pk': 'b', 'sk': '10'}`, true},
		{`INSERT INTO "tbl" VALUE {'pk': 'b', 'sk': '2'}`, false},
		{`DELETE FROM "tbl" WHERE pk = 'b' AND sk = '1'`, true},
		{`DELETE FROM "tbl" WHERE pk = 'a' AND sk = '1'`, false},
	}
	for _, tc := range tests {
		err := exec(tc.text)
		var ce *types.TransactionConflictException
		if got := errors.As(err, &ce); got != tc.fault {
			t.Errorf("%s: got %v, want fault %v", tc.text, err, tc.fault)
		}
	}
	_, err := db.ExecuteTransaction(ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`UPDATE "tbl" SET x = 2 WHERE pk = 'b' AND sk = '2'`)},
		{Statement: aws.String(`UPDATE "tbl" SET x = 2 WHERE pk = 'b' AND sk = '1'`)},
	}})
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) || len(tce.CancellationReasons) != 2 ||
		aws.ToString(tce.CancellationReasons[0].Code) != "None" || aws.ToString(tce.CancellationReasons[1].Code) != "TransactionConflict" {
		t.Errorf("ExecuteTransaction: got %v, want reasons [None TransactionConflict]", err)
	}
}

// internalKind is the injector's form of k.
func internalKind(k emulator.FaultKind) faults.Kind {
	fk, _ := faults.KindOf(string(k))
	return fk
}

// kindMessage is the message a fault of kind k answers by default.
func kindMessage(k emulator.FaultKind) string { return internalKind(k).Message() }
