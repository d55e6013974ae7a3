package conformance

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Point-in-time recovery: DescribeContinuousBackups,
// UpdateContinuousBackups and RestoreTableToPointInTime, after AWS's API
// reference (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContinuousBackups.html,
// API_DescribeContinuousBackups, API_RestoreTableToPointInTime,
// API_PointInTimeRecoverySpecification: RecoveryPeriodInDays 1 to 35).
// DynamoDB Local has none of them (UnknownOperationException). A restore
// to an instant between writes, on a clock the test moves, is
// emulator/pitr_sdk_test.go's: this suite shares one endpoint, whose
// clock it does not move.

const pitrLacking = "DynamoDB Local has no continuous backups or point-in-time recovery (UnknownOperationException); AWS: API_UpdateContinuousBackups, API_RestoreTableToPointInTime"

func describePITR(t testing.TB, c *dynamodb.Client, table string) *types.PointInTimeRecoveryDescription {
	t.Helper()
	out, err := c.DescribeContinuousBackups(ctx(t), &dynamodb.DescribeContinuousBackupsInput{TableName: &table})
	mustNoError(t, err)
	if got := out.ContinuousBackupsDescription.ContinuousBackupsStatus; got != types.ContinuousBackupsStatusEnabled {
		t.Errorf("got ContinuousBackupsStatus %s, want ENABLED (on every table from its creation)", got)
	}
	return out.ContinuousBackupsDescription.PointInTimeRecoveryDescription
}

func updatePITR(t testing.TB, c *dynamodb.Client, table string, enabled bool, days *int32) (*dynamodb.UpdateContinuousBackupsOutput, error) {
	t.Helper()
	return c.UpdateContinuousBackups(ctx(t), &dynamodb.UpdateContinuousBackupsInput{TableName: &table,
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: &enabled, RecoveryPeriodInDays: days}})
}

// TestContinuousBackupsSettings: off on a new table; enabled with the
// default period of 35 days and a window; the period changed; off again.
func TestContinuousBackupsSettings(t *testing.T) {
	AWSDiffers(t, pitrLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	if d := describePITR(t, c, table); d.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled || d.EarliestRestorableDateTime != nil {
		t.Errorf("new table: got %s %v, want DISABLED without a window", d.PointInTimeRecoveryStatus, d.EarliestRestorableDateTime)
	}
	out, err := updatePITR(t, c, table, true, nil)
	mustNoError(t, err)
	d := out.ContinuousBackupsDescription.PointInTimeRecoveryDescription
	if d.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusEnabled || aws.ToInt32(d.RecoveryPeriodInDays) != 35 {
		t.Errorf("enabled: got %s, %d days, want ENABLED, 35", d.PointInTimeRecoveryStatus, aws.ToInt32(d.RecoveryPeriodInDays))
	}
	d = describePITR(t, c, table)
	if d.EarliestRestorableDateTime == nil || d.LatestRestorableDateTime == nil || d.LatestRestorableDateTime.Before(*d.EarliestRestorableDateTime) {
		t.Errorf("enabled: got window %v .. %v, want earliest <= latest", d.EarliestRestorableDateTime, d.LatestRestorableDateTime)
	}
	_, err = updatePITR(t, c, table, true, aws.Int32(7))
	mustNoError(t, err)
	if d := describePITR(t, c, table); aws.ToInt32(d.RecoveryPeriodInDays) != 7 {
		t.Errorf("period changed: got %d days, want 7", aws.ToInt32(d.RecoveryPeriodInDays))
	}
	_, err = updatePITR(t, c, table, false, nil)
	mustNoError(t, err)
	if d := describePITR(t, c, table); d.PointInTimeRecoveryStatus != types.PointInTimeRecoveryStatusDisabled {
		t.Errorf("disabled: got %s, want DISABLED", d.PointInTimeRecoveryStatus)
	}
}

// TestContinuousBackupsErrors: AWS's model constraints on the period
// and the specification, and TableNotFoundException.
func TestContinuousBackupsErrors(t *testing.T) {
	AWSDiffers(t, pitrLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	missing := uniqueName(t)
	_, err := updatePITR(t, c, table, true, aws.Int32(0))
	requireValidation(t, err, "1 validation error detected: Value '0' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value greater than or equal to 1")
	_, err = updatePITR(t, c, table, true, aws.Int32(36))
	requireValidation(t, err, "1 validation error detected: Value '36' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy constraint: Member must have value less than or equal to 35")
	// The SDK refuses a missing specification itself: sent raw.
	raw := rawCall(t, "UpdateContinuousBackups", `{"TableName":"`+table+`"}`)
	if want := "1 validation error detected: Value null at 'pointInTimeRecoverySpecification' failed to satisfy constraint: Member must not be null"; raw.Type != "ValidationException" || raw.Message != want {
		t.Errorf("no specification: got %s %q, want ValidationException %q", raw.Type, raw.Message, want)
	}
	_, err = updatePITR(t, c, missing, true, nil)
	requireAPIError(t, err, "TableNotFoundException", "")
	_, err = c.DescribeContinuousBackups(ctx(t), &dynamodb.DescribeContinuousBackupsInput{TableName: &missing})
	requireAPIError(t, err, "TableNotFoundException", "")
}

// TestRestoreTableToPointInTime: a restore to the latest restorable
// time (by name and by ARN) holds the items written before it; a time
// outside the window, a source without recovery, and both or neither
// of the time members are refused.
func TestRestoreTableToPointInTime(t *testing.T) {
	AWSDiffers(t, pitrLacking)
	t.Parallel()
	c := newClient(t)
	table := rangeTable(t, c)
	plain := hashTable(t, c)
	_, err := updatePITR(t, c, table, true, aws.Int32(1))
	mustNoError(t, err)
	for _, sk := range []string{"1", "2", "3"} {
		mustPut(t, c, table, item{"pk": s("p"), "sk": n(sk)})
	}
	written := time.Now()
	arn := aws.ToString(mustDescribe(t, c, table).TableArn)

	for _, by := range []string{"name", "arn"} {
		target := uniqueName(t)
		in := &dynamodb.RestoreTableToPointInTimeInput{TargetTableName: &target, UseLatestRestorableTime: aws.Bool(true)}
		if by == "name" {
			in.SourceTableName = &table
		} else {
			in.SourceTableArn = &arn
		}
		out, err := c.RestoreTableToPointInTime(ctx(t), in)
		mustNoError(t, err)
		t.Cleanup(func() { deleteTable(t, c, target) })
		if rs := out.TableDescription.RestoreSummary; rs == nil || aws.ToString(rs.SourceTableArn) != arn {
			t.Errorf("by %s: got RestoreSummary %+v, want SourceTableArn %s", by, rs, arn)
		}
		waitActive(t, c, target)
		latest := describePITR(t, c, table).LatestRestorableDateTime
		if latest == nil || latest.Before(written) {
			// AWS's LatestRestorableDateTime is about five minutes
			// behind; the emulator's is now.
			t.Logf("by %s: the latest restorable time %v precedes the writes: contents not checked", by, latest)
			continue
		}
		sc, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &target})
		mustNoError(t, err)
		if len(sc.Items) != 3 {
			t.Errorf("by %s: got %d items, want 3", by, len(sc.Items))
		}
	}

	target := uniqueName(t)
	_, err = c.RestoreTableToPointInTime(ctx(t), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, TargetTableName: &target,
		RestoreDateTime: aws.Time(time.Now().Add(-48 * time.Hour))})
	requireAPIError(t, err, "InvalidRestoreTimeException", "")
	_, err = c.RestoreTableToPointInTime(ctx(t), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &plain, TargetTableName: &target, UseLatestRestorableTime: aws.Bool(true)})
	requireAPIError(t, err, "PointInTimeRecoveryUnavailableException", "")
	_, err = c.RestoreTableToPointInTime(ctx(t), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String(uniqueName(t)), TargetTableName: &target, UseLatestRestorableTime: aws.Bool(true)})
	requireAPIError(t, err, "TableNotFoundException", "")
	_, err = c.RestoreTableToPointInTime(ctx(t), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, TargetTableName: &target,
		UseLatestRestorableTime: aws.Bool(true), RestoreDateTime: aws.Time(time.Now())})
	requireAPIError(t, err, "ValidationException", "")
	_, err = c.RestoreTableToPointInTime(ctx(t), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, TargetTableName: &table, UseLatestRestorableTime: aws.Bool(true)})
	requireAPIError(t, err, "TableAlreadyExistsException", "")
	if _, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &target}); err == nil || !strings.Contains(err.Error(), "ResourceNotFoundException") {
		t.Errorf("a refused restore made its target: DescribeTable %s: %v", target, err)
	}
}
