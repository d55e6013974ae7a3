package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

// Wire shapes of the control-plane operations: those that carry what
// only the core knows (a description's features, the members features
// own) are here, the rest are tablespec's, named here as they were.

// The wire shapes tablespec holds.
type (
	AttributeDefinition              = tablespec.AttributeDefinition
	KeySchemaElement                 = tablespec.KeySchemaElement
	ProvisionedThroughput            = tablespec.ProvisionedThroughput
	OnDemandThroughput               = tablespec.OnDemandThroughput
	StreamSpecification              = tablespec.StreamSpecification
	SSESpecification                 = tablespec.SSESpecification
	SSEDescription                   = tablespec.SSEDescription
	Tag                              = tablespec.Tag
	GlobalSecondaryIndex             = tablespec.GlobalSecondaryIndex
	CreateTableInput                 = tablespec.CreateTableInput
	DescribeTableInput               = tablespec.DescribeTableInput
	DeleteTableInput                 = tablespec.DeleteTableInput
	ListTablesInput                  = tablespec.ListTablesInput
	ListTablesOutput                 = tablespec.ListTablesOutput
	GlobalSecondaryIndexUpdate       = tablespec.GlobalSecondaryIndexUpdate
	DescribeLimitsInput              = tablespec.DescribeLimitsInput
	DescribeLimitsOutput             = tablespec.DescribeLimitsOutput
	DescribeEndpointsInput           = tablespec.DescribeEndpointsInput
	Endpoint                         = tablespec.Endpoint
	DescribeEndpointsOutput          = tablespec.DescribeEndpointsOutput
	AttributeDefinitionDesc          = tablespec.AttributeDefinitionDesc
	KeySchemaElementDesc             = tablespec.KeySchemaElementDesc
	ProvisionedThroughputDescription = tablespec.ProvisionedThroughputDescription
	BillingModeSummary               = tablespec.BillingModeSummary
	TableClassSummary                = tablespec.TableClassSummary
	LocalSecondaryIndexDescription   = tablespec.LocalSecondaryIndexDescription
	GlobalSecondaryIndexDescription  = tablespec.GlobalSecondaryIndexDescription
	TagDesc                          = tablespec.TagDesc
	VectorIndexUpdate                = tablespec.VectorIndexUpdate
	VectorIndexDescription           = tablespec.VectorIndexDescription
	WarmThroughput                   = tablespec.WarmThroughput
	WarmThroughputDescription        = tablespec.WarmThroughputDescription
	MemberRules                      = tablespec.MemberRules
)

// CreateTableOutput is the CreateTable response.
type CreateTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

// DescribeTableOutput is the DescribeTable response.
type DescribeTableOutput struct {
	Table *TableDescription `json:"Table"`
}

// DeleteTableOutput is the DeleteTable response.
type DeleteTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

// UpdateTableInput is the UpdateTable request.
type UpdateTableInput struct {
	TableName                   *string                      `json:"TableName"`
	AttributeDefinitions        []AttributeDefinition        `json:"AttributeDefinitions"`
	BillingMode                 *string                      `json:"BillingMode"`
	ProvisionedThroughput       *ProvisionedThroughput       `json:"ProvisionedThroughput"`
	OnDemandThroughput          *OnDemandThroughput          `json:"OnDemandThroughput"`
	GlobalSecondaryIndexUpdates []GlobalSecondaryIndexUpdate `json:"GlobalSecondaryIndexUpdates"`
	VectorIndexUpdates          []VectorIndexUpdate          `json:"VectorIndexUpdates"`
	StreamSpecification         *StreamSpecification         `json:"StreamSpecification"`
	SSESpecification            *SSESpecification            `json:"SSESpecification"`
	TableClass                  *string                      `json:"TableClass"`
	DeletionProtectionEnabled   *bool                        `json:"DeletionProtectionEnabled"`
	MultiRegionConsistency      *string                      `json:"MultiRegionConsistency"` // judged with ReplicaUpdates
	WarmThroughput              *WarmThroughput              `json:"WarmThroughput"`
	// Owned are the members of the request that features own
	// (UpdateTableMember).
	Owned OwnedMembers `json:"-"`
}

// UpdateTableOutput is the UpdateTable response.
type UpdateTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

// TableDescription is what CreateTable, DescribeTable, UpdateTable and
// DeleteTable report about a table. Member order follows AWS's responses.
type TableDescription struct {
	// AttributeDefinitions, KeySchema, CreationDateTime and the
	// indexes are left out of DeleteTable's answer only (deleteTable).
	AttributeDefinitions      []AttributeDefinitionDesc         `json:"AttributeDefinitions,omitempty"`
	TableName                 string                            `json:"TableName"`
	KeySchema                 []KeySchemaElementDesc            `json:"KeySchema,omitempty"`
	TableStatus               string                            `json:"TableStatus"`
	CreationDateTime          epochTime                         `json:"CreationDateTime,omitzero"`
	ProvisionedThroughput     *ProvisionedThroughputDescription `json:"ProvisionedThroughput"`
	TableSizeBytes            int64                             `json:"TableSizeBytes"`
	ItemCount                 int64                             `json:"ItemCount"`
	TableArn                  string                            `json:"TableArn"`
	TableId                   string                            `json:"TableId"`
	BillingModeSummary        *BillingModeSummary               `json:"BillingModeSummary,omitempty"`
	LocalSecondaryIndexes     []LocalSecondaryIndexDescription  `json:"LocalSecondaryIndexes,omitempty"`
	GlobalSecondaryIndexes    []GlobalSecondaryIndexDescription `json:"GlobalSecondaryIndexes,omitempty"`
	VectorIndexes             []VectorIndexDescription          `json:"VectorIndexes,omitempty"`
	StreamSpecification       *StreamSpecification              `json:"StreamSpecification,omitempty"`
	LatestStreamLabel         string                            `json:"LatestStreamLabel,omitempty"`
	LatestStreamArn           string                            `json:"LatestStreamArn,omitempty"`
	SSEDescription            *SSEDescription                   `json:"SSEDescription,omitempty"`
	TableClassSummary         *TableClassSummary                `json:"TableClassSummary,omitempty"`
	DeletionProtectionEnabled bool                              `json:"DeletionProtectionEnabled"`
	OnDemandThroughput        *OnDemandThroughput               `json:"OnDemandThroughput,omitempty"`
	WarmThroughput            *WarmThroughputDescription        `json:"WarmThroughput,omitempty"`
	RestoreSummary            *RestoreSummary                   `json:"RestoreSummary,omitempty"`

	more []describedMember // the members the features add (Add)
}
