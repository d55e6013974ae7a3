package service

import (
	"encoding/base64"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// PartiQL SELECT: planned against the table (key conditions for the
// partitions the WHERE clause fixes, the whole WHERE as a filter, the
// SELECT list), then read as Query pages (seeking into each partition) or
// a Scan, with Limit and a NextToken.

// selectPlan is a SELECT compiled against its table or index.
type selectPlan struct {
	t          *table
	x          *indexDef            // the index read; nil: the table
	kcs        []*expr.KeyCondition // one per partition read, in order; none: Scan
	iqs        []storage.IndexQuery // for an index: kcs as index queries
	filter     *expr.Condition
	projection []projected      // nil: whole items
	projExpr   *expr.Projection // projection as a ProjectionExpression
	forward    bool
	none       bool // the key conditions match no partition: read nothing
}

func planSelect(c *call, x *translator, s *partiql.Select) (*selectPlan, error) {
	t, err := c.lookupTable(s.From.Table.Text)
	if err != nil {
		return nil, err
	}
	plan := &selectPlan{t: t, forward: true}
	ks := t.schema
	if s.From.Index != nil {
		if _, plan.x, err = c.readTable(t.name, &s.From.Index.Text); err != nil {
			return nil, err
		}
		if plan.x.multi() {
			return nil, apierr.Validation(apierr.MsgPartiQLMultiKey)
		}
		ks = indexKeySchema(plan.x)
	}
	var filterText string
	if !s.Star {
		if plan.projection, plan.projExpr, err = x.projection(s.Projection); err != nil {
			return nil, err
		}
	}
	if s.Where != nil {
		if filterText, err = x.condition(s.Where); err != nil {
			return nil, err
		}
	}
	kcTexts, equality, err := keyConditionTexts(x, ks, s.Where)
	if err != nil {
		return nil, err
	}
	if err := checkOrderBy(s, ks, equality); err != nil {
		return nil, err
	}
	for _, o := range s.OrderBy {
		if ks.HasSort() && isTopName(o.Path, ks.Sort.Name) && o.Dir == partiql.DESC {
			plan.forward = false
		}
	}
	comp := x.compiler()
	if err := plan.planKeys(comp, ks, kcTexts, equality); err != nil {
		return nil, err
	}
	if err := c.guardSelect(t, plan.kcs, len(kcTexts) == 0); err != nil {
		return nil, err
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
			if err := x.checkKeyKinds(c, ks.Partition); err != nil {
				return nil, false, err
			}
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
			if err := x.checkKeyKinds(c, ks.Sort); err != nil {
				return nil, false, err
			}
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
		return apierr.Validation(apierr.MsgOrderByNoWhere)
	}
	if !hasKey {
		return apierr.Validation(apierr.MsgOrderByNoHashKey)
	}
	for _, o := range s.OrderBy {
		if !isTopName(o.Path, ks.Partition.Name) && !(ks.HasSort() && isTopName(o.Path, ks.Sort.Name)) {
			return apierr.Validationf(apierr.MsgOrderByNotKey, o.Path.String())
		}
	}
	return nil
}

func runSelect(c *call, x *translator, s *partiql.Select, opt stmtOptions) (*ExecuteStatementOutput, error) {
	plan, err := planSelect(c, x, s)
	if err != nil {
		return nil, err
	}
	req := &readRequest{t: plan.t, limit: opt.limit, consistent: opt.consistent, capacity: opt.capacity,
		filter: plan.filter}
	if plan.filter != nil {
		req.filterAttrs = plan.filter.Attributes()
	}
	p := &pageReader{req: req}
	if plan.x != nil {
		err = plan.readIndex(req, p, opt.nextToken)
	} else {
		err = plan.readTable(p, opt.nextToken)
	}
	if err != nil {
		return nil, err
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

// planKeys compiles the key conditions of the partitions to read
// (equality: one, from pk = value). Of an IN list, one that does not
// compile or holds an empty key matches no item of its partition; the
// filter still decides.
func (plan *selectPlan) planKeys(comp *expr.Compiler, ks storage.KeySchema, kcTexts []string, equality bool) error {
	for _, text := range kcTexts {
		kc, err := comp.KeyCondition(text, ks)
		if err != nil {
			continue // the filter, compiled next, words the error
		}
		if err := checkKeyConditionValues(kc, ks); err != nil {
			if equality {
				return err // one partition, and its key is bad (an empty string)
			}
			continue
		}
		dup := false
		for _, have := range plan.kcs {
			dup = dup || storage.Equal(have.Partition, kc.Partition)
		}
		if !dup {
			plan.kcs = append(plan.kcs, kc)
			if plan.x != nil {
				plan.iqs = append(plan.iqs, indexQuery(plan.x, kc, plan.forward))
			}
		}
	}
	if len(kcTexts) > 0 && len(plan.kcs) == 0 {
		plan.none = true
	}
	return nil
}

// readTable reads one page of the table into p: Query pages of the
// partitions the plan fixes, or a Scan.
func (plan *selectPlan) readTable(p *pageReader, nextToken *string) error {
	t := plan.t
	var start *storage.Key
	first := 0 // the first partition to read, of plan.kcs
	if nextToken != nil {
		k, err := decodeNextToken(t, *nextToken)
		if err != nil {
			return err
		}
		if first, err = plan.firstPartition(func(i int) bool { return storage.Equal(k.Partition, plan.kcs[i].Partition) }); err != nil {
			return err
		}
		start = &k
	}
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
	return nil
}

// firstPartition finds the partition a NextToken's key is in (in(i):
// whether it is the i-th of the plan's), the one to continue with; 0 for
// a Scan.
func (plan *selectPlan) firstPartition(in func(i int) bool) (int, error) {
	if len(plan.kcs) == 0 {
		return 0, nil
	}
	for i := range plan.kcs {
		if in(i) {
			return i, nil
		}
	}
	return 0, apierr.Validation(apierr.MsgInvalidNextToken)
}

// A NextToken is the base64 of the last evaluated key's DynamoDB JSON.
func encodeNextToken(key storage.Item) string {
	return base64.StdEncoding.EncodeToString(wire.AppendItem(nil, key))
}

func decodeNextToken(t *table, tok string) (storage.Key, error) {
	it, err := decodeTokenItem(tok)
	if err != nil {
		return storage.Key{}, err
	}
	k, err := t.keyFromKeyParam(it)
	if err != nil {
		return storage.Key{}, apierr.Validation(apierr.MsgInvalidNextToken)
	}
	return k, nil
}

// decodeTokenItem decodes a NextToken into the key item it holds.
func decodeTokenItem(tok string) (storage.Item, error) {
	raw, err := base64.StdEncoding.DecodeString(tok)
	if err != nil {
		return nil, apierr.Validation(apierr.MsgInvalidNextToken)
	}
	it, err := wire.DecodeItem(raw)
	if err != nil {
		return nil, apierr.Validation(apierr.MsgInvalidNextToken)
	}
	return it, nil
}
