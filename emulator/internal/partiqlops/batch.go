package partiqlops

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// BatchExecuteStatement: up to 25 PartiQL statements, all single-item
// reads or all writes, each answered on its own: an item, or an Error with
// the code of what went wrong. Statements run one after another through
// the same code as ExecuteStatement; the batch is not atomic.

const maxBatchStatements = 25

// BatchStatementRequest is one statement of a BatchExecuteStatement.
type BatchStatementRequest struct {
	Statement                           *string      `json:"Statement"`
	Parameters                          []batchParam `json:"Parameters"`
	ConsistentRead                      *bool        `json:"ConsistentRead"`
	ReturnValuesOnConditionCheckFailure string       `json:"ReturnValuesOnConditionCheckFailure"`
}

// BatchExecuteStatementInput is the BatchExecuteStatement request.
type BatchExecuteStatementInput struct {
	Statements             []BatchStatementRequest `json:"Statements"`
	ReturnConsumedCapacity string                  `json:"ReturnConsumedCapacity"`
	// pastFaults are the violations of the statements past the 26th,
	// which the decoder does not keep (statementsLimit), and pastKinds
	// the kinds of those with none.
	pastFaults []string
	pastKinds  [3]bool
}

// statementsLimit is how the decoder reads Statements (the service's
// table, limits.go): a batch of more than 25 is answered by its
// violations, then by the kinds of statements it holds (both: mixed;
// else too many reads or writes), so past the 26th a statement leaves
// its violations, while the answer can list them, and its kind.
var statementsLimit = wire.Row[BatchExecuteStatementInput, BatchStatementRequest]{Max: maxBatchStatements + 1,
	Start: func(in *BatchExecuteStatementInput, _ wire.At) { in.pastFaults, in.pastKinds = nil, [3]bool{} },
	Past: func(in *BatchExecuteStatementInput, at wire.At, e *BatchStatementRequest) {
		in.pastStatement(at.I, e)
	}}

// BatchStatementError is the Error of one statement's response.
type BatchStatementError struct {
	Code    string        `json:"Code"`
	Message string        `json:"Message"`
	Item    wire.WireItem `json:"Item,omitempty"`
}

// BatchStatementResponse answers one statement.
type BatchStatementResponse struct {
	Error     *BatchStatementError `json:"Error,omitempty"`
	TableName string               `json:"TableName,omitempty"`
	// Item is the item a SELECT read: {} for an item none of whose
	// attributes the SELECT list selects, absent for a missing item.
	Item *wire.WireItem `json:"Item,omitempty"`
	// fatal is an error that fails the whole call instead (batchError).
	fatal error
}

// BatchExecuteStatementOutput is the BatchExecuteStatement response.
type BatchExecuteStatementOutput struct {
	Responses        []BatchStatementResponse    `json:"Responses"`
	ConsumedCapacity []*service.ConsumedCapacity `json:"ConsumedCapacity,omitempty"`
}

// batchParam is one parameter of a BatchExecuteStatement statement. A
// value refused by the value layer (a number out of range or not a number,
// a set with duplicates, an empty set, ...) fails only its statement, with
// an Error of Code ValidationError, where ExecuteStatement fails the
// request: recorded from real DynamoDB by the PartiQL work (no public record was
// found; DynamoDB Local fails the whole request instead). A value that is
// not JSON of the right shape is still a SerializationException of the
// request. The request decoder reads it once, as any value
// (wire.ValueKeeper).
type batchParam struct {
	wire.AttributeValue
	err error // the value's ValidationException, kept for its statement
}

// KeepValue keeps the value, or its ValidationException for the statement
// instead of ending the request's decoding.
func (p *batchParam) KeepValue(v storage.Value, verr error) {
	p.AttributeValue, p.err = wire.AttributeValue{Value: v}, verr
}

// bindBatchParams binds a batch statement's parameters: the first value
// refused on decoding is the statement's error; otherwise as bindParams.
func bindBatchParams(st partiql.Statement, in []batchParam) ([]storage.Value, error) {
	vals := make([]wire.AttributeValue, len(in))
	for i, p := range in {
		if p.err != nil {
			return nil, p.err
		}
		vals[i] = p.AttributeValue
	}
	return bindParams(st, vals, len(vals))
}

// batchStatement is one statement after parsing.
type batchStatement struct {
	text   string
	st     partiql.Statement
	params []storage.Value
	err    error // a parse or parameter error: the statement's answer
	parsed bool  // the text parsed (err, if any, is the parameters')
}

// readBatchStatement parses and binds one statement of a batch.
func readBatchStatement(r BatchStatementRequest) batchStatement {
	b := batchStatement{text: *r.Statement}
	b.st, b.err = parseStatement(b.text)
	var pe *partiql.Error
	if errors.As(b.err, &pe) && pe.Kind == partiql.KindNotStatement {
		b.err = apierr.Validation(apierr.MsgBatchInvalidOp)
	}
	if b.err == nil {
		b.parsed = true
		b.params, b.err = bindBatchParams(b.st, r.Parameters)
	}
	if b.err == nil {
		// Refused before it runs: the statement's own ValidationError,
		// naming no table.
		b.err = deleteReturningError(b.st)
	}
	return b
}

// Statement kinds.
const (
	kindNone  = iota // a statement that neither reads nor writes (it fails alone)
	kindRead         // a SELECT
	kindWrite        // an INSERT, UPDATE or DELETE
)

// kind is what the statement counts as in the batch: a read, a write,
// or (it did not parse, and fails alone) neither. One whose parameters
// do not bind counts as its kind.
func (b batchStatement) kind() int {
	if !b.parsed {
		return kindNone
	}
	if _, ok := b.st.(*partiql.Select); ok {
		return kindRead
	}
	return kindWrite
}

// batchViolations are the constraints statement i of a batch breaks.
func batchViolations(i int, r BatchStatementRequest) []string {
	member := fmt.Sprintf("statements.%d.member.", i+1)
	return []string{
		statementViolation(member+"statement", r.Statement),
		readparams.RVOCCFViolation(member, r.ReturnValuesOnConditionCheckFailure),
		apierr.EmptyListViolation(member+"parameters", r.Parameters),
	}
}

// statementKind is readBatchStatement(r).kind() of a statement of text,
// parsed past the statement cache: the thousands of statements past a
// batch's limit are sent once, and 4,096 of them cached (their text and
// parse) were about 3 MB live beside the body.
func statementKind(text string) int {
	st, err := partiql.Parse(text)
	if err != nil {
		return kindNone
	}
	return batchStatement{st: st, parsed: true}.kind()
}

// pastStatement notes statement i of a batch, past its 26th (which the
// decoder does not keep): its violations while the answer can list
// them, and, when it has none, its kind, parsed only while the
// statements before it lack a kind it may be.
func (in *BatchExecuteStatementInput) pastStatement(i int, r *BatchStatementRequest) {
	faults := false
	for _, v := range batchViolations(i, *r) {
		if v != "" {
			faults = true
			if len(in.pastFaults) < apierr.MaxConstraintErrors {
				in.pastFaults = append(in.pastFaults, v)
			}
		}
	}
	have := &in.pastKinds
	if faults || have[kindRead] && have[kindWrite] ||
		have[kindWrite] && !mayBe(*r.Statement, "SELECT") || // no read: a write or neither
		have[kindRead] && firstWord(*r.Statement) == "SELECT" { // no write: a read or neither
		return // not parsed: its kind is one found already, or neither
	}
	have[statementKind(*r.Statement)] = true
}

// firstWord is text's first word, upper-cased, when it starts (after
// ASCII spaces) with one of at most 8 letters followed by a space; else
// "". The parser goes by a statement's first token: one that starts
// with SELECT is a read or fails, one that starts with another keyword
// is never a read.
func firstWord(text string) string {
	text = strings.TrimLeft(text, " \t\r\n")
	i := 0
	for i < len(text) && i < 8 && ('a' <= text[i]|0x20 && text[i]|0x20 <= 'z') {
		i++
	}
	if i == 0 || i >= len(text) || !strings.ContainsRune(" \t\r\n", rune(text[i])) {
		return ""
	}
	return strings.ToUpper(text[:i])
}

// mayBe reports whether a statement of text may parse as one whose
// first keyword is word (firstWord): one that starts with another word
// never does; unsure (no such word first), it may.
func mayBe(text, word string) bool {
	w := firstWord(text)
	return w == "" || w == word
}

func batchExecuteStatement(c service.Call, in *BatchExecuteStatementInput) (*BatchExecuteStatementOutput, error) {
	violations := []string{
		readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity),
		apierr.NullViolation("statements", in.Statements == nil),
	}
	violations = append(violations, apierr.EmptyListViolation("statements", in.Statements))
	for i, r := range in.Statements {
		violations = append(violations, batchViolations(i, r)...)
	}
	violations = append(violations, in.pastFaults...)
	if err := apierr.ConstraintErrors(violations...); err != nil {
		return nil, err
	}
	stmts := make([]batchStatement, len(in.Statements))
	reads, writes := 0, 0
	for i, r := range in.Statements {
		stmts[i] = readBatchStatement(r)
		switch stmts[i].kind() {
		case kindRead:
			reads++
		case kindWrite:
			writes++
		}
	}
	if in.pastKinds[kindRead] {
		reads++
	}
	if in.pastKinds[kindWrite] {
		writes++
	}
	switch {
	case reads > 0 && writes > 0:
		return nil, apierr.Validation(apierr.MsgBatchMixed)
	case len(stmts) > maxBatchStatements && writes > 0:
		return nil, apierr.Validation(apierr.MsgBatchWritesTooMany)
	case len(stmts) > maxBatchStatements:
		return nil, apierr.Validation(apierr.MsgBatchReadsTooMany)
	}
	// Reads too (captured against AWS, eu-west-2: nubo-db/dynoxide's
	// CHANGELOG, "may not name the same item twice, reads included").
	if err := checkBatchDuplicates(c, stmts); err != nil {
		return nil, err
	}
	out := &BatchExecuteStatementOutput{Responses: make([]BatchStatementResponse, len(stmts))}
	var caps capacityTotals
	for i, b := range stmts {
		r := in.Statements[i]
		opt := stmtOptions{
			consistent: r.ConsistentRead != nil && *r.ConsistentRead,
			capacity:   in.ReturnConsumedCapacity,
			rvoccf:     r.ReturnValuesOnConditionCheckFailure,
		}
		out.Responses[i] = runBatchStatement(c, b, opt, &caps)
		if err := out.Responses[i].fatal; err != nil {
			return nil, err // an injected fault with no statement code (faults.go)
		}
	}
	out.ConsumedCapacity = caps.answer()
	return out, nil
}

// runBatchStatement runs one statement of a batch and words its answer.
func runBatchStatement(c service.Call, b batchStatement, opt stmtOptions, caps *capacityTotals) BatchStatementResponse {
	if b.err != nil {
		return batchError(b.err, "")
	}
	table := statementTable(b.st)
	if s, ok := b.st.(*partiql.Select); ok {
		return runBatchGet(c, b, s, opt, caps)
	}
	out, err := runStatement(c, b.st, b.text, b.params, opt)
	var le *lower.Error
	if errors.As(err, &le) {
		table = "" // refused before it ran: DynamoDB Local names no table
	}
	if err != nil {
		if out != nil {
			caps.addFailed(out.ConsumedCapacity) // a write refused by its condition
		}
		return batchError(err, table)
	}
	caps.add(out.ConsumedCapacity)
	resp := BatchStatementResponse{TableName: table}
	if len(out.Items) > 0 {
		w := wire.ItemToWire(out.Items[0])
		resp.Item = &w
	}
	return resp
}

// batchError turns an error into a statement's Error. Errors of a
// statement that ran name its table (table; "" for one that did not run),
// except for a missing table; a failed condition carries the item for
// ALL_OLD. As DynamoDB Local answers.
func batchError(err error, table string) BatchStatementResponse {
	ae, _ := apierr.Classify(err)
	e := &BatchStatementError{Message: ae.Msg}
	resp := BatchStatementResponse{Error: e, TableName: table}
	switch ae.Class {
	case apierr.ErrConditionalCheckFailed:
		e.Code = "ConditionalCheckFailed"
		if ae.Item != nil {
			e.Item = wire.ItemToWire(ae.Item)
		}
	case apierr.ErrDuplicateItem:
		e.Code = "DuplicateItem"
	case apierr.ErrResourceNotFound:
		e.Code = "ResourceNotFound"
		resp.TableName = ""
	case apierr.ErrValidation:
		e.Code = "ValidationError"
	case apierr.ErrAccessDenied:
		e.Code = "AccessDenied" // the conventions' tenant guard (B10, B14)
	case apierr.ErrItemCollectionSizeLimitExceeded:
		e.Code = "ItemCollectionSizeLimitExceeded"
	case apierr.ErrTransactionInProgress:
		resp.fatal = err // no statement code for it (faults.go)
	default:
		e.Code = cmp.Or(batchFaultCode(ae), "InternalServerError")
	}
	return resp
}

// statementTable is the table a statement names.
func statementTable(st partiql.Statement) string {
	switch s := st.(type) {
	case *partiql.Select:
		return s.From.Table.Text
	case *partiql.Insert:
		return s.Into.Table.Text
	case *partiql.Update:
		return s.Table.Table.Text
	case *partiql.Delete:
		return s.From.Table.Text
	}
	return ""
}

// checkBatchDuplicates rejects a batch in which two statements read or
// write the same item. Statements whose key cannot be worked out are left
// to fail on their own.
func checkBatchDuplicates(c service.Call, stmts []batchStatement) error {
	type written struct {
		table string
		key   storage.Key
	}
	var seen []written
	for _, b := range stmts {
		if b.err != nil {
			continue
		}
		name := statementTable(b.st)
		t, err := c.LookupDataTable(name)
		if err != nil {
			continue
		}
		key, ok := writeKey(t, b)
		if !ok {
			continue
		}
		for _, w := range seen {
			if w.table == name && storage.Equal(w.key.Partition, key.Partition) &&
				(!t.Schema().HasSort() || storage.Equal(w.key.Sort, key.Sort)) {
				return apierr.Validation(apierr.MsgBatchDuplicates)
			}
		}
		seen = append(seen, written{name, key})
	}
	return nil
}

// writeKey works out the primary key a statement reads or writes.
func writeKey(t service.Table, b batchStatement) (storage.Key, bool) {
	bd := binding(b.text, b.params)
	var key storage.Item
	switch s := b.st.(type) {
	case *partiql.Insert:
		it, err := lower.LowerInsert(bd, s, t.Schema())
		if err != nil {
			return storage.Key{}, false
		}
		k, err := t.KeyFromItem(it)
		return k, err == nil
	case *partiql.Update:
		u, err := lower.LowerUpdate(bd, s, t.Schema())
		if err != nil {
			return storage.Key{}, false
		}
		key = u.Key
	case *partiql.Delete:
		d, err := lower.LowerDelete(bd, s, t.Schema())
		if err != nil {
			return storage.Key{}, false
		}
		key = d.Key
	case *partiql.Select:
		if s.From.Index != nil {
			return storage.Key{}, false // refused on its own
		}
		g, err := lower.LowerBatchGet(bd, s, lower.Target{Keys: t.Schema()})
		if err != nil {
			return storage.Key{}, false
		}
		key = g.Key
	default:
		return storage.Key{}, false
	}
	k, err := t.KeyFromKeyParam(key)
	return k, err == nil
}

// capacityTotals sums the capacity of a batch per table, in the order the
// tables first appear: each table's and index's units over the
// statements that succeeded, and on the total alone what the statements
// that ran and failed were charged. AWS, eu-west-2, as captured and
// published by nubo-db/dynoxide (tests/partiql_index_consumed_capacity.rs,
// its captures M4, M5, U2, R3, M1): two inserts of GSI items report GSI 2;
// a failed insert beside a success adds its units to the total and to no
// arm, sized on the larger of the item stored and the item it carried; a
// table whose statements all failed gets no entry (so a batch of failures
// reports no ConsumedCapacity).
type capacityTotals struct {
	list   []*service.ConsumedCapacity
	failed map[string]float64 // by table: units of its statements that failed
}

func (ct *capacityTotals) add(cc *service.ConsumedCapacity) {
	if cc == nil {
		return
	}
	for _, have := range ct.list {
		if have.TableName == cc.TableName {
			have.CapacityUnits += cc.CapacityUnits
			if have.Table != nil && cc.Table != nil {
				have.Table.CapacityUnits += cc.Table.CapacityUnits
			}
			have.GlobalSecondaryIndexes = addArms(have.GlobalSecondaryIndexes, cc.GlobalSecondaryIndexes)
			have.LocalSecondaryIndexes = addArms(have.LocalSecondaryIndexes, cc.LocalSecondaryIndexes)
			return
		}
	}
	cp := *cc
	if cc.Table != nil {
		tc := *cc.Table
		cp.Table = &tc
	}
	cp.GlobalSecondaryIndexes = addArms(nil, cc.GlobalSecondaryIndexes)
	cp.LocalSecondaryIndexes = addArms(nil, cc.LocalSecondaryIndexes)
	ct.list = append(ct.list, &cp)
}

// addFailed charges a statement that ran and failed (cc: what its refusal
// consumed, nil: nothing asked) to its table's total.
func (ct *capacityTotals) addFailed(cc *service.ConsumedCapacity) {
	if cc == nil {
		return
	}
	if ct.failed == nil {
		ct.failed = make(map[string]float64)
	}
	ct.failed[cc.TableName] += cc.CapacityUnits
}

// answer is the batch's ConsumedCapacity: the failed statements' units
// added to the totals of tables that have one.
func (ct *capacityTotals) answer() []*service.ConsumedCapacity {
	for _, cc := range ct.list {
		cc.CapacityUnits += ct.failed[cc.TableName]
	}
	return ct.list
}

// addArms adds the index arms from to to (nil: made when from has any),
// copying, and returns to.
func addArms(to, from map[string]service.Capacity) map[string]service.Capacity {
	for name, v := range from {
		if to == nil {
			to = make(map[string]service.Capacity, len(from))
		}
		have := to[name]
		have.CapacityUnits += v.CapacityUnits
		to[name] = have
	}
	return to
}
