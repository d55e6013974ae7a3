package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// Inputs whose decoded maps go back to the request decoder once the
// operation is done (wire/wire_recycle.go). register's adapter calls
// recycle after the answer is encoded, whatever the outcome. An input
// type implements recycler only when no map of it outlives the request:
// the operation copies the values it keeps (storage.Key, compiled
// expressions' values and names, records) and no error, output, hook,
// report or goroutine holds the maps themselves. An output type (a Query
// or Scan page, page_pool.go) implements it too: the adapter calls its
// recycle once the output is encoded.
type recycler interface{ recycle() }

// recycle gives back the Key, ExpressionAttributeNames and
// ExpressionAttributeValues maps: updateItem builds its storage.Key from
// Key, the compiled update and condition copy the values and names they
// use (expr.Cache keeps copies of the names), and the answer is made from
// stored items.
func (in *UpdateItemInput) recycle() {
	wire.RecycleItem(in.Key)
	wire.RecycleNames(in.ExpressionAttributeNames)
	wire.RecycleValues(wire.ExpressionValues(in.ExpressionAttributeValues))
	in.Key, in.ExpressionAttributeNames, in.ExpressionAttributeValues = nil, nil, nil
}

// recycle gives back the Key and ExpressionAttributeNames maps: getItem
// builds its storage.Key from Key, the compiled projection copies the
// names it uses, and the answer is the stored record.
func (in *GetItemInput) recycle() {
	wire.RecycleItem(in.Key)
	wire.RecycleNames(in.ExpressionAttributeNames)
	in.Key, in.ExpressionAttributeNames = nil, nil
}

// recycle gives back the ExpressionAttributeNames,
// ExpressionAttributeValues and ExclusiveStartKey maps: the key condition,
// filter and projection copy the values and names they use, the start key
// becomes a storage.Key (or, for an index, is only read during the walk),
// and the page, its LastEvaluatedKey included, is made from stored items.
func (in *QueryInput) recycle() {
	wire.RecycleNames(in.ExpressionAttributeNames)
	wire.RecycleValues(in.ExpressionAttributeValues)
	wire.RecycleItem(in.ExclusiveStartKey)
	in.ExpressionAttributeNames, in.ExpressionAttributeValues, in.ExclusiveStartKey = nil, nil, nil
}

// pooledInput is an input type whose structs register's adapter takes from
// a pool and gives back, zeroed, once the answer is encoded: no operation,
// output, error, hook or goroutine keeps a pointer to the input or into it
// past the request (the strings and slices it points to are left alone).
//
// The pool pays on the operations whose inputs are pooled. BenchmarkOps
// handler, 2000x -count 5, medians, pool on -> off: GetItem 233 -> 312
// B/op (+34%), 6 -> 7 allocs; QueryPartition10 295 -> 449 B/op (+52%),
// 7 -> 8; ScanFiltered 714 -> 872 B/op (+22%), 15 -> 16.
type pooledInput interface{ zeroInput() } // zeroes it: register's pool is not generic

// zeroInput: getItem reads its input only while it runs (the table name
// and ReturnConsumedCapacity strings it passes on are not the struct).
func (in *GetItemInput) zeroInput() { *in = GetItemInput{} }

// getItemOutputs are getItem's answers, given back once encoded: zeroed,
// so the pool keeps no record alive.
//
// The pool pays on GetItem. BenchmarkOps/GetItem/handler, 2000x -count
// 5, medians, pool on -> off: 233 -> 376 B/op (+61%), 6 -> 7 allocs/op.
var getItemOutputs = lease.NewPool(lease.Config[*GetItemOutput]{
	New:   func() *GetItemOutput { return new(GetItemOutput) },
	Reset: func(o *GetItemOutput) bool { *o = GetItemOutput{}; return true },
})

// recycle gives back an encoded GetItem answer (register's adapter is
// the only reader of one).
func (o *GetItemOutput) recycle() { getItemOutputs.Put(o) }

// zeroInput: query reads its input only while it runs; queryMulti,
// queryRequest and the start key checks too.
func (in *QueryInput) zeroInput() { *in = QueryInput{} }

// recycle gives back the ExpressionAttributeNames, ExpressionAttributeValues
// and ExclusiveStartKey maps, as Query's: the filter and projection copy
// the values and names they use, the start key becomes a storage.Key (or,
// for an index, is only read during the walk), and the page, its
// LastEvaluatedKey included, is made from stored items.
func (in *ScanInput) recycle() {
	wire.RecycleNames(in.ExpressionAttributeNames)
	wire.RecycleValues(in.ExpressionAttributeValues)
	wire.RecycleItem(in.ExclusiveStartKey)
	in.ExpressionAttributeNames, in.ExpressionAttributeValues, in.ExclusiveStartKey = nil, nil, nil
}

// zeroInput: scan reads its input only while it runs; scanIndex and the
// start key and segment checks too.
func (in *ScanInput) zeroInput() { *in = ScanInput{} }

// recycle gives back the ExpressionAttributeNames and
// ExpressionAttributeValues maps: the compiled condition copies the values
// and names it uses, a WriteChecker stage only reads the
// names, and the answer is made from stored items. It gives back Item too
// when putItem wrote it to a table no WriteChecker checks
// (itemWritten): storage holds the record, the answer's ALL_OLD item is
// decoded from the replaced record, and the capacity, the stages' End
// and the collection metrics, which read the Change's New item (this map),
// are done: the adapter calls recycle once the answer is encoded. A
// refused or failed put, or one a WriteChecker saw (it is not
// promised to drop the item), keeps its map.
// zeroInput: putItem reads its input only while it runs: the pipeline
// keeps the table, key and change, a WriteChecker stage the names map
// and the ConditionExpression pointer, not the struct.
func (in *PutItemInput) zeroInput() { *in = PutItemInput{} }

func (in *PutItemInput) recycle() {
	wire.RecycleNames(in.ExpressionAttributeNames)
	wire.RecycleValues(in.ExpressionAttributeValues)
	in.ExpressionAttributeNames, in.ExpressionAttributeValues = nil, nil
	if in.itemWritten {
		wire.RecycleItem(in.Item)
		in.Item, in.itemWritten = nil, false
	}
}

// recycle gives back the Key, ExpressionAttributeNames and
// ExpressionAttributeValues maps: deleteItem builds its storage.Key from
// Key (the WriteCheckers, the capacity and the collection metrics see
// that), the compiled condition copies what it uses, and ALL_OLD is the
// stored item.
func (in *DeleteItemInput) recycle() {
	wire.RecycleItem(in.Key)
	wire.RecycleNames(in.ExpressionAttributeNames)
	wire.RecycleValues(in.ExpressionAttributeValues)
	in.Key, in.ExpressionAttributeNames, in.ExpressionAttributeValues = nil, nil, nil
}

// recycle gives back each Get's Key and ExpressionAttributeNames maps:
// transactGetItems builds a storage.Key from every Key, the compiled
// projections copy the names they use, and the answers are stored items.
func (in *TransactGetItemsInput) recycle() {
	for _, ti := range in.TransactItems {
		if g := ti.Get; g != nil {
			wire.RecycleItem(g.Key)
			wire.RecycleNames(g.ExpressionAttributeNames)
			g.Key, g.ExpressionAttributeNames = nil, nil
		}
	}
}
