package partiqlops

import (
	"errors"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"sync"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/lex"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ExecuteStatement: one PartiQL statement, parsed once per distinct text
// (a bounded cache), lowered into expr's compiled forms by partiql/lower
// (lower.go) and run on storage as the item operations run: a
// SELECT that fixes the partition key by equality is a Query (a seek into
// one partition), any other SELECT a Scan with the WHERE clause as its
// filter (of the index for "table"."index");
// INSERT, UPDATE and DELETE are one Table.Write each on the full primary
// key, their conditions checked inside the write. BatchExecuteStatement:
// batch.go (its SELECTs: batch_get.go); ExecuteTransaction:
// transaction.go. Each statement runs through the core's statement seam
// (service's feature_statements.go; a SELECT's plan is select_read.go's,
// over service.Call.ReadPage), inside the request pipeline's stages.

// Feature plugs the PartiQL operations into the service core.
type Feature struct{}

// Name is the feature's name.
func (Feature) Name() string { return "partiql" }

// Register registers ExecuteStatement, BatchExecuteStatement and
// ExecuteTransaction as data-plane operations.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "ExecuteStatement", boundary.ItemsWrite, executeStatement)
	service.Limit(r, "Statements", statementsLimit) // batch.go
	service.Op(r, "BatchExecuteStatement", boundary.ItemsWrite, batchExecuteStatement)
	// Past 100 statements, the answer is their count's, whatever they say
	// but a fault the decoder reports (parseTransaction): it keeps 101.
	service.Limit(r, "TransactStatements", wire.Row[ExecuteTransactionInput, ParameterizedStatement]{Max: service.MaxTransactItems + 1})
	service.Op(r, "ExecuteTransaction", boundary.ItemsWrite, executeTransaction)
}

// maxStatementLen is the model's limit on Statement. A statement has no
// more ?s than characters, so wire.Params keeps every value one binds.
const maxStatementLen = 8192

var _ [wire.KeptParams - maxStatementLen]struct{} // KeptParams >= maxStatementLen

// ExecuteStatementInput is the ExecuteStatement request.
type ExecuteStatementInput struct {
	Statement                           *string     `json:"Statement"`
	Parameters                          wire.Params `json:"Parameters"`
	ConsistentRead                      *bool       `json:"ConsistentRead"`
	NextToken                           *string     `json:"NextToken"`
	ReturnConsumedCapacity              string      `json:"ReturnConsumedCapacity"`
	ReturnValuesOnConditionCheckFailure string      `json:"ReturnValuesOnConditionCheckFailure"`
	Limit                               *int64      `json:"Limit"`
}

// ExecuteStatementOutput is the ExecuteStatement response: items read
// (projected, or whole from storage), the token of the next page.
type ExecuteStatementOutput struct {
	Items            []storage.Item `json:"Items"`
	stored           []storage.EncodedItem
	NextToken        string                    `json:"NextToken"`
	ConsumedCapacity *service.ConsumedCapacity `json:"ConsumedCapacity"`
}

// AppendJSON appends the response's JSON.
func (o *ExecuteStatementOutput) AppendJSON(b []byte) []byte {
	b = append(b, `{"Items":[`...)
	for i, it := range o.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendItem(b, it)
	}
	for i, e := range o.stored {
		if i > 0 || len(o.Items) > 0 {
			b = append(b, ',')
		}
		b = wire.AppendStoredItem(b, e)
	}
	b = append(b, ']')
	if o.NextToken != "" {
		b = append(b, `,"NextToken":`...)
		b = wire.AppendString(b, o.NextToken)
	}
	if o.ConsumedCapacity != nil {
		b = append(b, `,"ConsumedCapacity":`...)
		b = wire.AppendConsumed(b, o.ConsumedCapacity)
	}
	return append(b, '}')
}

// stmtOptions are the request members that shape how a statement runs.
type stmtOptions struct {
	consistent bool
	limit      int // 0: none
	nextToken  *string
	tokenFP    tokenFingerprint // a SELECT's, for nextToken (token.go)
	capacity   string           // ReturnConsumedCapacity
	rvoccf     string           // ReturnValuesOnConditionCheckFailure
}

func executeStatement(c service.Call, in *ExecuteStatementInput) (*ExecuteStatementOutput, error) {
	var tokenViolation string
	if in.NextToken != nil && *in.NextToken == "" {
		tokenViolation = apierr.Violation(apierr.Quote(""), "nextToken", apierr.LenGE(1))
	}
	if err := apierr.ConstraintErrors(
		statementViolation("statement", in.Statement),
		readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity),
		readparams.RVOCCFViolation("", in.ReturnValuesOnConditionCheckFailure),
		apierr.LimitViolation(in.Limit, "limit", 0, true),
		tokenViolation,
		apierr.EmptyLenViolation("parameters", in.Parameters.Given(), in.Parameters.Len()),
	); err != nil {
		return nil, err
	}
	st, err := parseStatement(*in.Statement)
	if err != nil {
		return nil, err
	}
	params, err := bindParams(st, in.Parameters.Kept(), in.Parameters.Len())
	if err != nil {
		return nil, err
	}
	return runStatement(c, st, *in.Statement, params, stmtOptions{
		consistent: in.ConsistentRead != nil && *in.ConsistentRead,
		limit:      limitOf(in.Limit),
		nextToken:  in.NextToken,
		capacity:   in.ReturnConsumedCapacity,
		rvoccf:     in.ReturnValuesOnConditionCheckFailure,
	})
}

// statementViolation checks a Statement member (param: its place in
// constraint messages): present, 1..8192 characters.
func statementViolation(param string, s *string) string {
	switch {
	case s == nil:
		return apierr.NullViolation(param, true)
	case *s == "":
		return apierr.Violation(apierr.Quote(""), param, apierr.LenGE(1))
	case lex.UTF16Len(*s) > maxStatementLen: // characters, as Java counts them
		return apierr.Violation(apierr.Quote(*s), param, apierr.LenLE(maxStatementLen))
	}
	return ""
}

// parametersViolation: Parameters, when present, has at least one member.
func parametersViolation(param string, p []wire.AttributeValue) string {
	return apierr.EmptyListViolation(param, p)
}

// bindParams checks that the request gives a parameter for every ? of the
// statement (given of them, the first of which are in; DynamoDB Local
// ignores extra ones) and returns their values, the statement's ?s in
// order. Extra ones are not copied: 246,720 parameters (a 4 MB request)
// were 1.9 times its bytes more (BenchmarkOversizeMemory).
func bindParams(st partiql.Statement, in []wire.AttributeValue, given int) ([]storage.Value, error) {
	n := partiql.ParamCount(st)
	if n > given {
		return nil, apierr.Validation(apierr.MsgParamCount)
	}
	out := make([]storage.Value, n)
	for i := range out {
		out[i] = in[i].Value
	}
	return out, nil
}

// stmtCache maps statement text to its parse, so a statement a program
// sends again and again is parsed once. Parses are immutable and do not
// depend on tables, so one cache serves every namespace.
var stmtCache struct {
	mu sync.Mutex // guards m; a leaf of the lock order (doc.go)
	m  map[string]stmtParse
}

type stmtParse struct {
	st  partiql.Statement
	err error
}

// limitOf is a Limit member's value, 0 for none.
func limitOf(limit *int64) int {
	if limit == nil {
		return 0
	}
	return int(min(*limit, 1<<31))
}

// maxCachedStatements bounds the cache; when full it starts over.
const maxCachedStatements = 4096

// parseStatement parses text through the cache and words syntax errors as
// DynamoDB does.
func parseStatement(text string) (partiql.Statement, error) {
	stmtCache.mu.Lock()
	p, ok := stmtCache.m[text]
	stmtCache.mu.Unlock()
	if !ok {
		st, err := partiql.Parse(text)
		p = stmtParse{st: st, err: syntaxError(text, err)}
		if p.err == nil {
			p.err = pathError(st)
		}
		stmtCache.mu.Lock()
		if stmtCache.m == nil || len(stmtCache.m) >= maxCachedStatements {
			stmtCache.m = make(map[string]stmtParse)
		}
		stmtCache.m[text] = p
		stmtCache.mu.Unlock()
	}
	return p.st, p.err
}

// syntaxError words a parse error: AWS's reason where public records of
// AWS answers give it, else DynamoDB Local's (the statement itself);
// partiql.Error.Message knows which.
func syntaxError(text string, err error) error {
	if err == nil {
		return nil
	}
	var pe *partiql.Error
	if !errors.As(err, &pe) {
		return err
	}
	return &apierr.Error{Class: apierr.ErrValidation, Msg: pe.Message(text), Cause: err}
}

// runStatement runs a parsed statement.
func runStatement(c service.Call, st partiql.Statement, text string, params []storage.Value, opt stmtOptions) (*ExecuteStatementOutput, error) {
	b := binding(text, params)
	switch s := st.(type) {
	case *partiql.Select:
		out, err := runSelect(c, b, s, opt)
		if errors.Is(err, apierr.ErrResourceNotFound) {
			if agg := lower.AggregateError(b, s); agg != nil {
				return nil, lowered(agg) // ahead of the missing table, as AWS (lower.AggregateError)
			}
		}
		return out, err
	case *partiql.Insert:
		return runInsert(c, b, s, opt)
	case *partiql.Update:
		return runUpdate(c, b, s, opt)
	case *partiql.Delete:
		return runDelete(c, b, s, opt)
	}
	return nil, apierr.Validation(apierr.MsgExistsOutsideTxn)
}

// pathError refuses the path a statement names (its table, and index)
// as AWS does, before the table is looked up: more than two components,
// an empty one, or an index named by a write.
func pathError(st partiql.Statement) error {
	var t partiql.Target
	onIndex := ""
	switch s := st.(type) {
	case *partiql.Select:
		t = s.From
	case *partiql.Insert:
		t, onIndex = s.Into, apierr.MsgPartiQLInsertOnIndex
	case *partiql.Update:
		t, onIndex = s.Table, apierr.MsgPartiQLWriteOnIndex
	case *partiql.Delete:
		t, onIndex = s.From, apierr.MsgPartiQLWriteOnIndex
	case *partiql.Exists:
		t = s.Query.From
	default:
		return nil
	}
	switch {
	case t.Extra > 0:
		return apierr.Validation(apierr.MsgPartiQLPathComponents)
	case t.Table.Text == "" || t.Index != nil && t.Index.Text == "":
		return apierr.Validation(apierr.MsgPartiQLEmptyComponent)
	case t.Index != nil && onIndex != "":
		return apierr.Validation(onIndex)
	}
	return nil
}
