package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// Wire shapes of the control-plane operations: those that carry what
// only the core knows (the members features own) are here, the rest are
// tablespec's and internal/shapes', named here as they were.

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
	// TableDescription is what CreateTable, DescribeTable, UpdateTable and
	// DeleteTable report about a table; a feature adds its members with Add.
	TableDescription = shapes.TableDescription
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

// bind has the request take the members the features of sm own.
func (in *UpdateTableInput) bind(sm *seams) { in.Owned.bind(sm) }

// UpdateTableOutput is the UpdateTable response.
type UpdateTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}
