package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablerec"
)

// Wire shapes the core keeps for restores (restore.go) and for a
// backup's description of its source table, after AWS's API reference
// (the operations' own are emulator/internal/backups' and
// emulator/internal/pitr's).
// Timestamps in requests are epoch seconds (JSON numbers).

// RestoreSummary is the RestoreSummary of a restored table's description.
type RestoreSummary struct {
	SourceBackupArn   string    `json:"SourceBackupArn,omitempty"`
	SourceTableArn    string    `json:"SourceTableArn,omitempty"`
	RestoreDateTime   epochTime `json:"RestoreDateTime"`
	RestoreInProgress bool      `json:"RestoreInProgress"`
}

// restoreInfo is where a restored table came from, as its definition
// records it (catalog_record.go).
type restoreInfo = tablerec.Restored

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
