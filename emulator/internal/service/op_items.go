package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/exprparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The single-item operations: PutItem, GetItem, DeleteItem, UpdateItem.
// Each validates in AWS's order (request constraints, expression parameters,
// expressions, ReturnValues, item size, table, key) and then does exactly one
// storage read or one storage Table.Write, evaluating any condition on the
// current item inside the write so a failed condition writes nothing.

// Enum value sets in the order AWS lists them in constraint messages.
const (
	enumReturnValues       = "ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW"
	enumReturnICM          = "SIZE, NONE"
	enumConditionalOp      = "OR, AND"
	paramConditionExpr     = "ConditionExpression"
	paramUpdateExpr        = "UpdateExpression"
	paramProjectionExpr    = "ProjectionExpression"
	paramExpected          = "Expected"
	paramAttributeUpdates  = "AttributeUpdates"
	paramAttributesToGet   = "AttributesToGet"
	paramConditionalOp     = "ConditionalOperator"
	paramReturnValues      = "returnValues"
	paramReturnICM         = "returnItemCollectionMetrics"
	paramConditionalOpWire = "conditionalOperator"
)

// AttributeValueUpdate is one entry of the legacy AttributeUpdates parameter.
type AttributeValueUpdate struct {
	Action string               `json:"Action,omitempty"`
	Value  *wire.AttributeValue `json:"Value,omitempty"`
}

// PutItemInput is the PutItem request.
type PutItemInput struct {
	TableName                           *string               `json:"TableName"`
	Item                                wire.WireItem         `json:"Item"`
	ConditionExpression                 *string               `json:"ConditionExpression"`
	ExpressionAttributeNames            wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues           wire.ExpressionValues `json:"ExpressionAttributeValues"`
	Expected                            *expr.LegacyExpected  `json:"Expected"`
	ConditionalOperator                 string                `json:"ConditionalOperator"`
	ReturnValues                        string                `json:"ReturnValues"`
	ReturnConsumedCapacity              string                `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics         string                `json:"ReturnItemCollectionMetrics"`
	ReturnValuesOnConditionCheckFailure string                `json:"ReturnValuesOnConditionCheckFailure"`

	itemWritten bool // Item is written and nobody keeps it: recycle gives it back
}

// PutItemOutput is the PutItem response.
type PutItemOutput struct {
	Attributes            wire.WireItem          `json:"Attributes,omitempty"`
	ConsumedCapacity      *ConsumedCapacity      `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics *ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}

// GetItemInput is the GetItem request.
type GetItemInput struct {
	TableName                *string              `json:"TableName"`
	Key                      wire.WireItem        `json:"Key"`
	AttributesToGet          expr.NameList        `json:"AttributesToGet"`
	ProjectionExpression     *string              `json:"ProjectionExpression"`
	ExpressionAttributeNames wire.ExpressionNames `json:"ExpressionAttributeNames"`
	ConsistentRead           *bool                `json:"ConsistentRead"`
	ReturnConsumedCapacity   string               `json:"ReturnConsumedCapacity"`
}

// GetItemOutput is the GetItem response. Item is absent when there is no
// such item and {} when the item has none of the projected attributes.
type GetItemOutput struct {
	Item             *wire.WireItem    `json:"Item,omitempty"`
	ConsumedCapacity *ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
	// stored, when hasStored, is the whole item as storage keeps it, the
	// Item that appendJSON writes straight from the record (Item is nil).
	stored    storage.EncodedItem
	hasStored bool
}

// DeleteItemInput is the DeleteItem request.
type DeleteItemInput struct {
	TableName                           *string               `json:"TableName"`
	Key                                 wire.WireItem         `json:"Key"`
	ConditionExpression                 *string               `json:"ConditionExpression"`
	ExpressionAttributeNames            wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues           wire.ExpressionValues `json:"ExpressionAttributeValues"`
	Expected                            *expr.LegacyExpected  `json:"Expected"`
	ConditionalOperator                 string                `json:"ConditionalOperator"`
	ReturnValues                        string                `json:"ReturnValues"`
	ReturnConsumedCapacity              string                `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics         string                `json:"ReturnItemCollectionMetrics"`
	ReturnValuesOnConditionCheckFailure string                `json:"ReturnValuesOnConditionCheckFailure"`
}

// DeleteItemOutput is the DeleteItem response.
type DeleteItemOutput struct {
	Attributes            wire.WireItem          `json:"Attributes,omitempty"`
	ConsumedCapacity      *ConsumedCapacity      `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics *ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}

// UpdateItemInput is the UpdateItem request.
type UpdateItemInput struct {
	TableName                           *string                         `json:"TableName"`
	Key                                 wire.WireItem                   `json:"Key"`
	UpdateExpression                    *string                         `json:"UpdateExpression"`
	ConditionExpression                 *string                         `json:"ConditionExpression"`
	ExpressionAttributeNames            wire.ExpressionNames            `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues           wire.ExpressionValues           `json:"ExpressionAttributeValues"`
	AttributeUpdates                    map[string]AttributeValueUpdate `json:"AttributeUpdates"`
	Expected                            *expr.LegacyExpected            `json:"Expected"`
	ConditionalOperator                 string                          `json:"ConditionalOperator"`
	ReturnValues                        string                          `json:"ReturnValues"`
	ReturnConsumedCapacity              string                          `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics         string                          `json:"ReturnItemCollectionMetrics"`
	ReturnValuesOnConditionCheckFailure string                          `json:"ReturnValuesOnConditionCheckFailure"`
}

// UpdateItemOutput is the UpdateItem response.
type UpdateItemOutput struct {
	Attributes            wire.WireItem          `json:"Attributes,omitempty"`
	ConsumedCapacity      *ConsumedCapacity      `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics *ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
}

// writeConstraints checks TableName, the enum members the write operations
// share, the operation's missing member (a violation, or "") and an
// unknown ComparisonOperator of Expected (or ""), reported together in
// one message as AWS does.
func writeConstraints(tableName *string, returnValues, rcc, ricm, rvoccf, condOp, missing, expectedOp string) error {
	name1, name2 := tablespec.TableNameViolations(tableName)
	return apierr.ConstraintErrors(name1, name2,
		apierr.EnumViolation(paramReturnValues, returnValues, enumReturnValues),
		readparams.ReturnConsumedCapacityViolation(rcc),
		apierr.EnumViolation(paramReturnICM, ricm, enumReturnICM),
		readparams.RVOCCFViolation("", rvoccf),
		apierr.EnumViolation(paramConditionalOpWire, condOp, enumConditionalOp),
		missing,
		expectedOp,
	)
}

// writeExprs are the expression parameters of PutItem, DeleteItem and
// UpdateItem: the placeholder maps, the condition (ConditionExpression or
// the legacy Expected and ConditionalOperator) and, for UpdateItem, the
// update (UpdateExpression or the legacy AttributeUpdates).
type writeExprs struct {
	names         map[string]string
	values        wire.ExpressionValues
	condition     *string
	expected      *expr.LegacyExpected
	conditionalOp string
	isUpdate      bool // UpdateItem: the update members below count
	update        *string
	updates       map[string]AttributeValueUpdate
}

// The expression parameters of the writes that may use :values.
var (
	valueExprsWrite  = []string{paramConditionExpr}
	valueExprsUpdate = []string{paramUpdateExpr, paramConditionExpr}
)

// compile runs AWS's checks on the mix of parameters, compiles the update
// (UpdateItem only; nil when there is none) and the condition (nil when
// there is none), and reports placeholders the expressions did not use, in
// that order.
func (w writeExprs) compile() (*expr.Update, *expr.Condition, error) {
	var exprsBuf, legacyBuf [2]string // no allocation for the lists
	p := exprparams.Params{Names: w.names, Values: w.values, ValueExprs: valueExprsWrite,
		Expressions: exprsBuf[:0], Legacy: legacyBuf[:0]}
	if w.isUpdate {
		p.ValueExprs = valueExprsUpdate
		if w.updates != nil {
			p.Legacy = append(p.Legacy, paramAttributeUpdates)
		}
	}
	p.Legacy, p.LoneConditionalOp = exprparams.AppendExpected(p.Legacy, w.expected != nil, w.conditionalOp)
	if w.update != nil {
		p.Expressions = append(p.Expressions, paramUpdateExpr)
	}
	if w.condition != nil {
		p.Expressions = append(p.Expressions, paramConditionExpr)
	}
	if err := p.Check(); err != nil {
		return nil, nil, err
	}
	comp, err := exprparams.NewCompiler(w.names, w.values)
	if err != nil {
		return nil, nil, err
	}
	defer comp.Release() // the update and condition keep nothing of it
	var upd *expr.Update
	if w.isUpdate {
		if upd, err = compileUpdate(comp, w.update, w.updates); err != nil {
			return nil, nil, err
		}
	}
	cond, err := compileCondition(comp, w.condition, w.expected, w.conditionalOp)
	if err != nil {
		return nil, nil, err
	}
	if err := comp.Unused(); err != nil {
		return nil, nil, err
	}
	return upd, cond, nil
}

// compilePutDelete is compile for PutItem and DeleteItem, followed by their
// ReturnValues check (only NONE and ALL_OLD).
func (w writeExprs) compilePutDelete(returnValues string) (*expr.Condition, error) {
	_, cond, err := w.compile()
	if err != nil {
		return nil, err
	}
	if rv := returnValues; rv != "" && rv != returnNone && rv != returnAllOld {
		return nil, apierr.Validation(apierr.MsgReturnValuesPutDelete)
	}
	return cond, nil
}

// compileCondition compiles the request's condition from ConditionExpression
// or the legacy Expected + ConditionalOperator; nil when there is none.
func compileCondition(comp *expr.Compiler, text *string, expected *expr.LegacyExpected, op string) (*expr.Condition, error) {
	if text != nil {
		cond, err := comp.Condition(paramConditionExpr, *text)
		return cond, err
	}
	if expected == nil {
		return nil, nil
	}
	cond, err := expr.ExpectedOf(expected, op)
	return cond, err
}

// handlePutItem is PutItem's handler.
func handlePutItem(c *call, in *PutItemInput) (*PutItemOutput, error) {
	if err := writeConstraints(in.TableName, in.ReturnValues, in.ReturnConsumedCapacity, in.ReturnItemCollectionMetrics,
		in.ReturnValuesOnConditionCheckFailure, in.ConditionalOperator,
		apierr.NullViolation("item", in.Item == nil),
		readparams.ComparisonOpViolation("expected", in.Expected.UnknownOps(), expr.LegacyOp.String)); err != nil {
		return nil, err
	}
	cond, err := writeExprs{
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues,
		condition: in.ConditionExpression, expected: in.Expected, conditionalOp: in.ConditionalOperator,
	}.compilePutDelete(in.ReturnValues)
	if err != nil {
		return nil, apierr.WriteRequestEnvelope(err)
	}
	if err := c.valuesLayer(); err != nil {
		return nil, err
	}
	item := in.Item.Item()
	size := storage.ItemSize(item)
	if size > maxItemBytes {
		return nil, apierr.Validation(apierr.MsgItemTooLarge)
	}
	t, err := c.lookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	key, err := t.keyFromItem(item)
	if err != nil {
		return nil, err
	}
	if err := t.checkIndexKeys(item, false); err != nil {
		return nil, err
	}
	var out *PutItemOutput
	err = c.useItem(t, key, access.Put, func(u *itemUse) error { //gcassert:noescape
		change, kept, err := u.storeItem(itemWrite{item: item, size: size, cond: cond, returnValues: in.ReturnValues,
			rvoccf: in.ReturnValuesOnConditionCheckFailure, capacity: in.ReturnConsumedCapacity,
			condText: in.ConditionExpression, names: in.ExpressionAttributeNames})
		if err != nil {
			return err // a refusal by the condition is charged by the scope
		}
		out = &PutItemOutput{ConsumedCapacity: u.answerCapacity(in.ReturnConsumedCapacity)}
		if in.ReturnValues == returnAllOld && change.Old != nil {
			out.Attributes = wire.ItemToWire(change.Old)
		}
		out.ItemCollectionMetrics = u.answerCollection(in.ReturnItemCollectionMetrics)
		in.itemWritten = !kept // its map is given back with the input (input_recycle.go)
		return nil
	})
	return out, err
}

func getItem(c *call, in *GetItemInput) (*GetItemOutput, error) {
	name1, name2 := tablespec.TableNameViolations(in.TableName)
	if err := apierr.ConstraintErrors(name1, name2,
		readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity),
		apierr.NullViolation("key", in.Key == nil),
		apierr.EmptyLenViolation("attributesToGet", in.AttributesToGet.Given(), in.AttributesToGet.Len()),
	); err != nil {
		return nil, err
	}
	p := exprparams.Params{Names: in.ExpressionAttributeNames}
	if in.AttributesToGet.Given() {
		p.Legacy = append(p.Legacy, paramAttributesToGet)
	}
	if in.ProjectionExpression != nil {
		p.Expressions = append(p.Expressions, paramProjectionExpr)
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	comp, err := exprparams.NewCompiler(in.ExpressionAttributeNames, nil)
	if err != nil {
		return nil, err
	}
	defer comp.Release() // the projection keeps nothing of it
	// in's names are not read again: sorted in place.
	proj, err := readparams.ProjectionOf(comp, in.ProjectionExpression, &in.AttributesToGet)
	if err != nil {
		return nil, err
	}
	if err := comp.Unused(); err != nil {
		return nil, err
	}
	t, err := c.lookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	key, err := t.keyFromKeyParam(in.Key.Item())
	if err != nil {
		return nil, err
	}
	consistent := in.ConsistentRead != nil && *in.ConsistentRead
	var stored storage.EncodedItem
	var found bool
	if err := c.useItem(t, key, access.Get, func(u *itemUse) error { //gcassert:noescape
		stored, found = u.fetchItem(consistent)
		return nil
	}); err != nil {
		return nil, err
	}
	out := getItemOutputs.Get()
	if !found {
		out.ConsumedCapacity = readCapacity(t, in.ReturnConsumedCapacity, 0, consistent)
		return out, nil
	}
	out.ConsumedCapacity = readCapacity(t, in.ReturnConsumedCapacity, stored.Size(), consistent)
	if proj != nil {
		stored = projectEncoded(proj, stored)
	}
	out.stored, out.hasStored = stored, true
	return out, nil
}

// projectStored applies proj to a stored item, decoding only the
// attributes the projection's paths start with.
func projectStored(proj *expr.Projection, e storage.EncodedItem) storage.Item {
	paths := proj.Paths()
	var buf [8]string
	names := buf[:0]
	for _, p := range paths {
		if len(p) > 0 {
			names = append(names, p[0].Name)
		}
	}
	return proj.Apply(e.Attributes(names))
}

func deleteItem(c *call, in *DeleteItemInput) (*DeleteItemOutput, error) {
	if err := writeConstraints(in.TableName, in.ReturnValues, in.ReturnConsumedCapacity, in.ReturnItemCollectionMetrics,
		in.ReturnValuesOnConditionCheckFailure, in.ConditionalOperator,
		apierr.NullViolation("key", in.Key == nil),
		readparams.ComparisonOpViolation("expected", in.Expected.UnknownOps(), expr.LegacyOp.String)); err != nil {
		return nil, err
	}
	cond, err := writeExprs{
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues,
		condition: in.ConditionExpression, expected: in.Expected, conditionalOp: in.ConditionalOperator,
	}.compilePutDelete(in.ReturnValues)
	if err != nil {
		if c.values != nil && c.values.OlderForm && err.Error() == apierr.MsgReturnValuesPutDelete {
			// Past wire.OlderFormDepth AWS words it bare, ahead of the
			// nesting error (paritysuite/dynamodb-conformance
			// deepRequests.test.ts, "Deep requests - DeleteItem
			// ReturnValues", 2026-10-09).
			return nil, err
		}
		return nil, apierr.WriteRequestEnvelope(err)
	}
	t, err := c.lookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	key, err := t.keyFromKeyParam(in.Key.Item())
	if err != nil {
		return nil, err
	}
	var out *DeleteItemOutput
	err = c.useItem(t, key, access.Delete, func(u *itemUse) error { //gcassert:noescape
		change, _, err := u.storeItem(itemWrite{cond: cond, returnValues: in.ReturnValues,
			rvoccf: in.ReturnValuesOnConditionCheckFailure, capacity: in.ReturnConsumedCapacity})
		if err != nil {
			return err // a refusal by the condition is charged by the scope
		}
		out = &DeleteItemOutput{ConsumedCapacity: u.answerCapacity(in.ReturnConsumedCapacity)}
		if in.ReturnValues == returnAllOld && change.Old != nil {
			out.Attributes = wire.ItemToWire(change.Old)
		}
		out.ItemCollectionMetrics = u.answerCollection(in.ReturnItemCollectionMetrics)
		return nil
	})
	return out, err
}

func updateItem(c *call, in *UpdateItemInput) (*UpdateItemOutput, error) {
	if err := updateItemConstraints(in); err != nil {
		return nil, err
	}
	w := writeExprs{
		names: in.ExpressionAttributeNames, values: in.ExpressionAttributeValues,
		condition: in.ConditionExpression, expected: in.Expected, conditionalOp: in.ConditionalOperator,
		isUpdate: true, update: in.UpdateExpression, updates: in.AttributeUpdates,
	}
	upd, cond, err := w.compile()
	if err != nil {
		return nil, apierr.UpdateItemEnvelope(err)
	}
	t, err := c.lookupTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	key, err := t.keyFromKeyParam(in.Key.Item())
	if err != nil {
		return nil, err
	}
	if err := tablespec.CheckKeyNotUpdated(t.schema, upd); err != nil {
		return nil, err
	}
	var out *UpdateItemOutput
	err = c.useItem(t, key, access.Update, func(u *itemUse) error { //gcassert:noescape
		var err error
		out, err = updateItemIn(u, t, in, key, upd, cond)
		return err
	})
	return out, err
}

// updateItemIn is the rest of updateItem, in the use u of the item.
func updateItemIn(u *itemUse, t *table, in *UpdateItemInput, key storage.Key, upd *expr.Update, cond *expr.Condition) (*UpdateItemOutput, error) {
	wc := writeCheck(t)
	if canPatch(t, upd, in.ReturnValues, wc) {
		return updateItemPatched(u, t, in, key, upd, cond) // update_patch.go
	}
	change, err := u.updateStored(wc, func(tx *storage.WriteTx, cur storage.Item) (storage.Item, int, error) {
		// The item is sized before the condition is evaluated, other
		// errors of the update after (update_size.go).
		next, size, err := t.updatedItem(key, upd, cur)
		if err == nil {
			err = checkUpdateSize(upd, cur, size)
		}
		if isUpdateTooLarge(err) {
			return nil, 0, err
		}
		if err := checkCondition(cond, cur, in.ReturnValuesOnConditionCheckFailure); err != nil {
			return nil, size, err // charged when the condition refuses the write (pipeline_condfail.go)
		}
		if cur == nil && upd.OnlyRemoves() {
			return nil, 0, storage.ErrNoWrite // AWS does not create the item (expr.Update.OnlyRemoves)
		}
		if err == nil && wc != NoWriteCheck {
			err = u.c.checkWrite(&Write{Table: Table{t: t}, Op: WriteUpdate, Key: key, Old: cur, New: next,
				Condition: in.ConditionExpression, Names: in.ExpressionAttributeNames, Cond: cond, tx: tx})
		}
		return next, size, err
	})
	if err != nil {
		return nil, err // a refusal by the condition is charged by the scope
	}
	out := &UpdateItemOutput{ConsumedCapacity: u.answerCapacity(in.ReturnConsumedCapacity)}
	out.Attributes = updateReturnValues(in.ReturnValues, upd, change)
	out.ItemCollectionMetrics = u.answerCollection(in.ReturnItemCollectionMetrics)
	return out, nil
}

// updatedItem applies upd (nil: none) to the item cur with key (nil:
// absent, so the update starts from the key attributes) and checks the
// result as UpdateItem and a transaction's Update do: nesting, index key
// attributes and the item size limit. It returns the new item and its size.
func (t *table) updatedItem(key storage.Key, upd *expr.Update, cur storage.Item) (storage.Item, int, error) {
	next := cur
	if next == nil {
		next = t.schema.KeyItem(key)
	}
	if upd != nil {
		var err error
		if next, err = upd.Apply(next); err != nil {
			return nil, 0, err
		}
	}
	if err := checkUpdatedNesting(upd, next); err != nil {
		return nil, 0, err
	}
	if err := t.checkIndexKeys(next, true); err != nil {
		return nil, 0, err
	}
	size := storage.ItemSize(next)
	if size > maxItemBytes {
		return nil, 0, apierr.Validation(apierr.MsgUpdatedItemTooLarge)
	}
	return next, size, nil
}

// compileUpdate compiles UpdateExpression or the legacy AttributeUpdates;
// nil when the request has neither (the item is still created or kept).
func compileUpdate(comp *expr.Compiler, text *string, updates map[string]AttributeValueUpdate) (*expr.Update, error) {
	if text != nil {
		upd, err := comp.Update(*text)
		return upd, err
	}
	if updates == nil {
		return nil, nil
	}
	legacy := make(map[string]expr.AttributeUpdate, len(updates))
	for name, u := range updates {
		lu := expr.AttributeUpdate{Action: u.Action}
		if u.Value != nil {
			v := u.Value.Value
			lu.Value = &v
		}
		legacy[name] = lu
	}
	upd, err := expr.AttributeUpdates(legacy)
	return upd, err
}

// updateReturnValues is the Attributes member of an UpdateItem response.
// UPDATED_OLD and UPDATED_NEW project the updated paths onto the old or new
// item, as AWS does (a nested SET returns only the changed fragment); an
// empty result leaves Attributes out.
func updateReturnValues(rv string, upd *expr.Update, change storage.Change) wire.WireItem {
	var item storage.Item
	switch rv {
	case returnAllOld:
		item = change.Old
	case returnAllNew:
		item = change.New
	case returnUpdatedOld, returnUpdatedNew:
		if upd == nil {
			return nil
		}
		if rv == returnUpdatedOld {
			item = upd.UpdatedOld(change.Old)
		} else {
			item = upd.UpdatedNew(change.New)
		}
	}
	if len(item) == 0 {
		return nil
	}
	return wire.ItemToWire(item)
}

// checkUpdatedNesting rejects an updated item whose updated attributes nest
// lists and maps beyond MaxValueDepth levels.
func checkUpdatedNesting(upd *expr.Update, item storage.Item) error {
	if upd == nil {
		return nil
	}
	for _, name := range upd.Attributes() {
		if v, ok := item[name]; ok && v.Depth() > wire.MaxValueDepth {
			return apierr.Validation(apierr.MsgUpdateNesting)
		}
	}
	return nil
}
