package storage

// TEMPORARY shim for the expr branch: these definitions belong to the storage
// helper and will be replaced by the real ones when the branches merge.

// KeyAttr names one key attribute and its scalar type.
type KeyAttr struct {
	Name string
	Kind Kind
}

// KeySchema is a table's (or index's) primary key.
type KeySchema struct {
	Partition KeyAttr
	Sort      KeyAttr // Sort.Name == "" when no sort key
}

// HasSort reports whether the schema has a sort key.
func (ks KeySchema) HasSort() bool { return ks.Sort.Name != "" }

// SortOp is the operator of a sort-key condition.
type SortOp uint8

// Sort-key condition operators.
const (
	SortAny SortOp = iota
	SortEQ
	SortLT
	SortLE
	SortGT
	SortGE
	SortBetween
	SortBeginsWith
)

// SortCondition restricts the sort key of a Query.
type SortCondition struct {
	Op     SortOp
	Values [2]Value
}
