package insights

import (
	"encoding/base64"

	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The words of a request's use of a table, which the service core speaks
// too, are package access's; the report and the design checks name them
// here as well.
type (
	Access       = access.Access
	SortOp       = access.SortOp
	KeyCondition = access.KeyCondition
)

// Accesses and sort key conditions.
const (
	AccessNone     = access.None
	Get            = access.Get
	Query          = access.Query
	Scan           = access.Scan
	Put            = access.Put
	Update         = access.Update
	Delete         = access.Delete
	numAccess      = access.Count
	SortNone       = access.SortNone
	SortEQ         = access.SortEQ
	SortLT         = access.SortLT
	SortLE         = access.SortLE
	SortGT         = access.SortGT
	SortGE         = access.SortGE
	SortBetween    = access.SortBetween
	SortBeginsWith = access.SortBeginsWith
)

// accessOf returns the access named s.
func accessOf(s string) (Access, bool) { return access.Parse(s) }

// sortOpOf returns the condition spelt s.
func sortOpOf(s string) (SortOp, bool) { return access.ParseSortOp(s) }

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

// ValueText renders a key value as a report does: S and N as they are,
// B in base64, "" for none.
func ValueText(v storage.Value) string { return keyText(v) }
