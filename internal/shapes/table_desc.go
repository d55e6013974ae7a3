package shapes

import (
	"encoding/json"
	"strconv"
)

// A table's description (TableDescription: DescribeTable's, CreateTable's,
// UpdateTable's and DeleteTable's answers) and its members (the answer
// form: values).

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
	IndexName      string                     `json:"IndexName"`
	KeySchema      []KeySchemaElement[string] `json:"KeySchema"`
	Projection     Projection[string]         `json:"Projection"`
	IndexSizeBytes int64                      `json:"IndexSizeBytes"`
	ItemCount      int64                      `json:"ItemCount"`
	IndexArn       string                     `json:"IndexArn"`
}

// GlobalSecondaryIndexDescription describes one GSI.
type GlobalSecondaryIndexDescription struct {
	IndexName             string                            `json:"IndexName"`
	KeySchema             []KeySchemaElement[string]        `json:"KeySchema"`
	Projection            Projection[string]                `json:"Projection"`
	IndexStatus           string                            `json:"IndexStatus"`
	Backfilling           *bool                             `json:"Backfilling,omitempty"`
	ProvisionedThroughput *ProvisionedThroughputDescription `json:"ProvisionedThroughput"`
	IndexSizeBytes        *int64                            `json:"IndexSizeBytes,omitempty"`
	ItemCount             *int64                            `json:"ItemCount,omitempty"`
	IndexArn              string                            `json:"IndexArn"`
	OnDemandThroughput    *OnDemandThroughput               `json:"OnDemandThroughput,omitempty"`
	WarmThroughput        *WarmThroughputDescription        `json:"WarmThroughput,omitempty"`
}

// VectorIndexDescription describes one vector index.
type VectorIndexDescription struct {
	IndexName        string                            `json:"IndexName"`
	IndexArn         string                            `json:"IndexArn"`
	VectorAttribute  VectorAttributeDefinition[string] `json:"VectorAttribute"`
	Dimensions       int64                             `json:"Dimensions"`
	DistanceFunction string                            `json:"DistanceFunction"`
	SearchSchema     []SearchSchemaElement[string]     `json:"SearchSchema,omitempty"`
	Projection       Projection[string]                `json:"Projection"`
	IndexStatus      string                            `json:"IndexStatus"`
	Backfilling      *bool                             `json:"Backfilling,omitempty"`
	IndexSizeBytes   *int64                            `json:"IndexSizeBytes,omitempty"`
	ItemCount        *int64                            `json:"ItemCount,omitempty"`
}

// SSEDescription is the SSEDescription member of a TableDescription.
type SSEDescription struct {
	Status          string `json:"Status,omitempty"`
	SSEType         string `json:"SSEType,omitempty"`
	KMSMasterKeyArn string `json:"KMSMasterKeyArn,omitempty"`
}

// WarmThroughputDescription is WarmThroughput in a TableDescription or a
// GlobalSecondaryIndexDescription (TableWarmThroughputDescription,
// GlobalSecondaryIndexWarmThroughputDescription: the same members).
type WarmThroughputDescription struct {
	ReadUnitsPerSecond  int64  `json:"ReadUnitsPerSecond"`
	WriteUnitsPerSecond int64  `json:"WriteUnitsPerSecond"`
	Status              string `json:"Status"`
}

// RestoreSummary is the RestoreSummary of a restored table's description.
type RestoreSummary struct {
	SourceBackupArn   string    `json:"SourceBackupArn,omitempty"`
	SourceTableArn    string    `json:"SourceTableArn,omitempty"`
	RestoreDateTime   EpochTime `json:"RestoreDateTime"`
	RestoreInProgress bool      `json:"RestoreInProgress"`
}

// TableDescription is what CreateTable, DescribeTable, UpdateTable and
// DeleteTable report about a table. Member order follows AWS's responses.
type TableDescription struct {
	// AttributeDefinitions, KeySchema, CreationDateTime and the
	// indexes are left out of DeleteTable's answer only (the service's
	// deleteTable).
	AttributeDefinitions      []AttributeDefinition[string]     `json:"AttributeDefinitions,omitempty"`
	TableName                 string                            `json:"TableName"`
	KeySchema                 []KeySchemaElement[string]        `json:"KeySchema,omitempty"`
	TableStatus               string                            `json:"TableStatus"`
	CreationDateTime          EpochTime                         `json:"CreationDateTime,omitzero"`
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

// Add adds member name with value v (encoded with encoding/json) to the
// description, after its own members, in the order added.
func (d *TableDescription) Add(name string, v any) {
	d.more = append(d.more, describedMember{name, v})
}

// describedMember is a member a feature added to a TableDescription.
type describedMember struct {
	name string
	v    any
}

// plainTableDescription is TableDescription without its MarshalJSON.
type plainTableDescription TableDescription

// MarshalJSON encodes the description: its own members, then those the
// features added.
func (d *TableDescription) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal((*plainTableDescription)(d))
	if err != nil || len(d.more) == 0 {
		return b, err
	}
	b = b[:len(b)-1] // the closing brace
	for _, m := range d.more {
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b = append(b, ',')
		b = strconv.AppendQuote(b, m.name)
		b = append(b, ':')
		b = append(b, v...)
	}
	return append(b, '}'), nil
}
