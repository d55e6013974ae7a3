package emulator

import (
	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// PartiQL INSERT, UPDATE and DELETE: one storage Table.Write each on the
// full primary key, conditions checked inside the write as PutItem,
// UpdateItem and DeleteItem check theirs.

func runInsert(c *call, x *translator, s *partiql.Insert, opt stmtOptions) (*ExecuteStatementOutput, error) {
	t, err := c.lookupTable(s.Into.Table.Text)
	if err != nil {
		return nil, err
	}
	item, err := x.item(s.Value)
	if err != nil {
		return nil, err
	}
	for _, a := range []storage.KeyAttr{t.schema.Partition, t.schema.Sort} {
		if a.Name == "" {
			continue
		}
		if _, ok := item[a.Name]; !ok {
			return nil, errValidationf(msgInsertKeyMissing, a.Name)
		}
	}
	size := storage.ItemSize(item)
	if size > maxItemBytes {
		return nil, errValidation(msgItemTooLarge)
	}
	key, err := t.keyFromItem(item)
	if err != nil {
		return nil, err
	}
	if err := t.checkIndexKeys(item, false); err != nil {
		return nil, err
	}
	if err := c.guardKey(t, key); err != nil {
		return nil, err
	}
	tp := t.convPolicy()
	change, err := t.data.Write(key, func(cur storage.Item) (storage.Item, error) {
		if cur != nil {
			return nil, newError(ErrDuplicateItem, msgDuplicateItem)
		}
		if tp != nil { // INSERT creates only, as the create guard does
			if err := tp.check(c, tp.write(t, conventions.OpPut, key, nil, item, true, nil)); err != nil {
				return nil, err
			}
		}
		return item, nil
	})
	if err != nil {
		return nil, err
	}
	return &ExecuteStatementOutput{ConsumedCapacity: writeChangeCapacity(t, opt.capacity, size, change)}, nil
}

func runUpdate(c *call, x *translator, s *partiql.Update, opt stmtOptions) (*ExecuteStatementOutput, error) {
	t, err := c.lookupTable(s.Table.Table.Text)
	if err != nil {
		return nil, err
	}
	key, rest, err := x.fullKey(t, s.Where)
	if err != nil {
		return nil, err
	}
	updText, err := x.update(s.Actions)
	if err != nil {
		return nil, err
	}
	restText, err := x.joinConditions(rest)
	if err != nil {
		return nil, err
	}
	// An UPDATE changes an existing item only.
	condText := "attribute_exists(" + x.name(t.schema.Partition.Name) + ")"
	if restText != "" {
		condText += " AND " + restText
	}
	comp := x.compiler()
	upd, err := comp.Update(updText)
	if err != nil {
		return nil, exprError(err)
	}
	cond, err := comp.Condition("ConditionExpression", condText)
	if err != nil {
		return nil, exprError(err)
	}
	if err := checkKeyNotUpdated(t.schema, upd); err != nil {
		return nil, err
	}
	if err := c.guardKey(t, key); err != nil {
		return nil, err
	}
	tp := t.convPolicy()
	var newSize int
	change, err := t.data.Write(key, func(cur storage.Item) (storage.Item, error) {
		if err := checkCondition(cond, cur, opt.rvoccf); err != nil {
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
			return nil, errValidation(msgUpdatedItemTooLarge)
		}
		if tp != nil {
			if err := tp.check(c, tp.write(t, conventions.OpUpdate, key, cur, next, false, nil)); err != nil {
				return nil, err
			}
		}
		return next, nil
	})
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: writeChangeCapacity(t, opt.capacity, max(newSize, change.OldSize), change)}
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

func runDelete(c *call, x *translator, s *partiql.Delete, opt stmtOptions) (*ExecuteStatementOutput, error) {
	t, err := c.lookupTable(s.From.Table.Text)
	if err != nil {
		return nil, err
	}
	key, rest, err := x.fullKey(t, s.Where)
	if err != nil {
		return nil, err
	}
	restText, err := x.joinConditions(rest)
	if err != nil {
		return nil, err
	}
	var cond *expr.Condition
	if restText != "" {
		if cond, err = x.compiler().Condition("ConditionExpression", restText); err != nil {
			return nil, exprError(err)
		}
	}
	if err := c.guardKey(t, key); err != nil {
		return nil, err
	}
	rv := returnNone
	if s.Returning != nil {
		rv = returnAllOld
	}
	change, err := putOrDelete(t, key, nil, cond, rv, opt.rvoccf, opt.capacity)
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: writeChangeCapacity(t, opt.capacity, change.OldSize, change)}
	if s.Returning != nil && change.Old != nil {
		out.Items = []storage.Item{change.Old}
	}
	return out, nil
}
