// Package access names what a request does to one table or index: the
// kind of access (a get, a query, a scan, a put, an update, a delete)
// and the key it names. The service core describes every request's use
// in these words; the stages and the design checks read them. It holds
// words only, so the core can speak them without importing an
// instrument.
package access

import "github.com/dynamoemu/dynamoemu/internal/storage"

// Access is what a request does to one table or index: the kind of
// access a design's pattern declares.
type Access uint8

// Accesses.
const (
	None Access = iota
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
	// Count is the number of accesses, None included: the length of an
	// array indexed by Access.
	Count
)

var names = [Count]string{"", "get", "query", "scan", "put", "update", "delete"}

// String is the access's name in a design file ("get", "query", ...).
func (a Access) String() string {
	if a < Count {
		return names[a]
	}
	return "?"
}

// Parse returns the access named s.
func Parse(s string) (Access, bool) {
	for a := Get; a < Count; a++ {
		if names[a] == s {
			return a, true
		}
	}
	return None, false
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

// ParseSortOp returns the condition spelt s.
func ParseSortOp(s string) (SortOp, bool) {
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
