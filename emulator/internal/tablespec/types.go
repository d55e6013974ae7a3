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

// SSEDescription is the SSEDescription member of a TableDescription.
type SSEDescription struct {
	Status          string `json:"Status,omitempty"`
	SSEType         string `json:"SSEType,omitempty"`
	KMSMasterKeyArn string `json:"KMSMasterKeyArn,omitempty"`
}

// LocalSecondaryIndex is one element of CreateTable's LocalSecondaryIndexes.
type LocalSecondaryIndex struct {
	IndexName  *string            `json:"IndexName"`
	KeySchema  []KeySchemaElement `json:"KeySchema"`
	Projection *Projection        `json:"Projection"`
}

// GlobalSecondaryIndex is one element of CreateTable's GlobalSecondaryIndexes.
type GlobalSecondaryIndex struct {
	IndexName             *string                `json:"IndexName"`
	KeySchema             []KeySchemaElement     `json:"KeySchema"`
	Projection            *Projection            `json:"Projection"`
	ProvisionedThroughput *ProvisionedThroughput `json:"ProvisionedThroughput"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput"`
	WarmThroughput        *WarmThroughput        `json:"WarmThroughput"`
}

// CreateTableInput is the CreateTable request.
type CreateTableInput struct {
	TableName                 *string                `json:"TableName"`
	AttributeDefinitions      []AttributeDefinition  `json:"AttributeDefinitions"`
	KeySchema                 []KeySchemaElement     `json:"KeySchema"`
	BillingMode               *string                `json:"BillingMode"`
	ProvisionedThroughput     *ProvisionedThroughput `json:"ProvisionedThroughput"`
	OnDemandThroughput        *OnDemandThroughput    `json:"OnDemandThroughput"`
	LocalSecondaryIndexes     []LocalSecondaryIndex  `json:"LocalSecondaryIndexes"`
	GlobalSecondaryIndexes    []GlobalSecondaryIndex `json:"GlobalSecondaryIndexes"`
	VectorIndexes             []VectorIndex          `json:"VectorIndexes"`
	StreamSpecification       *StreamSpecification   `json:"StreamSpecification"`
	SSESpecification          *SSESpecification      `json:"SSESpecification"`
	TableClass                *string                `json:"TableClass"`
	DeletionProtectionEnabled *bool                  `json:"DeletionProtectionEnabled"`
	WarmThroughput            *WarmThroughput        `json:"WarmThroughput"`
	Tags                      []Tag                  `json:"Tags"`
}

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

// ProvisionedThroughputDescription reports a table's or GSI's throughput.
type ProvisionedThroughputDescription struct {
	LastIncreaseDateTime   *EpochTime `json:"LastIncreaseDateTime,omitempty"`
	LastDecreaseDateTime   *EpochTime `json:"LastDecreaseDateTime,omitempty"`
	NumberOfDecreasesToday int64      `json:"NumberOfDecreasesToday"`
	ReadCapacityUnits      int64      `json:"ReadCapacityUnits"`
	WriteCapacityUnits     int64      `json:"WriteCapacityUnits"`
}

// BillingModeSummary reports a table's billing mode.
type BillingModeSummary struct {
	BillingMode                       string     `json:"BillingMode"`
	LastUpdateToPayPerRequestDateTime *EpochTime `json:"LastUpdateToPayPerRequestDateTime,omitempty"`
}

// TableClassSummary reports a table's class.
type TableClassSummary struct {
	TableClass string `json:"TableClass"`
}

// LocalSecondaryIndexDescription describes one LSI.
type LocalSecondaryIndexDescription struct {
	IndexName      string                 `json:"IndexName"`
	KeySchema      []KeySchemaElementDesc `json:"KeySchema"`
	Projection     ProjectionDesc         `json:"Projection"`
	IndexSizeBytes int64                  `json:"IndexSizeBytes"`
	ItemCount      int64                  `json:"ItemCount"`
	IndexArn       string                 `json:"IndexArn"`
}

// GlobalSecondaryIndexDescription describes one GSI.
type GlobalSecondaryIndexDescription struct {
	IndexName             string                            `json:"IndexName"`
	KeySchema             []KeySchemaElementDesc            `json:"KeySchema"`
	Projection            ProjectionDesc                    `json:"Projection"`
	IndexStatus           string                            `json:"IndexStatus"`
	Backfilling           *bool                             `json:"Backfilling,omitempty"`
	ProvisionedThroughput *ProvisionedThroughputDescription `json:"ProvisionedThroughput"`
	IndexSizeBytes        *int64                            `json:"IndexSizeBytes,omitempty"`
	ItemCount             *int64                            `json:"ItemCount,omitempty"`
	IndexArn              string                            `json:"IndexArn"`
	OnDemandThroughput    *OnDemandThroughput               `json:"OnDemandThroughput,omitempty"`
	WarmThroughput        *WarmThroughputDescription        `json:"WarmThroughput,omitempty"`
}

// VectorIndex is one element of CreateTable's VectorIndexes, and the
// shape of UpdateTable's CreateVectorIndexAction.
type VectorIndex struct {
	IndexName        *string                    `json:"IndexName"`
	VectorAttribute  *VectorAttributeDefinition `json:"VectorAttribute"`
	Dimensions       *int64                     `json:"Dimensions"`
	DistanceFunction *string                    `json:"DistanceFunction"`
	Projection       *Projection                `json:"Projection"`
	SearchSchema     []SearchSchemaElement      `json:"SearchSchema"`
}

// VectorIndexUpdate is one element of UpdateTable's VectorIndexUpdates.
type VectorIndexUpdate struct {
	Create *VectorIndex `json:"Create"`
	Delete *struct {
		IndexName *string `json:"IndexName"`
	} `json:"Delete"`
}

// VectorIndexDescription describes one vector index.
type VectorIndexDescription struct {
	IndexName        string                 `json:"IndexName"`
	IndexArn         string                 `json:"IndexArn"`
	VectorAttribute  VectorAttributeDesc    `json:"VectorAttribute"`
	Dimensions       int64                  `json:"Dimensions"`
	DistanceFunction string                 `json:"DistanceFunction"`
	SearchSchema     []SearchSchemaElemDesc `json:"SearchSchema,omitempty"`
	Projection       ProjectionDesc         `json:"Projection"`
	IndexStatus      string                 `json:"IndexStatus"`
	Backfilling      *bool                  `json:"Backfilling,omitempty"`
	IndexSizeBytes   *int64                 `json:"IndexSizeBytes,omitempty"`
	ItemCount        *int64                 `json:"ItemCount,omitempty"`
}
