package service

import (
	"encoding/base64"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// PartiQL SELECT: planned against the table (key conditions for the
// partitions the WHERE clause fixes, the whole WHERE as a filter, the
// SELECT list), then read as Query pages (seeking into each partition) or
// a Scan, with Limit and a NextToken.

// selectPlan is a SELECT lowered against its table or index.
type selectPlan struct {
	t    *table
	x    *indexDef            // the index read; nil: the table
	sel  *lower.Select        // key conditions, filter, SELECT list, direction
	kcs  []*expr.KeyCondition // one per partition read, in order; none: Scan
	iqs  []storage.IndexQuery // for an index: kcs as index queries
	none bool                 // the key conditions match no partition: read nothing
}

func planSelect(c *call, b lower.Binding, s *partiql.Select, consistent bool) (*selectPlan, error) {
	t, x, target, err := c.selectTarget(s)
	if err != nil {
		return nil, err
	}
	if x != nil && !x.local && consistent {
		return nil, apierr.Validation(apierr.MsgPartiQLGSIConsistentRead)
	}
	sel, err := lower.LowerSelect(b, s, target)
	if err != nil {
		return nil, lowered(err)
	}
	ks := target.Keys
	// Of an IN list, a key that holds an empty value matches no item of
	// its partition; with pk = value it is the statement's error.
	if err := sel.CheckKeys(func(kc *expr.KeyCondition) error { return checkKeyConditionValues(kc, ks) }); err != nil {
		return nil, err
	}
	plan := &selectPlan{t: t, x: x, sel: sel, kcs: sel.Keys, none: sel.None}
	if x != nil {
		for _, kc := range sel.Keys {
			plan.iqs = append(plan.iqs, indexQuery(x, kc, sel.Forward))
		}
	}
	if err := c.guardSelect(t, plan.kcs, len(plan.kcs) == 0 && !plan.none); err != nil {
		return nil, err
	}
	return plan, nil
}

func runSelect(c *call, b lower.Binding, s *partiql.Select, opt stmtOptions) (*ExecuteStatementOutput, error) {
	plan, err := planSelect(c, b, s, opt.consistent)
	if err != nil {
		return nil, err
	}
	req := &readRequest{t: plan.t, limit: opt.limit, consistent: opt.consistent, capacity: opt.capacity,
		filter: plan.sel.Filter}
	if plan.sel.Filter != nil {
		req.filterAttrs = plan.sel.Filter.Attributes()
	}
	p := &pageReader{req: req}
	if plan.x != nil {
		err = plan.readIndex(c, req, p, opt.nextToken)
	} else {
		err = plan.readTable(c, req, p, opt.nextToken)
	}
	if err != nil {
		return nil, err
	}
	page, err := c.readPage(p)
	if err != nil {
		return nil, err
	}
	out := &ExecuteStatementOutput{Items: page.Items, stored: page.stored, ConsumedCapacity: page.ConsumedCapacity}
	if plan.sel.Columns != nil {
		// The stored items stay valid after the walk; project them now,
		// from their records (partiql_columns.go).
		out.Items, out.stored = nil, projectColumns(plan.sel.Columns, page.stored)
	}
	if page.LastEvaluatedKey != nil {
		out.NextToken = encodeNextToken(page.LastEvaluatedKey)
	}
	return out, nil
}

// readTable reads one page of the table into p: Query pages of the
// partitions the plan fixes, or a Scan.
// The hooks (beginSelect) run once the NextToken is read, before the read.
func (plan *selectPlan) readTable(c *call, req *readRequest, p *pageReader, nextToken *string) error {
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
	if err := c.beginSelect(plan, req, first); err != nil {
		return err
	}
	switch {
	case plan.none:
	case len(plan.kcs) > 0:
		for _, kc := range plan.kcs[first:] {
			t.readData(p.req.consistent).QueryEncoded(storage.QueryRange{Partition: kc.Partition, Sort: kc.Sort,
				Forward: plan.sel.Forward, ExclusiveStart: start}, p.visit)
			if p.stopped {
				break
			}
			start = nil
		}
	default:
		t.readData(p.req.consistent).ScanEncoded(storage.ScanRange{ExclusiveStart: start}, p.visit)
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
