package service

import (
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/exprparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TransactGetItems: up to 100 Gets across tables, validated first as
// GetItem validates (table, projection, key; the same item twice is
// refused), then read from one consistent snapshot: a storage.ReadTx holds
// the read locks of all the tables at once, so no transaction or write is
// seen in part. Each Get has an entry in Responses, in request order; a
// missing item leaves its entry empty.

// TransactGetItemsInput is the TransactGetItems request.
type TransactGetItemsInput struct {
	TransactItems          []TransactGetItem `json:"TransactItems"`
	ReturnConsumedCapacity *string           `json:"ReturnConsumedCapacity"`
	past                   oversize.Past     // the actions past the limit, which the decoder does not keep (limits.go)
}

// TransactGetItem is one entry: a Get.
type TransactGetItem struct {
	Get *TransactGet `json:"Get"`
}

// TransactGet reads one item.
type TransactGet struct {
	TableName                *string              `json:"TableName"`
	Key                      wire.WireItem        `json:"Key"`
	ProjectionExpression     *string              `json:"ProjectionExpression"`
	ExpressionAttributeNames wire.ExpressionNames `json:"ExpressionAttributeNames"`
}

// TransactGetItemsOutput is the TransactGetItems response.
type TransactGetItemsOutput struct {
	Responses        []ItemResponse      `json:"Responses"`
	ConsumedCapacity []*ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
}

// ItemResponse is one Get's answer: no Item when there is no such item.
type ItemResponse struct {
	Item *wire.WireItem `json:"Item,omitempty"`
	// stored, when hasStored, is the whole item as storage keeps it,
	// written straight from the record (Item is nil).
	stored    storage.EncodedItem
	hasStored bool
}

func transactGetItems(c *call, in *TransactGetItemsInput) (*TransactGetItemsOutput, error) {
	gets, err := c.prepareTransactGet(in)
	if err != nil {
		return nil, err
	}
	return runTransactGet(c, gets, optString(in.ReturnConsumedCapacity))
}

// runTransactGet reads validated Gets from one consistent snapshot, in
// the transaction's use of their items (useTxGets).
func runTransactGet(c *call, gets []*txGet, mode string) (out *TransactGetItemsOutput, err error) {
	err = c.useTxGets(gets, func(u *txGetUse) error { //gcassert:noescape
		out = readTxGets(u, gets, mode)
		return nil
	})
	return out, err
}

// readTxGets reads gets in the use u, and reports each read to it.
func readTxGets(u *txGetUse, gets []*txGet, mode string) *TransactGetItemsOutput {
	tables := make([]*storage.Table, len(gets))
	for i, g := range gets {
		tables[i] = g.t.data
	}
	out := &TransactGetItemsOutput{Responses: make([]ItemResponse, len(gets))}
	sizes := make([]int, len(gets))
	rtx := storage.BeginRead(tables...)
	for i, g := range gets {
		e, ok := rtx.GetEncoded(g.t.data, g.key)
		if !ok {
			continue
		}
		sizes[i] = e.Size()
		if g.proj == nil {
			out.Responses[i].stored, out.Responses[i].hasStored = e, true
			continue
		}
		w := wire.ItemToWire(projectStored(g.proj, e))
		if w == nil {
			w = wire.WireItem{}
		}
		out.Responses[i].Item = &w
	}
	rtx.Close()
	u.readAll(sizes)
	out.ConsumedCapacity = transactGetCapacity(mode, gets, sizes)
	return out
}

// transactGetCapacity is the capacity per table, in the order tables first
// appear: a transactional read of each item read, a missing item's too.
func transactGetCapacity(mode string, gets []*txGet, sizes []int) []*ConsumedCapacity {
	var list []txUnits
	for i, g := range gets {
		list = addUnits(list, g.t, capacity.Usage{Table: capacity.TxReadUnits(sizes[i])})
	}
	return txCapacity(list, mode, false)
}

// prepareTransactGet validates the request in AWS's order (txGetOrder in
// validation_order.go): model constraints (the count among them), each
// Get's request-level checks as GetItem's, the tables, then each key (one
// that does not fit its table's schema cancels the transaction with a
// ValidationError reason for that Get and None for the others) and the
// same item twice.
func (c *call) prepareTransactGet(in *TransactGetItemsInput) ([]*txGet, error) {
	if err := transactGetConstraints(in); err != nil {
		return nil, err
	}
	gets := make([]*txGet, len(in.TransactItems))
	for i, ti := range in.TransactItems {
		g, err := prepareTxGetRequest(ti.Get)
		if err != nil {
			return nil, err
		}
		if err := c.valuesLayerAt(i); err != nil {
			return nil, err
		}
		gets[i] = g
	}
	for i, g := range gets {
		var err error
		if g.t, err = c.lookupTable(*in.TransactItems[i].Get.TableName); err != nil {
			return nil, err
		}
	}
	var refused map[int]apierr.CancellationReason
	var seen itemSet
	for i, g := range gets {
		var err error
		g.key, err = g.t.keyFromKeyParam(in.TransactItems[i].Get.Key.Item())
		if r, ok := apierr.KeyShapeReason(err); ok {
			if refused == nil {
				refused = make(map[int]apierr.CancellationReason)
			}
			refused[i] = r
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := c.guardRead(g.t, g.key, g.key); err != nil {
			return nil, err
		}
		if !seen.add(g.t, g.key) {
			return nil, apierr.Validation(apierr.MsgTxSameItem)
		}
	}
	return gets, apierr.CancelForReasons(len(gets), refused)
}

// prepareTxGetRequest makes one Get's checks that need no table, with
// GetItem's messages: table name, projection.
func prepareTxGetRequest(in *TransactGet) (*txGet, error) {
	name := *in.TableName
	if !strings.HasPrefix(name, "arn:") && !tablespec.ValidTableName(name) {
		return nil, apierr.Validation(apierr.MsgTxInvalidTableName)
	}
	p := exprparams.Params{Names: in.ExpressionAttributeNames}
	if in.ProjectionExpression != nil {
		p.Expressions = append(p.Expressions, paramProjectionExpr)
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	comp, err := exprparams.NewCompiler(in.ExpressionAttributeNames, nil)
	if err != nil {
		return nil, err
	}
	defer comp.Release() // the projection keeps nothing of it
	g := &txGet{}
	if g.proj, err = readparams.Projection(comp, in.ProjectionExpression, nil); err != nil {
		return nil, err
	}
	if err := comp.Unused(); err != nil {
		return nil, err
	}
	return g, nil
}

// transactGetConstraints collects the request's model constraint violations.
// txGetViolations adds the constraint violations of entry i.
func txGetViolations(cs *apierr.Constraints, i int, ti *TransactGetItem) {
	if g := ti.Get; g != nil && g.TableName != nil && g.Key != nil {
		return // nothing to report: no path built (72,316 gets: 0.8 times their bytes)
	}
	path := "transactItems." + strconv.Itoa(i+1) + ".member.get"
	if !apierr.NotNull(cs, ti.Get, path) {
		return
	}
	apierr.NotNull(cs, ti.Get.TableName, path+".tableName")
	if ti.Get.Key == nil {
		cs.Add("null", path+".key", apierr.MemberNotNull)
	}
}

func transactGetConstraints(in *TransactGetItemsInput) error {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, itemsOrNil(in.TransactItems), "transactItems") && len(in.TransactItems) == 0 {
		cs.Add("'[]'", "transactItems", apierr.LenGE(1))
	}
	cs.AddLong(apierr.TransactItemsLimitPieces(len(in.TransactItems)+in.past.N, maxTransactItems, "TransactGetItem"))
	for i := range in.TransactItems {
		txGetViolations(&cs, i, &in.TransactItems[i])
	}
	for _, v := range in.past.Violations {
		cs.AddViolation(v)
	}
	apierr.Enum(&cs, in.ReturnConsumedCapacity, "returnConsumedCapacity", capacityIndexes, capacityTotal, capacityNone)
	return cs.Err()
}
