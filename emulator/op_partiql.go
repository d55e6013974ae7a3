package emulator

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// ExecuteStatement: one PartiQL statement, parsed once per distinct text
// (a bounded cache), translated to expr's compiled forms and run on
// storage as the item operations run: a SELECT that fixes the partition
// key by equality is a Query (a seek into one partition), any other SELECT
// a Scan with the WHERE clause as its filter; INSERT, UPDATE and DELETE
// are one Table.Write each on the full primary key, their conditions
// checked inside the write. ExecuteTransaction is not here.

func init() {
	register("ExecuteStatement", executeStatement)
}

// maxStatementLen is the model's limit on Statement.
const maxStatementLen = 8192

// ExecuteStatementInput is the ExecuteStatement request.
type ExecuteStatementInput struct {
	Statement                           *string
	Parameters                          []AttributeValue
	ConsistentRead                      *bool
	NextToken                           *string
	ReturnConsumedCapacity              string
	ReturnValuesOnConditionCheckFailure string
	Limit                               *int64
}

// ExecuteStatementOutput is the ExecuteStatement response: items read
// (projected, or whole from storage), the token of the next page.
type ExecuteStatementOutput struct {
	Items            []storage.Item
	stored           []storage.EncodedItem
	NextToken        string
	ConsumedCapacity *ConsumedCapacity
}

func (o *ExecuteStatementOutput) appendJSON(b []byte) []byte {
	b = append(b, `{"Items":[`...)
	for i, it := range o.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendItem(b, it)
	}
	for i, e := range o.stored {
		if i > 0 || len(o.Items) > 0 {
			b = append(b, ',')
		}
		b = appendStoredItem(b, e)
	}
	b = append(b, ']')
	if o.NextToken != "" {
		b = append(b, `,"NextToken":`...)
		b = appendString(b, o.NextToken)
	}
	if o.ConsumedCapacity != nil {
		b = append(b, `,"ConsumedCapacity":`...)
		b = o.ConsumedCapacity.appendJSON(b)
	}
	return append(b, '}')
}

// stmtOptions are the request members that shape how a statement runs.
type stmtOptions struct {
	consistent bool
	limit      int // 0: none
	nextToken  *string
	capacity   string // ReturnConsumedCapacity
	rvoccf     string // ReturnValuesOnConditionCheckFailure
	batch      bool   // inside BatchExecuteStatement: single-item SELECT only
}

func executeStatement(c *call, in *ExecuteStatementInput) (*ExecuteStatementOutput, error) {
	var tokenViolation string
	if in.NextToken != nil && *in.NextToken == "" {
		tokenViolation = fmt.Sprintf(msgMinLenConstraint, "", "nextToken", 1)
	}
	if err := constraintErrors(
		statementViolation("statement", in.Statement),
		enumViolation(paramReturnConsumedCap, in.ReturnConsumedCapacity, enumReturnConsumedCap),
		enumViolation(paramReturnOnCondFail, in.ReturnValuesOnConditionCheckFailure, enumReturnOnCondFail),
		limitConstraint(in.Limit),
		tokenViolation,
		parametersViolation("parameters", in.Parameters),
	); err != nil {
		return nil, err
	}
	st, err := parseStatement(*in.Statement)
	if err != nil {
		return nil, err
	}
	params, err := bindParams(st, in.Parameters)
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
		return fmt.Sprintf(msgNotNullConstraint, param)
	case *s == "":
		return fmt.Sprintf(msgMinLenConstraint, "", param, 1)
	case len(*s) > maxStatementLen:
		return fmt.Sprintf(msgMaxLenConstraint, *s, param, maxStatementLen)
	}
	return ""
}

// parametersViolation: Parameters, when present, has at least one member.
func parametersViolation(param string, p []AttributeValue) string {
	if p != nil && len(p) == 0 {
		return fmt.Sprintf(msgMinLenConstraint, "[]", param, 1)
	}
	return ""
}

// bindParams checks that the request gives a parameter for every ? of the
// statement (DynamoDB Local ignores extra ones).
func bindParams(st partiql.Statement, in []AttributeValue) ([]storage.Value, error) {
	if partiql.ParamCount(st) > len(in) {
		return nil, errValidation(msgParamCount)
	}
	out := make([]storage.Value, len(in))
	for i, v := range in {
		out[i] = v.Value
	}
	return out, nil
}

// stmtCache maps statement text to its parse, so a statement a program
// sends again and again is parsed once. Parses are immutable and do not
// depend on tables, so one cache serves every namespace.
var stmtCache struct {
	mu sync.Mutex // guards m
	m  map[string]stmtParse
}

type stmtParse struct {
	st  partiql.Statement
	err error
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
// AWS answers give it, else DynamoDB Local's (the statement itself).
func syntaxError(text string, err error) error {
	if err == nil {
		return nil
	}
	var pe *partiql.Error
	if !errors.As(err, &pe) {
		return err
	}
	detail := text
	switch pe.Kind {
	case partiql.KindNotStatement:
		detail = msgExpectedDML
	case partiql.KindUnexpectedKeyword:
		detail = msgUnexpectedKeyword
	}
	return &apiError{class: ErrValidation, msg: msgStatementMalformed + detail, cause: err}
}

// runStatement runs a parsed statement.
func runStatement(c *call, st partiql.Statement, text string, params []storage.Value, opt stmtOptions) (*ExecuteStatementOutput, error) {
	x := newTranslator(text, params)
	switch s := st.(type) {
	case *partiql.Select:
		return runSelect(c, x, s, opt)
	case *partiql.Insert:
		return runInsert(c, x, s, opt)
	case *partiql.Update:
		return runUpdate(c, x, s, opt)
	case *partiql.Delete:
		return runDelete(c, x, s, opt)
	}
	return nil, errValidation(msgExistsOutsideTxn)
}

// selectPlan is a SELECT compiled against its table.
type selectPlan struct {
	t          *table
	kcs        []*expr.KeyCondition // one per partition read, in order; none: Scan
	filter     *expr.Condition
	projection []projected // nil: whole items
	forward    bool
	none       bool // the key conditions match no partition: read nothing
}

func planSelect(c *call, x *translator, s *partiql.Select) (*selectPlan, error) {
	t, err := c.lookupTable(s.From.Table.Text)
	if err != nil {
		return nil, err
	}
	if s.From.Index != nil {
		if err := checkIndex(t, &s.From.Index.Text); err != nil {
			return nil, err
		}
	}
	plan := &selectPlan{t: t, forward: true}
	var filterText string
	if !s.Star {
		if plan.projection, err = x.projection(s.Projection); err != nil {
			return nil, err
		}
	}
	if s.Where != nil {
		if filterText, err = x.condition(s.Where); err != nil {
			return nil, err
		}
	}
	kcTexts, equality, err := keyConditionTexts(x, t.schema, s.Where)
	if err != nil {
		return nil, err
	}
	if err := checkOrderBy(s, t.schema, equality); err != nil {
		return nil, err
	}
	for _, o := range s.OrderBy {
		if t.schema.HasSort() && isTopName(o.Path, t.schema.Sort.Name) && o.Dir == partiql.DESC {
			plan.forward = false
		}
	}
	comp := x.compiler()
	// A key condition that does not compile (a key value of another type)
	// matches no item of its partition; the filter still decides.
	for _, text := range kcTexts {
		kc, err := comp.KeyCondition(text, t.schema)
		if err != nil || checkKeyConditionValues(kc, t.schema) != nil {
			continue
		}
		dup := false
		for _, have := range plan.kcs {
			dup = dup || storage.Equal(have.Partition, kc.Partition)
		}
		if !dup {
			plan.kcs = append(plan.kcs, kc)
		}
	}
	if len(kcTexts) > 0 && len(plan.kcs) == 0 {
		plan.none = true
	}
	if filterText != "" {
		if plan.filter, err = comp.Condition("FilterExpression", filterText); err != nil {
			return nil, exprError(err)
		}
	}
	return plan, nil
}

// keyConditionTexts finds, among the WHERE clause's top-level conjuncts,
// an equality on the partition key (or else pk IN a list of values) and
// at most one condition on the sort key that a key condition can express,
// and translates them: one key condition per partition to read, none when
// the partition key is not fixed. equality reports a pk = value.
func keyConditionTexts(x *translator, ks storage.KeySchema, where partiql.Expr) (texts []string, equality bool, err error) {
	if where == nil {
		return nil, false, nil
	}
	cs := conjuncts(where)
	var parts []string
	for _, c := range cs {
		if _, ok := keyEquality(c, ks.Partition.Name); ok {
			s, err := x.condition(c)
			if err != nil {
				return nil, false, err
			}
			parts, equality = []string{s}, true
			break
		}
	}
	if parts == nil {
		for _, c := range cs {
			in, ok := c.(*partiql.In)
			if !ok || in.Not || in.Right != nil || !isTopName(in.X, ks.Partition.Name) || !allValues(in.Elems) {
				continue
			}
			pk, err := x.operand(in.X)
			if err != nil {
				return nil, false, err
			}
			for _, v := range in.Elems {
				s, err := x.operand(v)
				if err != nil {
					return nil, false, err
				}
				parts = append(parts, pk+" = "+s)
			}
			break
		}
	}
	if parts == nil || !ks.HasSort() {
		return parts, equality, nil
	}
	for _, c := range cs {
		if sortKeyCondition(c, ks.Sort.Name) {
			s, err := x.condition(c)
			if err != nil {
				return nil, false, err
			}
			for i := range parts {
				parts[i] += " AND " + s
			}
			break
		}
	}
	return parts, equality, nil
}

func allValues(xs []partiql.Expr) bool {
	for _, x := range xs {
		if !isValue(x) {
			return false
		}
	}
	return true
}

// sortKeyCondition reports whether c is a key condition on the sort key:
// sk op value (op one of = < <= > >=), sk BETWEEN value AND value, or
// begins_with(sk, value).
func sortKeyCondition(c partiql.Expr, name string) bool {
	switch c := c.(type) {
	case *partiql.Binary:
		switch c.Op {
		case partiql.EQ, partiql.LT, partiql.LE, partiql.GT, partiql.GE:
			return isTopName(c.X, name) && isValue(c.Y)
		}
	case *partiql.Between:
		return !c.Not && isTopName(c.X, name) && isValue(c.Lo) && isValue(c.Hi)
	case *partiql.Call:
		return c.Fun == "begins_with" && len(c.Args) == 2 && isTopName(c.Args[0], name) && isValue(c.Args[1])
	}
	return false
}

// checkOrderBy applies DynamoDB's rules: ORDER BY needs a WHERE clause
// that fixes the partition key, and orders by key attributes only.
func checkOrderBy(s *partiql.Select, ks storage.KeySchema, hasKey bool) error {
	if len(s.OrderBy) == 0 {
		return nil
	}
	if s.Where == nil {
		return errValidation(msgOrderByNoWhere)
	}
	if !hasKey {
		return errValidation(msgOrderByNoHashKey)
	}
	for _, o := range s.OrderBy {
		if !isTopName(o.Path, ks.Partition.Name) && !(ks.HasSort() && isTopName(o.Path, ks.Sort.Name)) {
			return errValidationf(msgOrderByNotKey, o.Path.String())
		}
	}
	return nil
}

func runSelect(c *call, x *translator, s *partiql.Select, opt stmtOptions) (*ExecuteStatementOutput, error) {
	plan, err := planSelect(c, x, s)
	if err != nil {
		return nil, err
	}
	t := plan.t
	var start *storage.Key
	first := 0 // the first partition to read, of plan.kcs
	if opt.nextToken != nil {
		k, err := decodeNextToken(t, *opt.nextToken)
		if err != nil {
			return nil, err
		}
		if len(plan.kcs) > 0 {
			first = -1
			for i, kc := range plan.kcs {
				if storage.Equal(k.Partition, kc.Partition) {
					first = i
				}
			}
			if first < 0 {
				return nil, errValidation(msgInvalidNextToken)
			}
		}
		start = &k
	}
	req := &readRequest{t: t, limit: opt.limit, consistent: opt.consistent, capacity: opt.capacity,
		filter: plan.filter}
	if plan.filter != nil {
		req.filterAttrs = plan.filter.Attributes()
	}
	p := &pageReader{req: req}
	switch {
	case plan.none:
	case len(plan.kcs) > 0:
		for _, kc := range plan.kcs[first:] {
			t.data.QueryEncoded(storage.QueryRange{Partition: kc.Partition, Sort: kc.Sort,
				Forward: plan.forward, ExclusiveStart: start}, p.visit)
			if p.stopped || p.err != nil {
				break
			}
			start = nil
		}
	default:
		t.data.ScanEncoded(storage.ScanRange{ExclusiveStart: start}, p.visit)
	}
	page, err := p.output()
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{Items: page.Items, stored: page.stored, ConsumedCapacity: page.ConsumedCapacity}
	if plan.projection != nil {
		// The stored items stay valid after the walk; project them now.
		names := make([]string, len(plan.projection))
		for i, p := range plan.projection {
			names[i] = p.path.Elems[0].Name.Text
		}
		out.Items = make([]storage.Item, len(page.stored))
		for i, e := range page.stored {
			out.Items[i] = project(plan.projection, e.Attributes(names))
		}
		out.stored = nil
	}
	if page.LastEvaluatedKey != nil {
		out.NextToken = encodeNextToken(page.LastEvaluatedKey)
	}
	return out, nil
}

// A NextToken is the base64 of the last evaluated key's DynamoDB JSON.
func encodeNextToken(key storage.Item) string {
	return base64.StdEncoding.EncodeToString(appendItem(nil, key))
}

func decodeNextToken(t *table, tok string) (storage.Key, error) {
	raw, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		return storage.Key{}, errValidation(msgInvalidNextToken)
	}
	it, err := DecodeItem(raw)
	if err != nil {
		return storage.Key{}, errValidation(msgInvalidNextToken)
	}
	k, err := t.keyFromKeyParam(it)
	if err != nil {
		return storage.Key{}, errValidation(msgInvalidNextToken)
	}
	return k, nil
}

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
	if _, err := t.data.Write(key, func(cur storage.Item) (storage.Item, error) {
		if cur != nil {
			return nil, newError(ErrDuplicateItem, msgDuplicateItem)
		}
		return item, nil
	}); err != nil {
		return nil, err
	}
	return &ExecuteStatementOutput{ConsumedCapacity: writeCapacity(t, opt.capacity, size)}, nil
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
		return next, nil
	})
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: writeCapacity(t, opt.capacity, max(newSize, change.OldSize))}
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
	rv := returnNone
	if s.Returning != nil {
		rv = returnAllOld
	}
	change, err := putOrDelete(t, key, nil, cond, rv, opt.rvoccf)
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{ConsumedCapacity: writeCapacity(t, opt.capacity, change.OldSize)}
	if s.Returning != nil && change.Old != nil {
		out.Items = []storage.Item{change.Old}
	}
	return out, nil
}
