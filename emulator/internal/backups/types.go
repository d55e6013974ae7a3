package backups

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// Wire shapes of the on-demand backup operations, after AWS's API
// reference. Timestamps in requests are epoch seconds (JSON numbers).

// CreateBackupInput is the CreateBackup request.
type CreateBackupInput struct {
	TableName  *string `json:"TableName"`
	BackupName *string `json:"BackupName"`
}

// CreateBackupOutput is the CreateBackup response.
type CreateBackupOutput struct {
	BackupDetails *BackupDetails `json:"BackupDetails"`
}

// BackupDetails describes one backup.
type BackupDetails struct {
	BackupArn              string             `json:"BackupArn"`
	BackupName             string             `json:"BackupName"`
	BackupSizeBytes        int64              `json:"BackupSizeBytes"`
	BackupStatus           string             `json:"BackupStatus"`
	BackupType             string             `json:"BackupType"`
	BackupCreationDateTime service.EpochTime  `json:"BackupCreationDateTime"`
	BackupExpiryDateTime   *service.EpochTime `json:"BackupExpiryDateTime,omitempty"`
}

// DescribeBackupInput is the DescribeBackup request.
type DescribeBackupInput struct {
	BackupArn *string `json:"BackupArn"`
}

// DescribeBackupOutput is the DescribeBackup response.
type DescribeBackupOutput struct {
	BackupDescription *BackupDescription `json:"BackupDescription"`
}

// DeleteBackupInput is the DeleteBackup request.
type DeleteBackupInput struct {
	BackupArn *string `json:"BackupArn"`
}

// DeleteBackupOutput is the DeleteBackup response.
type DeleteBackupOutput struct {
	BackupDescription *BackupDescription `json:"BackupDescription"`
}

// BackupDescription is a backup with its source table as it was.
type BackupDescription struct {
	BackupDetails             *BackupDetails                       `json:"BackupDetails"`
	SourceTableDetails        *tablespec.SourceTableDetails        `json:"SourceTableDetails"`
	SourceTableFeatureDetails *tablespec.SourceTableFeatureDetails `json:"SourceTableFeatureDetails,omitempty"`
}

// ListBackupsInput is the ListBackups request.
type ListBackupsInput struct {
	TableName               *string  `json:"TableName"`
	Limit                   *int64   `json:"Limit"`
	TimeRangeLowerBound     *float64 `json:"TimeRangeLowerBound"`
	TimeRangeUpperBound     *float64 `json:"TimeRangeUpperBound"`
	ExclusiveStartBackupArn *string  `json:"ExclusiveStartBackupArn"`
	BackupType              *string  `json:"BackupType"`
}

// ListBackupsOutput is the ListBackups response.
type ListBackupsOutput struct {
	BackupSummaries        []BackupSummary `json:"BackupSummaries"`
	LastEvaluatedBackupArn string          `json:"LastEvaluatedBackupArn,omitempty"`
}

// BackupSummary is one backup in ListBackups.
type BackupSummary struct {
	TableName              string             `json:"TableName"`
	TableId                string             `json:"TableId"`
	TableArn               string             `json:"TableArn"`
	BackupArn              string             `json:"BackupArn"`
	BackupName             string             `json:"BackupName"`
	BackupCreationDateTime service.EpochTime  `json:"BackupCreationDateTime"`
	BackupExpiryDateTime   *service.EpochTime `json:"BackupExpiryDateTime,omitempty"`
	BackupStatus           string             `json:"BackupStatus"`
	BackupType             string             `json:"BackupType"`
	BackupSizeBytes        int64              `json:"BackupSizeBytes"`
}

// RestoreTableFromBackupInput is the RestoreTableFromBackup request.
type RestoreTableFromBackupInput struct {
	TargetTableName *string
	BackupArn       *string
	// the members both restores take, declared once
	tablespec.RestoreOverrides
}

// RestoreTableFromBackupOutput is the RestoreTableFromBackup response.
type RestoreTableFromBackupOutput struct {
	TableDescription *service.TableDescription `json:"TableDescription"`
}
