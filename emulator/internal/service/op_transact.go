package service

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/shapes"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TransactWriteItems: up to 100 ConditionCheck, Put, Delete and Update
// actions across tables, all or nothing. Every action is validated as its
// single-item operation validates (same helpers, same messages) before any
// table is locked. Then one storage.WriteTx locks the tables; each action's
// condition is evaluated and each Update computed on the current items; if
// any of them fails, the transaction is cancelled with one
// CancellationReason per action and nothing is written. Otherwise the
// writes are applied through the transaction and committed together.
//
// Isolation comes from storage: the transaction holds its tables' write
// locks throughout, so it is serializable against other transactions and
// single-item writes, and waits for its locks instead of failing.
// TransactionConflict is never produced on its own; a stage may refuse
// an action with it (txStages, pipeline_tx.go).

const (
	maxTransactItems = 100
	maxTransactBytes = 4 << 20 // aggregate size of a transaction's items
)

// TransactWriteItemsInput is the TransactWriteItems request.
type TransactWriteItemsInput struct {
	TransactItems               []TransactWriteItem `json:"TransactItems"`
	ReturnConsumedCapacity      *string             `json:"ReturnConsumedCapacity"`
	ReturnItemCollectionMetrics *string             `json:"ReturnItemCollectionMetrics"`
	ClientRequestToken          *string             `json:"ClientRequestToken"`
	past                        oversize.Past       // the actions past the limit, which the decoder does not keep (limits.go)
}

// TransactWriteItem is one action: exactly one member is set.
type TransactWriteItem struct {
	ConditionCheck *TransactConditionCheck `json:"ConditionCheck"`
	Put            *TransactPut            `json:"Put"`
	Delete         *TransactDelete         `json:"Delete"`
	Update         *TransactUpdate         `json:"Update"`
}

// TransactConditionCheck checks a condition on one item without writing it.
type TransactConditionCheck struct {
	TableName                           *string               `json:"TableName"`
	Key                                 wire.WireItem         `json:"Key"`
	ConditionExpression                 *string               `json:"ConditionExpression"`
	ExpressionAttributeNames            wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues           wire.ExpressionValues `json:"ExpressionAttributeValues"`
	ReturnValuesOnConditionCheckFailure *string               `json:"ReturnValuesOnConditionCheckFailure"`
}

// TransactPut puts one item.
type TransactPut = shapes.Put[wire.WireItem, wire.ExpressionNames, wire.ExpressionValues]

// TransactDelete deletes one item.
type TransactDelete struct {
	TableName                           *string               `json:"TableName"`
	Key                                 wire.WireItem         `json:"Key"`
	ConditionExpression                 *string               `json:"ConditionExpression"`
	ExpressionAttributeNames            wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues           wire.ExpressionValues `json:"ExpressionAttributeValues"`
	ReturnValuesOnConditionCheckFailure *string               `json:"ReturnValuesOnConditionCheckFailure"`
}

// TransactUpdate updates one item.
type TransactUpdate struct {
	TableName                           *string               `json:"TableName"`
	Key                                 wire.WireItem         `json:"Key"`
	UpdateExpression                    *string               `json:"UpdateExpression"`
	ConditionExpression                 *string               `json:"ConditionExpression"`
	ExpressionAttributeNames            wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues           wire.ExpressionValues `json:"ExpressionAttributeValues"`
	ReturnValuesOnConditionCheckFailure *string               `json:"ReturnValuesOnConditionCheckFailure"`
}

// TransactWriteItemsOutput is the TransactWriteItems response.
type TransactWriteItemsOutput struct {
	ConsumedCapacity      []*ConsumedCapacity                 `json:"ConsumedCapacity,omitempty"`
	ItemCollectionMetrics map[string][]*ItemCollectionMetrics `json:"ItemCollectionMetrics,omitempty"`
	replayReads           []txUnits                           // capacity a replay of the request reports
}

// txKind is what one transaction action does.
type txKind int

const (
	txCheck txKind = iota
	txPut
	txDelete
	txUpdate
)

// txParam is the lower-camel member name of each kind, for constraint paths.
var txParam = [...]string{txCheck: "conditionCheck", txPut: "put", txDelete: "delete", txUpdate: "update"}

// txAction is one validated action of a TransactWriteItems.
type txAction struct {
	kind    txKind
	t       *table
	key     storage.Key
	item    storage.Item // Put: the item; after evaluate, the item to write (nil: delete)
	cond    *expr.Condition
	upd     *expr.Update
	rvoccf  string
	insert  bool                       // a PartiQL INSERT: the item must not exist (DuplicateItem)
	keepOld bool                       // the answer's capacity reads the item replaced (needOld); beside insert, in its padding
	preset  *apierr.CancellationReason // a reason found in validation (no table, key, item)
	size    int                        // bytes the action adds to the transaction's payload
	cur     int                        // size of the current item, once evaluated (0: absent)
	old     storage.Item               // the current item, kept for a table with vector indexes (vector_capacity.go) or keepOld
	// checked: the condition as the stages' write checks read it (set
	// only for a table whose writes are checked, stage_check.go).
	checked writeCond
}

// writeCond is a write's ConditionExpression and its names, as given.
type writeCond struct {
	text  *string
	names map[string]string
}

// txParams are the members every action kind has, as given.
type txParams struct {
	kind      txKind
	tableName *string
	key       wire.WireItem // Key, or Item for Put
	cond      *string
	upd       *string
	names     map[string]string
	values    wire.ExpressionValues
	rvoccf    *string
}

// params returns the entry's action, or an error when it has none or more
// than one.
func (w *TransactWriteItem) params() (txParams, error) {
	n := 0
	var p txParams
	if a := w.ConditionCheck; a != nil {
		n++
		p = txParams{txCheck, a.TableName, a.Key, a.ConditionExpression, nil, a.ExpressionAttributeNames, a.ExpressionAttributeValues, a.ReturnValuesOnConditionCheckFailure}
	}
	if a := w.Put; a != nil {
		n++
		p = txParams{txPut, a.TableName, a.Item, a.ConditionExpression, nil, a.ExpressionAttributeNames, a.ExpressionAttributeValues, a.ReturnValuesOnConditionCheckFailure}
	}
	if a := w.Delete; a != nil {
		n++
		p = txParams{txDelete, a.TableName, a.Key, a.ConditionExpression, nil, a.ExpressionAttributeNames, a.ExpressionAttributeValues, a.ReturnValuesOnConditionCheckFailure}
	}
	if a := w.Update; a != nil {
		n++
		p = txParams{txUpdate, a.TableName, a.Key, a.ConditionExpression, a.UpdateExpression, a.ExpressionAttributeNames, a.ExpressionAttributeValues, a.ReturnValuesOnConditionCheckFailure}
	}
	switch n {
	case 0:
		return p, apierr.Validation(apierr.MsgTxWriteNoAction)
	case 1:
		return p, nil
	}
	return p, apierr.Validation(apierr.MsgTxWriteManyActions)
}

func transactWriteItems(c *call, in *TransactWriteItemsInput) (*TransactWriteItemsOutput, error) {
	acts, err := c.prepareTransactWrite(in)
	if err != nil {
		return nil, err
	}
	if in.ClientRequestToken == nil {
		return runTransactWrite(c, in, acts)
	}
	req := *in
	req.ClientRequestToken, req.ReturnConsumedCapacity = nil, nil
	return c.svc.tokens.do(c.ns, c.now, *in.ClientRequestToken, idempotency.Fingerprint(req), optString(in.ReturnConsumedCapacity), func() (*TransactWriteItemsOutput, error) {
		return runTransactWrite(c, in, acts)
	})
}

// transactWriteConstraints collects the request's model constraint violations.
func transactWriteConstraints(in *TransactWriteItemsInput) error {
	var cs apierr.Constraints
	if apierr.NotNull(&cs, itemsOrNil(in.TransactItems), "transactItems") && len(in.TransactItems) == 0 {
		cs.Add("'[]'", "transactItems", apierr.LenGE(1))
	}
	cs.AddLong(apierr.TransactItemsLimitPieces(len(in.TransactItems)+in.past.N, maxTransactItems, "TransactWriteItem"))
	for i := range in.TransactItems {
		txWriteViolations(&cs, i, &in.TransactItems[i])
	}
	for _, v := range in.past.Violations {
		cs.AddViolation(v)
	}
	// The token ahead of the enums: "2 validation errors detected: Value
	// '<token>' at 'clientRequestToken' ...; Value 'BOGUS' at
	// 'returnConsumedCapacity' ..." (us-east-1, 2026-10-09, paritysuite/
	// dynamodb-conformance validation-ordering/transactions.test.ts;
	// eu-west-2 then answered the token alone in a newer generic form).
	idempotency.Constraints(&cs, in.ClientRequestToken)
	apierr.Enum(&cs, in.ReturnConsumedCapacity, "returnConsumedCapacity", capacityIndexes, capacityTotal, capacityNone)
	apierr.Enum(&cs, in.ReturnItemCollectionMetrics, "returnItemCollectionMetrics", returnMetricsSize, returnMetricsNone)
	return cs.Err()
}

// txWriteViolations adds the constraint violations of action i.
func txWriteViolations(cs *apierr.Constraints, i int, item *TransactWriteItem) {
	p, err := item.params()
	if err != nil {
		return // reported after the constraints
	}
	path := "transactItems." + strconv.Itoa(i+1) + ".member." + txParam[p.kind] + "."
	apierr.NotNull(cs, p.tableName, path+"tableName")
	if p.key == nil {
		what := "key"
		if p.kind == txPut {
			what = "item"
		}
		cs.Add("null", path+what, apierr.MemberNotNull)
	}
	switch p.kind {
	case txCheck:
		apierr.NotNull(cs, p.cond, path+"conditionExpression")
	case txUpdate:
		apierr.NotNull(cs, p.upd, path+"updateExpression")
	}
	apierr.Enum(cs, p.rvoccf, path+"returnValuesOnConditionCheckFailure", returnAllOld, returnNone)
}

// itemsOrNil is a pointer that is nil exactly when the list was absent.
func itemsOrNil[T any](list []T) *[]T {
	if list == nil {
		return nil
	}
	return &list
}

// prepareTransactWrite validates the whole request in AWS's order
// (txWriteOrder in validation_order.go): model constraints, each entry's
// shape, each action's request-level checks (table name, expressions,
// item size) in request order, then the tables, then each action's key
// (a key that does not fit its table's schema cancels the transaction with
// a ValidationError reason for that action and None for the others), the
// same item twice, and the aggregate size. Nothing is locked or read.
func (c *call) prepareTransactWrite(in *TransactWriteItemsInput) ([]*txAction, error) {
	if err := transactWriteConstraints(in); err != nil {
		return nil, err
	}
	params := make([]txParams, len(in.TransactItems))
	for i := range in.TransactItems {
		p, err := in.TransactItems[i].params()
		if err != nil {
			return nil, err
		}
		params[i] = p
	}
	acts := make([]*txAction, len(params))
	for i, p := range params {
		a, err := prepareTxRequest(p)
		if err != nil {
			return nil, err
		}
		if err := c.valuesLayerAt(i); err != nil {
			return nil, err
		}
		if err := a.checkPutSize(p); err != nil {
			return nil, err
		}
		acts[i] = a
	}
	for i, a := range acts {
		var err error
		if a.t, err = c.lookupTable(*params[i].tableName); err != nil {
			return nil, err
		}
	}
	var refused map[int]apierr.CancellationReason
	for i, a := range acts {
		err := a.resolveKey(params[i])
		if r, ok := apierr.KeyShapeReason(err); ok {
			if refused == nil {
				refused = make(map[int]apierr.CancellationReason)
			}
			refused[i] = r
			a.preset = &r
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := c.guardKey(a.t, a.key); err != nil {
			return nil, err
		}
		if writeCheck(a.t) != NoWriteCheck {
			a.checked = writeCond{text: params[i].cond, names: params[i].names}
		}
	}
	if err := checkTxActions(acts); err != nil {
		return nil, err
	}
	return acts, apierr.CancelForReasons(len(acts), refused)
}

// checkTxActions makes the checks of a whole transaction's actions: the
// same item twice, then the aggregate size.
func checkTxActions(acts []*txAction) error {
	var seen itemSet
	total := 0
	for _, a := range acts {
		if a.preset != nil {
			continue
		}
		if !seen.add(a.t, a.key) {
			return apierr.Validation(apierr.MsgTxSameItem)
		}
		total += a.size
	}
	if total > maxTransactBytes {
		return apierr.Validationf(apierr.MsgTxPayloadTooLarge, total)
	}
	return nil
}

// prepareTxRequest makes one action's checks that need no table, with
// its single-item operation's messages: table name, expressions,
// ReturnValues-like members (the Put's item size: checkPutSize).
func prepareTxRequest(p txParams) (*txAction, error) {
	name := *p.tableName
	if !strings.HasPrefix(name, "arn:") && !tablespec.ValidTableName(name) {
		return nil, apierr.Validation(apierr.MsgTxInvalidTableName)
	}
	a := &txAction{kind: p.kind}
	if p.rvoccf != nil {
		a.rvoccf = *p.rvoccf
	}
	var err error
	a.upd, a.cond, err = writeExprs{
		names: p.names, values: p.values, condition: p.cond,
		isUpdate: p.kind == txUpdate, update: p.upd,
	}.compile()
	if err != nil {
		return nil, err
	}
	return a, nil
}

// checkPutSize measures a Put's item (after the action's value errors,
// value_order.go) and refuses it over 400 KB.
func (a *txAction) checkPutSize(p txParams) error {
	if p.kind != txPut {
		return nil
	}
	a.item = p.key.Item()
	a.size = storage.ItemSize(a.item)
	if a.size > maxItemBytes {
		return apierr.Validation(apierr.MsgItemTooLarge)
	}
	return nil
}

// resolveKey checks the action's key (a Put's key attributes) against its
// table (a.t, looked up): the key, index key attributes, key attributes
// not updated.
func (a *txAction) resolveKey(p txParams) error {
	var err error
	if p.kind == txPut {
		if a.key, err = a.t.keyFromItem(a.item); err != nil {
			return err
		}
		return a.t.checkIndexKeys(a.item, false)
	}
	keyItem := p.key.Item()
	if a.key, err = a.t.keyFromKeyParam(keyItem); err != nil {
		return err
	}
	a.size = storage.ItemSize(keyItem)
	if p.kind == txUpdate {
		return tablespec.CheckKeyNotUpdated(a.t.schema, a.upd)
	}
	return nil
}

// itemSet is a set of items (table and key) of one transaction. The zero
// value is ready.
type itemSet map[*table]map[string]bool

// add adds an item and reports whether it was new.
func (s *itemSet) add(t *table, k storage.Key) bool {
	if *s == nil {
		*s = make(itemSet)
	}
	keys := (*s)[t]
	if keys == nil {
		keys = make(map[string]bool)
		(*s)[t] = keys
	}
	id := k.ID()
	if keys[id] {
		return false
	}
	keys[id] = true
	return true
}

// runTransactWrite runs validated actions as one storage transaction.
func runTransactWrite(c *call, in *TransactWriteItemsInput, acts []*txAction) (*TransactWriteItemsOutput, error) {
	keepOld(acts, optString(in.ReturnConsumedCapacity))
	changes, err := applyTx(c, acts)
	if err != nil {
		return nil, err
	}
	return transactWriteOutput(optString(in.ReturnConsumedCapacity), optString(in.ReturnItemCollectionMetrics), acts, changes), nil
}

// keepOld marks the actions whose capacity in mode reads the old item.
func keepOld(acts []*txAction, mode string) {
	for _, a := range acts {
		a.keepOld = a.t != nil && needOld(a.t, mode)
	}
}

// applyTx evaluates validated actions and applies their writes in one
// storage transaction, all or nothing: it returns each action's change, or
// TransactionCanceledException with one reason per action. The
// WriteChecker stages see all of its writes at once.
func applyTx(c *call, acts []*txAction) (changes []storage.Change, err error) {
	err = c.useTx(acts, func(u *txUse, refused []apierr.CancellationReason) error { //gcassert:noescape
		var err error
		changes, err = applyTxIn(u, c, acts, refused)
		return err
	})
	return changes, err
}

// applyTxIn is applyTx in the transaction's use u of its actions,
// refused the reasons the stages cancel it with (nil: none).
func applyTxIn(u *txUse, c *call, acts []*txAction, refused []apierr.CancellationReason) ([]storage.Change, error) {
	tables := make([]*storage.Table, 0, len(acts))
	for _, a := range acts {
		if a.t != nil {
			tables = writeLocks(tables, a.t) // and the tables the stages' write checks read
		}
	}
	tx := storage.Begin(tables...)
	defer tx.Abort()

	// Validation ends at the first action it refuses (a preset reason):
	// that reason alone, None for every other action. Otherwise every
	// action is evaluated in request order and each failed condition is
	// reported: AWS answers [ConditionalCheckFailed, ConditionalCheckFailed]
	// where both fail ("DynamoDB does report both failures - and doesn't
	// 'short circuit'": scylladb test/alternator/test_transact.py,
	// test_transact_write_cancellation_reasons_conditionalcheckfailed, run
	// against AWS). A ValidationError found while evaluating (an update
	// operand of the wrong type) ends the evaluation: later actions get
	// None.
	reasons := make([]apierr.CancellationReason, len(acts))
	cancelled := false
	if i := firstPreset(acts); i >= 0 {
		for j := range reasons {
			reasons[j].Code = apierr.ReasonNone
		}
		reasons[i] = *acts[i].preset
		cancelled = true
	} else {
		stopped := false
		for i, a := range acts {
			if stopped {
				reasons[i] = apierr.CancellationReason{Code: apierr.ReasonNone}
				continue
			}
			r, err := a.evaluate(tx)
			if err != nil {
				return nil, err
			}
			reasons[i] = r
			cancelled = cancelled || r.Code != apierr.ReasonNone
			stopped = r.Code == apierr.ReasonValidation
		}
	}
	if refused != nil {
		mergeReasons(reasons, refused)
		cancelled = true
	}
	if cancelled {
		return nil, apierr.TransactionCanceled(reasons) // its actions are charged by the scope
	}
	if err := checkTransactWrites(c, tx, acts); err != nil {
		return nil, err
	}

	changes := make([]storage.Change, len(acts))
	for i, a := range acts {
		if a.kind == txCheck {
			continue
		}
		ch, err := tx.Put(a.t.data, a.key, a.item)
		if errors.Is(err, storage.ErrCollectionTooLarge) {
			reasons[i] = apierr.CancellationReason{Code: apierr.ReasonCollectionSizeLimit, Message: apierr.MsgCollectionSizeExceeded}
			return nil, apierr.TransactionCanceled(reasons)
		}
		if err != nil {
			return nil, err
		}
		changes[i] = ch
	}
	if err := u.commitTx(tx, changes); err != nil {
		return nil, err
	}
	return changes, nil
}

// firstPreset is the index of the first action whose reason validation
// set, or -1.
func firstPreset(acts []*txAction) int {
	for i, a := range acts {
		if a.preset != nil {
			return i
		}
	}
	return -1
}

// evaluate reads the action's current item inside tx, checks its
// condition and, for an Update, computes the new item (kept in a.item).
// Failures become the action's CancellationReason; an error is returned
// only for a bug.
func (a *txAction) evaluate(tx *storage.WriteTx) (apierr.CancellationReason, error) {
	if a.preset != nil {
		return *a.preset, nil
	}
	keep := a.keepOld || len(a.t.vectorIndexes()) > 0 // their capacity reads the item replaced
	if a.cond == nil && a.kind != txUpdate && !a.insert && !keep {
		return apierr.CancellationReason{Code: apierr.ReasonNone}, nil // nothing to read
	}
	cur, found := tx.Get(a.t.data, a.key)
	if found {
		a.cur = storage.ItemSize(cur)
		if keep {
			a.old = cur
		}
	}
	if a.insert && found {
		return apierr.CancellationReason{Code: apierr.ReasonDuplicateItem, Message: apierr.MsgDuplicateItem}, nil
	}
	if a.cond != nil {
		ok, err := a.cond.Eval(cur)
		if err != nil {
			return validationReason(err)
		}
		if !ok {
			r := apierr.CancellationReason{Code: apierr.ReasonConditionalCheck, Message: apierr.MsgTxConditionFailed}
			if a.rvoccf == returnAllOld && found {
				r.Item = cur
			}
			return r, nil
		}
	}
	if a.kind == txUpdate && !found && a.upd.OnlyRemoves() {
		a.item = nil // as UpdateItem: the absent item stays absent
		return apierr.CancellationReason{Code: apierr.ReasonNone}, nil
	}
	if a.kind == txUpdate {
		next, _, err := a.t.updatedItem(a.key, a.upd, cur)
		if errors.Is(err, apierr.ErrUpdateIndexKeyEmpty) {
			return apierr.CancellationReason{}, err // request-level (apierr.ErrUpdateIndexKeyEmpty)
		}
		if err != nil {
			return validationReason(err)
		}
		a.item = next
	}
	return apierr.CancellationReason{Code: apierr.ReasonNone}, nil
}

// validationReason turns an error found while evaluating an action on the
// current item (an update operand of the wrong type, an item grown past
// 400 KB) into a ValidationError reason, as AWS cancels such transactions.
// An error that is no API error is a bug and is returned as it is.
func validationReason(err error) (apierr.CancellationReason, error) {
	ae, ok := apierr.Classify(err)
	if !ok {
		return apierr.CancellationReason{}, err
	}
	return apierr.CancellationReason{Code: apierr.ReasonValidation, Message: ae.Msg}, nil
}

// txUnits is the capacity a transaction took from one table.
type txUnits struct {
	table string         // its name: a token's replay keeps it (idempotency.go), not the table
	units capacity.Tally // what it took
}

// addUnits adds u for t to list, keeping tables in their first order.
func addUnits(list []txUnits, t *table, u capacity.Usage) []txUnits {
	i := 0
	for i < len(list) && list[i].table != t.name {
		i++
	}
	if i == len(list) {
		list = append(list, txUnits{table: t.name})
	}
	list[i].units.Add(u)
	return list
}

// txCapacity is a transaction's ConsumedCapacity list for mode: per table,
// CapacityUnits and, as AWS reports for transactions only, the same figure
// as WriteCapacityUnits (write) or ReadCapacityUnits, also under Table and
// each index for INDEXES. Nil when mode asks for none.
func txCapacity(list []txUnits, mode string, write bool) []*ConsumedCapacity {
	if !asked(mode) {
		return nil
	}
	out := make([]*ConsumedCapacity, 0, len(list))
	for _, u := range list {
		cu := u.units.Usage()
		cu.Tx, cu.Write = true, write
		out = append(out, capacity.Consumed(u.table, mode, &cu))
	}
	return out
}

// transactWriteOutput builds the response. Capacity, per table in the order
// tables first appear: a transactional write of the larger of the old and
// new item, and a ConditionCheck's as a transactional write of the item it
// checks (AWS's accounting as recorded in paritysuite/dynamodb-conformance#67;
// a condition on a write adds nothing); each index a write touches as the
// write alone, not doubled (AWS as published by nubo-db/dynoxide,
// tests/transactional_index_consumed_capacity.rs). Item collection metrics per table.
// The output keeps what a replay of the same ClientRequestToken reports:
// a transactional read of each item written.
func transactWriteOutput(mode, ricm string, acts []*txAction, changes []storage.Change) *TransactWriteItemsOutput {
	out := &TransactWriteItemsOutput{}
	var writes []txUnits
	icm := make(map[string]*batchCollectionMetrics) // by table name
	for i, a := range acts {
		if icm[a.t.name] == nil {
			m := newBatchCollectionMetrics(a.t, ricm)
			icm[a.t.name] = &m
		}
		if a.kind == txCheck {
			writes = addUnits(writes, a.t, capacity.Usage{Table: capacity.TxWriteUnits(a.cur)})
			out.replayReads = addUnits(out.replayReads, a.t, capacity.Usage{Table: capacity.TxReadUnits(a.cur)})
			continue
		}
		ch := changes[i]
		if a.old != nil {
			ch.Old = a.old
		}
		writes = addUnits(writes, a.t, capacity.Written(capacityOf(a.t, a.keepOld), max(ch.OldSize, ch.NewSize), ch, true))
		out.replayReads = addUnits(out.replayReads, a.t, capacity.Usage{Table: capacity.TxReadUnits(max(ch.OldSize, ch.NewSize))})
		icm[a.t.name].add(a.key, ch)
	}
	out.ConsumedCapacity = txCapacity(writes, mode, true)
	for _, u := range writes {
		out.ItemCollectionMetrics = icm[u.table].addTo(out.ItemCollectionMetrics)
	}
	return out
}

// replay is the answer to a repeated request with the token of the
// transaction that answered o: the same item collection metrics, and read
// capacity for mode (AWS bills a replay as reading the items, as recorded
// in paritysuite/dynamodb-conformance#67 and #74).
func (o *TransactWriteItemsOutput) replay(mode string) *TransactWriteItemsOutput {
	return &TransactWriteItemsOutput{
		ConsumedCapacity:      txCapacity(o.replayReads, mode, false),
		ItemCollectionMetrics: o.ItemCollectionMetrics,
		replayReads:           o.replayReads,
	}
}

// optString is *p, or "" when p is nil.
func optString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// appendJSON encodes the response without reflection (map members in
// name order, as encoding/json writes them).
func (o *TransactWriteItemsOutput) appendJSON(b []byte) []byte {
	b = append(b, '{')
	first := true
	if len(o.ConsumedCapacity) > 0 {
		b = wire.AppendConsumedList(wire.AppendMember(b, true, "ConsumedCapacity"), o.ConsumedCapacity)
		first = false
	}
	if len(o.ItemCollectionMetrics) > 0 {
		b = append(wire.AppendMember(b, first, "ItemCollectionMetrics"), '{')
		for i, name := range sortedKeys(o.ItemCollectionMetrics) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(wire.AppendString(b, name), ":["...)
			for j, m := range o.ItemCollectionMetrics[name] {
				if j > 0 {
					b = append(b, ',')
				}
				b = m.appendJSON(b)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}
