package service

// core registers the core's own operations through the adapter
// (register.go): the control plane's table operations and the data
// plane's item operations (the request pipeline's: pipeline.go); a
// feature registers its own (feature.go: Op, APIOp).
func (sm *seams) core() {
	register(sm, "CreateTable", false, createTable)
	register(sm, "DescribeTable", false, describeTable)
	register(sm, "DeleteTable", false, deleteTable)
	register(sm, "UpdateTable", false, updateTable)
	register(sm, "PutItem", true, handlePutItem)
	register(sm, "GetItem", true, getItem)
	register(sm, "DeleteItem", true, deleteItem)
	register(sm, "UpdateItem", true, updateItem)
	register(sm, "Query", true, query)
	register(sm, "Scan", true, scan)
	register(sm, "BatchGetItem", true, batchGetItem)
	register(sm, "BatchWriteItem", true, batchWriteItem)
	register(sm, "TransactWriteItems", true, transactWriteItems)
	register(sm, "TransactGetItems", true, transactGetItems)
}
