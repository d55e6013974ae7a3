package insights

import (
	"encoding/base64"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Access is what a request does to one table or index: the kind of
// access a design's pattern declares.
type Access uint8

// Accesses.
const (
	AccessNone Access = iota
	// Get reads one item by its full key: GetItem, each key of
	// BatchGetItem, each Get of TransactGetItems, each ConditionCheck of
	// TransactWriteItems, a PartiQL SELECT naming the full key.
	Get
	// Query reads one partition of the table or an index: Query, a
	// PartiQL SELECT with the partition key.
	Query
	// Scan reads the table or an index whole (or a segment).
	Scan
	// Put, Update and Delete write one item: the single-item operations,
	// each request of BatchWriteItem, each action of TransactWriteItems,
	// PartiQL INSERT, UPDATE, DELETE.
	Put
	Update
	Delete
	numAccess
)

var accessNames = [numAccess]string{"", "get", "query", "scan", "put", "update", "delete"}

// String is the access's name in a design file ("get", "query", ...).
func (a Access) String() string {
	if a < numAccess {
		return accessNames[a]
	}
	return "?"
}

// accessOf returns the access named s.
func accessOf(s string) (Access, bool) {
	for a := Get; a < numAccess; a++ {
		if accessNames[a] == s {
			return a, true
		}
	}
	return AccessNone, false
}

// IsWrite reports whether the access writes.
func (a Access) IsWrite() bool { return a == Put || a == Update || a == Delete }

// SortOp is the sort key condition of a request or pattern.
type SortOp uint8

// Sort key conditions.
const (
	SortNone SortOp = iota
	SortEQ
	SortLT
	SortLE
	SortGT
	SortGE
	SortBetween
	SortBeginsWith
	numSortOps
)

var sortOpNames = [numSortOps]string{"", "=", "<", "<=", ">", ">=", "between", "begins_with"}

// String is the condition's spelling in a design file.
func (o SortOp) String() string {
	if o < numSortOps {
		return sortOpNames[o]
	}
	return "?"
}

// sortOpOf returns the condition spelt s.
func sortOpOf(s string) (SortOp, bool) {
	for o := SortEQ; o < numSortOps; o++ {
		if sortOpNames[o] == s {
			return o, true
		}
	}
	return SortNone, false
}

// KeyCondition is a request's key: the partition key value (the
// invalid Value for a Scan) and the sort key condition (SortEQ with
// Sort for an item's full key; Sort2 is BETWEEN's upper bound).
type KeyCondition struct {
	Partition   storage.Value
	SortOp      SortOp
	Sort, Sort2 storage.Value
}

// Request is what the emulator tells the report of one request's use of
// one table or index, once it has run: one per item of a batch or
// transaction. It is read during Record and not kept.
type Request struct {
	// Op is the API operation ("Query", "BatchGetItem", ...), for the
	// counts per operation.
	Op string
	// Access is what the request did to this table or index.
	Access Access
	Table  string
	// Index is the index read, "" for the table.
	Index string
	Key   KeyCondition
	// Filter: the request had a filter (FilterExpression, QueryFilter,
	// ScanFilter, a PartiQL WHERE on non-key attributes).
	Filter bool
	// Read is the number of items read (ScannedCount; 1 or 0 for a get),
	// Returned the number returned after the filter (Count).
	Read, Returned int
	// ReadUnits and WriteUnits are the capacity the request consumed on
	// this table or index (what ConsumedCapacity reports, whether or not
	// the request asked for it).
	ReadUnits, WriteUnits float64
	// VectorSearchBytes and VectorWriteBytes are what the request
	// consumed in the units AWS bills vector indexes in
	// (VectorSearchRequestBytes of a SearchVectors, VectorWriteRequestBytes
	// of a write, every vector index's summed), whether or not it asked
	// for them.
	VectorSearchBytes, VectorWriteBytes float64
	// Throttled: the request was refused for capacity (it consumed
	// nothing).
	Throttled bool
}

// keyText renders a key value: S and N as they are, B in base64, "" for
// none.
func keyText(v storage.Value) string {
	switch v.Kind() {
	case storage.KindS, storage.KindN:
		return v.Str()
	case storage.KindB:
		return base64.StdEncoding.EncodeToString(v.Bytes())
	}
	return ""
}

// KeyText renders a key condition as a report does: "pk=ORDER#1 sk
// begins_with 2024-".
func KeyText(k KeyCondition) string { return conditionText(k) }

// conditionText renders a key condition for a report: "pk=ORDER#1
// sk begins_with 2024-".
func conditionText(k KeyCondition) string {
	if !k.Partition.IsValid() {
		return ""
	}
	s := "pk=" + keyText(k.Partition)
	switch k.SortOp {
	case SortNone:
	case SortBetween:
		s += " sk between " + keyText(k.Sort) + " and " + keyText(k.Sort2)
	case SortBeginsWith:
		s += " sk begins_with " + keyText(k.Sort)
	default:
		s += " sk" + k.SortOp.String() + keyText(k.Sort)
	}
	return s
}
