package shapes

// ConsumedCapacity is the capacity a data-plane call consumed; F holds
// the read and write units, left out of the emulator's answers where AWS
// leaves them out (*float64), or zero when absent (float64) for a
// client that reads them.
type ConsumedCapacity[F any] struct {
	TableName              string                    `json:"TableName,omitempty"`
	CapacityUnits          float64                   `json:"CapacityUnits"`
	ReadCapacityUnits      F                         `json:"ReadCapacityUnits,omitempty"`
	WriteCapacityUnits     F                         `json:"WriteCapacityUnits,omitempty"`
	Table                  *Capacity[F]              `json:"Table,omitempty"`
	LocalSecondaryIndexes  map[string]Capacity[F]    `json:"LocalSecondaryIndexes,omitempty"`
	GlobalSecondaryIndexes map[string]Capacity[F]    `json:"GlobalSecondaryIndexes,omitempty"`
	VectorIndexes          map[string]VectorCapacity `json:"VectorIndexes,omitempty"`
}

// Capacity is the capacity consumed by a table or one index (INDEXES
// mode).
type Capacity[F any] struct {
	CapacityUnits      float64 `json:"CapacityUnits"`
	ReadCapacityUnits  F       `json:"ReadCapacityUnits,omitempty"`
	WriteCapacityUnits F       `json:"WriteCapacityUnits,omitempty"`
}

// VectorCapacity is one index's member of ConsumedCapacity.VectorIndexes.
type VectorCapacity struct {
	VectorWriteRequestBytes float64 `json:"VectorWriteRequestBytes"`
}
