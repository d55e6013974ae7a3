package service

import (
	"net/http"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestReplayRestores: restored tables (from a backup with overrides, to
// a point in time) and a rewound namespace are recorded in the
// namespace's DB like any change (one RecordRestoreTable carrying the
// items, drops for the rewind), so a second service rebuilt from the
// records alone answers every read the same.
func TestReplayRestores(t *testing.T) {
	clock := testkit.NewClock(time.Now().Truncate(time.Millisecond))
	opts := Config{Clock: clock.Now}
	hooks := &testkit.Recorder{}
	e := newTestService(t, withHooks(opts, hooks))
	auth := testkit.DefaultAuth
	send := func(op, body string) string {
		t.Helper()
		res, out := doService(t, e, "DynamoDB_20120810."+op, auth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %s", op, body, res.StatusCode, out)
		}
		return out
	}
	send("CreateTable", `{"TableName":"src","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	for _, pk := range []string{"a", "b", "c"} {
		send("PutItem", `{"TableName":"src","Item":{"pk":{"S":"`+pk+`"},"g":{"S":"x"}}}`)
	}
	var bk struct{ BackupDetails struct{ BackupArn string } }
	testkit.MustUnmarshal(t, send("CreateBackup", `{"TableName":"src","BackupName":"first"}`), &bk)
	send("PutItem", `{"TableName":"src","Item":{"pk":{"S":"d"},"g":{"S":"y"}}}`)
	send("RestoreTableFromBackup", `{"TargetTableName":"fromBackup","BackupArn":"`+bk.BackupDetails.BackupArn+`","GlobalSecondaryIndexOverride":[]}`)
	send("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	clock.Advance(10 * time.Second)
	send("DeleteItem", `{"TableName":"src","Key":{"pk":{"S":"a"}}}`)
	clock.Advance(10 * time.Second)
	send("RestoreTableToPointInTime", `{"SourceTableName":"src","TargetTableName":"fromPITR","UseLatestRestorableTime":true}`)
	id := e.TakeSnapshot()
	send("PutItem", `{"TableName":"fromPITR","Item":{"pk":{"S":"z"},"g":{"S":"x"}}}`)
	send("DeleteTable", `{"TableName":"fromBackup"}`)
	if err := e.RestoreSnapshot(id); err != nil {
		t.Fatal(err)
	}
	e2 := replayInto(t, hooks, opts)
	testkit.CompareNamespaces(t, serviceHandler(e), serviceHandler(e2), auth, false)
}
