package apierr

import (
	"net/http"
	"time"
)

// Backups and point-in-time recovery (emulator/backups*.go, pitr*.go):
// the error classes AWS's API reference lists for CreateBackup,
// DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup,
// DescribeContinuousBackups, UpdateContinuousBackups and
// RestoreTableToPointInTime
// (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Operations_Amazon_DynamoDB.html),
// and their messages. DynamoDB Local has none of these operations, so no
// message here is checked against it; where no record of AWS's wording
// was found, the message is ours and says so.
var (
	// ErrBackupNotFound: no backup has that ARN.
	ErrBackupNotFound = &Class{"BackupNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrBackupInUse: the backup is being created or deleted.
	ErrBackupInUse = &Class{"BackupInUseException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTableNotFound: the source table of a backup or restore does not exist.
	ErrTableNotFound = &Class{"TableNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTableAlreadyExists: a restore's target table exists.
	ErrTableAlreadyExists = &Class{"TableAlreadyExistsException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrTableInUse: the table is being created, updated or deleted.
	ErrTableInUse = &Class{"TableInUseException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrContinuousBackupsUnavailable: backups are not yet enabled for the
	// table (it is being created).
	ErrContinuousBackupsUnavailable = &Class{"ContinuousBackupsUnavailableException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrPointInTimeRecoveryUnavailable: point-in-time recovery is not
	// enabled for the source table.
	ErrPointInTimeRecoveryUnavailable = &Class{"PointInTimeRecoveryUnavailableException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrInvalidRestoreTime: the restore time is outside the window.
	ErrInvalidRestoreTime = &Class{"InvalidRestoreTimeException", nsDynamoDB, http.StatusBadRequest, false}
)

// The records of AWS's answers cited below: "ack-api-quirks" is a public
// set of probes of DynamoDB (us-west-2 and us-east-1, 2026-10) that
// quotes AWS's error messages (its DynamoDB findings DDB-BACKUP-* and
// DDB-TABLE-*, rendered as backup.md and table-restore.md).

// MsgBackupNotFound is BackupNotFoundException's message: AWS's, as a
// DescribeBackup answer recorded in turbot/steampipe-plugin-aws#1913
// shows it ("Backup not found: <arn>"), as does ack-api-quirks
// DDB-BACKUP-005.
func MsgBackupNotFound(arn string) string { return "Backup not found: " + arn }

// MsgTableNotFoundBackup is TableNotFoundException's message: AWS's, as
// answers recorded in hashicorp/terraform-provider-aws#26577
// (DescribeContinuousBackups) and ack-api-quirks DDB-BACKUP-001
// (CreateBackup, also for a table still CREATING) show it.
func MsgTableNotFoundBackup(name string) string { return "Table not found: " + name }

// MsgTableAlreadyExists is TableAlreadyExistsException's message: AWS's,
// as recorded in ack-api-quirks DDB-TABLE-100 and DDB-TABLE-219.
func MsgTableAlreadyExists(name string) string { return "Table already exists: " + name }

// MsgTableBeingRestored is TableInUseException's message for a restore
// into the name of a table whose own restore is still CREATING: AWS's,
// as recorded in ack-api-quirks DDB-TABLE-219 ("Table: <name> is already
// being restored from backup: <arn>"). A target restored to a point in
// time names its source table's ARN there; ours, no record was found.
func MsgTableBeingRestored(name, from string) string {
	return "Table: " + name + " is already being restored from backup: " + from
}

// MsgBackupInUse is BackupInUseException's message for a backup still
// CREATING; ours: no record was found (AWS's backups leave CREATING
// within about 50 ms: ack-api-quirks DDB-BACKUP-003).
func MsgBackupInUse(arn string) string { return "Backup is being created: " + arn }

// MsgBackupRestoring is BackupInUseException's message for a restore
// from a backup that is feeding another restore still CREATING: AWS's,
// as recorded in ack-api-quirks DDB-BACKUP-010 and in a log of an AWS
// answer in awslabs/dynein (src/control.rs, a comment in restore).
func MsgBackupRestoring(arn string) string {
	return "Backup is being used to restore another table: " + arn
}

// MsgBackupDeleteRestoring is BackupInUseException's message for
// DeleteBackup of a backup feeding a restore still CREATING: AWS's, as
// recorded in ack-api-quirks DDB-BACKUP-010.
func MsgBackupDeleteRestoring(arn string) string {
	return "Backup is being used to restore table: " + arn
}

// MsgDeleteSystemBackup is the ValidationException of DeleteBackup on a
// SYSTEM backup: AWS's wording as recorded in ack-api-quirks
// DDB-BACKUP-015 ("User is not allowed to delete the system backup with
// arn <arn>. It will automatically expire on <ts>"); the record does not
// show the timestamp's format, so that (ISO 8601 in UTC, as AWS's
// InvalidRestoreTimeException writes its times) is ours.
func MsgDeleteSystemBackup(arn string, expires time.Time) string {
	return "User is not allowed to delete the system backup with arn " + arn +
		". It will automatically expire on " + isoTime(expires)
}

// MsgContinuousBackupsUnavailable is ContinuousBackupsUnavailableException's
// message: AWS's, as recorded in ack-api-quirks DDB-BACKUP-002 (AWS
// answers it for a few seconds after a new table turns ACTIVE; the
// emulator, whose backups are ready at once, does not).
func MsgContinuousBackupsUnavailable(name string) string {
	return "Backups are being enabled for the table: " + name + ". Please retry later"
}

// MsgPointInTimeRecoveryUnavailable is PointInTimeRecoveryUnavailableException's
// message: AWS's, as recorded in ack-api-quirks DDB-TABLE-100 and
// DDB-TABLE-272.
func MsgPointInTimeRecoveryUnavailable(name string) string {
	return "Point in time recovery is not enabled for table '" + name + "'"
}

// MsgInvalidRestoreTime is InvalidRestoreTimeException's message: AWS's
// as recorded in ack-api-quirks DDB-TABLE-100 ("RestoreDateTime
// '2026-10-06T23:16:32Z' must be within EarliestRestorableDateTime
// '2026-10-08T23:16:33Z' and LatestRestor...", the record cut there;
// DDB-TABLE-086 and DDB-TABLE-272 say it quotes both bounds). Its end,
// the latest bound quoted as the earliest is, is ours.
func MsgInvalidRestoreTime(at, earliest, latest time.Time) string {
	return "RestoreDateTime '" + isoTime(at) + "' must be within EarliestRestorableDateTime '" + isoTime(earliest) +
		"' and LatestRestorableDateTime '" + isoTime(latest) + "'"
}

// isoTime is t as AWS's backup messages write times: ISO 8601 in UTC, to
// the second.
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// MsgRestoreTimeBoth is the ValidationException of a
// RestoreTableToPointInTime with both RestoreDateTime and
// UseLatestRestorableTime: AWS's as recorded in ack-api-quirks
// DDB-TABLE-100 ("Invalid Request: Both RestoreDateTime and
// UseLatestRestorableTime cannot be set for point-in-time restore
// request. Pleas...", the record cut there); the end of the last
// sentence is ours.
const MsgRestoreTimeBoth = "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore request. Please set only one of them"

// MsgRestoreTimeNeither is the ValidationException of a
// RestoreTableToPointInTime with neither (or UseLatestRestorableTime
// false and no RestoreDateTime): AWS's, as recorded in ack-api-quirks
// DDB-TABLE-100 and DDB-TABLE-272.
const MsgRestoreTimeNeither = "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both"

// MsgRestoreSourceBoth is the ValidationException of a
// RestoreTableToPointInTime with both SourceTableName and
// SourceTableArn: AWS's, as recorded in ack-api-quirks DDB-TABLE-272.
const MsgRestoreSourceBoth = "Must provide exactly one of: sourceTableArn, sourceTableName"

// MsgRestoreSourceNeither is the ValidationException of a
// RestoreTableToPointInTime with neither: AWS's, as recorded in
// ack-api-quirks DDB-TABLE-272.
const MsgRestoreSourceNeither = "The parameter 'TableName' is required"

// MsgIndexOverrideUnknown is the ValidationException of a restore whose
// index override names no index of the source: AWS's, as recorded in
// ack-api-quirks DDB-TABLE-273.
func MsgIndexOverrideUnknown(name string) string {
	return "Index " + name + " does not match a secondary index that existed in the source table and cannot be created during the restore operation"
}

// MsgRecoveryPeriodWithoutPITR: RecoveryPeriodInDays given while
// disabling point-in-time recovery; ours, no record was found.
const MsgRecoveryPeriodWithoutPITR = "RecoveryPeriodInDays can only be specified when PointInTimeRecoveryEnabled is true"

// MsgListBackupsTimeRange is the ValidationException of a ListBackups
// whose TimeRangeLowerBound is after its TimeRangeUpperBound: AWS's, as
// recorded in ack-api-quirks DDB-BACKUP-014.
const MsgListBackupsTimeRange = "Time range lower bound must be less than or equal to upper bound"

// MsgRestoreLimit is the LimitExceededException of a restore beyond the
// 50 an account may run at once (AWS's API reference,
// API_RestoreTableFromBackup: "up to 50 concurrent restores (any type of
// restore) in a given account"): AWS's wording, as recorded in
// ack-api-quirks DDB-TABLE-350 and its LimitExceededException catalogue.
const MsgRestoreLimit = "Subscriber limit exceeded: Only 50 restore operations can be done simultaneously"

// MsgInvalidBackupARN is the ValidationException of a BackupArn that is
// no backup's ARN (a table's ARN, or not an ARN): AWS's, as recorded in
// ack-api-quirks DDB-BACKUP-012 and DDB-TABLE-273.
const MsgInvalidBackupARN = "Invalid Backup ARN"

// MsgRestoreRefused is the emulator's error of a restore whose items the
// stages' write checks refuse (a table that follows the conventions):
// in the shape of an import's refusal (MsgImportFirstRefusal), how many
// items were refused and the first one's error; the table is not made.
func MsgRestoreRefused(table string, n int64, first string) string {
	return "Table " + table + " was not restored. " + MsgImportFirstRefusal(n, first)
}
