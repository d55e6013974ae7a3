package service

import (
	"encoding/base64"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A statement's SELECT (ReadStatement), read as Query pages (seeking
// into each partition its key conditions fix) or a Scan, with Limit and
// a NextToken (the base64 of the last evaluated key's DynamoDB JSON).
//
// From an index target ("table"."index"): read as Query reads an index
// (QueryIndex, a seek into each index partition the WHERE clause fixes
// by equality or IN) or as Scan reads one (ScanIndex), with Query's and
// Scan's index rules (setIndex: no consistent read on a GSI, only
// projected attributes from a GSI, an LSI fetching the others) and the
// index's and the table's key attributes in the NextToken. As DynamoDB
// Local answers, the WHERE clause filters whole items: it is not
// refused for naming attributes the index does not project.

// selectPlan is a SELECT lowered against its table or index.
type selectPlan struct {
	t    *table
	x    *tablespec.IndexDef  // the index read; nil: the table
	sel  *lower.Select        // key conditions, filter, SELECT list, direction
	kcs  []*expr.KeyCondition // one per partition read, in order; none: Scan
	iqs  []storage.IndexQuery // for an index: kcs as index queries
	none bool                 // the key conditions match no partition: read nothing
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
	var data *storage.Table
	if !plan.none {
		data = c.pipe.use.view(t, nil, p.req.consistent)
	}
	switch {
	case plan.none:
	case len(plan.kcs) > 0:
		for _, kc := range plan.kcs[first:] {
			data.QueryEncoded(storage.QueryRange{Partition: kc.Partition, Sort: kc.Sort,
				Forward: plan.sel.Forward, ExclusiveStart: start}, p.visit)
			if p.stopped {
				break
			}
			start = nil
		}
	default:
		data.ScanEncoded(storage.ScanRange{ExclusiveStart: start}, p.visit)
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

// readIndex reads one page of the plan's index into p. The hooks
// (beginSelect) run once the request is checked, before the read.
func (plan *selectPlan) readIndex(c *call, req *readRequest, p *pageReader, nextToken *string) error {
	t, ix := plan.t, plan.x
	// The SELECT list is checked as a ProjectionExpression would be; the
	// items are projected after the walk.
	req.projection = plan.sel.Projection
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
			return apierr.Validation(apierr.MsgInvalidNextToken)
		}
		first, err = plan.firstPartition(func(i int) bool {
			for j, a := range ix.PartAttrs {
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
	if err := c.beginSelect(plan, req, first); err != nil {
		return err
	}
	var data *storage.Table
	if !plan.none {
		data = c.pipe.use.view(t, ix, p.req.consistent)
	}
	switch {
	case plan.none:
	case len(plan.iqs) > 0:
		for _, q := range plan.iqs[first:] {
			q.ExclusiveStart = start
			if err := data.QueryIndex(ix.Name, q, p.visit); err != nil {
				return apierr.Validation(apierr.MsgPartiQLNoSuchIndex) // deleted since the lookup
			}
			if p.stopped {
				break
			}
			start = nil
		}
	default:
		if err := data.ScanIndex(ix.Name, storage.IndexScanRange{ExclusiveStart: start}, p.visit); err != nil {
			return apierr.Validation(apierr.MsgPartiQLNoSuchIndex)
		}
	}
	return nil
}

// beginSelect runs the hooks before a SELECT reads its table or index, from
// its first partition on (a NextToken's). A SELECT over several
// partitions (WHERE pk IN [...]) is a read of each: the fault rules
// decide on each partition it reads, with its key (so a key or key-prefix
// rule on one of them fires), and the first refused fails the statement,
// as that read would fail it; the throttler and the report see one Query
// with no key.
func (c *call) beginSelect(plan *selectPlan, req *readRequest, first int) error {
	var kc insights.KeyCondition
	access := insights.Scan
	if len(plan.kcs) > 0 || plan.none {
		access = insights.Query
	}
	var parts []*expr.KeyCondition
	switch {
	case len(plan.kcs) == 1:
		kc = queryKey(plan.kcs[0].Partition, plan.kcs[0].Sort)
	case len(plan.kcs) > 1:
		parts = plan.kcs[first:]
	}
	return c.beginRead(plan.t, plan.x, kc, parts, access, req.filter != nil)
}
