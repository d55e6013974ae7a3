package service

// Wire shapes of vector indexes (aws-sdk-go-v2 service/dynamodb types:
// VectorIndex, CreateVectorIndexAction, VectorIndexUpdate,
// VectorIndexDescription). SearchVectors is a feature
// (emulator/internal/vectorsearch, through feature_vectors.go).

// VectorAttributeDefinition names a vector index's vector attribute.
type VectorAttributeDefinition struct {
	AttributeName *string `json:"AttributeName"`
}

// SearchSchemaElement is one element of a vector index's SearchSchema;
// SearchSchemaElementType is HASH or INLINE_FILTER.
type SearchSchemaElement struct {
	AttributeName           *string `json:"AttributeName"`
	SearchSchemaElementType *string `json:"SearchSchemaElementType"`
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

// VectorAttributeDesc is VectorAttribute in a description.
type VectorAttributeDesc struct {
	AttributeName string `json:"AttributeName"`
}

// SearchSchemaElemDesc is a SearchSchema element in a description.
type SearchSchemaElemDesc struct {
	AttributeName           string `json:"AttributeName"`
	SearchSchemaElementType string `json:"SearchSchemaElementType"`
}
