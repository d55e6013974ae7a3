package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Eventually consistent reads under a lag (faults/lag, faults/WIRING.md
// §5). A table's eventually consistent reads (GetItem, BatchGetItem,
// Query, Scan and PartiQL SELECTs with ConsistentRead false, LSIs
// included) read storage's eventual view of the table, which trails its
// writes when the table has a read lag (TableReadLag) and is the table
// itself otherwise. Strongly consistent reads, transactions and every
// write read the table. A GSI is read from the table: it lags by its
// own gate (IndexLag), inside storage, whatever the read.

// readData returns the storage table a read of t reads.
func (t *table) readData(consistent bool) *storage.Table {
	if consistent {
		return t.data
	}
	return t.data.Eventual()
}

// indexData returns the storage table a read of index x of t reads: an
// LSI's entries are read as the table's items, a GSI's from the table.
func (t *table) indexData(x *tablespec.IndexDef, consistent bool) *storage.Table {
	if !x.Local {
		return t.data
	}
	return t.readData(consistent)
}
