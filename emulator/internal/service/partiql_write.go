package service

import (
	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// PartiQL INSERT, UPDATE and DELETE: each is planned into the item write
// it stands for (writePlan), which ExecuteStatement runs as one storage
// Table.Write on the full primary key, conditions checked inside the
// write as PutItem, UpdateItem and DeleteItem check theirs, and
// ExecuteTransaction runs as one action of a storage transaction.

// writePlan is a write statement compiled against its table.
type writePlan struct {
	t    *table
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

func planInsert(c *call, b lower.Binding, s *partiql.Insert) (*writePlan, error) {
	t, err := c.lookupTable(s.Into.Table.Text)
	if err != nil {
		return nil, err
	}
	item, err := lower.LowerInsert(b, s, t.schema)
	if err != nil {
		return nil, lowered(err)
	}
	p := &writePlan{t: t, item: item}
	p.size = storage.ItemSize(item)
	if p.size > maxItemBytes {
		return nil, itemRule(apierr.Validation(apierr.MsgItemTooLarge))
	}
	if p.key, err = t.keyFromItem(item); err != nil {
		return nil, itemRule(err)
	}
	if err := c.guardKey(t, p.key); err != nil {
		return nil, err
	}
	return p, itemRule(t.checkIndexKeys(item, false))
}

func runInsert(c *call, b lower.Binding, s *partiql.Insert, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planInsert(c, b, s)
	if err != nil {
		return nil, err
	}
	if err := c.beginGuarded(p.t, p.key, insights.Put); err != nil {
		return nil, err
	}
	c.writing(p.size) // a DuplicateItem is charged as a refused condition (fx_condfail.go)
	tp := p.t.convPolicy()
	change, err := p.t.data.Write(p.key, func(cur storage.Item) (storage.Item, error) {
		if cur != nil {
			return nil, apierr.New(apierr.ErrDuplicateItem, apierr.MsgDuplicateItem)
		}
		if tp != nil { // INSERT creates only, as the create guard does
			if err := tp.check(c, tp.write(p.t, conventions.OpPut, p.key, nil, p.item, convCond{guard: true}, nil)); err != nil {
				return nil, err
			}
		}
		return p.item, nil
	})
	if err != nil {
		return nil, err // a refusal is charged by the pipeline
	}
	c.wrote(p.size, change)
	return &ExecuteStatementOutput{ConsumedCapacity: c.writeCapacity(opt.capacity)}, nil
}

// planUpdate lowers an UPDATE: its key, its actions, and its condition
// (the item exists, and the WHERE clause's other conjuncts).
func planUpdate(c *call, b lower.Binding, s *partiql.Update) (*writePlan, error) {
	t, err := c.lookupTable(s.Table.Table.Text)
	if err != nil {
		return nil, err
	}
	u, err := lower.LowerUpdate(b, s, t.schema)
	if err != nil {
		return nil, lowered(err)
	}
	key, err := statementKey(t, u.Key)
	if err != nil {
		return nil, err
	}
	if err := c.guardKey(t, key); err != nil {
		return nil, err
	}
	p := &writePlan{t: t, key: key, upd: u.Update, cond: u.Cond}
	return p, itemRule(checkKeyNotUpdated(t.schema, p.upd))
}

func runUpdate(c *call, b lower.Binding, s *partiql.Update, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planUpdate(c, b, s)
	if err != nil {
		return nil, err
	}
	t, upd := p.t, p.upd
	if err := c.beginGuarded(t, p.key, insights.Update); err != nil {
		return nil, err
	}
	tp := t.convPolicy()
	var newSize int
	change, err := t.data.Write(p.key, func(cur storage.Item) (storage.Item, error) {
		if err := checkCondition(p.cond, cur, opt.rvoccf); err != nil {
			return nil, err
		}
		next, err := upd.Apply(cur)
		if err != nil {
			return nil, err
		}
		if err := checkUpdatedNesting(upd, next); err != nil {
			return nil, err
		}
		if err := t.checkIndexKeys(next, true); err != nil {
			return nil, err
		}
		newSize = storage.ItemSize(next)
		if newSize > maxItemBytes {
			return nil, apierr.Validation(apierr.MsgUpdatedItemTooLarge)
		}
		if tp != nil {
			if err := tp.check(c, tp.write(t, conventions.OpUpdate, p.key, cur, next, convCond{}, nil)); err != nil {
				return nil, err
			}
		}
		return next, nil
	})
	if err != nil {
		return nil, err // a refusal is charged by the pipeline (the new item is computed after the condition)
	}
	c.wrote(max(newSize, change.OldSize), change)
	out := &ExecuteStatementOutput{ConsumedCapacity: c.writeCapacity(opt.capacity)}
	if s.Returning != nil {
		if w := updateReturnValues(returningValues(s.Returning), upd, change); w != nil {
			out.Items = []storage.Item{w.Item()}
		}
	}
	return out, nil
}

// returningValues maps RETURNING to UpdateItem's ReturnValues.
func returningValues(r *partiql.Returning) string {
	switch {
	case r.Which == partiql.ALL && r.Image == partiql.OLD:
		return returnAllOld
	case r.Which == partiql.ALL:
		return returnAllNew
	case r.Image == partiql.OLD:
		return returnUpdatedOld
	}
	return returnUpdatedNew
}

// planDelete lowers a DELETE: the full key and the condition (true for a
// missing item, as AWS documents; lower.Delete).
func planDelete(c *call, b lower.Binding, s *partiql.Delete) (*writePlan, error) {
	t, err := c.lookupTable(s.From.Table.Text)
	if err != nil {
		return nil, err
	}
	d, err := lower.LowerDelete(b, s, t.schema)
	if err != nil {
		return nil, lowered(err)
	}
	return planKeyed(c, t, d)
}

// planExists lowers the SELECT of an EXISTS of ExecuteTransaction: the
// full key and the condition (false for a missing item).
func planExists(c *call, b lower.Binding, s *partiql.Exists) (*writePlan, error) {
	t, err := c.lookupTable(s.Query.From.Table.Text)
	if err != nil {
		return nil, err
	}
	d, err := lower.LowerExists(b, s, t.schema)
	if err != nil {
		return nil, lowered(err)
	}
	return planKeyed(c, t, d)
}

// planKeyed makes the plan of a lowered DELETE or EXISTS: the storage key,
// the tenant guard, the condition.
func planKeyed(c *call, t *table, d *lower.Delete) (*writePlan, error) {
	key, err := statementKey(t, d.Key)
	if err != nil {
		return nil, err
	}
	if err := c.guardKey(t, key); err != nil {
		return nil, err
	}
	return &writePlan{t: t, key: key, cond: d.Cond}, nil
}

func runDelete(c *call, b lower.Binding, s *partiql.Delete, opt stmtOptions) (*ExecuteStatementOutput, error) {
	p, err := planDelete(c, b, s)
	if err != nil {
		return nil, err
	}
	rv := returnNone
	if s.Returning != nil {
		rv = returnAllOld
	}
	if err := c.beginGuarded(p.t, p.key, insights.Delete); err != nil {
		return nil, err
	}
	change, _, err := c.store(itemWrite{cond: p.cond, returnValues: rv, rvoccf: opt.rvoccf, capacity: opt.capacity})
	if err != nil {
		return nil, err // a refusal is charged by the pipeline
	}
	c.wrote(change.OldSize, change)
	out := &ExecuteStatementOutput{ConsumedCapacity: c.writeCapacity(opt.capacity)}
	if s.Returning != nil && change.Old != nil {
		out.Items = []storage.Item{change.Old}
	}
	return out, nil
}
