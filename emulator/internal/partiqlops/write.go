package partiqlops

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// PartiQL INSERT, UPDATE and DELETE: each is planned into the item write
// it stands for (writePlan), which ExecuteStatement has the core run as
// one storage Table.Write on the full primary key, conditions checked
// inside the write as PutItem, UpdateItem and DeleteItem check theirs
// (service.Call.InsertStatement and its siblings), and ExecuteTransaction
// as one action of a storage transaction.

// writePlan is a write statement compiled against its table.
type writePlan struct {
	t    service.Table
	key  storage.Key
	item storage.Item // INSERT: the item
	size int          // INSERT: the item's size
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
	p.size = storage.ItemSize(item)
	if p.size > service.MaxItemBytes {
		return nil, itemRule(apierr.Validation(apierr.MsgItemTooLarge))
	}
	if p.key, err = t.KeyFromItem(item); err != nil {
		return nil, itemRule(err)
	}
	if err := c.GuardKey(t, p.key); err != nil {
		return nil, err
	}
	return p, itemRule(t.CheckIndexKeys(item, false))
}

func runInsert(c service.Call, b lower.Binding, s *partiql.Insert, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planInsert(c, b, s)
	if err != nil {
		return nil, err
	}
	cc, err := c.InsertStatement(p.t, p.key, p.item, p.size, opt.capacity)
	if err != nil {
		return nil, err
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
	if err := c.GuardKey(t, key); err != nil {
		return nil, err
	}
	p := &writePlan{t: t, key: key, upd: u.Update, cond: u.Cond}
	return p, itemRule(service.CheckKeyNotUpdated(t.Schema(), p.upd))
}

func runUpdate(c service.Call, b lower.Binding, s *partiql.Update, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planUpdate(c, b, s)
	if err != nil {
		return nil, err
	}
	rv := ""
	if s.Returning != nil {
		rv = returningValues(s.Returning)
	}
	item, cc, err := c.UpdateStatement(p.t, p.key, p.upd, p.cond, opt.rvoccf, opt.capacity, rv)
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: cc}
	if item != nil {
		out.Items = []storage.Item{item}
	}
	return out, nil
}

// returningValues maps RETURNING to UpdateItem's ReturnValues.
func returningValues(r *partiql.Returning) string {
	switch {
	case r.Which == partiql.ALL && r.Image == partiql.OLD:
		return service.ReturnAllOld
	case r.Which == partiql.ALL:
		return service.ReturnAllNew
	case r.Image == partiql.OLD:
		return service.ReturnUpdatedOld
	}
	return service.ReturnUpdatedNew
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

// planKeyed makes the plan of a lowered DELETE or EXISTS: the storage key,
// the tenant guard, the condition.
func planKeyed(c service.Call, t service.Table, d *lower.Delete) (*writePlan, error) {
	key, err := statementKey(t, d.Key)
	if err != nil {
		return nil, err
	}
	if err := c.GuardKey(t, key); err != nil {
		return nil, err
	}
	return &writePlan{t: t, key: key, cond: d.Cond}, nil
}

func runDelete(c service.Call, b lower.Binding, s *partiql.Delete, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planDelete(c, b, s)
	if err != nil {
		return nil, err
	}
	old, cc, err := c.DeleteStatement(p.t, p.key, p.cond, s.Returning != nil, opt.rvoccf, opt.capacity)
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: cc}
	if s.Returning != nil && old != nil {
		out.Items = []storage.Item{old}
	}
	return out, nil
}
