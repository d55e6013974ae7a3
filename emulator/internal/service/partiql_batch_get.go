package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
)

// runBatchGet runs a SELECT of BatchExecuteStatement: one item by its full
// primary key, read as GetItem reads it (its capacity too), the SELECT
// list applied as a ProjectionExpression (m.l[1] answers {m: {l: [..]}},
// as DynamoDB Local answers, and as in ExecuteTransaction). An item that
// exists is answered as Item, {} when the SELECT list selects none of its
// attributes (as GetItem, ExecuteStatement and ExecuteTransaction answer
// it); a missing item has no Item.
func runBatchGet(c *call, b batchStatement, s *partiql.Select, opt stmtOptions, caps *capacityTotals) BatchStatementResponse {
	t, _, target, err := c.selectTarget(s)
	if err != nil {
		return batchError(err, "")
	}
	g, err := lower.LowerBatchGet(binding(b.text, b.params), s, target)
	if err != nil {
		return batchError(lowered(err), "")
	}
	key, err := statementKey(t, g.Key)
	if err != nil {
		return batchError(err, "") // DynamoDB Local names no table here
	}
	if err := c.beginItem(t, key, insights.Get); err != nil {
		return batchError(err, t.name)
	}
	resp := BatchStatementResponse{TableName: t.name}
	stored, found := t.readData(opt.consistent).GetEncoded(key)
	size := 0
	if found {
		size = stored.Size()
		var w wire.WireItem
		if g.Projection == nil {
			w = wire.ItemToWire(stored.Item())
		} else {
			w = wire.ItemToWire(projectStored(g.Projection, stored))
		}
		if w == nil {
			w = wire.WireItem{}
		}
		resp.Item = &w
	}
	c.readItem(size, opt.consistent, found)
	caps.add(readCapacity(t, opt.capacity, size, opt.consistent))
	return resp
}
