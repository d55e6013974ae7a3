package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/boundary"

// core registers the core's own operations through the adapter
// (register.go): the control plane's table operations and the data
// plane's item operations (the request pipeline's: pipeline.go); a
// feature registers its own (feature.go: Op, APIOp). Each declares what
// it touches (package boundary), judged before it runs.
func (sm *seams) core() {
	register(sm, "CreateTable", boundary.TableMake, createTable)
	register(sm, "DescribeTable", boundary.TableDescribe, describeTable)
	register(sm, "DeleteTable", boundary.TableWrite, deleteTable)
	register(sm, "UpdateTable", boundary.TableWrite, updateTable)
	register(sm, "PutItem", boundary.ItemsWrite, handlePutItem)
	register(sm, "GetItem", boundary.ItemsRead, getItem)
	register(sm, "DeleteItem", boundary.ItemsWrite, deleteItem)
	register(sm, "UpdateItem", boundary.ItemsWrite, updateItem)
	register(sm, "Query", boundary.ItemsRead, query)
	register(sm, "Scan", boundary.ItemsScan, scan)
	register(sm, "BatchGetItem", boundary.ItemsRead, batchGetItem)
	register(sm, "BatchWriteItem", boundary.ItemsWrite, batchWriteItem)
	register(sm, "TransactWriteItems", boundary.ItemsWrite, transactWriteItems)
	register(sm, "TransactGetItems", boundary.ItemsRead, transactGetItems)
}
