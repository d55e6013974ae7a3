package partiqlops

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
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
func runBatchGet(c service.Call, b batchStatement, s *partiql.Select, opt stmtOptions, caps *capacityTotals) BatchStatementResponse {
	t, _, target, err := selectTarget(c, s.From.Table.Text, indexName(s))
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
	item, found, cc, err := c.ReadItem(service.TxRead{Table: t, Key: key, Projection: g.Projection}, opt.consistent, opt.capacity)
	if err != nil {
		return batchError(err, t.Info().Name)
	}
	resp := BatchStatementResponse{TableName: t.Info().Name}
	if found {
		w := wire.ItemToWire(item)
		if w == nil {
			w = wire.WireItem{}
		}
		resp.Item = &w
	}
	caps.add(cc)
	return resp
}
