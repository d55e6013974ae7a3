package shapes

// The CreateTable request and the request members it shares with
// UpdateTable and the restores (the request form: pointers, a member
// left out told from an empty one).

// CreateTableInput is the CreateTable request.
type CreateTableInput struct {
	TableName                 *string                        `json:"TableName"`
	AttributeDefinitions      []AttributeDefinition[*string] `json:"AttributeDefinitions"`
	KeySchema                 []KeySchemaElement[*string]    `json:"KeySchema"`
	BillingMode               *string                        `json:"BillingMode"`
	ProvisionedThroughput     *ProvisionedThroughput[*int64] `json:"ProvisionedThroughput"`
	OnDemandThroughput        *OnDemandThroughput            `json:"OnDemandThroughput"`
	LocalSecondaryIndexes     []LocalSecondaryIndex          `json:"LocalSecondaryIndexes"`
	GlobalSecondaryIndexes    []GlobalSecondaryIndex         `json:"GlobalSecondaryIndexes"`
	VectorIndexes             []VectorIndex                  `json:"VectorIndexes"`
	StreamSpecification       *StreamSpecification           `json:"StreamSpecification"`
	SSESpecification          *SSESpecification              `json:"SSESpecification"`
	TableClass                *string                        `json:"TableClass"`
	DeletionProtectionEnabled *bool                          `json:"DeletionProtectionEnabled"`
	WarmThroughput            *WarmThroughput                `json:"WarmThroughput"`
	Tags                      []Tag[*string]                 `json:"Tags"`
}

// LocalSecondaryIndex is one element of CreateTable's LocalSecondaryIndexes.
type LocalSecondaryIndex struct {
	IndexName  *string                     `json:"IndexName"`
	KeySchema  []KeySchemaElement[*string] `json:"KeySchema"`
	Projection *Projection[*string]        `json:"Projection"`
}

// GlobalSecondaryIndex is one element of CreateTable's GlobalSecondaryIndexes.
type GlobalSecondaryIndex struct {
	IndexName             *string                        `json:"IndexName"`
	KeySchema             []KeySchemaElement[*string]    `json:"KeySchema"`
	Projection            *Projection[*string]           `json:"Projection"`
	ProvisionedThroughput *ProvisionedThroughput[*int64] `json:"ProvisionedThroughput"`
	OnDemandThroughput    *OnDemandThroughput            `json:"OnDemandThroughput"`
	WarmThroughput        *WarmThroughput                `json:"WarmThroughput"`
}

// VectorIndex is one element of CreateTable's VectorIndexes, and the
// shape of UpdateTable's CreateVectorIndexAction.
type VectorIndex struct {
	IndexName        *string                             `json:"IndexName"`
	VectorAttribute  *VectorAttributeDefinition[*string] `json:"VectorAttribute"`
	Dimensions       *int64                              `json:"Dimensions"`
	DistanceFunction *string                             `json:"DistanceFunction"`
	Projection       *Projection[*string]                `json:"Projection"`
	SearchSchema     []SearchSchemaElement[*string]      `json:"SearchSchema"`
}

// OnDemandThroughput caps an on-demand table's or index's request units.
type OnDemandThroughput struct {
	MaxReadRequestUnits  *int64 `json:"MaxReadRequestUnits,omitempty"`
	MaxWriteRequestUnits *int64 `json:"MaxWriteRequestUnits,omitempty"`
}

// StreamSpecification is the StreamSpecification request member.
type StreamSpecification struct {
	StreamEnabled  *bool   `json:"StreamEnabled"`
	StreamViewType *string `json:"StreamViewType,omitempty"`
}

// SSESpecification is the SSESpecification request member.
type SSESpecification struct {
	Enabled        *bool   `json:"Enabled,omitempty"`
	SSEType        *string `json:"SSEType,omitempty"`
	KMSMasterKeyId *string `json:"KMSMasterKeyId,omitempty"`
}

// WarmThroughput is the WarmThroughput request member (CreateTable,
// UpdateTable, a GSI's create and update actions).
type WarmThroughput struct {
	ReadUnitsPerSecond  *int64 `json:"ReadUnitsPerSecond,omitempty"`
	WriteUnitsPerSecond *int64 `json:"WriteUnitsPerSecond,omitempty"`
}

// Empty reports whether w names neither member: AWS treats it as absent.
func (w *WarmThroughput) Empty() bool {
	return w == nil || (w.ReadUnitsPerSecond == nil && w.WriteUnitsPerSecond == nil)
}

// TimeToLiveSpecification is UpdateTimeToLive's request member and
// answer (and a CloudFormation table's TimeToLiveSpecification, which
// internal/iac reads).
type TimeToLiveSpecification struct {
	Enabled       *bool   `json:"Enabled"`
	AttributeName *string `json:"AttributeName"`
}

// PointInTimeRecoverySpecification is UpdateContinuousBackups' setting
// (and a CloudFormation table's, which internal/iac reads).
type PointInTimeRecoverySpecification struct {
	PointInTimeRecoveryEnabled *bool  `json:"PointInTimeRecoveryEnabled,omitempty"`
	RecoveryPeriodInDays       *int64 `json:"RecoveryPeriodInDays,omitempty"`
}
