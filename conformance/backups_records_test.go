package conformance

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Backup and restore answers as public records of AWS's show them
// (emulator/internal/apierr/messages_backups.go cites each: the
// ack-api-quirks probes of DynamoDB, findings DDB-BACKUP-* and
// DDB-TABLE-*). DynamoDB Local has none of these operations.

// TestRestorePointInTimeRequestErrors: RestoreTableToPointInTime checks
// its time flags first, then its source, with AWS's messages; a source
// without recovery is PointInTimeRecoveryUnavailableException and a time
// out of the window InvalidRestoreTimeException quoting both bounds.
func TestRestorePointInTimeRequestErrors(t *testing.T) {
	AWSDiffers(t, pitrLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	target := uniqueName(t)
	arn := aws.ToString(mustDescribe(t, c, table).TableArn)

	_, err := c.RestoreTableToPointInTime(ctx(t), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, TargetTableName: &target, UseLatestRestorableTime: aws.Bool(true)})
	requireAPIError(t, err, "PointInTimeRecoveryUnavailableException", "Point in time recovery is not enabled for table '"+table+"'")

	_, err = c.UpdateContinuousBackups(ctx(t), &dynamodb.UpdateContinuousBackupsInput{TableName: &table,
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	mustNoError(t, err)
	for _, tc := range []struct {
		name string
		in   dynamodb.RestoreTableToPointInTimeInput
		want string
	}{
		{"both times", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, UseLatestRestorableTime: aws.Bool(true), RestoreDateTime: aws.Time(time.Now())},
			"Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore request. Please set only one of them"},
		{"no time", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table},
			"Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both"},
		{"latest false", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, UseLatestRestorableTime: aws.Bool(false)},
			"Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both"},
		{"no time, no source", dynamodb.RestoreTableToPointInTimeInput{},
			"Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both"},
		{"both sources", dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, SourceTableArn: &arn, UseLatestRestorableTime: aws.Bool(true)},
			"Must provide exactly one of: sourceTableArn, sourceTableName"},
		{"no source", dynamodb.RestoreTableToPointInTimeInput{UseLatestRestorableTime: aws.Bool(true)},
			"The parameter 'TableName' is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.TargetTableName = &target
			_, err := c.RestoreTableToPointInTime(ctx(t), &in)
			requireValidation(t, err, tc.want)
		})
	}

	at := time.Now().Add(-48 * time.Hour).Truncate(time.Second)
	_, err = c.RestoreTableToPointInTime(ctx(t), &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: &table, TargetTableName: &target, RestoreDateTime: &at})
	requireAPIError(t, err, "InvalidRestoreTimeException", "")
	msg := apiMessage(err)
	if want := "RestoreDateTime '" + at.UTC().Format("2006-01-02T15:04:05Z") + "' must be within EarliestRestorableDateTime '"; !strings.HasPrefix(msg, want) || !strings.Contains(msg, "LatestRestor") {
		t.Errorf("InvalidRestoreTimeException: got %q, want it to start %q and quote LatestRestorableDateTime", msg, want)
	}
}

// TestListBackupsCursorAndRange: ExclusiveStartBackupArn is a pure
// cursor (a deleted backup's ARN resumes after it); an inverted time
// range is refused; BackupType AWS_BACKUP lists none of these backups and
// ALL lists them with USER, the default.
func TestListBackupsCursorAndRange(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	var arns []string
	for _, name := range []string{"cur-a", "cur-b", "cur-c"} {
		arns = append(arns, aws.ToString(mustBackup(t, c, table, name).BackupArn))
	}
	for _, arn := range arns {
		waitBackup(t, c, arn)
	}
	_, err := c.DeleteBackup(ctx(t), &dynamodb.DeleteBackupInput{BackupArn: &arns[1]})
	mustNoError(t, err)
	names := func(in *dynamodb.ListBackupsInput) string {
		t.Helper()
		in.TableName = &table
		out, err := c.ListBackups(ctx(t), in)
		mustNoError(t, err)
		var got []string
		for _, b := range out.BackupSummaries {
			got = append(got, aws.ToString(b.BackupName))
		}
		return strings.Join(got, ",")
	}
	if got := names(&dynamodb.ListBackupsInput{ExclusiveStartBackupArn: &arns[1]}); got != "cur-c" {
		t.Errorf("after a deleted backup's ARN: got %q, want cur-c", got)
	}
	for _, tc := range []struct {
		typ  types.BackupTypeFilter
		want string
	}{{"", "cur-a,cur-c"}, {types.BackupTypeFilterUser, "cur-a,cur-c"}, {types.BackupTypeFilterAll, "cur-a,cur-c"}, {types.BackupTypeFilterAwsBackup, ""}} {
		if got := names(&dynamodb.ListBackupsInput{BackupType: tc.typ}); got != tc.want {
			t.Errorf("BackupType %q: got %q, want %q", tc.typ, got, tc.want)
		}
	}
	now := time.Now()
	_, err = c.ListBackups(ctx(t), &dynamodb.ListBackupsInput{TimeRangeLowerBound: aws.Time(now), TimeRangeUpperBound: aws.Time(now.Add(-time.Hour))})
	requireValidation(t, err, "Time range lower bound must be less than or equal to upper bound")
}

// TestBackupARNNotABackup: a table's ARN where a backup's belongs is
// "Invalid Backup ARN"; an index override that names no index of the
// backup is refused with AWS's message.
func TestBackupARNNotABackup(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	arn := aws.ToString(mustDescribe(t, c, table).TableArn) + "/index/none-such-index"
	_, err := c.DescribeBackup(ctx(t), &dynamodb.DescribeBackupInput{BackupArn: &arn})
	requireValidation(t, err, "Invalid Backup ARN")

	bd := mustBackup(t, c, table, "override-1")
	waitBackup(t, c, aws.ToString(bd.BackupArn))
	target := uniqueName(t)
	_, err = c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{BackupArn: bd.BackupArn, TargetTableName: &target,
		GlobalSecondaryIndexOverride: []types.GlobalSecondaryIndex{{IndexName: aws.String("ghost"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}})
	requireValidation(t, err, "Index ghost does not match a secondary index that existed in the source table and cannot be created during the restore operation")
}

// TestSystemBackupNotDeletable: the SYSTEM backup AWS keeps of a deleted
// table with point-in-time recovery is not deleted by DeleteBackup
// (ValidationException, AWS's wording up to the expiry time, whose
// format no record shows).
func TestSystemBackupNotDeletable(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	_, err := c.UpdateContinuousBackups(ctx(t), &dynamodb.UpdateContinuousBackupsInput{TableName: &table,
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	mustNoError(t, err)
	_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &table})
	mustNoError(t, err)
	var arn string
	for i := 0; arn == ""; i++ { // AWS lists it some seconds later
		out, err := c.ListBackups(ctx(t), &dynamodb.ListBackupsInput{TableName: &table, BackupType: types.BackupTypeFilterSystem})
		mustNoError(t, err)
		if len(out.BackupSummaries) > 0 {
			arn = aws.ToString(out.BackupSummaries[0].BackupArn)
			break
		}
		if i > 120 {
			t.Fatalf("no SYSTEM backup of %s after 2 minutes", table)
		}
		time.Sleep(time.Second)
	}
	_, err = c.DeleteBackup(ctx(t), &dynamodb.DeleteBackupInput{BackupArn: &arn})
	requireAPIError(t, err, "ValidationException", "")
	if msg, want := apiMessage(err), "User is not allowed to delete the system backup with arn "+arn+". It will automatically expire on "; !strings.HasPrefix(msg, want) {
		t.Errorf("DeleteBackup of a SYSTEM backup: got %q, want it to start %q", msg, want)
	}
	if _, err := c.DescribeBackup(ctx(t), &dynamodb.DescribeBackupInput{BackupArn: &arn}); err != nil {
		t.Errorf("the SYSTEM backup after DeleteBackup: got %v, want it still there", err)
	}
}

// TestBackupFeedsOneRestore: while a restore from a backup is CREATING,
// a second restore from it is BackupInUseException ("Backup is being
// used to restore another table: <arn>") and DeleteBackup too ("Backup
// is being used to restore table: <arn>"). AWS's restores take minutes,
// so AWS shows this; the emulator's restores are ACTIVE at once without
// -delayTransientStatuses, so both then succeed (its CREATING case is
// emulator/internal/service's TestBackupTransientStates).
func TestBackupFeedsOneRestore(t *testing.T) {
	AWSDiffers(t, backupsLacking)
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	bd := mustBackup(t, c, table, "feeds-one")
	arn := aws.ToString(bd.BackupArn)
	waitBackup(t, c, arn)
	first, second := uniqueName(t), uniqueName(t)
	_, err := c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{BackupArn: &arn, TargetTableName: &first})
	mustNoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, first) })
	creating := mustDescribe(t, c, first).TableStatus == types.TableStatusCreating
	_, err = c.RestoreTableFromBackup(ctx(t), &dynamodb.RestoreTableFromBackupInput{BackupArn: &arn, TargetTableName: &second})
	if creating && mustDescribe(t, c, first).TableStatus == types.TableStatusCreating {
		requireAPIError(t, err, "BackupInUseException", "Backup is being used to restore another table: "+arn)
		_, err = c.DeleteBackup(ctx(t), &dynamodb.DeleteBackupInput{BackupArn: &arn})
		requireAPIError(t, err, "BackupInUseException", "Backup is being used to restore table: "+arn)
		return
	}
	if err == nil {
		t.Cleanup(func() { deleteTable(t, c, second) })
	}
	mustNoError(t, err)
}

// apiMessage is the message of an API error ("" for another error).
