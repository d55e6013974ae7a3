package partiqlops

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ExecuteTransaction: up to 100 PartiQL statements, all reads (SELECTs of
// one item by its full primary key, as TransactGetItems reads) or all
// writes (INSERT, UPDATE, DELETE and EXISTS condition checks, as
// TransactWriteItems writes), all or nothing. Statements are parsed and
// planned with ExecuteStatement's code, then turned into the actions of
// TransactWriteItems or the Gets of TransactGetItems and run by the same
// storage transaction code: the same locks, CancellationReasons,
// capacity and ClientRequestToken idempotency (writes only: a read has
// nothing to repeat). An INSERT of an existing item cancels with the
// reason DuplicateItem.

// ParameterizedStatement is one statement of an ExecuteTransaction.
type ParameterizedStatement struct {
	Statement                           *string               `json:"Statement"`
	Parameters                          []wire.AttributeValue `json:"Parameters"`
	ReturnValuesOnConditionCheckFailure string                `json:"ReturnValuesOnConditionCheckFailure"`
}

// ExecuteTransactionInput is the ExecuteTransaction request.
type ExecuteTransactionInput struct {
	TransactStatements     []ParameterizedStatement `json:"TransactStatements"`
	ClientRequestToken     *string                  `json:"ClientRequestToken"`
	ReturnConsumedCapacity string                   `json:"ReturnConsumedCapacity"`
}

// ExecuteTransactionOutput is the ExecuteTransaction response: a read
// transaction's items, or for writes an empty Responses (as DynamoDB Local
// answers) and the writes' capacity.
type ExecuteTransactionOutput struct {
	reads  *service.TransactGetItemsOutput
	writes *service.TransactWriteItemsOutput
}

// AppendJSON appends the response's JSON.
func (o *ExecuteTransactionOutput) AppendJSON(b []byte) []byte {
	if o.reads != nil {
		return o.reads.AppendJSON(b)
	}
	b = append(b, `{"Responses":[]`...)
	if len(o.writes.ConsumedCapacity) > 0 {
		b = wire.AppendConsumedList(append(b, `,"ConsumedCapacity":`...), o.writes.ConsumedCapacity)
	}
	return append(b, '}')
}

// txStatement is one parsed statement of an ExecuteTransaction.
type txStatement struct {
	text   string
	st     partiql.Statement
	params []storage.Value
	rvoccf string
}

func executeTransaction(c service.Call, in *ExecuteTransactionInput) (*ExecuteTransactionOutput, error) {
	stmts, reads, err := parseTransaction(in)
	if err != nil {
		return nil, err
	}
	mode := in.ReturnConsumedCapacity
	if reads {
		gets, err := planTxReads(c, stmts)
		if err != nil {
			return nil, err
		}
		out, err := c.TransactGet(gets, mode)
		if err != nil {
			return nil, err
		}
		return &ExecuteTransactionOutput{reads: out}, nil
	}
	ws, err := planTxWrites(c, stmts)
	if err != nil {
		return nil, err
	}
	var fp [32]byte
	if in.ClientRequestToken != nil {
		req := *in
		req.ClientRequestToken, req.ReturnConsumedCapacity = nil, ""
		// The token store keeps TransactWriteItems answers: a replay
		// answers as TransactWriteItems does.
		fp = idempotency.Fingerprint(req)
	}
	writes, err := c.TransactWrite(ws, mode, in.ClientRequestToken, fp)
	if err != nil {
		return nil, err
	}
	return &ExecuteTransactionOutput{writes: writes}, nil
}

// parseTransaction validates the request's members and parses its
// statements: the count, the model's constraints, each statement's syntax
// and parameters, then reads and writes not mixed. reads reports a read
// transaction.
func parseTransaction(in *ExecuteTransactionInput) (stmts []txStatement, reads bool, err error) {
	if len(in.TransactStatements) > service.MaxTransactItems {
		return nil, false, apierr.Validation(apierr.MsgTxTooManyItems)
	}
	if len(in.TransactStatements) == 0 {
		return nil, false, apierr.Validation(apierr.MsgExecTxEmpty)
	}
	var cs apierr.Constraints
	for i, r := range in.TransactStatements {
		member := "transactStatements." + strconv.Itoa(i+1) + ".member."
		for _, v := range []string{
			statementViolation(member+"statement", r.Statement),
			readparams.RVOCCFViolation(member, r.ReturnValuesOnConditionCheckFailure),
			parametersViolation(member+"parameters", r.Parameters),
		} {
			if v != "" && len(cs.Msgs) < apierr.MaxConstraintErrors {
				cs.Msgs = append(cs.Msgs, v)
			}
		}
	}
	if v := readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity); v != "" && len(cs.Msgs) < apierr.MaxConstraintErrors {
		cs.Msgs = append(cs.Msgs, v)
	}
	idempotency.Constraints(&cs, in.ClientRequestToken)
	if err := cs.Err(); err != nil {
		return nil, false, err
	}
	stmts = make([]txStatement, len(in.TransactStatements))
	nReads := 0
	for i, r := range in.TransactStatements {
		s := txStatement{text: *r.Statement, rvoccf: r.ReturnValuesOnConditionCheckFailure}
		if s.st, err = parseStatement(s.text); err != nil {
			return nil, false, err
		}
		if hasReturning(s.st) {
			return nil, false, statementError(i, apierr.Validation(apierr.MsgExecTxReturning))
		}
		if s.params, err = bindParams(s.st, r.Parameters, len(r.Parameters)); err != nil {
			return nil, false, statementError(i, err)
		}
		if _, ok := s.st.(*partiql.Select); ok {
			nReads++
		}
		stmts[i] = s
	}
	if nReads > 0 && nReads < len(stmts) {
		return nil, false, apierr.Validation(apierr.MsgExecTxMixed)
	}
	return stmts, nReads > 0, nil
}

// statementError words a validation error of statement i as DynamoDB
// Local does ("Validation failed in TransactStatements[i]: ..."); other
// errors (a missing table) are answered as they are.
func statementError(i int, err error) error {
	ae, ok := apierr.Classify(err)
	if !ok || ae.Class != apierr.ErrValidation {
		return err
	}
	return &apierr.Error{Class: apierr.ErrValidation, Msg: fmt.Sprintf(apierr.MsgExecTxStatement, i, ae.Msg), Cause: err}
}

// ruleReason turns an itemRuleError into the statement's cancellation
// reason; ok is false for any other error.
func ruleReason(err error) (apierr.CancellationReason, bool) {
	var ir *itemRuleError
	if !errors.As(err, &ir) {
		return apierr.CancellationReason{}, false
	}
	ae, _ := apierr.Classify(ir.err)
	return apierr.CancellationReason{Code: apierr.ReasonValidation, Message: ae.Msg}, true
}

// planTxReads plans a read transaction: each SELECT names a table (not an
// index) and its WHERE clause is exactly the full primary key. A key of
// the wrong shape cancels the transaction with that statement's reason.
func planTxReads(c service.Call, stmts []txStatement) ([]service.TxRead, error) {
	gets := make([]service.TxRead, len(stmts))
	var reasons []apierr.CancellationReason
	for i, s := range stmts {
		sel := s.st.(*partiql.Select)
		t, err := c.LookupDataTable(sel.From.Table.Text)
		if err != nil {
			return nil, err
		}
		g, err := lower.LowerTxGet(binding(s.text, s.params), sel, t.Schema())
		if err == nil {
			var key storage.Key
			if key, err = statementKey(t, g.Key); err == nil {
				gets[i] = service.TxRead{Table: t, Key: key, Projection: g.Projection}
				continue
			}
		}
		err = lowered(err)
		if r, ok := ruleReason(err); ok {
			reasons = setReason(reasons, len(stmts), i, r)
			continue
		}
		return nil, statementError(i, err)
	}
	if reasons != nil {
		return nil, apierr.TransactionCanceled(reasons)
	}
	return gets, nil
}

// setReason sets reason i of a list of n (made on first use, None
// elsewhere).
func setReason(reasons []apierr.CancellationReason, n, i int, r apierr.CancellationReason) []apierr.CancellationReason {
	if reasons == nil {
		reasons = make([]apierr.CancellationReason, n)
		for j := range reasons {
			reasons[j].Code = apierr.ReasonNone
		}
	}
	reasons[i] = r
	return reasons
}

// planTxWrites plans a write transaction: each statement becomes a
// TransactWriteItems action (INSERT a Put of an item that must not exist,
// UPDATE an Update, DELETE a Delete, EXISTS a ConditionCheck). Errors of
// the statement's text fail the request; errors of its item become its
// ValidationError reason, the others evaluated as usual.
func planTxWrites(c service.Call, stmts []txStatement) ([]service.TxWrite, error) {
	ws := make([]service.TxWrite, len(stmts))
	for i, s := range stmts {
		w, err := planTxWrite(c, s)
		if r, ok := ruleReason(err); ok {
			w = service.TxWrite{Kind: service.TxCheck, Preset: &r}
		} else if err != nil {
			return nil, statementError(i, err)
		}
		ws[i] = w
	}
	return ws, nil
}

// planTxWrite plans one statement of a write transaction.
func planTxWrite(c service.Call, s txStatement) (service.TxWrite, error) {
	b := binding(s.text, s.params)
	w := service.TxWrite{RVOCCF: s.rvoccf}
	var p *writePlan
	var err error
	switch st := s.st.(type) {
	case *partiql.Insert:
		w.Kind, w.Insert = service.TxPut, true
		p, err = planInsert(c, b, st)
	case *partiql.Update:
		w.Kind = service.TxUpdate
		p, err = planUpdate(c, b, st)
	case *partiql.Delete:
		w.Kind = service.TxDelete
		p, err = planDelete(c, b, st)
	case *partiql.Exists:
		w.Kind = service.TxCheck
		if st.Query.From.Index != nil {
			return w, apierr.Validation(apierr.MsgExecTxIndexOp)
		}
		p, err = planExists(c, b, st)
	}
	if err != nil {
		return w, err
	}
	w.Table, w.Key, w.Item, w.Condition, w.Update = p.t, p.key, p.item, p.cond, p.upd
	return w, nil
}

// hasReturning reports a statement with a RETURNING clause, which AWS
// refuses in ExecuteTransaction (the whole request, before anything is
// written; public records of AWS answers: nubo-db/dynamodb-conformance,
// tests/tier3/error-messages/partiql.test.ts).
func hasReturning(st partiql.Statement) bool {
	switch s := st.(type) {
	case *partiql.Update:
		return s.Returning != nil
	case *partiql.Delete:
		return s.Returning != nil
	}
	return false
}
