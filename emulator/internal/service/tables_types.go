package service

// Wire shapes of the control-plane operations. Field names mirror the AWS
// JSON protocol exactly; pointers mark members whose absence matters.

// AttributeDefinition is one element of AttributeDefinitions.
type AttributeDefinition struct {
	AttributeName *string `json:"AttributeName"`
	AttributeType *string `json:"AttributeType"`
}

// KeySchemaElement is one element of a KeySchema.
type KeySchemaElement struct {
	AttributeName *string `json:"AttributeName"`
	KeyType       *string `json:"KeyType"`
}

// ProvisionedThroughput is the ProvisionedThroughput request member.
type ProvisionedThroughput struct {
	ReadCapacityUnits  *int64 `json:"ReadCapacityUnits"`
	WriteCapacityUnits *int64 `json:"WriteCapacityUnits"`
}

// OnDemandThroughput caps an on-demand table's or index's request units.
type OnDemandThroughput struct {
	MaxReadRequestUnits  *int64 `json:"MaxReadRequestUnits,omitempty"`
	MaxWriteRequestUnits *int64 `json:"MaxWriteRequestUnits,omitempty"`
}

// Projection says which attributes a secondary index copies.
type Projection struct {
	ProjectionType   *string  `json:"ProjectionType,omitempty"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
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

// Tag is one resource tag.
type Tag struct {
	Key   *string `json:"Key"`
	Value *string `json:"Value"`
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
	Tags                      []Tag                  `json:"Tags"`
}

// CreateTableOutput is the CreateTable response.
type CreateTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

// DescribeTableInput is the DescribeTable request.
type DescribeTableInput struct {
	TableName *string `json:"TableName"`
}

// DescribeTableOutput is the DescribeTable response.
type DescribeTableOutput struct {
	Table *TableDescription `json:"Table"`
}

// DeleteTableInput is the DeleteTable request.
type DeleteTableInput struct {
	TableName *string `json:"TableName"`
}

// DeleteTableOutput is the DeleteTable response.
type DeleteTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
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
	} `json:"Update"`
	Delete *struct {
		IndexName *string `json:"IndexName"`
	} `json:"Delete"`
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
	MultiRegionConsistency      *string                      `json:"MultiRegionConsistency"` // only changes the "At least one of" message
	// Owned are the members of the request that features own
	// (UpdateTableMember).
	Owned OwnedMembers `json:"-"`
}

// UpdateTableOutput is the UpdateTable response.
type UpdateTableOutput struct {
	TableDescription *TableDescription `json:"TableDescription"`
}

// DescribeLimitsInput is the (empty) DescribeLimits request.
type DescribeLimitsInput struct{}

// DescribeLimitsOutput is the DescribeLimits response.
type DescribeLimitsOutput struct {
	AccountMaxReadCapacityUnits  int64
	AccountMaxWriteCapacityUnits int64
	TableMaxReadCapacityUnits    int64
	TableMaxWriteCapacityUnits   int64
}

// DescribeEndpointsInput is the (empty) DescribeEndpoints request.
type DescribeEndpointsInput struct{}

// Endpoint is one element of DescribeEndpoints' Endpoints.
type Endpoint struct {
	Address              string
	CachePeriodInMinutes int64
}

// DescribeEndpointsOutput is the DescribeEndpoints response.
type DescribeEndpointsOutput struct {
	Endpoints []Endpoint
}

// TableDescription is what CreateTable, DescribeTable, UpdateTable and
// DeleteTable report about a table. Member order follows AWS's responses.
type TableDescription struct {
	AttributeDefinitions      []AttributeDefinitionDesc         `json:"AttributeDefinitions"`
	TableName                 string                            `json:"TableName"`
	KeySchema                 []KeySchemaElementDesc            `json:"KeySchema"`
	TableStatus               string                            `json:"TableStatus"`
	CreationDateTime          epochTime                         `json:"CreationDateTime"`
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
	RestoreSummary            *RestoreSummary                   `json:"RestoreSummary,omitempty"`

	more []describedMember // the members the features add (Add)
}

// AttributeDefinitionDesc is an AttributeDefinitions element in a description.
type AttributeDefinitionDesc struct {
	AttributeName string `json:"AttributeName"`
	AttributeType string `json:"AttributeType"`
}

// KeySchemaElementDesc is a KeySchema element in a description.
type KeySchemaElementDesc struct {
	AttributeName string `json:"AttributeName"`
	KeyType       string `json:"KeyType"`
}

// ProvisionedThroughputDescription reports a table's or GSI's throughput.
type ProvisionedThroughputDescription struct {
	LastIncreaseDateTime   *epochTime `json:"LastIncreaseDateTime,omitempty"`
	LastDecreaseDateTime   *epochTime `json:"LastDecreaseDateTime,omitempty"`
	NumberOfDecreasesToday int64      `json:"NumberOfDecreasesToday"`
	ReadCapacityUnits      int64      `json:"ReadCapacityUnits"`
	WriteCapacityUnits     int64      `json:"WriteCapacityUnits"`
}

// BillingModeSummary reports a table's billing mode.
type BillingModeSummary struct {
	BillingMode                       string     `json:"BillingMode"`
	LastUpdateToPayPerRequestDateTime *epochTime `json:"LastUpdateToPayPerRequestDateTime,omitempty"`
}

// TableClassSummary reports a table's class.
type TableClassSummary struct {
	TableClass string `json:"TableClass"`
}

// ProjectionDesc is an index's Projection in a description.
type ProjectionDesc struct {
	ProjectionType   string   `json:"ProjectionType"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
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
}

// TagDesc is one of a table's tags, as ListTagsOfResource answers it.
type TagDesc struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}
