package service

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/exprparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// BatchGetItem and BatchWriteItem: every request is validated (limits,
// tables, keys, duplicates) before anything is read or written, so a bad
// request never writes part of a batch; the writes of a batch then go
// through one storage transaction. Tables are visited in name order so
// errors and responses are deterministic.

const (
	maxBatchGetKeys   = 100
	maxBatchWrites    = 25
	maxBatchGetBytes  = 16 << 20 // response size after which keys are left unprocessed
	returnMetricsSize = "SIZE"
	returnMetricsNone = "NONE"
)

// KeysAndAttributes is one table's part of a BatchGetItem request (and of
// its UnprocessedKeys).
type KeysAndAttributes struct {
	Keys                     []wire.WireItem      `json:"Keys"`
	AttributesToGet          []string             `json:"AttributesToGet,omitempty"`
	ConsistentRead           *bool                `json:"ConsistentRead,omitempty"`
	ProjectionExpression     *string              `json:"ProjectionExpression,omitempty"`
	ExpressionAttributeNames wire.ExpressionNames `json:"ExpressionAttributeNames,omitempty"`

	rest oversize.Table // what the decoder did not keep of its lists (limits.go)
}

// MarshalJSON writes r as the answer echoes it (batchGetNamesConstraint):
// its Keys with those the decoder echoed rather than kept (limits.go).
func (r *KeysAndAttributes) MarshalJSON() ([]byte, error) {
	type plain KeysAndAttributes
	b, err := json.Marshal((*plain)(r))
	if err != nil || len(r.rest.Echo) == 0 {
		return b, err
	}
	keys, _ := json.Marshal(r.Keys)
	return slices.Insert(b, len(`{"Keys":`)+len(keys)-1, r.rest.Echo...), nil // before the Keys' ']'
}

// BatchGetItemInput is the BatchGetItem request.
type BatchGetItemInput struct {
	RequestItems           map[string]*KeysAndAttributes `json:"RequestItems"`
	ReturnConsumedCapacity string                        `json:"ReturnConsumedCapacity"`

	rest oversize.Tables // what the decoder did not keep of its tables' lists (limits.go)
}

// BatchGetItemOutput is the BatchGetItem response. It encodes itself
// (op_batch_get_encode.go): Responses, one entry per table in name order,
// are the items as stored (projected when the table's request projects),
// written straight from their records.
type BatchGetItemOutput struct {
	Responses        []batchGetResponse            `json:"Responses"`
	UnprocessedKeys  map[string]*KeysAndAttributes `json:"UnprocessedKeys"`
	ConsumedCapacity []*ConsumedCapacity           `json:"ConsumedCapacity"`
}

// WriteRequest is one entry of a BatchWriteItem request: exactly one of
// PutRequest and DeleteRequest.
type WriteRequest struct {
	PutRequest    *PutRequest    `json:"PutRequest,omitempty"`
	DeleteRequest *DeleteRequest `json:"DeleteRequest,omitempty"`
}

// PutRequest puts one item.
type PutRequest struct {
	Item wire.WireItem `json:"Item"`
}

// DeleteRequest deletes the item with Key.
type DeleteRequest struct {
	Key wire.WireItem `json:"Key"`
}

// BatchWriteItemInput is the BatchWriteItem request.
type BatchWriteItemInput struct {
	RequestItems                map[string][]WriteRequest `json:"RequestItems"`
	ReturnConsumedCapacity      string                    `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics string                    `json:"ReturnItemCollectionMetrics"`
	past                        oversize.Echoes           // the write requests past 25 a table (limits.go)
}

// BatchWriteItemOutput is the BatchWriteItem response.
type BatchWriteItemOutput struct {
	UnprocessedItems      map[string][]WriteRequest           `json:"UnprocessedItems"`
	ItemCollectionMetrics map[string][]*ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
	ConsumedCapacity      []*ConsumedCapacity                 `json:"ConsumedCapacity,omitempty"`
}

// batchGetTable is one table's validated part of a BatchGetItem.
type batchGetTable struct {
	name       string
	t          *table
	req        *KeysAndAttributes
	keys       []storage.Key
	projection *expr.Projection
	consistent bool
}

func batchGetItem(c *call, in *BatchGetItemInput) (*BatchGetItemOutput, error) {
	// AWS's order: the RequestItems map (its names, then each table's
	// Keys), then ReturnConsumedCapacity (validation_order.go).
	violations := append([]string{
		requestItemsConstraint(in.RequestItems == nil, len(in.RequestItems)),
		batchGetEmptyConstraint(in.RequestItems),
		batchGetNamesConstraint(in.RequestItems),
	}, batchGetKeysConstraints(in.RequestItems)...)
	violations = append(violations, readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity))
	if err := apierr.ConstraintErrors(violations...); err != nil {
		return nil, err
	}
	if len(in.RequestItems) == 0 {
		return nil, apierr.NoRequestItems("BatchGetItem")
	}
	if err := batchGetMixedParams(in.RequestItems); err != nil {
		return nil, err
	}
	total := 0
	for _, req := range in.RequestItems {
		total += len(req.Keys) + req.rest.Past
	}
	if total > maxBatchGetKeys {
		return nil, apierr.Validation(apierr.MsgBatchGetTooMany)
	}

	names := sortedKeys(in.RequestItems)
	tables := make([]*batchGetTable, 0, len(names))
	for _, name := range names {
		bt, err := c.prepareBatchGet(name, in.RequestItems[name])
		if err != nil {
			return nil, err
		}
		tables = append(tables, bt)
	}

	r := batchGetRun{out: &BatchGetItemOutput{
		Responses:       make([]batchGetResponse, 0, len(tables)),
		UnprocessedKeys: map[string]*KeysAndAttributes{},
	}}
	for _, bt := range tables {
		if err := c.readBatchTable(&r, bt, in.ReturnConsumedCapacity); err != nil {
			return nil, err
		}
	}
	if r.refused != nil && !r.processed {
		return nil, r.refused // no key was admitted: the call fails
	}
	return r.out, nil
}

// batchGetRun is a BatchGetItem's reads so far.
type batchGetRun struct {
	out       *BatchGetItemOutput
	size      int   // bytes of the items answered
	refused   error // the first key refused for throughput (unprocessable)
	processed bool  // a key was admitted
}

// readBatchTable reads one table's keys of a BatchGetItem into r: each
// key in a use of its own (useBatchItem), a key
// refused for throughput or past the answer's size left unprocessed. It
// returns the error that fails the call.
func (c *call) readBatchTable(r *batchGetRun, bt *batchGetTable, rcc string) error {
	var items []storage.EncodedItem
	var proj batchProjector // op_batch_get_encode.go
	if bt.projection != nil {
		proj.pj = bt.projection.Projector()
	}
	units, metered := 0.0, asked(rcc)
	for i, k := range bt.keys {
		err := c.useBatchItem(bt.t, k, access.Get, func(u *batchItemUse) error { //gcassert:noescape
			r.processed = true
			e, ok := u.use.view(bt.t, nil, bt.consistent).GetEncoded(k)
			n := 0
			if ok {
				if n = e.Size(); r.size+n > maxBatchGetBytes {
					return errLeftUnprocessed
				}
				r.size += n
				if proj.pj != nil {
					proj.add(e)
				} else {
					items = append(items, e)
				}
			}
			if metered || u.use != nil {
				ru := capacity.ReadUnits(n, bt.consistent)
				units += ru
				u.answered(ru, min(1, n))
			}
			return nil
		})
		switch {
		case apierr.Unprocessable(err):
			r.refused = cmp.Or(r.refused, err)
			bt.unprocessed(r.out, bt.req.Keys[i])
		case err == errLeftUnprocessed:
			bt.unprocessed(r.out, bt.req.Keys[i])
		case err != nil:
			return err
		}
	}
	if proj.pj != nil {
		items = proj.items()
	}
	r.out.Responses = append(r.out.Responses, batchGetResponse{name: bt.name, items: items})
	if cc := consumed(bt.t, rcc, units); cc != nil {
		r.out.ConsumedCapacity = append(r.out.ConsumedCapacity, cc)
	}
	return nil
}

// prepareBatchGet validates one table's part of a BatchGetItem: its
// parameters, projection, keys and duplicates.
func (c *call) prepareBatchGet(name string, req *KeysAndAttributes) (*batchGetTable, error) {
	p := exprparams.Params{
		Names: req.ExpressionAttributeNames,
	}
	p.Expressions = exprparams.AppendIf(p.Expressions, req.ProjectionExpression != nil, "ProjectionExpression")
	p.Legacy = exprparams.AppendIf(p.Legacy, req.AttributesToGet != nil, "AttributesToGet")
	if err := p.Check(); err != nil {
		return nil, err
	}
	comp, err := exprparams.NewCompiler(req.ExpressionAttributeNames, nil)
	if err != nil {
		return nil, err
	}
	defer comp.Release() // the projection keeps nothing of it
	bt := &batchGetTable{
		name:       name,
		req:        req,
		consistent: req.ConsistentRead != nil && *req.ConsistentRead,
	}
	// AttributesToGet is sorted in place: Projection.LegacyNames keeps the
	// request's order for UnprocessedKeys.
	if bt.projection, err = readparams.Projection(comp, req.ProjectionExpression, req.AttributesToGet); err != nil {
		return nil, err
	}
	if err := comp.Unused(); err != nil { // before the table, as AWS's expressions are
		return nil, err
	}
	t, err := c.lookupTable(name)
	if err != nil {
		return nil, err
	}
	bt.t = t
	bt.keys = make([]storage.Key, 0, len(req.Keys))
	for _, wk := range req.Keys {
		k, err := t.keyFromKeyParam(wk.Item())
		if err != nil {
			return nil, err
		}
		if err := c.guardRead(t, k, k); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(bt.keys, func(o storage.Key) bool { return o.Same(&k) }) {
			return nil, apierr.Validation(apierr.MsgBatchDuplicates)
		}
		bt.keys = append(bt.keys, k)
	}
	return bt, nil
}

// batchGetMixedParams applies AWS's rule against mixing expression and
// legacy parameters to the BatchGetItem request as a whole: a
// ProjectionExpression in one table's entry and AttributesToGet in another's
// is the same error as both in one entry, reported before any table is
// looked at.
func batchGetMixedParams(items map[string]*KeysAndAttributes) error {
	var p exprparams.Params
	for _, req := range items {
		if req == nil {
			continue
		}
		if req.ProjectionExpression != nil && len(p.Expressions) == 0 {
			p.Expressions = append(p.Expressions, "ProjectionExpression")
		}
		if req.AttributesToGet != nil && len(p.Legacy) == 0 {
			p.Legacy = append(p.Legacy, "AttributesToGet")
		}
	}
	if len(p.Expressions) > 0 && len(p.Legacy) > 0 {
		return p.Check()
	}
	return nil
}

// unprocessed adds key to the table's UnprocessedKeys entry, which carries
// the table's projection parameters as the request gave them.
func (bt *batchGetTable) unprocessed(out *BatchGetItemOutput, key wire.WireItem) {
	u := out.UnprocessedKeys[bt.name]
	if u == nil {
		u = &KeysAndAttributes{
			AttributesToGet:          bt.projection.LegacyNames(), // the request's order, not its sorted list
			ConsistentRead:           bt.req.ConsistentRead,
			ProjectionExpression:     bt.req.ProjectionExpression,
			ExpressionAttributeNames: bt.req.ExpressionAttributeNames,
		}
		out.UnprocessedKeys[bt.name] = u
	}
	u.Keys = append(u.Keys, key)
}

// batchWrite is one validated write of a BatchWriteItem.
type batchWrite struct {
	key  storage.Key
	item storage.Item // nil: delete
}

// batchWriteTable is one table's validated writes.
type batchWriteTable struct {
	t      *table
	writes []batchWrite
}

func batchWriteItem(c *call, in *BatchWriteItemInput) (*BatchWriteItemOutput, error) {
	names, total, err := c.checkBatchWrite(in)
	if err != nil {
		return nil, err
	}
	tables := make([]batchWriteTable, 0, len(names))
	for _, name := range names {
		bt, err := c.prepareBatchWrite(name, in.RequestItems[name])
		if err != nil {
			return nil, err
		}
		tables = append(tables, bt)
	}

	// The stages' Begin, per item, before any lock: a
	// refused item goes back in UnprocessedItems.
	out := &BatchWriteItemOutput{UnprocessedItems: map[string][]WriteRequest{}}
	err = c.useBatchWrites(tables, in.RequestItems, names, out, func(uses batchUses) error { //gcassert:noescape
		return c.writeBatch(names, tables, uses, total, in, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkBatchWrite runs a BatchWriteItem's checks that come before its
// tables: the member constraints, the number of writes, each request's
// shape and item size. It returns the table names in order and the
// number of writes.
func (c *call) checkBatchWrite(in *BatchWriteItemInput) ([]string, int, error) {
	var cs apierr.Constraints
	cs.AddViolation(readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity))
	cs.AddViolation(returnItemCollectionMetricsConstraint(in.ReturnItemCollectionMetrics))
	cs.AddViolation(requestItemsConstraint(in.RequestItems == nil, len(in.RequestItems)))
	cs.AddLong(batchWriteTableConstraint(in))
	if err := cs.Err(); err != nil {
		return nil, 0, err
	}
	// A malformed table name comes after the other member constraints
	// and alone (AWS's record: an unknown ReturnConsumedCapacity is
	// reported alone over it).
	if err := apierr.ConstraintErrors(batchWriteNamesConstraint(in)); err != nil {
		return nil, 0, err
	}
	if len(in.RequestItems) == 0 {
		return nil, 0, apierr.NoRequestItems("BatchWriteItem")
	}
	names := sortedKeys(in.RequestItems)
	total := 0
	for _, name := range names {
		total += len(in.RequestItems[name]) // none empty: batchWriteTableConstraint
	}
	if total > maxBatchWrites {
		return nil, 0, apierr.Validation(apierr.MsgBatchWriteTooMany)
	}
	// Request shape and item sizes first, as AWS checks them before tables.
	sized := !c.itemsFitBody()
	for _, name := range names {
		for _, wr := range in.RequestItems[name] {
			if (wr.PutRequest == nil) == (wr.DeleteRequest == nil) {
				return nil, 0, apierr.Validation(apierr.MsgWriteRequestNotOne)
			}
			if sized && wr.PutRequest != nil && storage.ItemSize(wr.PutRequest.Item.Item()) > maxItemBytes {
				return nil, 0, apierr.Validation(apierr.MsgBatchItemTooLarge)
			}
		}
	}
	return names, total, nil
}

// writeBatch writes a validated BatchWriteItem's tables (names, in
// order; the writes uses admitted) through one storage transaction: the
// one write path, and a refused write leaves none of the batch. Once
// committed, the request's maps are given back (op_batch_recycle.go).
func (c *call) writeBatch(names []string, tables []batchWriteTable, uses batchUses, total int, in *BatchWriteItemInput, out *BatchWriteItemOutput) error {
	data := make([]*storage.Table, 0, len(tables))
	for _, bt := range tables {
		data = writeLocks(data, bt.t) // and the tables the stages' write checks read
	}
	tx := storage.Begin(data...)
	defer tx.Abort()
	tx.Grow(total)
	keep := make([]bool, len(tables)) // the table's maps stay (op_batch_recycle.go)
	cb := writeBatch{c: c}            // the stages' checks of every write (stage_check.go)
	for ti, bt := range tables {
		var err error
		if keep[ti], err = c.writeBatchTable(tx, &cb, bt, uses, ti, uses.capMode(in.ReturnConsumedCapacity), in, out); err != nil {
			return err
		}
	}
	if err := cb.settle(); err != nil {
		return err
	}
	if _, err := tx.Commit(); err != nil {
		return err
	}
	for ti, name := range names {
		if !keep[ti] {
			recycleBatchWrites(in.RequestItems[name], uses.ofTable(ti))
		}
	}
	return nil
}

// writeBatchTable writes one table's admitted writes inside tx: each
// write's units to its use (uses' of table ti: nil, none watched;
// refusedUse, left unprocessed), the table's consumed capacity (in mode, the request's or
// the one the uses need) and item-collection metrics to out. keep says
// that the writes' maps must stay: the stages' write checks saw them.
func (c *call) writeBatchTable(tx *storage.WriteTx, cb *writeBatch, bt batchWriteTable, bu batchUses, ti int, mode string, in *BatchWriteItemInput, out *BatchWriteItemOutput) (keep bool, err error) {
	uses := bu.ofTable(ti)
	var cp capacity.Usage
	metered := asked(in.ReturnConsumedCapacity)
	icm := newBatchCollectionMetrics(bt.t, in.ReturnItemCollectionMetrics)
	decodeOld := needOld(bt.t, mode)
	var defs []*tablespec.IndexDef
	if decodeOld {
		gsis, lsis := bt.t.indexes()
		defs = slices.Concat(gsis, lsis)
	}
	checked := writeCheck(bt.t) != NoWriteCheck
	for wi, w := range bt.writes {
		var u *TableUse
		if uses != nil {
			if u = uses[wi]; u == refusedUse {
				continue
			}
		}
		var ch storage.Change
		if checked {
			ch, err = c.batchWriteChecked(cb, tx, bt.t, wi, w.key, w.item)
		} else if decodeOld {
			ch, err = tx.Write(bt.t.data, w.key, func(storage.Item) (storage.Item, error) { return w.item, nil })
		} else {
			ch, err = tx.Put(bt.t.data, w.key, w.item) // nil deletes
		}
		if err != nil {
			return false, err
		}
		var ixUnits map[*tablespec.IndexDef]float64
		if metered {
			w := capacity.Written(capacityOf(bt.t, decodeOld), max(ch.OldSize, ch.NewSize), ch, false)
			ixUnits = w.Indexes
			cp.Add(w)
		} else if decodeOld && u != nil {
			ixUnits = capacity.IndexUnits(bt.t.schema, defs, ch)
		}
		if u != nil {
			bu.written(ti, wi, capacity.WriteUnits(max(ch.OldSize, ch.NewSize)), ixUnits)
		}
		icm.add(w.key, ch)
	}
	out.ItemCollectionMetrics = icm.addTo(out.ItemCollectionMetrics)
	if metered {
		out.ConsumedCapacity = append(out.ConsumedCapacity, capacity.Consumed(bt.t.name, in.ReturnConsumedCapacity, &cp))
	}
	return checked, nil
}

// prepareBatchWrite validates one table's writes: the table, each item's or
// key's key attributes, and no two writes to one key.
func (c *call) prepareBatchWrite(name string, reqs []WriteRequest) (batchWriteTable, error) {
	t, err := c.lookupTable(name)
	if err != nil {
		return batchWriteTable{}, err
	}
	bt := batchWriteTable{t: t, writes: make([]batchWrite, 0, len(reqs))}
	for _, wr := range reqs {
		var w batchWrite
		if wr.PutRequest != nil {
			w.item = wr.PutRequest.Item.Item()
			if w.key, err = t.keyFromItem(w.item); err == nil {
				err = t.checkIndexKeys(w.item, false)
			} else if _, shape := apierr.KeyShapeReason(err); shape {
				// An item whose key attributes do not fit the schema
				// (missing, another type): AWS's one generic message
				// (its records, invariant over four regions).
				err = apierr.Validation(apierr.MsgKeySchemaMismatch)
			}
		} else {
			w.key, err = t.keyFromKeyParam(wr.DeleteRequest.Key.Item())
		}
		if err != nil {
			return batchWriteTable{}, err
		}
		if err := c.guardKey(t, w.key); err != nil {
			return batchWriteTable{}, err
		}
		for i := range bt.writes { // by index: a closure took each write by value, a copy a pair
			if bt.writes[i].key.Same(&w.key) {
				return batchWriteTable{}, apierr.Validation(apierr.MsgBatchDuplicates)
			}
		}
		bt.writes = append(bt.writes, w)
	}
	return bt, nil
}

// requestItemsConstraint checks that RequestItems is present and not empty.
func requestItemsConstraint(isNil bool, n int) string {
	if isNil {
		return apierr.NullViolation("requestItems", true)
	}
	return "" // n == 0 is errNoRequestItems, after the constraints
}

// batchGetKeysConstraints checks each table's Keys list: present, not
// empty, at most 100. (More than 100 over all tables is the "Too many
// items" error.)
func batchGetKeysConstraints(reqs map[string]*KeysAndAttributes) []string {
	var list []string
	for _, name := range sortedKeys(reqs) {
		req := reqs[name]
		path := "requestItems." + name + ".member.keys"
		switch {
		case req == nil || req.Keys == nil:
			list = append(list, apierr.NullViolation(path, true))
		case len(req.Keys) == 0:
			// AWS's record: no echo, the path in PascalCase.
			list = append(list, apierr.Violation("", "RequestItems."+name+".member.Keys", apierr.LenGE(1)))
		case len(req.Keys)+req.rest.Past > maxBatchGetKeys:
			list = append(list, batchGetTableKeysConstraint(name, len(req.Keys)+req.rest.Past))
		}
	}
	return list
}

func returnItemCollectionMetricsConstraint(v string) string {
	return apierr.EnumViolation(paramReturnICM, v, enumReturnICM)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
