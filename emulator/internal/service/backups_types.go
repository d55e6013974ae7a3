package service

import "time"

// Wire shapes of the backup and point-in-time recovery operations
// (restore.go, pitr.go, continuous_backups.go; the on-demand backups'
// are emulator/internal/backups'), after AWS's API reference.
// Timestamps in requests are epoch seconds (JSON numbers).

// PointInTimeRecoverySpecification is UpdateContinuousBackups' setting.
type PointInTimeRecoverySpecification struct {
	PointInTimeRecoveryEnabled *bool  `json:"PointInTimeRecoveryEnabled"`
	RecoveryPeriodInDays       *int64 `json:"RecoveryPeriodInDays"`
}

// UpdateContinuousBackupsInput is the UpdateContinuousBackups request.
type UpdateContinuousBackupsInput struct {
	TableName                        *string
	PointInTimeRecoverySpecification *PointInTimeRecoverySpecification
}

// UpdateContinuousBackupsOutput is the UpdateContinuousBackups response.
type UpdateContinuousBackupsOutput struct {
	ContinuousBackupsDescription *ContinuousBackupsDescription `json:"ContinuousBackupsDescription"`
}

// DescribeContinuousBackupsInput is the DescribeContinuousBackups request.
type DescribeContinuousBackupsInput struct {
	TableName *string
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
	PointInTimeRecoveryStatus  string     `json:"PointInTimeRecoveryStatus"`
	RecoveryPeriodInDays       int64      `json:"RecoveryPeriodInDays,omitempty"`
	EarliestRestorableDateTime *epochTime `json:"EarliestRestorableDateTime,omitempty"`
	LatestRestorableDateTime   *epochTime `json:"LatestRestorableDateTime,omitempty"`
}

// RestoreSummary is the RestoreSummary of a restored table's description.
type RestoreSummary struct {
	SourceBackupArn   string    `json:"SourceBackupArn,omitempty"`
	SourceTableArn    string    `json:"SourceTableArn,omitempty"`
	RestoreDateTime   epochTime `json:"RestoreDateTime"`
	RestoreInProgress bool      `json:"RestoreInProgress"`
}

// restoreInfo is where a restored table came from, as its definition
// records it (catalog_record.go).
type restoreInfo struct {
	BackupArn string    `json:"backupArn,omitempty"`
	TableArn  string    `json:"tableArn,omitempty"`
	At        time.Time `json:"at"`
}

// SourceTableDetails is the backed-up table's key schema, size and capacity.
type SourceTableDetails struct {
	TableName             string                 `json:"TableName"`
	TableId               string                 `json:"TableId"`
	TableArn              string                 `json:"TableArn"`
	TableSizeBytes        int64                  `json:"TableSizeBytes"`
	KeySchema             []KeySchemaElementDesc `json:"KeySchema"`
	TableCreationDateTime epochTime              `json:"TableCreationDateTime"`
	ProvisionedThroughput *sourceThroughput      `json:"ProvisionedThroughput"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	ItemCount             int64                  `json:"ItemCount"`
	BillingMode           string                 `json:"BillingMode"`
}

// sourceThroughput is a ProvisionedThroughput in a backup's description.
type sourceThroughput struct {
	ReadCapacityUnits  int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits int64 `json:"WriteCapacityUnits"`
}

// SourceTableFeatureDetails is the backed-up table's indexes, stream,
// TTL and encryption.
type SourceTableFeatureDetails struct {
	LocalSecondaryIndexes  []indexInfo          `json:"LocalSecondaryIndexes,omitempty"`
	GlobalSecondaryIndexes []indexInfo          `json:"GlobalSecondaryIndexes,omitempty"`
	StreamDescription      *StreamSpecification `json:"StreamDescription,omitempty"`
	TimeToLiveDescription  *TimeToLiveDesc      `json:"TimeToLiveDescription,omitempty"`
	SSEDescription         *SSEDescription      `json:"SSEDescription,omitempty"`
	VectorIndexes          []VectorIndexInfo    `json:"VectorIndexes,omitempty"`
}

// VectorIndexInfo is a vector index in a backup's description.
type VectorIndexInfo struct {
	IndexName        string                 `json:"IndexName"`
	VectorAttribute  VectorAttributeDesc    `json:"VectorAttribute"`
	Dimensions       int64                  `json:"Dimensions"`
	DistanceFunction string                 `json:"DistanceFunction"`
	SearchSchema     []SearchSchemaElemDesc `json:"SearchSchema,omitempty"`
	Projection       ProjectionDesc         `json:"Projection"`
}

// indexInfo is an index in a backup's description.
type indexInfo struct {
	IndexName             string                 `json:"IndexName"`
	KeySchema             []KeySchemaElementDesc `json:"KeySchema"`
	Projection            ProjectionDesc         `json:"Projection"`
	ProvisionedThroughput *sourceThroughput      `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
}

// TimeToLiveDesc is a TimeToLiveDescription in a backup's description.
type TimeToLiveDesc struct {
	AttributeName    string `json:"AttributeName,omitempty"`
	TimeToLiveStatus string `json:"TimeToLiveStatus"`
}

// RestoreTableToPointInTime share: what the restored table changes.
type RestoreOverrides struct {
	BillingModeOverride           *string
	GlobalSecondaryIndexOverride  []GlobalSecondaryIndex
	LocalSecondaryIndexOverride   []LocalSecondaryIndex
	ProvisionedThroughputOverride *ProvisionedThroughput
	OnDemandThroughputOverride    *OnDemandThroughput
	SSESpecificationOverride      *SSESpecification
	VectorIndexOverride           []VectorIndex
}

// RestoreTableToPointInTimeInput is the RestoreTableToPointInTime request.
type RestoreTableToPointInTimeInput struct {
	SourceTableArn                *string
	SourceTableName               *string
	TargetTableName               *string
	UseLatestRestorableTime       *bool
	RestoreDateTime               *float64
	BillingModeOverride           *string
	GlobalSecondaryIndexOverride  []GlobalSecondaryIndex
	LocalSecondaryIndexOverride   []LocalSecondaryIndex
	ProvisionedThroughputOverride *ProvisionedThroughput
	OnDemandThroughputOverride    *OnDemandThroughput
	SSESpecificationOverride      *SSESpecification
	VectorIndexOverride           []VectorIndex
}

func (in *RestoreTableToPointInTimeInput) overrides() RestoreOverrides {
	return RestoreOverrides{in.BillingModeOverride, in.GlobalSecondaryIndexOverride, in.LocalSecondaryIndexOverride,
		in.ProvisionedThroughputOverride, in.OnDemandThroughputOverride, in.SSESpecificationOverride, in.VectorIndexOverride}
}

// RestoreTableToPointInTimeOutput is the RestoreTableToPointInTime response.
type RestoreTableToPointInTimeOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}
