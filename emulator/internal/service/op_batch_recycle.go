package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/wire"

// What a BatchWriteItem gives back (measured by BenchmarkPreload). Each
// PutRequest's Item is a decoded map of about 1 KB for ten attributes,
// the largest garbage of a batch. Once the batch is committed nothing
// holds the maps: storage encoded each item into its record (the hook,
// the observer and the indexes see records), the capacity (whose index
// units read the Change's New item, this map) and the collection metrics
// are made in the write loop, before the commit, and the key was copied
// out. So the written items' maps, and the deleted keys', go back to the
// decoder (wire.RecycleItem). Two kinds of write keep theirs:
//   - a write a stage refused: its WriteRequest is in the answer's
//     UnprocessedItems, encoded after the operation returns;
//   - a write to a table a WriteChecker checks: the checker sees the
//     item itself (WriteCheck) and is not promised to drop it.
// A batch that fails gives nothing back.

// recycleBatchWrites gives back the maps of one table's writes reqs once
// they are committed; uses are the table's stage uses (nil: none refused).
func recycleBatchWrites(reqs []WriteRequest, uses []*TableUse) {
	for wi := range reqs {
		if uses != nil && uses[wi] == refusedUse {
			continue
		}
		switch wr := &reqs[wi]; {
		case wr.PutRequest != nil:
			wire.RecycleItem(wr.PutRequest.Item)
			wr.PutRequest.Item = nil
		case wr.DeleteRequest != nil:
			wire.RecycleItem(wr.DeleteRequest.Key)
			wr.DeleteRequest.Key = nil
		}
	}
}
