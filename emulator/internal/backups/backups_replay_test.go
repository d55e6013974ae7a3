package backups

import (
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestReplayRestores: restored tables (from a backup with overrides, to
// a point in time) and a rewound namespace are recorded in the
// namespace's DB like any change (one RecordRestoreTable carrying the
// items, drops for the rewind), so a second service rebuilt from the
// records alone answers every read the same.
func TestReplayRestores(t *testing.T) {
	env, hooks := servicetest.Recorded(t, service.Config{Features: testFeatures})
	clock, e, auth := env.Clock, env.Svc, env.Auth
	send := func(op, body string) string {
		t.Helper()
		return env.Must(op, body)
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
	spaces := e.SnapshotAll()
	send("PutItem", `{"TableName":"fromPITR","Item":{"pk":{"S":"z"},"g":{"S":"x"}}}`)
	send("DeleteTable", `{"TableName":"fromBackup"}`)
	if err := e.RewindAll(spaces); err != nil {
		t.Fatal(err)
	}
	e2 := servicetest.Replay(t, hooks, service.Config{Features: testFeatures}, clock.Now())
	testkit.CompareNamespaces(t, env.Handler(), e2.Handler(), auth, false)
}
