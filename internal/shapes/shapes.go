package shapes

// AttributeDefinition is one element of a table's AttributeDefinitions.
type AttributeDefinition[S any] struct {
	AttributeName S `json:"AttributeName"`
	AttributeType S `json:"AttributeType"`
}

// KeySchemaElement is one element of a table's or index's KeySchema;
// KeyType is HASH or RANGE.
type KeySchemaElement[S any] struct {
	AttributeName S `json:"AttributeName"`
	KeyType       S `json:"KeyType"`
}

// Projection says which attributes a secondary index copies.
type Projection[S any] struct {
	ProjectionType   S        `json:"ProjectionType,omitempty"`
	NonKeyAttributes []string `json:"NonKeyAttributes,omitempty"`
}

// ProvisionedThroughput is a table's or index's provisioned read and
// write capacity.
type ProvisionedThroughput[N any] struct {
	ReadCapacityUnits  N `json:"ReadCapacityUnits"`
	WriteCapacityUnits N `json:"WriteCapacityUnits"`
}

// Tag is one resource tag.
type Tag[S any] struct {
	Key   S `json:"Key"`
	Value S `json:"Value"`
}

// VectorAttributeDefinition names a vector index's vector attribute.
type VectorAttributeDefinition[S any] struct {
	AttributeName S `json:"AttributeName"`
}

// SearchSchemaElement is one element of a vector index's SearchSchema;
// SearchSchemaElementType is HASH or INLINE_FILTER.
type SearchSchemaElement[S any] struct {
	AttributeName           S `json:"AttributeName"`
	SearchSchemaElementType S `json:"SearchSchemaElementType"`
}
