package capacity

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Write capacity on a table with vector indexes. AWS meters the writes a
// vector index receives apart from the table's write units: with
// ReturnConsumedCapacity INDEXES a write's ConsumedCapacity carries a
// VectorIndexes map, keyed by index name, of VectorWriteRequestBytes
// ("Monitoring vector index capacity",
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchMonitoring.html:
// PutItem, UpdateItem, DeleteItem, BatchWriteItem and TransactWriteItems;
// "Reported for write operations that modify attributes indexed by a
// vector index", API_VectorCapacity). The figures follow AWS's answers as
// recorded by paritysuite/dynamodb-conformance
// (tests/tier2/vectorSearch/consumedCapacity.test.ts, its captures of
// 2026-08-18 and 2026-10-09 in eu-west-2 and us-east-1): an entry written
// to an index costs its vector at four bytes a dimension, the vector
// attribute's name, and the projected non-vector attributes at their item
// size, at least 1024 bytes an entry and 1024 an index
// (tablespec.VectorWriteBytes); a write that leaves an index's entry as
// it was costs that index nothing and leaves it out of the map. The
// vector attribute itself counts four bytes a dimension toward the
// item's billed size, whatever numbers it holds
// (tablespec.VectorBilledSize).

// billedSize is the size a write of size bytes (the larger of the old
// and new item) that made ch is billed at on a table with the vector
// indexes xs: size, with each image's vectors at four bytes a dimension.
func billedSize(xs []*tablespec.VectorIndexDef, size int, ch storage.Change) int {
	if len(xs) == 0 || size != max(ch.OldSize, ch.NewSize) {
		return size
	}
	old := ch.OldSize
	if ch.Old != nil {
		old = tablespec.VectorBilledSize(xs, ch.Old, ch.OldSize)
	}
	nu := ch.NewSize
	if ch.New != nil && ch.NewSize > 0 {
		nu = tablespec.VectorBilledSize(xs, ch.New, ch.NewSize)
	}
	return max(old, nu)
}
