package service

import (
	"fmt"
	"log/slog"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/convcheck"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The conventions layer: the rules of package conventions on the write
// path of the tables that opt in (Config.Conventions names them, or their
// tags do), a stage of the request pipeline whose rules, report and
// refusals are package convcheck's. A table keeps its resolved policy
// (table.conv); a table that does not opt in has none, and its requests
// pay one nil check. The rules run inside the storage write callback,
// where the current item is at hand and the table is locked, so what they
// judge is what is replaced: PutItem and BatchWriteItem through a
// storage.WriteTx (whose reads inside the callback let rule B5 ask
// whether the previous version exists), UpdateItem and PartiQL's INSERT
// and UPDATE through their Table.Write (without rule B5 for INSERT: no
// other item can be read there), TransactWriteItems once all its
// conditions have passed (CheckTransaction sees every write of it). The
// tenant guard runs before any of them, on every key a request names, in
// reads too.
//
// Deletes (DeleteItem, PartiQL DELETE, BatchWriteItem and transaction deletes) run the
// rules too, on the item they remove (rules B12, B13, B14, B17 and L1). Reads of one key
// (GetItem, BatchGetItem, TransactGetItems, a Query's sort key equality) are checked by rule A14.

// convState is an Emulator's conventions layer.
type convState struct{ *convcheck.State }

// tablePolicy is the policy of a table that opted in; convCond a write's
// condition as the rules read it; convBatch the violations of a batch's
// writes (BatchWriteItem), refused together.
type (
	tablePolicy = convcheck.Policy
	convCond    = convcheck.Cond
	convBatch   = convcheck.Batch
)

var convLocks = convcheck.Locks // a write's tables and the command table rule B18 reads

func newConvState(cfg *conventions.Config, log *slog.Logger, design func() *insights.Design) (*convState, error) {
	st, err := convcheck.New(cfg, log, design)
	if err != nil {
		return nil, err
	}
	return &convState{st}, nil
}

// convReq is the request as the rules see it.
func (c *call) convReq() convcheck.Req {
	return convcheck.Req{Op: c.op, RequestID: c.requestID, Now: c.now, AccessKey: c.accessKey, TenantHdr: c.tenantHdr, Log: c.svc.log}
}

// conventionsSnapshot is the report (Service.ConventionsReport) with the
// tables that follow the conventions, their role, mode and source, and
// the configuration's entries with how many tables each gave its policy.
func (s *Service) conventionsSnapshot() conventions.Snapshot {
	var names []string
	var checked []conventions.CheckedTable
	for _, ns := range s.dbs.all() {
		for _, name := range ns.tableNames() {
			names = append(names, name)
			t := ns.getTable(name)
			if t == nil {
				continue
			}
			if tp := t.convPolicy(); tp != nil {
				ct := conventions.CheckedTable{Table: name, Roles: tp.P.Roles.String(), Mode: tp.P.Mode.String(), Source: tp.Source}
				if !s.cfg.SharedDB {
					ct.Namespace = ns.key
				}
				checked = append(checked, ct)
			}
		}
	}
	return s.conv.Snapshot(checked, names)
}

// convPolicy returns the table's conventions policy, nil when it has not
// opted in.
func (t *table) convPolicy() *tablePolicy { return t.conv.Load() }

// convTable is t as the rules check its definition, with its stream spec.
func convTable(t *table, spec *StreamSpecification) convcheck.Table {
	ct := convcheck.Table{Name: t.name, Keys: conventions.KeySchema{
		Partition: conventions.KeyAttribute{Name: t.schema.Partition.Name, Type: t.schema.Partition.Kind.String()},
		Sort:      conventions.KeyAttribute{Name: t.schema.Sort.Name, Type: t.schema.Sort.Kind.String()}}}
	if spec != nil && spec.StreamEnabled != nil && *spec.StreamEnabled {
		ct.StreamEnabled = true
		if spec.StreamViewType != nil {
			ct.StreamView = *spec.StreamViewType
		}
	}
	return ct
}

// attach resolves t's policy (convcheck.State.Attach): when the table is
// created and when its tags change. The stream is read from the
// published definition: attach runs inside changeMeta (tags change, the
// stream does not) or after CreateTable stored the new table's
// definition.
func (st *convState) attach(c *call, t *table, tags []tablespec.TagPair) (*tablePolicy, error) {
	return st.Attach(c.convReq(), convTable(t, t.snapshot().stream), tablespec.TagMap(tags), c.op == "CreateTable", c.ns.tableNames)
}

// restored is the policy of t, rebuilt from its recorded tags
// (catalog_apply.go; convcheck.State.Restored).
func (st *convState) restored(t *table, tags []tablespec.TagPair) *tablePolicy {
	return st.Restored(t.name, tablespec.TagMap(tags))
}

// checkStream checks rule A11 when UpdateTable changes t's stream.
func (c *call) checkStream(tp *tablePolicy, t *table, spec *StreamSpecification) {
	ct := convTable(t, spec)
	tp.CheckStream(c.convReq(), t.name, ct.StreamEnabled, ct.StreamView)
}

// convWrite describes one item write of t for the rules.
func convWrite(tp *tablePolicy, t *table, op conventions.Op, key storage.Key, old, nu storage.Item, cond convCond) conventions.Write {
	w := tp.Write(t.name, conventions.Key{PK: t.schema.Partition.Name, SK: t.schema.Sort.Name}, op, key, old, nu, cond)
	for _, g := range t.meta.Load().GSIs { // rule B16 (the first partition key attribute)
		w.IndexKeys = append(w.IndexKeys, conventions.IndexKey{Index: g.Name, Attr: g.Schema.Partition.Name})
	}
	return w
}

// inTx completes w with the lookups of transaction tx over w's table: Exists (rule B5),
// Command (B18, when tx locked the command table) and Get (L1 on deletes, with a latest item).
func inTx(w conventions.Write, tx *storage.WriteTx, t *table) conventions.Write {
	w.Exists = func(pk, sk string) bool {
		_, ok := tx.GetEncoded(t.data, t.schema.StringKey(pk, sk))
		return ok
	}
	if w.Policy.Latest != "" {
		w.Get = func(pk, sk string) storage.Item {
			item, _ := tx.Get(t.data, t.schema.StringKey(pk, sk))
			return item
		}
	}
	return convcheck.WithCommand(w, tx)
}

// updateWrite is an update's t.data.Write; on a table with a latest item (L1
// reads other items), a write in a storage transaction whose reads complete adds.
func (c *call) updateWrite(t *table, tp *tablePolicy, key storage.Key, fn func(storage.Item, func(conventions.Write) conventions.Write) (storage.Item, error)) (storage.Change, error) {
	if tp == nil || (tp.P.Latest == "" && len(convLocks(nil, tp, t.data)) == 1) {
		return t.data.Write(key, func(cur storage.Item) (storage.Item, error) {
			return fn(cur, func(w conventions.Write) conventions.Write { return w })
		})
	}
	return c.checkedWrite(t, key, func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error) {
		return fn(cur, func(w conventions.Write) conventions.Write { return inTx(w, tx, t) })
	})
}

// putChecked is PutItem's write to a table with a policy: the condition,
// then the rules, on the current item, in one storage transaction over the
// table.
func (c *call) putChecked(tp *tablePolicy, t *table, key storage.Key, item storage.Item, cond *expr.Condition, rvoccf string, text convCond) (storage.Change, error) {
	return c.checkedWrite(t, key, func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, rvoccf); err != nil {
			return nil, err
		}
		if err := tp.Check(c.convReq(), inTx(convWrite(tp, t, conventions.OpPut, key, cur, item, text), tx, t)); err != nil {
			return nil, err
		}
		return item, nil
	})
}

// deleteChecked is DeleteItem's (and PartiQL DELETE's) delete from a table
// with a policy: the condition, then the rules (B12, L1), on the current
// item, in one storage transaction over the table.
func (c *call) deleteChecked(tp *tablePolicy, t *table, key storage.Key, cond *expr.Condition, rvoccf string) (storage.Change, error) {
	return c.checkedWrite(t, key, func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, rvoccf); err != nil {
			return nil, err
		}
		if cur == nil {
			return nil, storage.ErrNoWrite
		}
		if err := tp.Check(c.convReq(), inTx(convWrite(tp, t, conventions.OpDelete, key, cur, nil, convCond{}), tx, t)); err != nil {
			return nil, err
		}
		return nil, nil
	})
}

// checkedWrite is one write of t's item with key in a storage
// transaction over the table, committed when fn lets it.
func (c *call) checkedWrite(t *table, key storage.Key, fn func(tx *storage.WriteTx, cur storage.Item) (storage.Item, error)) (storage.Change, error) {
	tx := storage.Begin(convLocks(nil, t.conv.Load(), t.data)...)
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

// batchWriteChecked is one BatchWriteItem write (item nil: a delete) to a
// table with a policy, inside the batch's transaction: the rules check it
// and cb keeps its violations. A batch put carries no condition, so a put
// that creates a command row breaks rule B6. i is the write's position in
// the table's list of the request.
func (c *call) batchWriteChecked(cb *convBatch, tp *tablePolicy, tx *storage.WriteTx, t *table, i int, key storage.Key, item storage.Item) (storage.Change, error) {
	return tx.Write(t.data, key, func(cur storage.Item) (storage.Item, error) {
		op := conventions.OpPut
		if item == nil {
			if cur == nil {
				return nil, nil // deletes nothing
			}
			op = conventions.OpDelete
		}
		w := inTx(convWrite(tp, t, op, key, cur, item, convCond{}), tx, t)
		w.Position = fmt.Sprintf("RequestItems[%q][%d]", t.name, i)
		cb.Check(tp, c.convReq(), w)
		return item, nil
	})
}

// checkTransactConventions runs the rules on the writes of a transaction
// whose conditions all passed, before any is applied, under its locks:
// CheckTransaction sees them together (rule L1, and B5 counting the
// transaction's own puts). It returns the error that refuses the
// transaction, or nil.
func checkTransactConventions(c *call, tx *storage.WriteTx, acts []*txAction) error {
	var b convcheck.Batch
	for i, a := range acts {
		tp := a.t.convPolicy()
		if tp == nil || a.kind == txCheck {
			continue
		}
		op := conventions.OpPut
		switch a.kind {
		case txUpdate:
			op = conventions.OpUpdate
		case txDelete:
			op = conventions.OpDelete
		}
		old, _ := tx.Get(a.t.data, a.key)
		w := inTx(convWrite(tp, a.t, op, a.key, old, a.item, a.convCond), tx, a.t)
		w.Position = fmt.Sprintf("TransactItems[%d]", i)
		b.Add(tp, c.convReq(), w)
	}
	return b.Settle(c.convReq())
}

// guardKey is the tenant guard (rule B10) for one key a request touches:
// AccessDeniedException when the caller is bound to a tenant that may not
// use the key's (warn mode: reported only).
func (c *call) guardKey(t *table, k storage.Key) error {
	tp := t.convPolicy()
	if tp == nil {
		return nil
	}
	return tp.GuardKey(c.convReq(), t.name, k)
}

// readKey is the pipeline's first stage for a key a read names (GetItem,
// BatchGetItem, TransactGetItems): the tenant guard, then rule A14
// (checkRead).
func (c *call) readKey(t *table, k storage.Key) error {
	if err := c.guardKey(t, k); err != nil {
		return err
	}
	return c.checkRead(t, k)
}

// checkRead is rule A14 for one key a read names: a data table read by a
// versioned sort key.
func (c *call) checkRead(t *table, k storage.Key) error {
	tp := t.convPolicy()
	if tp == nil || !t.schema.HasSort() || k.Sort.Kind() != storage.KindS {
		return nil
	}
	return tp.CheckRead(c.convReq(), t.name, k)
}

// checkQuery is rule A14 for a Query of table t whose sort key condition
// is an equality: the key it names.
func (c *call) checkQuery(t *table, kc *expr.KeyCondition) error {
	if t.convPolicy() == nil || kc.Sort.Op != storage.SortEQ {
		return nil
	}
	return c.checkRead(t, storage.Key{Partition: kc.Partition, Sort: kc.Sort.Values[0]})
}

// guardScan is the tenant guard for a read that is not confined to one
// partition of the table: a Scan (index "") or a Query of a secondary index.
func (c *call) guardScan(t *table, index string) error {
	tp := t.convPolicy()
	if tp == nil {
		return nil
	}
	return tp.GuardScan(c.convReq(), t.name, index)
}

// guardSelect is the tenant guard for a PartiQL SELECT: each partition it
// reads (kcs), or the whole table when scan.
func (c *call) guardSelect(t *table, kcs []*expr.KeyCondition, scan bool) error {
	if t.convPolicy() == nil {
		return nil
	}
	if scan {
		return c.guardScan(t, "")
	}
	for _, kc := range kcs {
		if err := c.guardKey(t, storage.Key{Partition: kc.Partition}); err != nil {
			return err
		}
	}
	return nil
}
