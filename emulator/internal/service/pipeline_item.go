package service

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The data plane's managed scopes, as bbolt's db.Update(fn) and
// go-memdb's deferred Abort: a handler asks for a scope over its table
// and keys (useItem, useRead, useTx, useTxGets, useSearch) and works in
// fn, given the use. The scope runs the key guard and the stages' Begin,
// calls fn, and ends the use in a defer: a report of what the use did
// (storeItem, updateStored, fetchItem, answerPage, commitTx, readAll)
// told the stages' End at once, and the defer does nothing (Abort after
// Commit); else a write refused by its condition or a cancelled
// transaction is charged (pipeline_condfail.go), and any other error or
// a panic ends the use as refused. Begin and End pair by construction.
// The scope lives in the call (call.go); fn is only called, never
// kept, so its closure stays on the handler's stack (//gcassert:noescape
// on each, TestCompilerClaims).

// scope is a data-plane request's scope, which each kind of use sees
// through its own type (itemUse, readUse, txUse, ...) and methods.
type scope struct {
	c       *call
	use     *TableUse // the use the stages watch (stage.go); nil: nothing watches
	open    bool      // a use began and has not ended
	t       *table
	key     storage.Key
	newSize int            // the item a write refused by its condition is charged for
	size    int            // the size a write is charged for
	change  storage.Change // what the write did
	acts    []*txAction    // a write transaction's actions (nil: a read's)
	txUses  []*TableUse    // a transaction's uses (nil: nothing watches)
}

// refusedUse marks an item of a batch that was refused (pipeline_batch.go).
var refusedUse = &TableUse{}

var errScopeNested = errors.New("service: a scope opened inside an open one")

// openScope starts the call's scope afresh with use u of t (key: the
// item's), zeroed in place (a composite literal was built in a temporary
// and copied: BenchmarkOps/GetItem/handler). Opened inside an open scope
// (which would lose the outer End) it ends u and panics, as go-memdb
// refuses a used Txn: a server answers InternalServerError (apiserve).
func (c *call) openScope(u *TableUse, t *table, key storage.Key) *scope {
	s := &c.scope
	if s.open {
		u.endFailed(errScopeNested)
		panic(errScopeNested)
	}
	*s = scope{}
	s.c, s.use, s.open, s.t, s.key = c, u, true, t, key
	return s
}

// endWith ends the scope's use with o, what fn reported it did.
func (s *scope) endWith(o Outcome) {
	if s.open {
		s.open = false
		s.use.end(o)
		s.use = nil
	}
}

// end ends the scope's use, once, when fn did not report it: *err is
// what fn returned (nil after a panic). Safe to call on an ended scope,
// so that it may be deferred (go-memdb's Abort).
func (s *scope) end(err *error) {
	if !s.open {
		return
	}
	s.open = false
	if conditionRefused(*err) {
		s.use.endRefused(*err, s.key, s.newSize) // pipeline_condfail.go
	} else {
		s.use.endFailed(*err)
	}
	s.use = nil
}

// endActions ends a transaction's scope, once, when fn did not report it
// (txUse.commitTx, txGetUse.readAll): each action of a cancelled transaction
// is charged what it would have cost (pipeline_condfail.go); any other
// error, or a panic, ends each use as refused with it.
func (s *scope) endActions(err *error) {
	if !s.open {
		return
	}
	s.open = false
	if s.acts != nil && errors.Is(*err, apierr.ErrTransactionCanceled) {
		endTxCancelled(s.txUses, s.acts) // pipeline_condfail.go
	} else {
		for _, u := range s.txUses {
			if u != refusedUse { // a batch's write left unprocessed (pipeline_batch.go)
				u.endFailed(*err)
			}
		}
	}
	s.txUses = nil
}

// endFailed ends u, which failed with err after its Begin (nil: a
// panic), as refused: nothing is charged. Nil-safe.
func (u *TableUse) endFailed(err error) {
	if u == nil {
		return
	}
	if err == nil {
		err = errors.New("service: a use ended without an outcome")
	}
	u.end(Outcome{Refused: err})
}

// itemUse is a request's use of one item (useItem).
type itemUse scope

// useItem runs fn in the use of the item with key in t: the key guard,
// each stage's Begin (the key condition built only when a stage watches
// it), fn, and the use's end; it returns the refusal's error, or fn's.
func (c *call) useItem(t *table, key storage.Key, acc access.Access, fn func(u *itemUse) error) (err error) {
	if acc.IsWrite() {
		err = c.guardKey(t, key)
	} else {
		err = c.guardRead(t, key, key) // the key, and the read of it whole
	}
	if err != nil {
		return err
	}
	var u *TableUse
	if ss := t.watchers(); ss != nil {
		if u, err = c.beginStages(ss, t, useOf{}, itemKey(t, key), nil, acc); err != nil {
			return err
		}
	}
	s := c.openScope(u, t, key)
	defer s.end(&err)
	return fn((*itemUse)(s))
}

// itemWrite is a put or delete of the use's item.
type itemWrite struct {
	item         storage.Item // nil: a delete
	size         int          // the item's size (0: a delete)
	cond         *expr.Condition
	returnValues string
	rvoccf       string // ReturnValuesOnConditionCheckFailure
	capacity     string // ReturnConsumedCapacity
	// condText and names are the request's ConditionExpression and its
	// names, for a WriteChecker stage (nil: none).
	condText *string
	names    map[string]string
}

// storeItem runs the write w of the use's item, its condition checked
// inside the write, with the stages' write checks in the same storage
// transaction (storeChecked; kept: they saw w's item, which must then
// stay the caller's, op_batch_recycle.go), and reports it to the use.
func (u *itemUse) storeItem(w itemWrite) (change storage.Change, kept bool, err error) {
	u.newSize = w.size // what a refusal by the condition is charged for
	if writeCheck(u.t) != NoWriteCheck {
		change, err = u.c.storeChecked(u.t, u.key, w.item, w.cond, w.rvoccf, w.condText, w.names)
		kept = true
	} else {
		change, err = putOrDelete(u.t, u.key, w.item, w.cond, w.returnValues, w.rvoccf, u.use.capMode(w.capacity))
	}
	if err == nil {
		u.wrote(max(w.size, change.OldSize), change)
	}
	return change, kept, err
}

// updateStored runs an update of the use's item in one storage write
// (updateWrite, with the write checks wc) and reports it to the use:
// next makes the new item from the current one and returns its size,
// also when it fails (what a refusal by the condition is charged for).
func (u *itemUse) updateStored(wc WriteCheck, next func(tx *storage.WriteTx, cur storage.Item) (storage.Item, int, error)) (storage.Change, error) {
	change, err := u.c.updateWrite(u.t, wc, u.key, func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error) {
		item, size, err := next(tx, cur)
		u.newSize = size
		return item, err
	})
	if err == nil {
		u.wrote(max(u.newSize, change.OldSize), change)
	}
	return change, err
}

// putOrDelete stores item under key, or deletes the item there when item
// is nil, checking cond (nil: none) on the current item inside the write.
// The current item is decoded only when cond or ReturnValues ALL_OLD needs
// it; otherwise the Change has OldSize but no Old.
func putOrDelete(t *table, key storage.Key, item storage.Item, cond *expr.Condition, returnValues, rvoccf, capacityMode string) (storage.Change, error) {
	if cond == nil && returnValues != returnAllOld && !needOld(t, capacityMode) {
		return t.data.Put(key, item)
	}
	return t.data.Write(key, func(cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, rvoccf); err != nil {
			return nil, err
		}
		if item == nil && cur == nil {
			return nil, storage.ErrNoWrite
		}
		return item, nil
	})
}

// patched reports an update made on the stored record (update_patch.go),
// as updateStored does.
func (u *itemUse) patched(change storage.Change, newSize int, err error) {
	u.newSize = newSize
	if err == nil {
		u.wrote(max(newSize, change.OldSize), change)
	}
}

// wrote records the write of the use: charged for sizeBytes (the larger
// of the old and new item), its change what it did.
func (u *itemUse) wrote(sizeBytes int, change storage.Change) {
	u.size, u.change = sizeBytes, change
	(*scope)(u).endWith(Outcome{WriteUnits: capacity.WriteUnits(sizeBytes), Change: change, HasChange: true})
}

// fetchItem reads the use's item from the view consistent asks for
// (stage_read.go), and reports the read to the use.
func (u *itemUse) fetchItem(consistent bool) (storage.EncodedItem, bool) {
	stored, found := u.use.view(u.t, nil, consistent).GetEncoded(u.key)
	n := 0
	if found {
		n = 1
	}
	(*scope)(u).endWith(Outcome{ReadUnits: capacity.ReadUnits(stored.Size(), consistent), Read: n, Returned: n})
	return stored, found
}

// answerCapacity is the ConsumedCapacity of the use's write, in mode.
func (u *itemUse) answerCapacity(mode string) *ConsumedCapacity {
	return writeChangeCapacity(u.t, mode, u.size, u.change)
}

// answerCollection is the ItemCollectionMetrics of the use's write, for
// ReturnItemCollectionMetrics ret.
func (u *itemUse) answerCollection(ret string) *ItemCollectionMetrics {
	return u.t.collectionMetrics(ret, u.key, u.change)
}

// readUse is a request's read of a table or an index (useRead).
type readUse scope

// useRead runs fn in the read of t, or of its index x (nil: the table):
// each stage's Begin, fn, and the read's end. kc is its key condition
// (none: a Scan), parts the partitions a read of several is put to the
// stages by (nil: kc's), filter whether a filter drops items. Its key
// guard ran where its validation order puts it (stage_check.go).
func (c *call) useRead(t *table, x *tablespec.IndexDef, kc access.KeyCondition, parts []*expr.KeyCondition, acc access.Access, filter bool, fn func(r *readUse) error) (err error) {
	r := useOf{filter: filter}
	if x != nil {
		r.index, r.gsi = x.Name, !x.Local
	}
	u, err := c.beginUse(t, r, kc, parts, acc)
	if err != nil {
		return err
	}
	s := c.openScope(u, t, storage.Key{})
	defer s.end(&err)
	return fn((*readUse)(s))
}

// view is the storage the read reads: t's, or its eventual view through
// the ReadViewer stages (x: the index read, nil: the table).
func (r *readUse) view(x *tablespec.IndexDef, consistent bool) *storage.Table {
	return r.use.view(r.t, x, consistent)
}

// answerPage reports the page p read (its read units, the items it read and
// returned) and builds its answer.
func (r *readUse) answerPage(p *pageReader) (*pageOutput, error) {
	(*scope)(r).endWith(Outcome{ReadUnits: p.fetched + capacity.ReadUnits(p.readBytes, p.req.consistent), Read: p.scanned, Returned: p.count})
	return p.output()
}

// txUse is a write transaction's use of its actions' items (useTx).
type txUse scope

// useTx runs fn in a write transaction's use of its actions: each put to
// the stages (txStages), fn with the reasons to cancel with (nil: none
// refused), and the uses' end.
func (c *call) useTx(acts []*txAction, fn func(u *txUse, refused []apierr.CancellationReason) error) (err error) {
	refused, uses, err := c.txStages(acts)
	if err != nil {
		return err
	}
	s := c.openScope(nil, nil, storage.Key{})
	s.acts, s.txUses = acts, uses
	defer s.endActions(&err)
	return fn((*txUse)(s), refused)
}

// commitTx commits tx, whose writes made changes (one per action), and
// reports them: each action's use is charged its transactional units.
func (u *txUse) commitTx(tx *storage.WriteTx, changes []storage.Change) error {
	if _, err := tx.Commit(); err != nil {
		return err
	}
	if u.open {
		u.open = false
		endTx(u.txUses, u.acts, changes)
		u.txUses = nil
	}
	return nil
}

// txGetUse is a read transaction's use of its Gets' items (useTxGets).
type txGetUse scope

// useTxGets runs fn in a read transaction's use of its Gets: each put to
// the stages (txGetStages), fn, and the uses' end.
func (c *call) useTxGets(gets []*txGet, fn func(u *txGetUse) error) (err error) {
	uses, err := c.txGetStages(gets)
	if err != nil {
		return err
	}
	s := c.openScope(nil, nil, storage.Key{})
	s.txUses = uses
	defer s.endActions(&err)
	return fn((*txGetUse)(s))
}

// readAll reports the reads of the transaction (sizes: each Get's item, 0
// when missing): each Get's use is charged its transactional units.
func (u *txGetUse) readAll(sizes []int) {
	if u.open {
		u.open = false
		endTxGets(u.txUses, sizes)
		u.txUses = nil
	}
}

// endTxGets tells each Get's use what it read.
func endTxGets(uses []*TableUse, sizes []int) {
	for i, u := range uses {
		if u != nil {
			n := min(1, sizes[i])
			u.end(Outcome{ReadUnits: capacity.TxReadUnits(sizes[i]), Read: n, Returned: n})
		}
	}
}

// searchUse is a request's search of a vector index (useSearch).
type searchUse scope

// useSearch runs fn in the search of t's vector index x: the tenant
// guard (the partition when its HASH element, hash, is the table's
// partition key, else the index as a Scan of it), each stage's Begin,
// fn, and the search's end.
func (c *call) useSearch(t *table, x *tablespec.VectorIndexDef, hash storage.Value, fn func(u *searchUse) error) (err error) {
	kc, acc := access.KeyCondition{}, access.Scan
	if e := x.SchemaElem(t.schema.Partition.Name); e != nil && e.Type == tablespec.SearchHash && hash.IsValid() {
		kc, acc = access.KeyCondition{Partition: hash}, access.Query
		if err := c.guardKey(t, storage.Key{Partition: hash}); err != nil {
			return err
		}
	} else if err := c.guardScan(t, x.Name, storage.Value{}); err != nil {
		return err
	}
	u, err := c.beginUse(t, useOf{index: x.Name, vector: true}, kc, nil, acc)
	if err != nil {
		return err
	}
	s := c.openScope(u, t, storage.Key{})
	defer s.end(&err)
	return fn((*searchUse)(s))
}

// searched reports the search: bytes of VectorSearchRequestBytes,
// returned items answered.
func (u *searchUse) searched(bytes float64, returned int) {
	(*scope)(u).endWith(Outcome{SearchBytes: bytes, Read: returned, Returned: returned})
}
