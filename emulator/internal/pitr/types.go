package pitr

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// Wire shapes of the point-in-time recovery operations, after AWS's API
// reference. Timestamps in requests are epoch seconds (JSON numbers).

// PointInTimeRecoverySpecification is UpdateContinuousBackups' setting.
type PointInTimeRecoverySpecification = shapes.PointInTimeRecoverySpecification

// UpdateContinuousBackupsInput is the UpdateContinuousBackups request.
type UpdateContinuousBackupsInput struct {
	TableName                        *string                           `json:"TableName"`
	PointInTimeRecoverySpecification *PointInTimeRecoverySpecification `json:"PointInTimeRecoverySpecification"`
}

// UpdateContinuousBackupsOutput is the UpdateContinuousBackups response.
type UpdateContinuousBackupsOutput struct {
	ContinuousBackupsDescription *ContinuousBackupsDescription `json:"ContinuousBackupsDescription"`
}

// DescribeContinuousBackupsInput is the DescribeContinuousBackups request.
type DescribeContinuousBackupsInput struct {
	TableName *string `json:"TableName"`
}

// DescribeContinuousBackupsOutput is the DescribeContinuousBackups response.
type DescribeContinuousBackupsOutput struct {
	ContinuousBackupsDescription *ContinuousBackupsDescription `json:"ContinuousBackupsDescription"`
}

// ContinuousBackupsDescription is a table's continuous backups.
type ContinuousBackupsDescription struct {
	ContinuousBackupsStatus        string                          `json:"ContinuousBackupsStatus"`
	PointInTimeRecoveryDescription *PointInTimeRecoveryDescription `json:"PointInTimeRecoveryDescription"`
}

// PointInTimeRecoveryDescription is a table's point-in-time recovery.
type PointInTimeRecoveryDescription struct {
	PointInTimeRecoveryStatus  string             `json:"PointInTimeRecoveryStatus"`
	RecoveryPeriodInDays       int64              `json:"RecoveryPeriodInDays,omitempty"`
	EarliestRestorableDateTime *service.EpochTime `json:"EarliestRestorableDateTime,omitempty"`
	LatestRestorableDateTime   *service.EpochTime `json:"LatestRestorableDateTime,omitempty"`
}

// RestoreTableToPointInTimeInput is the RestoreTableToPointInTime request.
type RestoreTableToPointInTimeInput struct {
	SourceTableArn          *string
	SourceTableName         *string
	TargetTableName         *string
	UseLatestRestorableTime *bool
	RestoreDateTime         *float64
	// the members both restores take, declared once
	tablespec.RestoreOverrides
}

// RestoreTableToPointInTimeOutput is the RestoreTableToPointInTime response.
type RestoreTableToPointInTimeOutput struct {
	TableDescription *service.TableDescription `json:"TableDescription"`
}
