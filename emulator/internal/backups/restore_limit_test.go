package backups

import (
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"net/http"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestConcurrentRestoreLimit: 50 restores CREATING at once in a
// namespace, as AWS allows an account (API_RestoreTableFromBackup); the
// 51st, of either kind, is LimitExceededException with AWS's message,
// and once they are ACTIVE restores start again.
func TestConcurrentRestoreLimit(t *testing.T) {
	env := newClockEnv(t, service.Config{Features: testFeatures, TransientDelay: 2 * time.Second})
	clock, send, must := env.clock, env.send, env.must
	must("CreateTable", `{"TableName":"src","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	clock.Advance(2 * time.Second) // CREATING until then
	must("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	var arns []string
	for i := range 51 {
		var bk struct{ BackupDetails struct{ BackupArn string } }
		testkit.MustUnmarshal(t, must("CreateBackup", fmt.Sprintf(`{"TableName":"src","BackupName":"bk%d"}`, i)), &bk)
		arns = append(arns, bk.BackupDetails.BackupArn)
	}
	clock.Advance(2 * time.Second)
	for i := range 25 {
		must("RestoreTableFromBackup", fmt.Sprintf(`{"BackupArn":"%s","TargetTableName":"rst%d"}`, arns[i], i))
		must("RestoreTableToPointInTime", fmt.Sprintf(`{"SourceTableName":"src","TargetTableName":"pit%d","UseLatestRestorableTime":true}`, i))
	}
	for _, r := range []struct{ op, body string }{
		{"RestoreTableFromBackup", `{"BackupArn":"` + arns[50] + `","TargetTableName":"over1"}`},
		{"RestoreTableToPointInTime", `{"SourceTableName":"src","TargetTableName":"over2","UseLatestRestorableTime":true}`},
	} {
		status, out := send(r.op, r.body)
		typ, msg := testkit.ErrorOf(out)
		if want := "Subscriber limit exceeded: Only 50 restore operations can be done simultaneously"; status != http.StatusBadRequest || typ != "LimitExceededException" || msg != want {
			t.Errorf("%s, the 51st restore: got %d %s %q, want 400 LimitExceededException %q", r.op, status, typ, msg, want)
		}
	}
	clock.Advance(2 * time.Second)
	must("RestoreTableFromBackup", `{"BackupArn":"`+arns[50]+`","TargetTableName":"over1"}`)
}
