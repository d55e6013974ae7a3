package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What a feature that runs statements on items (PartiQL) asks of the core:
// each, lowered into expr's forms, runs as the item operation it stands for
// through the pipeline's stages (pipeline.go), key guards first: a SELECT as
// a Query or Scan page (ReadPage), a write on its full key (WriteItem), a
// transaction as TransactWriteItems and TransactGetItems run theirs.

// Schema is the table's key schema.
func (t Table) Schema() storage.KeySchema { return t.t.schema }

// KeyFromItem is the key of a whole item, with the key values' rules.
func (t Table) KeyFromItem(item storage.Item) (storage.Key, error) { return t.t.keyFromItem(item) }

// KeyFromKeyParam is the key of an item of the key attributes alone, as
// a Key member is checked.
func (t Table) KeyFromKeyParam(key storage.Item) (storage.Key, error) {
	return t.t.keyFromKeyParam(key)
}

// CheckIndexKeys checks the values item gives the keys of the table's
// indexes (updated: of an item an update made).
func (t Table) CheckIndexKeys(item storage.Item, updated bool) error {
	return t.t.checkIndexKeys(item, updated)
}

// PageRead is one page of a read of a table or its index by a feature's
// plan, read as Query and Scan read theirs (Limit, the 1 MB page, the
// filter, the index's rules) and guarded by what it declares it reads.
// On an index, the filter sees the index's entry (an LSI fetches the
// rest only for the projection: AWS's answers, nubo-db/dynoxide
// tests/partiql_index_qualifier.rs, eu-west-2).
type PageRead struct {
	Table      Table
	Index      *tablespec.IndexDef  // the index read (nil: the table)
	Projection *expr.Projection     // on an index, checked as a ProjectionExpression (not applied)
	Filter     *expr.Condition      // on an index, of its entry
	Parts      []*expr.KeyCondition // the partitions it reads (none, not None: all, a Scan)
	None       bool                 // it reads no partition
	Limit      int                  // 0: none
	Consistent bool
	Capacity   string // ReturnConsumedCapacity
}

// Page is what a PageRead read: whole items, the last key (nil: the end), the capacity.
type Page struct {
	Items    []storage.Item
	Stored   []storage.EncodedItem
	LastKey  storage.Item
	Capacity *ConsumedCapacity
}

// PageUse is a page's read as the stages see it (useRead), beside its
// PageRead: key condition (none: a Scan), partitions (nil: Key's), access.
type PageUse struct {
	Key    access.KeyCondition
	Parts  []*expr.KeyCondition
	Access access.Access
}

// ReadPage reads one page of r: the key guards of the partitions r
// declares (guardPage), an index's rules, begin (the feature's checks),
// whose PageUse begins the read's use (useRead), then read, which walks
// the view it asks for (through the ReadViewer stages for an eventually
// consistent read; not asked, not taken) until visit returns false.
func (c Call) ReadPage(r *PageRead, begin func() (PageUse, error), read func(view func() *storage.Table, visit func(storage.EncodedItem) bool) error) (*Page, error) {
	t := r.Table.t
	if err := c.c.guardPage(r); err != nil {
		return nil, err
	}
	req := &readRequest{t: t, limit: r.Limit, consistent: r.Consistent, capacity: r.Capacity, filter: r.Filter}
	if r.Filter != nil {
		req.filterAttrs = r.Filter.Attributes()
	}
	if r.Index != nil {
		req.projection = r.Projection // checked here; the feature projects the items after the walk
		err := req.setIndex(r.Index, nil, "", false)
		req.projection = nil
		if err != nil {
			return nil, err
		}
		req.filterOver = req.index.projected // nil: ALL, the whole item
	}
	pu, err := begin()
	if err != nil {
		return nil, err
	}
	var out *Page
	err = c.c.useRead(t, r.Index, pu.Key, pu.Parts, pu.Access, r.Filter != nil, func(u *readUse) error { //gcassert:noescape
		p := &pageReader{req: req}
		if err := read(func() *storage.Table { return u.view(r.Index, r.Consistent) }, p.visit); err != nil {
			return err
		}
		page, err := u.answerPage(p)
		if err != nil {
			return err
		}
		out = &Page{Items: page.Items, Stored: page.stored, LastKey: page.LastEvaluatedKey, Capacity: page.ConsumedCapacity}
		return nil
	})
	return out, err
}

// IndexStartKey checks a start key of a read of t's index x as Scan
// checks its ExclusiveStartKey.
func (t Table) IndexStartKey(x *tablespec.IndexDef, key storage.Item) (storage.Item, error) {
	return indexStartKey(t.t, x, key, nil)
}

// ReadItem runs r, one read of one item alone, as GetItem reads one
// (WriteItem's mirror): the key guards and the pipeline's stages for its
// key (useItem), then the item (projected by r.Projection, nil: whole;
// nil when missing) from the view consistent asks for, and its capacity.
func (c Call) ReadItem(r TxRead, consistent bool, capacity string) (item storage.Item, found bool, cc *ConsumedCapacity, err error) {
	t, key, proj := r.Table, r.Key, r.Projection
	size := 0
	if err := c.c.useItem(t.t, key, access.Get, func(u *itemUse) error { //gcassert:noescape
		var stored storage.EncodedItem
		if stored, found = u.fetchItem(consistent); found {
			size = stored.Size()
			if proj == nil {
				item = stored.Item()
			} else {
				item = projectStored(proj, stored)
			}
		}
		return nil
	}); err != nil {
		return nil, false, nil, err
	}
	return item, found, readCapacity(t.t, capacity, size, consistent), nil
}

// WriteItem runs w, one write of one item alone (a put, an update or a
// delete: not a TxCheck; Preset is not read), as the core's item writes
// run: the key guards and the pipeline's stages for its key (useItem),
// then one storage write whose callback checks, on the current item, that
// an Insert finds none (DuplicateItem) and that the condition holds,
// applies the update with UpdateItem's checks, and puts the write to the
// stages' write checks. A delete of a missing item changes nothing. It
// returns what it did and its capacity; a refusal is charged by the
// pipeline, one by the condition also returning its capacity on the table
// alone (the larger of the stored and the carried item: pipeline_condfail.go).
func (c Call) WriteItem(w *TxWrite, mode string) (storage.Change, *ConsumedCapacity, error) {
	cl, t := c.c, w.Table.t
	op, acc, newSize := WritePut, access.Put, 0
	switch w.Kind {
	case TxUpdate:
		op, acc = WriteUpdate, access.Update
	case TxDelete:
		op, acc = WriteDelete, access.Delete
	default:
		newSize = storage.ItemSize(w.Item)
	}
	var change storage.Change
	var cc *ConsumedCapacity
	refusedSize := 0
	err := cl.useItem(t, w.Key, acc, func(u *itemUse) error { //gcassert:noescape
		var err error
		change, refusedSize, err = writeItemIn(u, w, op, newSize)
		if err == nil {
			cc = u.answerCapacity(mode)
		}
		return err
	})
	if conditionRefused(err) {
		return storage.Change{}, consumed(t, mode, capacity.WriteUnits(refusedSize)), err
	}
	if err != nil {
		return storage.Change{}, nil, err // a refusal is charged by the scope
	}
	return change, cc, nil
}

// writeItemIn is WriteItem's write, of op, in the use u of its item:
// newSize is the size of a put's item; refusedSize, a refusal's charge.
func writeItemIn(u *itemUse, w *TxWrite, op WriteOp, newSize int) (change storage.Change, refusedSize int, err error) {
	t, wc := w.Table.t, writeCheck(w.Table.t)
	change, err = u.updateStored(wc, func(tx *storage.WriteTx, cur storage.Item) (storage.Item, int, error) {
		if w.Insert && cur != nil {
			refusedSize = max(newSize, storage.ItemSize(cur))
			return nil, newSize, apierr.New(apierr.ErrDuplicateItem, apierr.MsgDuplicateItem)
		}
		if err := checkCondition(w.Condition, cur, w.RVOCCF); err != nil {
			refusedSize = max(newSize, storage.ItemSize(cur))
			return nil, newSize, err
		}
		next, size := w.Item, newSize
		switch {
		case op == WriteUpdate:
			var err error
			if next, size, err = t.updatedItem(w.Key, w.Update, cur); err != nil {
				return nil, 0, err
			}
		case op == WriteDelete && cur == nil:
			return nil, 0, storage.ErrNoWrite
		}
		if wc != NoWriteCheck {
			if err := u.c.checkWrite(&Write{Table: w.Table, Op: op, Key: w.Key, Old: cur, New: next, Cond: w.Condition, CreateOnly: w.Insert, tx: tx}); err != nil {
				return nil, size, err
			}
		}
		return next, size, nil
	})
	return change, refusedSize, err
}

// MaxItemBytes is the largest item; MaxTransactItems, a transaction's most actions.
const (
	MaxItemBytes     = maxItemBytes
	MaxTransactItems = maxTransactItems
)

// TxRead is one read of one item: alone (ReadItem) or one of a read
// transaction's (TransactGet).
type TxRead struct {
	Table      Table
	Key        storage.Key
	Projection *expr.Projection
}

// TransactGet reads gets as TransactGetItems does (each key put to the
// key guards, the same item twice refused), through the pipeline's stages.
func (c Call) TransactGet(reads []TxRead, mode string) (*TransactGetItemsOutput, error) {
	gets := make([]*txGet, len(reads))
	var seen itemSet
	for i, r := range reads {
		if err := c.c.guardRead(r.Table.t, r.Key, r.Key); err != nil {
			return nil, err
		} else if !seen.add(r.Table.t, r.Key) {
			return nil, apierr.Validation(apierr.MsgTxSameItem)
		}
		gets[i] = &txGet{t: r.Table.t, key: r.Key, proj: r.Projection}
	}
	return runTransactGet(c.c, gets, mode)
}

// TxWriteKind is the kind of a write transaction's action.
type TxWriteKind int

// The kinds of TxWrite.
const (
	TxCheck  = TxWriteKind(txCheck)
	TxPut    = TxWriteKind(txPut)
	TxDelete = TxWriteKind(txDelete)
	TxUpdate = TxWriteKind(txUpdate)
)

// TxWrite is one action of a write transaction, as TransactWriteItems
// validates one, or a write alone (WriteItem). Insert: a Put of an item that must not exist
// (DuplicateItem). Preset: the action's cancellation reason, found in
// validation (nil: none).
type TxWrite struct {
	Kind      TxWriteKind
	Insert    bool
	Table     Table
	Key       storage.Key
	Item      storage.Item
	Condition *expr.Condition
	Update    *expr.Update
	RVOCCF    string
	Preset    *apierr.CancellationReason
}

// TransactWrite puts each action's key to the key guards, checks the
// actions as a whole (the same item twice, the aggregate size) and runs them
// as TransactWriteItems does, all or nothing; with a token (fp: the
// request's fingerprint), once for the token's lifetime.
func (c Call) TransactWrite(ws []TxWrite, mode string, token *string, fp [32]byte) (*TransactWriteItemsOutput, error) {
	acts := make([]*txAction, len(ws))
	for i, w := range ws {
		a := &txAction{kind: txKind(w.Kind), insert: w.Insert, t: w.Table.t, key: w.Key, item: w.Item,
			cond: w.Condition, upd: w.Update, rvoccf: w.RVOCCF, preset: w.Preset}
		switch {
		case a.t == nil:
		case a.kind == txPut:
			a.size = storage.ItemSize(a.item)
		default:
			a.size = storage.ItemSize(a.t.schema.KeyItem(a.key))
		}
		if a.t != nil {
			if err := c.c.guardKey(a.t, a.key); err != nil {
				return nil, err
			}
		}
		acts[i] = a
	}
	if err := checkTxActions(acts); err != nil {
		return nil, err
	}
	keepOld(acts, mode)
	run := func() (*TransactWriteItemsOutput, error) {
		changes, err := applyTx(c.c, acts)
		if err != nil {
			return nil, err
		}
		return transactWriteOutput(mode, "", acts, changes), nil
	}
	if token == nil {
		return run()
	}
	return c.c.svc.tokens.do(c.c.ns, c.c.now, *token, fp, mode, run)
}
