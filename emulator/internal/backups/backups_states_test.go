package backups

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestBackupTransientStates: with a transient delay (the edge's
// -delayTransientStatuses), a backup is CREATING, then AVAILABLE, and a
// restored table CREATING (RestoreInProgress), then ACTIVE, on the
// service's clock; meanwhile the backup can be neither deleted nor
// restored (BackupInUseException), the restored table is not found by
// the backup operations (TableNotFoundException, as on AWS), its backup
// feeds no second restore and is not deleted (BackupInUseException), and
// its name takes no other restore (TableInUseException).
func TestBackupTransientStates(t *testing.T) {
	env := newClockEnv(t, service.Config{Features: testFeatures, TransientDelay: 2 * time.Second})
	clock, must := env.clock, env.must
	refused := func(op, body, wantType string) { t.Helper(); env.refused(op, body, wantType) }
	must("CreateTable", `{"TableName":"src","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	clock.Advance(2 * time.Second) // CREATING until then
	var bk struct {
		BackupDetails struct{ BackupArn, BackupStatus string }
	}
	testkit.MustUnmarshal(t, must("CreateBackup", `{"TableName":"src","BackupName":"slow"}`), &bk)
	arn := bk.BackupDetails.BackupArn
	if got := bk.BackupDetails.BackupStatus; got != "CREATING" {
		t.Errorf("new backup: got %s, want CREATING", got)
	}
	refused("DeleteBackup", `{"BackupArn":"`+arn+`"}`, "BackupInUseException")
	refused("RestoreTableFromBackup", `{"BackupArn":"`+arn+`","TargetTableName":"early"}`, "BackupInUseException")
	clock.Advance(2 * time.Second)
	var d struct {
		BackupDescription struct{ BackupDetails struct{ BackupStatus string } }
	}
	testkit.MustUnmarshal(t, must("DescribeBackup", `{"BackupArn":"`+arn+`"}`), &d)
	if got := d.BackupDescription.BackupDetails.BackupStatus; got != "AVAILABLE" {
		t.Errorf("after the delay: got %s, want AVAILABLE", got)
	}

	var rt struct {
		TableDescription struct {
			TableStatus    string
			RestoreSummary struct {
				SourceBackupArn   string
				RestoreInProgress bool
			}
		}
	}
	testkit.MustUnmarshal(t, must("RestoreTableFromBackup", `{"BackupArn":"`+arn+`","TargetTableName":"copy"}`), &rt)
	if got := rt.TableDescription; got.TableStatus != "CREATING" || !got.RestoreSummary.RestoreInProgress || got.RestoreSummary.SourceBackupArn != arn {
		t.Errorf("restored: got %+v, want CREATING, in progress, from %s", got, arn)
	}
	// AWS: a table CREATING is not found by the backup operations
	// (ack-api-quirks DDB-BACKUP-001, DDB-TABLE-217).
	refused("CreateBackup", `{"TableName":"copy","BackupName":"tooEarly"}`, "TableNotFoundException")
	refused("UpdateContinuousBackups", `{"TableName":"copy","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`, "TableNotFoundException")
	refused("DescribeContinuousBackups", `{"TableName":"copy"}`, "TableNotFoundException")
	// One restore at a time from a backup, and it is not deleted meanwhile
	// (ack-api-quirks DDB-BACKUP-010); a restore into a name being
	// restored is TableInUseException (DDB-TABLE-219).
	refused("RestoreTableFromBackup", `{"BackupArn":"`+arn+`","TargetTableName":"second"}`, "BackupInUseException")
	refused("DeleteBackup", `{"BackupArn":"`+arn+`"}`, "BackupInUseException")
	refused("RestoreTableToPointInTime", `{"SourceTableName":"src","TargetTableName":"copy","UseLatestRestorableTime":true}`, "PointInTimeRecoveryUnavailableException")
	must("UpdateContinuousBackups", `{"TableName":"src","PointInTimeRecoverySpecification":{"PointInTimeRecoveryEnabled":true}}`)
	refused("RestoreTableToPointInTime", `{"SourceTableName":"src","TargetTableName":"copy","UseLatestRestorableTime":true}`, "TableInUseException")
	clock.Advance(2 * time.Second)
	var dt struct {
		Table struct {
			TableStatus    string
			RestoreSummary struct{ RestoreInProgress bool }
		}
	}
	testkit.MustUnmarshal(t, must("DescribeTable", `{"TableName":"copy"}`), &dt)
	if dt.Table.TableStatus != "ACTIVE" || dt.Table.RestoreSummary.RestoreInProgress {
		t.Errorf("after the delay: got %+v, want ACTIVE, restore done", dt.Table)
	}
	must("CreateBackup", `{"TableName":"copy","BackupName":"nowFine"}`)
	must("RestoreTableFromBackup", `{"BackupArn":"`+arn+`","TargetTableName":"second"}`)
}
