package service

import (
	"cmp"
	"errors"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The checks of the stage seam, beside the uses of stage.go, each where AWS's
// order or the write path puts it: the keys a request names (KeyGuard), each
// item write inside its storage transaction (WriteChecker), and a table's
// definition (the CheckDefinition and LoadedDefinition hooks,
// feature_lifecycle.go). The core calls the service's in Config's order and
// names none; each skips a table it does not check, so a request on one pays
// a call that finds nothing to do.

// DefinitionChange is a change of a table's definition: CreateTable or
// a change of its tags (an error refuses either), UpdateTable's change of
// its stream (made all the same); or a table copied as a restore reads
// its source (a backup's, with the tags it had then: an error refuses it).
type DefinitionChange uint8

const (
	DefinitionCreated DefinitionChange = iota + 1
	DefinitionTagged
	DefinitionStreamChanged
	DefinitionCopied
)

// KeyGuard is a Stage that also checks what a request touches by key, before the stages' Begin,
// where AWS's validation order puts it (an error refuses the request): GuardKey each key of t it
// touches (a partition's alone for a read of one), GuardRead next each key a read names whole
// (GetItem, BatchGetItem, TransactGetItems, a Query's sort key equality), GuardScan a read not
// confined to one of t's partitions (a Scan, index "", a read of a secondary or vector index, with
// the index partition a Query names: invalid for none); none of t's when GuardsKeys is false.
type KeyGuard interface {
	GuardsKeys(t Table) bool
	GuardKey(c Call, t Table, k storage.Key) error
	GuardRead(c Call, t Table, k storage.Key) error
	GuardScan(c Call, t Table, index string, partition storage.Value) error
}

// WriteCheck is how a WriteChecker checks a table's writes: not at all;
// each (a put or a delete in a storage transaction over the table, so
// that the check may read other items: Write.Exists, Write.Get; an
// update in the table's own write); or each, updates in a transaction too.
type WriteCheck uint8

const (
	NoWriteCheck WriteCheck = iota
	CheckWrites
	CheckWritesReading
)

// WriteChecker is a Stage that also checks the item writes of the tables
// it checks, inside the write's storage callback (the item replaced at
// hand, the table locked): CheckWrite a write alone in its request,
// NewWriteBatch the writes of a BatchWriteItem (transaction false) or a
// TransactWriteItems, judged together before any commits: Add checks or
// keeps one, Settle (once, last) refuses them all or none. An error
// refuses the writes. When its checks of a table's writes read other
// tables of its namespace, WriteLocks appends them to the tables the
// writes' storage transaction locks (storage orders the locks; dst as it
// is: none), and the check finds them with Write.Locked; WriteLocks runs
// before any table is locked (it may take the DB's lock:
// storage.Table.Sibling).
type WriteChecker interface {
	ChecksWrites(t Table) WriteCheck
	CheckWrite(c Call, w *Write) error
	NewWriteBatch(c Call, transaction bool) WriteBatch
	WriteLocks(dst []*storage.Table, t Table) []*storage.Table
}

// WriteBatch is a WriteChecker's checks of a request's writes.
type WriteBatch interface {
	Add(w *Write)
	Settle() error
}

// WriteOp is what a checked write does to its item.
type WriteOp uint8

const (
	WritePut WriteOp = iota
	WriteUpdate
	WriteDelete
)

// Write is one item write a WriteChecker checks: Old the item replaced
// and New the item stored (nil: none, a delete); Condition and Names the
// request's ConditionExpression and names (nil: none) and Cond as compiled (a PartiQL WHERE
// clause has no text), CreateOnly a write that creates only (PartiQL INSERT). Position says where
// it sits in its request.
type Write struct {
	Table      Table
	Op         WriteOp
	Key        storage.Key
	Old, New   storage.Item
	Condition  *string
	Names      map[string]string
	Cond       *expr.Condition
	CreateOnly bool
	tx         *storage.WriteTx // the write's storage transaction (nil: none)
	// restored: the items of the table being made of a snapshot, which
	// the write's item is one of (checkRestored), read in place of a
	// transaction (nil: none).
	restored *storage.TableSnapshot
	// The write's place in its request, 1 + its index (0: alone): in
	// the batch's table batchTable, else among a transaction's actions.
	batchTable string
	place      int
}

// Position is where the write sits in its request, as AWS names a member
// ("TransactItems[2]", `RequestItems["t"][0]`; "": alone). It is made
// when asked (a rule's refusal or warning names it), not per write.
func (w *Write) Position() string {
	switch {
	case w.place == 0:
		return ""
	case w.batchTable != "":
		return "RequestItems[" + strconv.Quote(w.batchTable) + "][" + strconv.Itoa(w.place-1) + "]"
	}
	return "TransactItems[" + strconv.Itoa(w.place-1) + "]"
}

// Reads reports whether the check may read other items (Exists, Get).
func (w *Write) Reads() bool { return w.tx != nil || w.restored != nil }

// Exists reports whether the table holds an item with key k, as the
// write's transaction sees it (only when Reads; the table's lock is held),
// or, for an item of a restore, as the table restored will hold it.
func (w *Write) Exists(k storage.Key) bool {
	if w.restored != nil {
		_, ok := w.restored.GetEncoded(k)
		return ok
	}
	_, ok := w.tx.GetEncoded(w.Table.t.data, k)
	return ok
}

// Get returns the item with key k, as Exists sees it.
func (w *Write) Get(k storage.Key) storage.Item {
	if w.restored != nil {
		if e, ok := w.restored.GetEncoded(k); ok {
			return e.Item()
		}
		return nil
	}
	item, _ := w.tx.Get(w.Table.t.data, k)
	return item
}

// Locked returns the table of that name the write's transaction locked
// for a WriteChecker's WriteLocks (nil: none, or the check may not read:
// Reads).
func (w *Write) Locked(name string) *storage.Table {
	if w.tx == nil {
		return nil
	}
	return w.tx.Locked(name)
}

// GetEncoded returns the item with key k of ot, a table Locked returned,
// as the write's transaction sees it.
func (w *Write) GetEncoded(ot *storage.Table, k storage.Key) (storage.EncodedItem, bool) {
	return w.tx.GetEncoded(ot, k)
}

// checkDefinition puts t's definition in change to the CheckDefinition
// hooks: the first error, or what to do once it is recorded.
func (c *call) checkDefinition(t *table, change DefinitionChange, tags []TagDesc) (func(), error) {
	var dones []func()
	for _, h := range c.svc.seams.hooks {
		if h.CheckDefinition == nil {
			continue
		}
		done, err := h.CheckDefinition(Call{c: c}, Table{t: t}, change, tags)
		if err != nil {
			return nil, err
		}
		dones = append(dones, done)
	}
	return func() {
		for _, d := range dones {
			if d != nil {
				d()
			}
		}
	}, nil
}

// loadedDefinition tells the LoadedDefinition hooks of t, a table of ns
// read back, copied or restored, with tags.
func (ns *Namespace) loadedDefinition(t *table, tags []TagDesc) {
	for _, h := range ns.svc.seams.hooks {
		if h.LoadedDefinition != nil {
			h.LoadedDefinition(Space{ns: ns}, Table{t: t}, tags)
		}
	}
}

// guardKey puts one key of t the request touches to the KeyGuards.
func (c *call) guardKey(t *table, k storage.Key) error {
	for _, g := range t.stages().guards {
		if err := g.GuardKey(Call{c: c}, Table{t: t}, k); err != nil {
			return err
		}
	}
	return nil
}

// guardRead puts the keys of a read of t to the KeyGuards: part (the key
// itself, or its partition) to each GuardKey, then k, the key it names
// whole, to each GuardRead.
func (c *call) guardRead(t *table, part, k storage.Key) error {
	gs := t.stages().guards
	for _, g := range gs {
		if err := g.GuardKey(Call{c: c}, Table{t: t}, part); err != nil {
			return err
		}
	}
	for _, g := range gs {
		if err := g.GuardRead(Call{c: c}, Table{t: t}, k); err != nil {
			return err
		}
	}
	return nil
}

// guardQuery puts a Query of t to the KeyGuards: its partition, and the
// key its sort key equality names; of t's index (""; none), guardScan.
func (c *call) guardQuery(t *table, index string, kc *expr.KeyCondition) error {
	part := storage.Key{Partition: kc.Partition}
	if index != "" {
		return c.guardScan(t, index, kc.Partition)
	} else if kc.Sort.Op != storage.SortEQ {
		return c.guardKey(t, part)
	}
	return c.guardRead(t, part, storage.Key{Partition: kc.Partition, Sort: kc.Sort.Values[0]})
}

// guardPage puts a feature's read r to the KeyGuards as Query and Scan put
// theirs: each partition r declares, or (none, a multi-key index) a Scan.
func (c *call) guardPage(r *PageRead) error {
	t, x := r.Table.t, ""
	if r.Index != nil {
		x = r.Index.Name
	}
	if !r.None && (len(r.Parts) == 0 || r.Index != nil && r.Index.Multi()) {
		return c.guardScan(t, x, storage.Value{})
	}
	var err error
	for i := 0; i < len(r.Parts) && err == nil; i++ {
		err = c.guardQuery(t, x, &expr.KeyCondition{Partition: r.Parts[i].Partition})
	}
	return err
}

// guardScan puts a read of t not confined to one partition to the
// KeyGuards (partition: the index partition it reads, or invalid).
func (c *call) guardScan(t *table, index string, partition storage.Value) error {
	for _, g := range t.stages().guards {
		if err := g.GuardScan(Call{c: c}, Table{t: t}, index, partition); err != nil {
			return err
		}
	}
	return nil
}

// writeCheck is how the WriteCheckers check t's writes: the most any
// of them asks.
func writeCheck(t *table) WriteCheck {
	wc := NoWriteCheck
	for _, v := range t.ns.svc.seams.writes {
		wc = max(wc, v.ChecksWrites(Table{t: t}))
	}
	return wc
}

// writeLocks appends t's table and the tables the WriteCheckers read
// with its writes to dst: what a storage transaction of t's checked
// writes locks.
func writeLocks(dst []*storage.Table, t *table) []*storage.Table {
	dst = append(dst, t.data)
	for _, v := range t.ns.svc.seams.writes {
		dst = append(dst, v.WriteLocks(nil, Table{t: t})...) // not dst: it would escape (BenchmarkDecodePair/TransactWrite2/handler)
	}
	return dst
}

// checkWrite puts w, a write alone in its request, to the
// WriteCheckers that check its table.
func (c *call) checkWrite(w *Write) error {
	for _, v := range c.svc.seams.writes {
		if v.ChecksWrites(w.Table) == NoWriteCheck {
			continue
		}
		if err := v.CheckWrite(Call{c: c}, w); err != nil {
			return err
		}
	}
	return nil
}

// writeBatch is the checks of a request's writes judged together: one
// WriteBatch per WriteChecker, begun at the first write of a table one
// of them checks. The zero value (with c and tx set) is ready.
type writeBatch struct {
	c  *call
	tx bool // a transaction's
	bs []WriteBatch
}

// add puts w to the WriteCheckers that check its table.
func (b *writeBatch) add(w *Write) {
	writes := b.c.svc.seams.writes
	for i, v := range writes {
		if v.ChecksWrites(w.Table) == NoWriteCheck {
			continue
		}
		if b.bs == nil {
			b.bs = make([]WriteBatch, len(writes))
		}
		if b.bs[i] == nil {
			b.bs[i] = v.NewWriteBatch(Call{c: b.c}, b.tx)
		}
		b.bs[i].Add(w)
	}
}

// settle returns the error that refuses the writes, or nil.
func (b *writeBatch) settle() error {
	for _, wb := range b.bs {
		if wb == nil {
			continue
		}
		if err := wb.Settle(); err != nil {
			return err
		}
	}
	return nil
}

// checkedWrite is one write of t's item with key in a storage
// transaction over the table, committed when fn lets it.
func (c *call) checkedWrite(t *table, key storage.Key, fn func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error)) (storage.Change, error) {
	tx := storage.Begin(writeLocks(make([]*storage.Table, 0, 2), t)...) // on the stack: the table and a stage's
	defer tx.Abort()
	ch, err := tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) { return fn(tx, cur) })
	if err != nil {
		return storage.Change{}, err
	}
	if _, err := tx.Commit(); err != nil {
		return storage.Change{}, err
	}
	return ch, nil
}

// updateWrite is an update's write of t's item with key: the table's
// own write, or a storage transaction over the table when the
// WriteCheckers ask for one (wc). fn gets the transaction (nil: none)
// with the current item.
func (c *call) updateWrite(t *table, wc WriteCheck, key storage.Key, fn func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error)) (storage.Change, error) {
	if wc < CheckWritesReading {
		return t.data.Write(key, func(cur storage.Item) (storage.Item, error) { return fn(nil, cur) })
	}
	return c.checkedWrite(t, key, fn)
}

// storeChecked is PutItem's and DeleteItem's write of item (nil: a
// delete) to a table whose writes are checked: the condition, then the
// checks, on the current item, in one storage transaction over the table.
func (c *call) storeChecked(t *table, key storage.Key, item storage.Item, cond *expr.Condition, rvoccf string, text *string, names map[string]string) (storage.Change, error) {
	return c.checkedWrite(t, key, func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, rvoccf); err != nil {
			return nil, err
		}
		w := Write{Table: Table{t: t}, Op: WritePut, Key: key, Old: cur, New: item, Condition: text, Names: names, Cond: cond, tx: tx}
		if item == nil {
			if cur == nil {
				return nil, storage.ErrNoWrite
			}
			w.Op, w.Condition, w.Names, w.Cond = WriteDelete, nil, nil, nil // a delete's rules read no condition
		}
		if err := c.checkWrite(&w); err != nil {
			return nil, err
		}
		return item, nil
	})
}

// batchWriteChecked is one BatchWriteItem write (item nil: a delete) to
// a table whose writes are checked, inside the batch's transaction: b
// keeps what the checks find. A batch put carries no condition. i is
// the write's position in the table's list of the request.
func (c *call) batchWriteChecked(b *writeBatch, tx *storage.WriteTx, t *table, i int, key storage.Key, item storage.Item) (storage.Change, error) {
	return tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) {
		op := WritePut
		if item == nil {
			if cur == nil {
				return nil, nil // deletes nothing
			}
			op = WriteDelete
		}
		b.add(&Write{Table: Table{t: t}, Op: op, Key: key, Old: cur, New: item, tx: tx, batchTable: t.name, place: i + 1})
		return item, nil
	})
}

// checkTransactWrites puts the writes of a transaction whose conditions
// all passed to the WriteCheckers, before any is applied, under its
// locks, judged together. It returns the error that refuses the
// transaction, or nil.
func checkTransactWrites(c *call, tx *storage.WriteTx, acts []*txAction) error {
	b := writeBatch{c: c, tx: true}
	for i, a := range acts {
		if a.kind == txCheck || writeCheck(a.t) == NoWriteCheck {
			continue
		}
		op := WritePut
		switch a.kind {
		case txUpdate:
			op = WriteUpdate
		case txDelete:
			op = WriteDelete
		}
		old, _ := tx.Get(a.t.data, a.key)
		b.add(&Write{Table: Table{t: a.t}, Op: op, Key: a.key, Old: old, New: a.item, tx: tx, Cond: a.cond,
			Condition: a.checked.text, Names: a.checked.names, CreateOnly: a.insert, place: i + 1})
	}
	return b.settle()
}

// Op is the name of the request's operation.
func (c Call) Op() string { return c.c.op }

// RequestID is the request's x-amzn-RequestId.
func (c Call) RequestID() string { return c.c.requestID }

// Tenant is the request's x-tenant-code header ("": none).
func (c Call) Tenant() string { return c.c.tenantHdr }

// checkRestored puts each item of snap, the items of t being made of a
// snapshot (Call.MakeTable, a rewind: checkRewind), to the KeyGuards and
// WriteCheckers of t before t is made, as its creation: a put with the
// create guard, into the table as the restore leaves it (Write.Exists and
// Write.Get read snap), by c's caller. One refused refuses the restore:
// the error, of the class of the first refusal (the caller's,
// AccessDeniedException, before any other), counts the items refused and
// gives that refusal, as an import's FailureMessage does.
func (c *call) checkRestored(t *table, snap *storage.TableSnapshot) error {
	tt, call := Table{t: t}, Call{c: c}
	var guards []KeyGuard
	for _, g := range c.svc.seams.guards {
		if g.GuardsKeys(tt) {
			guards = append(guards, g)
		}
	}
	checked := false
	for _, v := range c.svc.seams.writes {
		checked = checked || v.ChecksWrites(tt) != NoWriteCheck
	}
	if len(guards) == 0 && !checked {
		return nil // restored without a look at its items
	}
	var n int64
	var denied, other error
	snap.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
		w := Write{Table: tt, Op: WritePut, Key: e.Key(), New: e.Item(), CreateOnly: true, restored: snap}
		var err error
		for i := 0; err == nil && i < len(guards); i++ {
			err = guards[i].GuardKey(call, tt, w.Key)
		}
		if err == nil {
			err = c.checkWrite(&w)
		}
		switch {
		case err == nil:
			return true
		case errors.Is(err, apierr.ErrAccessDenied):
			denied = cmp.Or(denied, err)
		default:
			other = cmp.Or(other, err)
		}
		n++
		return true
	})
	first := cmp.Or(denied, other)
	ae, ok := apierr.Classify(first)
	if first == nil || !ok {
		return first
	}
	return apierr.New(ae.Class, apierr.MsgRestoreRefused(t.name, n, ae.Class.Name+": "+ae.Msg))
}
