package tablespec

import "github.com/dynamoemu/dynamoemu/internal/shapes"

// Wire shapes of the control-plane operations. Field names mirror the AWS
// JSON protocol exactly; pointers mark members whose absence matters.

// The nested shapes declared once in internal/shapes, in their two
// forms: a request's (pointers: a member left out is told from an empty
// one) and a description's (values, the ...Desc names).
type (
	AttributeDefinition       = shapes.AttributeDefinition[*string]
	KeySchemaElement          = shapes.KeySchemaElement[*string]
	ProvisionedThroughput     = shapes.ProvisionedThroughput[*int64]
	Projection                = shapes.Projection[*string]
	Tag                       = shapes.Tag[*string]
	VectorAttributeDefinition = shapes.VectorAttributeDefinition[*string]
	SearchSchemaElement       = shapes.SearchSchemaElement[*string]

	AttributeDefinitionDesc = shapes.AttributeDefinition[string]
	KeySchemaElementDesc    = shapes.KeySchemaElement[string]
	ProjectionDesc          = shapes.Projection[string]
	TagDesc                 = shapes.Tag[string]
	VectorAttributeDesc     = shapes.VectorAttributeDefinition[string]
	SearchSchemaElemDesc    = shapes.SearchSchemaElement[string]
	// SourceThroughput is a ProvisionedThroughput in a backup's description.
	SourceThroughput = shapes.ProvisionedThroughput[int64]
)

// The table's request and description shapes, internal/shapes'.
type (
	CreateTableInput                 = shapes.CreateTableInput
	LocalSecondaryIndex              = shapes.LocalSecondaryIndex
	GlobalSecondaryIndex             = shapes.GlobalSecondaryIndex
	VectorIndex                      = shapes.VectorIndex
	OnDemandThroughput               = shapes.OnDemandThroughput
	StreamSpecification              = shapes.StreamSpecification
	SSESpecification                 = shapes.SSESpecification
	WarmThroughput                   = shapes.WarmThroughput
	ProvisionedThroughputDescription = shapes.ProvisionedThroughputDescription
	BillingModeSummary               = shapes.BillingModeSummary
	TableClassSummary                = shapes.TableClassSummary
	LocalSecondaryIndexDescription   = shapes.LocalSecondaryIndexDescription
	GlobalSecondaryIndexDescription  = shapes.GlobalSecondaryIndexDescription
	VectorIndexDescription           = shapes.VectorIndexDescription
	SSEDescription                   = shapes.SSEDescription
	WarmThroughputDescription        = shapes.WarmThroughputDescription
	RestoreSummary                   = shapes.RestoreSummary
)

// DescribeTableInput is the DescribeTable request.
type DescribeTableInput struct {
	TableName *string `json:"TableName"`
}

// DeleteTableInput is the DeleteTable request.
type DeleteTableInput struct {
	TableName *string `json:"TableName"`
}

// ListTablesInput is the ListTables request.
type ListTablesInput struct {
	ExclusiveStartTableName *string `json:"ExclusiveStartTableName"`
	Limit                   *int64  `json:"Limit"`
}

// ListTablesOutput is the ListTables response.
type ListTablesOutput struct {
	TableNames             []string `json:"TableNames"`
	LastEvaluatedTableName string   `json:"LastEvaluatedTableName,omitempty"`
}

// GlobalSecondaryIndexUpdate is one element of UpdateTable's
// GlobalSecondaryIndexUpdates. Only validated for now.
type GlobalSecondaryIndexUpdate struct {
	Create *GlobalSecondaryIndex `json:"Create"`
	Update *struct {
		IndexName             *string                `json:"IndexName"`
		ProvisionedThroughput *ProvisionedThroughput `json:"ProvisionedThroughput"`
		OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput"`
		WarmThroughput        *WarmThroughput        `json:"WarmThroughput"`
	} `json:"Update"`
	Delete *struct {
		IndexName *string `json:"IndexName"`
	} `json:"Delete"`
}

// DescribeLimitsInput is the (empty) DescribeLimits request.
type DescribeLimitsInput struct{}

// DescribeLimitsOutput is the DescribeLimits response.
type DescribeLimitsOutput struct {
	AccountMaxReadCapacityUnits  int64 `json:"AccountMaxReadCapacityUnits"`
	AccountMaxWriteCapacityUnits int64 `json:"AccountMaxWriteCapacityUnits"`
	TableMaxReadCapacityUnits    int64 `json:"TableMaxReadCapacityUnits"`
	TableMaxWriteCapacityUnits   int64 `json:"TableMaxWriteCapacityUnits"`
}

// DescribeEndpointsInput is the (empty) DescribeEndpoints request.
type DescribeEndpointsInput struct{}

// Endpoint is one element of DescribeEndpoints' Endpoints.
type Endpoint struct {
	Address              string `json:"Address"`
	CachePeriodInMinutes int64  `json:"CachePeriodInMinutes"`
}

// DescribeEndpointsOutput is the DescribeEndpoints response.
type DescribeEndpointsOutput struct {
	Endpoints []Endpoint `json:"Endpoints"`
}

// VectorIndexUpdate is one element of UpdateTable's VectorIndexUpdates.
type VectorIndexUpdate struct {
	Create *VectorIndex `json:"Create"`
	Delete *struct {
		IndexName *string `json:"IndexName"`
	} `json:"Delete"`
}
