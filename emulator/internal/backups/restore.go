package backups

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/restore"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// RestoreTableFromBackup: a new table made of a backup's copy of its
// table (restore.Table), sharing its items.

func restoreTableFromBackup(c service.Call, in *RestoreTableFromBackupInput) (*RestoreTableFromBackupOutput, error) {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, in.TargetTableName, "targetTableName") {
		apierr.NameConstraints(&cs, *in.TargetTableName, "targetTableName")
	}
	backupARNConstraints(&cs, in.BackupArn, "backupArn")
	ov := in.RestoreOverrides
	ov.Constraints(&cs)
	if err := cs.Err(); err != nil {
		return nil, err
	}
	b, err := lookupBackup(c, in.BackupArn)
	if err != nil {
		return nil, err
	}
	now := c.Now()
	if b.status(now) == backupCreating {
		return nil, apierr.New(apierr.ErrBackupInUse, apierr.MsgBackupInUse(b.arn))
	}
	// One restore at a time from a backup (AWS: ack-api-quirks
	// DDB-BACKUP-010), until its table leaves CREATING.
	undo, err := sets.Kept(c).restoreGuard(b, now, c.TransientUntil())
	if err != nil {
		return nil, err
	}
	d, err := restore.Table(c, *in.TargetTableName, restore.Source{Definition: b.copy.Definition(),
		BackupARN: b.arn, At: b.created, Snapshot: b.copy.Snapshot().Derive}, &ov)
	if err != nil {
		undo()
		return nil, err
	}
	return &RestoreTableFromBackupOutput{TableDescription: d}, nil
}
