package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// pipe is a data-plane request's context in the pipeline (pipeline.go):
// the use the handler opened (beginItem, beginRead; a transaction's
// uses, beginTx, beginTxGets) and what the handler reported of it (the
// item a refused write would have stored, what the write did). The
// stages read it: their End is told from it, a
// refusal by the write's condition or a cancelled transaction is charged
// from it when the registry's adapter finishes the request (a batch of
// statements finishes it per statement), and the consumed capacity and
// item-collection metrics of the answer are computed from it. It lives
// in the call (zero between requests, call_pool.go), so a request
// allocates nothing for it.
type pipe struct {
	use  *TableUse // the use the stages watch (stage.go); nil: nothing watches
	open bool      // a use began and its end was not reported
	t    *table
	key  storage.Key
	// newSize is the size of the item the write would store, charged
	// when its condition refuses it (0: a delete, or not known).
	newSize int
	// size is the size the write is charged for (the larger of the old
	// and new item), change what it did.
	size   int
	change storage.Change
	// A write transaction's actions and their uses (beginTx; txUses nil:
	// nothing watches); cancelled: its evaluation cancelled it, so
	// finishItem charges what each admitted action would have cost.
	acts      []*txAction
	txUses    []*TableUse
	cancelled bool
}

// beginItem opens the request's use of the item with key in t, through
// the pipeline's stages in order: the key guards, then each
// stage's Begin. It
// returns the error that refuses the use.
func (c *call) beginItem(t *table, key storage.Key, acc access.Access) error {
	var err error
	if acc.IsWrite() {
		err = c.guardKey(t, key)
	} else {
		err = c.guardRead(t, key, key) // the key, and the read of it whole
	}
	if err != nil {
		return err
	}
	return c.beginGuarded(t, key, acc)
}

// beginGuarded is beginItem for a key the tenant guard has passed (a
// PartiQL statement's, guarded when it was planned).
// The key condition is built only when a stage watches the use.
func (c *call) beginGuarded(t *table, key storage.Key, acc access.Access) error {
	var u *TableUse
	if ss := t.watchers(); ss != nil {
		var err error
		if u, err = c.beginStages(ss, t, useOf{}, itemKey(t, key), nil, acc); err != nil {
			return err
		}
	}
	c.openPipe(u, t, key)
	return nil
}

// openPipe starts the call's pipeline context afresh with use u of t
// (key: the item's, zero for a read of several). It is zeroed in place,
// then set: a composite literal assigned to c.pipe was built in a
// temporary and copied (BenchmarkOps/GetItem/handler).
func (c *call) openPipe(u *TableUse, t *table, key storage.Key) {
	p := &c.pipe
	*p = pipe{}
	p.use, p.open, p.t, p.key = u, true, t, key
}

// beginRead opens the request's read of t, or of its index x (nil: the
// table), through the stages' Begin: kc is
// the read's key condition (a Query's partition and sort condition, none
// for a Scan), parts the partitions a read of several is put to the
// stages by, one by one (nil: kc's), filter whether a filter drops items
// read. The tenant guard of a read runs where its validation order puts
// it (guardKey, guardQuery, guardScan: stage_check.go; a feature's
// through Call.GuardKey and Call.GuardScan).
func (c *call) beginRead(t *table, x *tablespec.IndexDef, kc access.KeyCondition, parts []*expr.KeyCondition, acc access.Access, filter bool) error {
	r := useOf{filter: filter}
	if x != nil {
		r.index, r.gsi = x.Name, !x.Local
	}
	u, err := c.beginUse(t, r, kc, parts, acc)
	if err != nil {
		return err
	}
	c.openPipe(u, t, storage.Key{})
	return nil
}

// itemWrite is a put or delete of the open use's item.
type itemWrite struct {
	item         storage.Item // nil: a delete
	cond         *expr.Condition
	returnValues string
	rvoccf       string // ReturnValuesOnConditionCheckFailure
	capacity     string // ReturnConsumedCapacity
	// condText and names are the request's ConditionExpression and its
	// names, for a WriteChecker stage (nil: none).
	condText *string
	names    map[string]string
}

// store runs the write w of the open use, its condition checked on the
// current item inside the write, through the stages' write checks: on a
// table a WriteChecker checks, they check it in the same storage
// transaction (storeChecked). kept reports that the checks
// saw w's item, which must then stay the caller's (op_batch_recycle.go).
func (c *call) store(w itemWrite) (change storage.Change, kept bool, err error) {
	p := &c.pipe
	if writeCheck(p.t) != NoWriteCheck {
		change, err = c.storeChecked(p.t, p.key, w.item, w.cond, w.rvoccf, w.condText, w.names)
		return change, true, err
	}
	change, err = putOrDelete(p.t, p.key, w.item, w.cond, w.returnValues, w.rvoccf, p.use.capMode(w.capacity))
	return change, false, err
}

// writing reports the size of the item the write would store: what a
// refusal by its condition is charged for (pipeline_condfail.go).
func (c *call) writing(newSize int) { c.pipe.newSize = newSize }

// wrote reports the write of the open use: charged for sizeBytes (the
// larger of the old and new item), its change what it did. It ends the
// use: the stages' End is told now, before the handler
// gives anything of the change back.
func (c *call) wrote(sizeBytes int, change storage.Change) {
	p := &c.pipe
	p.use.end(Outcome{WriteUnits: capacity.WriteUnits(sizeBytes), Change: change, HasChange: true})
	p.use, p.open = nil, false
	p.size, p.change = sizeBytes, change
}

// readItem reports the read of the open use: an item of sizeBytes when
// found (0: none), read consistently or not. It ends the use.
func (c *call) readItem(sizeBytes int, consistent, found bool) {
	p := &c.pipe
	if p.use != nil {
		n := 0
		if found {
			n = 1
		}
		p.use.end(Outcome{ReadUnits: capacity.ReadUnits(sizeBytes, consistent), Read: n, Returned: n})
	}
	p.use, p.open = nil, false
}

// readPage reports the page p read to the open use (its read units,
// the items it read and returned), ending it, and builds its answer.
func (c *call) readPage(p *pageReader) (*pageOutput, error) {
	pp := &c.pipe
	if pp.use != nil {
		pp.use.end(Outcome{ReadUnits: p.fetched + capacity.ReadUnits(p.readBytes, p.req.consistent), Read: p.scanned, Returned: p.count})
	}
	pp.use, pp.open = nil, false
	return p.output()
}

// beginTx puts each action of a write transaction to the stages
// (txStages) and keeps their uses in the call's
// pipeline context. It returns the reasons to cancel with (nil: none
// refused), or the error that fails the call.
func (c *call) beginTx(acts []*txAction) ([]apierr.CancellationReason, error) {
	refused, uses, err := c.txStages(acts)
	if err != nil {
		return nil, err
	}
	c.pipe.acts, c.pipe.txUses = acts, uses
	return refused, nil
}

// txCancelled reports that the transaction's evaluation cancelled it (a
// condition, a conflict): the pipeline charges its actions when the
// request finishes (pipeline_condfail.go).
func (c *call) txCancelled() { c.pipe.cancelled = true }

// txApplied reports the committed transaction's changes (one per
// action): each action's use is charged its transactional units.
func (c *call) txApplied(changes []storage.Change) {
	p := &c.pipe
	endTx(p.txUses, p.acts, changes)
	p.acts, p.txUses = nil, nil
}

// beginTxGets puts each Get of a read transaction to the stages
// (txGetStages) and keeps their uses in the call's
// pipeline context. It returns the error that refuses the transaction.
func (c *call) beginTxGets(gets []*txGet) error {
	uses, err := c.txGetStages(gets)
	if err != nil {
		return err
	}
	c.pipe.txUses = uses
	return nil
}

// txRead reports the reads of a read transaction (sizes: each Get's
// item, 0 when missing): each Get's use is charged its transactional
// units.
func (c *call) txRead(sizes []int) {
	p := &c.pipe
	for i, u := range p.txUses {
		if u != nil {
			n := min(1, sizes[i])
			u.end(Outcome{ReadUnits: capacity.TxReadUnits(sizes[i]), Read: n, Returned: n})
		}
	}
	p.txUses = nil
}

// finishItem closes the open uses of a request (or of one statement of a
// batch) that ended with err: a write refused by its condition, or a
// transaction its evaluation cancelled, is charged and recorded as AWS
// charges it (pipeline_condfail.go); any other error charges nothing. Called
// by the registry's adapter after every data-plane handler.
func (c *call) finishItem(err error) {
	p := &c.pipe
	if p.cancelled {
		endTxCancelled(p.txUses, p.acts) // pipeline_condfail.go
		p.acts, p.txUses, p.cancelled = nil, nil, false
	}
	if !p.open {
		return
	}
	if err != nil {
		p.use.endRefused(err, p.key, p.newSize)
	}
	p.use, p.open = nil, false
}

// writeCapacity is the ConsumedCapacity of the write the request
// reported (wrote), in mode.
func (c *call) writeCapacity(mode string) *ConsumedCapacity {
	return writeChangeCapacity(c.pipe.t, mode, c.pipe.size, c.pipe.change)
}

// itemCollection is the ItemCollectionMetrics of the write the request
// reported (wrote), for ReturnItemCollectionMetrics ret.
func (c *call) itemCollection(ret string) *ItemCollectionMetrics {
	return c.pipe.t.collectionMetrics(ret, c.pipe.key, c.pipe.change)
}

// beginSearch opens the request's search of t's vector index x through
// the pipeline's stages in order: the tenant guard (the partition the
// search names when its HASH element is the table's partition key, else
// the index as a whole, as a Scan of it), then each stage's Begin
// (the index's search limit among them).
// hash is the HASH element's value (invalid: none). The search itself
// reads the table's eventual view (searchData).
func (c *call) beginSearch(t *table, x *tablespec.VectorIndexDef, hash storage.Value) error {
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
	c.openPipe(u, t, storage.Key{})
	return nil
}

// searched reports the search of the open use: bytes of
// VectorSearchRequestBytes, returned items answered. It ends the use.
func (c *call) searched(bytes float64, returned int) {
	p := &c.pipe
	p.use.end(Outcome{SearchBytes: bytes, Read: returned, Returned: returned})
	p.use, p.open = nil, false
}
