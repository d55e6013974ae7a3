package apierr

import "net/http"

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

// MsgBackupNotFound is BackupNotFoundException's message: AWS's, as a
// DescribeBackup answer recorded in turbot/steampipe-plugin-aws#1913
// shows it ("Backup not found: <arn>").
func MsgBackupNotFound(arn string) string { return "Backup not found: " + arn }

// MsgTableNotFoundBackup is TableNotFoundException's message ("Table not
// found: <name>"), AWS's wording as far as public records of its answers
// show; not confirmed.
func MsgTableNotFoundBackup(name string) string { return "Table not found: " + name }

// MsgTableAlreadyExists is TableAlreadyExistsException's message ("Table
// already exists: <name>"); not confirmed.
func MsgTableAlreadyExists(name string) string { return "Table already exists: " + name }

// MsgTableInUseBackup is TableInUseException's message for a table that
// is not ACTIVE; ours.
func MsgTableInUseBackup(name string) string {
	return "Table is being created, updated or deleted: " + name
}

// MsgBackupInUse is BackupInUseException's message for a backup still
// CREATING; ours.
func MsgBackupInUse(arn string) string { return "Backup is being created: " + arn }

// MsgContinuousBackupsUnavailable is ContinuousBackupsUnavailableException's
// message for a table still being created; ours.
func MsgContinuousBackupsUnavailable(name string) string {
	return "Backups are being enabled for the table: " + name + ". Please retry later"
}

// MsgPointInTimeRecoveryUnavailable is PointInTimeRecoveryUnavailableException's
// message; not confirmed.
func MsgPointInTimeRecoveryUnavailable(name string) string {
	return "Point in time recovery is not enabled for table '" + name + "'"
}

// MsgInvalidRestoreTime is InvalidRestoreTimeException's message, after
// the exception's documented meaning: "RestoreDateTime must be between
// EarliestRestorableDateTime and LatestRestorableDateTime".
const MsgInvalidRestoreTime = "Invalid restore time: RestoreDateTime must be between EarliestRestorableDateTime and LatestRestorableDateTime"

// MsgRestoreTimeConflict is the ValidationException of a
// RestoreTableToPointInTime with both or neither of RestoreDateTime and
// UseLatestRestorableTime; ours.
const MsgRestoreTimeConflict = "Only one of RestoreDateTime or UseLatestRestorableTime must be specified"

// MsgRestoreSourceConflict is the ValidationException of a
// RestoreTableToPointInTime with both or neither of SourceTableName and
// SourceTableArn; ours.
const MsgRestoreSourceConflict = "Exactly one of SourceTableName or SourceTableArn must be specified"

// MsgRecoveryPeriodWithoutPITR: RecoveryPeriodInDays given while
// disabling point-in-time recovery; ours.
const MsgRecoveryPeriodWithoutPITR = "RecoveryPeriodInDays can only be specified when PointInTimeRecoveryEnabled is true"

// MsgListBackupsStartArn: a ListBackups ExclusiveStartBackupArn that is
// no backup's ARN; ours.
const MsgListBackupsStartArn = "Invalid ExclusiveStartBackupArn"
