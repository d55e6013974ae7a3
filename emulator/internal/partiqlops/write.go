package partiqlops

import (
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// PartiQL INSERT, UPDATE and DELETE: each is planned into the item write
// it stands for (writePlan), which ExecuteStatement has the core run as
// one storage Table.Write on the full primary key, conditions checked
// inside the write as PutItem, UpdateItem and DeleteItem check theirs
// (service.Call.WriteItem, the core's one write of an item alone), and
// ExecuteTransaction as one action of a storage transaction.

// writePlan is a write statement compiled against its table.
type writePlan struct {
	t    service.Table
	key  storage.Key
	item storage.Item // INSERT: the item
	upd  *expr.Update // UPDATE
	cond *expr.Condition
}

// itemRuleError marks an error of the item a statement reads or writes
// (its key, size or index keys) rather than of the statement's text.
// ExecuteStatement answers it as it is; ExecuteTransaction cancels with it
// as the statement's ValidationError reason, as DynamoDB Local does.
type itemRuleError struct{ err error }

func (e *itemRuleError) Error() string { return e.err.Error() }
func (e *itemRuleError) Unwrap() error { return e.err }

// itemRule marks err (nil stays nil) as an itemRuleError.
func itemRule(err error) error {
	if err == nil {
		return nil
	}
	return &itemRuleError{err}
}

func planInsert(c service.Call, b lower.Binding, s *partiql.Insert) (*writePlan, error) {
	t, err := c.LookupDataTable(s.Into.Table.Text)
	if err != nil {
		return nil, err
	}
	item, err := lower.LowerInsert(b, s, t.Schema())
	if err != nil {
		return nil, lowered(err)
	}
	p := &writePlan{t: t, item: item}
	if storage.ItemSize(item) > service.MaxItemBytes {
		return nil, itemRule(apierr.Validation(apierr.MsgItemTooLarge))
	}
	if p.key, err = t.KeyFromItem(item); err != nil {
		return nil, itemRule(err)
	}
	return p, itemRule(t.CheckIndexKeys(item, false))
}

// refused is the output of a write refused by its condition: the
// capacity the refusal consumed (WriteItem), which BatchExecuteStatement
// adds to its table's total; nil when there is none. ExecuteStatement
// answers the error alone.
func refused(cc *service.ConsumedCapacity) *ExecuteStatementOutput {
	if cc == nil {
		return nil
	}
	return &ExecuteStatementOutput{ConsumedCapacity: cc}
}

func runInsert(c service.Call, b lower.Binding, s *partiql.Insert, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planInsert(c, b, s)
	if err != nil {
		return nil, err
	}
	_, cc, err := c.WriteItem(&service.TxWrite{Kind: service.TxPut, Insert: true, Table: p.t, Key: p.key, Item: p.item}, opt.capacity)
	if err != nil {
		return refused(cc), err
	}
	return &ExecuteStatementOutput{ConsumedCapacity: cc}, nil
}

// planUpdate lowers an UPDATE: its key, its actions, and its condition
// (the item exists, and the WHERE clause's other conjuncts).
func planUpdate(c service.Call, b lower.Binding, s *partiql.Update) (*writePlan, error) {
	t, err := c.LookupDataTable(s.Table.Table.Text)
	if err != nil {
		return nil, err
	}
	u, err := lower.LowerUpdate(b, s, t.Schema())
	if err != nil {
		return nil, lowered(err)
	}
	key, err := statementKey(t, u.Key)
	if err != nil {
		return nil, err
	}
	p := &writePlan{t: t, key: key, upd: u.Update, cond: u.Cond}
	return p, itemRule(tablespec.CheckKeyNotUpdated(t.Schema(), p.upd))
}

func runUpdate(c service.Call, b lower.Binding, s *partiql.Update, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planUpdate(c, b, s)
	if err != nil {
		return nil, err
	}
	w := &service.TxWrite{Kind: service.TxUpdate, Table: p.t, Key: p.key, Update: p.upd, Condition: p.cond, RVOCCF: opt.rvoccf}
	change, cc, err := c.WriteItem(w, opt.capacity)
	if err != nil {
		return refused(cc), err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: cc}
	if s.Returning != nil {
		if item := returned(s.Returning, p.upd, change); len(item) > 0 {
			out.Items = []storage.Item{item}
		}
	}
	return out, nil
}

// returned is what RETURNING asks for of an update's change, as
// UpdateItem's ReturnValues answers: the whole old or new item, or the
// updated paths of either (a nested SET, only the changed fragment).
func returned(r *partiql.Returning, upd *expr.Update, ch storage.Change) storage.Item {
	switch {
	case r.Which == partiql.ALL && r.Image == partiql.OLD:
		return ch.Old
	case r.Which == partiql.ALL:
		return ch.New
	case upd == nil:
		return nil
	case r.Image == partiql.OLD:
		return upd.UpdatedOld(ch.Old)
	}
	return upd.UpdatedNew(ch.New)
}

// planDelete lowers a DELETE: the full key and the condition (true for a
// missing item, as AWS documents; lower.Delete).
func planDelete(c service.Call, b lower.Binding, s *partiql.Delete) (*writePlan, error) {
	t, err := c.LookupDataTable(s.From.Table.Text)
	if err != nil {
		return nil, err
	}
	d, err := lower.LowerDelete(b, s, t.Schema())
	if err != nil {
		return nil, lowered(err)
	}
	return planKeyed(c, t, d)
}

// planExists lowers the SELECT of an EXISTS of ExecuteTransaction: the
// full key and the condition (false for a missing item).
func planExists(c service.Call, b lower.Binding, s *partiql.Exists) (*writePlan, error) {
	t, err := c.LookupDataTable(s.Query.From.Table.Text)
	if err != nil {
		return nil, err
	}
	d, err := lower.LowerExists(b, s, t.Schema())
	if err != nil {
		return nil, lowered(err)
	}
	return planKeyed(c, t, d)
}

// planKeyed makes the plan of a lowered DELETE or EXISTS: the storage key
// and the condition (its key is guarded where it is written or checked:
// Call.WriteItem, Call.TransactWrite).
func planKeyed(c service.Call, t service.Table, d *lower.Delete) (*writePlan, error) {
	key, err := statementKey(t, d.Key)
	if err != nil {
		return nil, err
	}
	return &writePlan{t: t, key: key, cond: d.Cond}, nil
}

// deleteReturningError refuses a DELETE whose RETURNING is not ALL OLD *,
// as AWS does, before the statement reads or writes anything (public
// records of AWS answers: nubo-db/dynamodb-conformance,
// tests/tier3/error-messages/partiql.test.ts).
func deleteReturningError(st partiql.Statement) error {
	d, ok := st.(*partiql.Delete)
	if !ok || d.Returning == nil || d.Returning.Which == partiql.ALL && d.Returning.Image == partiql.OLD {
		return nil
	}
	words := d.Returning.Which.String() + " " + d.Returning.Image.String()
	return apierr.Validation(fmt.Sprintf(apierr.MsgDeleteReturning, words))
}

func runDelete(c service.Call, b lower.Binding, s *partiql.Delete, opt stmtOptions) (*ExecuteStatementOutput, error) {
	if err := deleteReturningError(s); err != nil {
		return nil, err
	}
	p, err := planDelete(c, b, s)
	if err != nil {
		return nil, err
	}
	w := &service.TxWrite{Kind: service.TxDelete, Table: p.t, Key: p.key, Condition: p.cond, RVOCCF: opt.rvoccf}
	change, cc, err := c.WriteItem(w, opt.capacity)
	if err != nil {
		return refused(cc), err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: cc}
	if s.Returning != nil && change.Old != nil {
		out.Items = []storage.Item{change.Old}
	}
	return out, nil
}
