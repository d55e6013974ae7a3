package tablespec

import (
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Wire shapes of restores and of a backup's description of its source
// table, after AWS's API reference (the backup operations' own are
// emulator/internal/backups' and emulator/internal/pitr's).

// SourceTableDetails is the backed-up table's key schema, size and capacity.
type SourceTableDetails struct {
	TableName             string                 `json:"TableName"`
	TableId               string                 `json:"TableId"`
	TableArn              string                 `json:"TableArn"`
	TableSizeBytes        int64                  `json:"TableSizeBytes"`
	KeySchema             []KeySchemaElementDesc `json:"KeySchema"`
	TableCreationDateTime EpochTime              `json:"TableCreationDateTime"`
	ProvisionedThroughput *SourceThroughput      `json:"ProvisionedThroughput"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
	ItemCount             int64                  `json:"ItemCount"`
	BillingMode           string                 `json:"BillingMode"`
}

// SourceTableFeatureDetails is the backed-up table's indexes, stream,
// TTL and encryption.
type SourceTableFeatureDetails struct {
	LocalSecondaryIndexes  []IndexInfo            `json:"LocalSecondaryIndexes,omitempty"`
	GlobalSecondaryIndexes []IndexInfo            `json:"GlobalSecondaryIndexes,omitempty"`
	StreamDescription      *StreamSpecification   `json:"StreamDescription,omitempty"`
	TimeToLiveDescription  *TimeToLiveDescription `json:"TimeToLiveDescription,omitempty"`
	SSEDescription         *SSEDescription        `json:"SSEDescription,omitempty"`
	VectorIndexes          []VectorIndexInfo      `json:"VectorIndexes,omitempty"`
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
type IndexInfo struct {
	IndexName             string                 `json:"IndexName"`
	KeySchema             []KeySchemaElementDesc `json:"KeySchema"`
	Projection            ProjectionDesc         `json:"Projection"`
	ProvisionedThroughput *SourceThroughput      `json:"ProvisionedThroughput,omitempty"`
	OnDemandThroughput    *OnDemandThroughput    `json:"OnDemandThroughput,omitempty"`
}

// TimeToLiveDescription is DescribeTimeToLive's answer and a backup's
// SourceTableFeatureDetails member. Its members are in the model's order
// (TimeToLiveStatus first), as DynamoDB Local answers DescribeTimeToLive;
// AWS's API reference lists them alphabetically, which is no answer's
// order.
type TimeToLiveDescription struct {
	TimeToLiveStatus string `json:"TimeToLiveStatus"`
	AttributeName    string `json:"AttributeName,omitempty"`
}

// RestoreTableToPointInTime share: what the restored table changes.
type RestoreOverrides struct {
	BillingModeOverride           *string                `json:"BillingModeOverride"`
	GlobalSecondaryIndexOverride  []GlobalSecondaryIndex `json:"GlobalSecondaryIndexOverride"`
	LocalSecondaryIndexOverride   []LocalSecondaryIndex  `json:"LocalSecondaryIndexOverride"`
	ProvisionedThroughputOverride *ProvisionedThroughput `json:"ProvisionedThroughputOverride"`
	OnDemandThroughputOverride    *OnDemandThroughput    `json:"OnDemandThroughputOverride"`
	SSESpecificationOverride      *SSESpecification      `json:"SSESpecificationOverride"`
	VectorIndexOverride           []VectorIndex          `json:"VectorIndexOverride"`
}

// Constraints checks the overrides' model constraints.
func (ov *RestoreOverrides) Constraints(cs *apierr.Constraints) {
	apierr.Enum(cs, ov.BillingModeOverride, "billingModeOverride", "PROVISIONED", "PAY_PER_REQUEST")
	if sse := ov.SSESpecificationOverride; sse != nil {
		apierr.Enum(cs, sse.SSEType, "sSESpecificationOverride.sSEType", "AES256", "KMS")
	}
	if p := ov.ProvisionedThroughputOverride; p != nil {
		for _, u := range []struct {
			v    *int64
			path string
		}{{p.ReadCapacityUnits, "provisionedThroughputOverride.readCapacityUnits"}, {p.WriteCapacityUnits, "provisionedThroughputOverride.writeCapacityUnits"}} {
			if apierr.NotNull(cs, u.v, u.path) && *u.v < 1 {
				cs.Add(apierr.QuoteInt(*u.v), u.path, apierr.ValGE(1))
			}
		}
	}
	for i, x := range ov.GlobalSecondaryIndexOverride {
		apierr.NotNull(cs, x.IndexName, "globalSecondaryIndexOverride."+strconv.Itoa(i+1)+".member.indexName")
	}
	for i, x := range ov.LocalSecondaryIndexOverride {
		apierr.NotNull(cs, x.IndexName, "localSecondaryIndexOverride."+strconv.Itoa(i+1)+".member.indexName")
	}
}

// SourceFeatures is a backup's description of the indexes of a table
// whose definition has ix: its LSIs, GSIs and vector indexes.
func (ix *Indexes) SourceFeatures() *SourceTableFeatureDetails {
	f := &SourceTableFeatureDetails{}
	for _, x := range ix.LSIs {
		f.LocalSecondaryIndexes = append(f.LocalSecondaryIndexes, IndexInfo{IndexName: x.Name, KeySchema: DescribeKeySchema(x.KeySchema), Projection: DescribeProjection(x.Projection)})
	}
	for _, x := range ix.GSIs {
		ii := IndexInfo{IndexName: x.Name, KeySchema: DescribeKeySchema(x.KeySchema), Projection: DescribeProjection(x.Projection), OnDemandThroughput: x.OnDemand}
		if x.Throughput != nil {
			ii.ProvisionedThroughput = &SourceThroughput{ReadCapacityUnits: x.Throughput.Read, WriteCapacityUnits: x.Throughput.Write}
		}
		f.GlobalSecondaryIndexes = append(f.GlobalSecondaryIndexes, ii)
	}
	for _, x := range ix.Vectors {
		vi := VectorIndexInfo{IndexName: x.Name, VectorAttribute: VectorAttributeDesc{AttributeName: x.Attr}, Dimensions: x.Dims,
			DistanceFunction: x.Distance, Projection: DescribeProjection(x.Projection)}
		for _, e := range x.Schema {
			vi.SearchSchema = append(vi.SearchSchema, SearchSchemaElemDesc{AttributeName: e.Name, SearchSchemaElementType: e.Type})
		}
		f.VectorIndexes = append(f.VectorIndexes, vi)
	}
	return f
}
