package emulator

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
