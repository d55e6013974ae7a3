package emulator

import (
	"encoding/base64"

	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// PartiQL SELECT: planned against the table (key conditions for the
// partitions the WHERE clause fixes, the whole WHERE as a filter, the
// SELECT list), then read as Query pages (seeking into each partition) or
// a Scan, with Limit and a NextToken.

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
		if _, _, err := c.readTable(t.name, &s.From.Index.Text); err != nil {
			return nil, err
		}
		return nil, errValidationf(msgPartiQLIndexUnsupported, s.From.Index.Text)
	}
	plan := &selectPlan{t: t, forward: true}
	var filterText string
	if !s.Star {
		if plan.projection, _, err = x.projection(s.Projection); err != nil {
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
