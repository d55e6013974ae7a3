package emulator

import (
	"github.com/dynamoemu/dynamoemu/expr"
	"github.com/dynamoemu/dynamoemu/partiql"
	"github.com/dynamoemu/dynamoemu/storage"
)

// PartiQL SELECT from an index target ("table"."index"): planned as a
// SELECT from the table with the index's key schema, then read as Query
// reads an index (QueryIndex, a seek into each index partition the WHERE
// clause fixes by equality or IN) or as Scan reads one (ScanIndex), with
// Query's and Scan's index rules (setIndex: no consistent read on a GSI,
// only projected attributes from a GSI, an LSI fetching the others) and
// the index's and the table's key attributes in the NextToken. As
// DynamoDB Local answers, the WHERE clause filters whole items: it is not
// refused for naming attributes the index does not project.

// multiKeyConditionText finds equalities on every partition key attribute
// of a multi-attribute index among the WHERE clause's top-level conjuncts
// and joins them into one key condition (the sort key is left to the
// filter); nil when one is missing.
func multiKeyConditionText(x *translator, ix *indexDef, where partiql.Expr) ([]string, error) {
	if where == nil {
		return nil, nil
	}
	cs := conjuncts(where)
	text := ""
	for _, a := range ix.partAttrs {
		found := false
		for _, c := range cs {
			if _, ok := keyEquality(c, a.Name); ok {
				s, err := x.condition(c)
				if err != nil {
					return nil, err
				}
				if text != "" {
					text += " AND "
				}
				text += s
				found = true
				break
			}
		}
		if !found {
			return nil, nil
		}
	}
	return []string{text}, nil
}

// planMulti compiles the key condition of a multi-attribute index; one
// that does not compile (a value of another type) matches nothing.
func (plan *selectPlan) planMulti(comp *expr.Compiler, kcTexts []string) {
	if len(kcTexts) == 0 {
		return
	}
	kc, err := comp.MultiKeyCondition(kcTexts[0], plan.x.multiSchema())
	if err == nil {
		for i, a := range plan.x.partAttrs {
			err = checkKeyValue(a.Name, kc.Partition[i], true)
			if err != nil {
				break
			}
		}
	}
	if err != nil {
		plan.none = true
		return
	}
	plan.iqs = []storage.IndexQuery{{Partition: kc.Partition, SortPrefix: kc.SortPrefix, Sort: kc.Sort, Forward: plan.forward}}
}

// readIndex reads one page of the plan's index into p.
func (plan *selectPlan) readIndex(req *readRequest, p *pageReader, nextToken *string) error {
	t, ix := plan.t, plan.x
	// The SELECT list is checked as a ProjectionExpression would be; the
	// items are projected after the walk.
	req.projection = plan.projExpr
	err := req.setIndex(ix, nil, "", false)
	req.projection = nil
	if err != nil {
		return err
	}
	var start storage.Item
	first := 0
	if nextToken != nil {
		it, err := decodeTokenItem(*nextToken)
		if err != nil {
			return err
		}
		if start, err = indexStartKey(t, ix, it, nil); err != nil {
			return errValidation(msgInvalidNextToken)
		}
		first, err = plan.firstPartition(func(i int) bool {
			for j, a := range ix.partAttrs {
				if !storage.Equal(start[a.Name], plan.iqs[i].Partition[j]) {
					return false
				}
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	switch {
	case plan.none:
	case len(plan.iqs) > 0:
		for _, q := range plan.iqs[first:] {
			q.ExclusiveStart = start
			if err := t.data.QueryIndex(ix.name, q, p.visit); err != nil {
				return errValidationf(msgNoSuchIndex, ix.name) // deleted since the lookup
			}
			if p.stopped || p.err != nil {
				break
			}
			start = nil
		}
	default:
		if err := t.data.ScanIndex(ix.name, storage.IndexScanRange{ExclusiveStart: start}, p.visit); err != nil {
			return errValidationf(msgNoSuchIndex, ix.name)
		}
	}
	return nil
}
