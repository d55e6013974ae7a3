package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// PartiQL SELECT from an index target ("table"."index"): planned as a
// SELECT from the table with the index's key schema, then read as Query
// reads an index (QueryIndex, a seek into each index partition the WHERE
// clause fixes by equality or IN) or as Scan reads one (ScanIndex), with
// Query's and Scan's index rules (setIndex: no consistent read on a GSI,
// only projected attributes from a GSI, an LSI fetching the others) and
// the index's and the table's key attributes in the NextToken. As
// DynamoDB Local answers, the WHERE clause filters whole items: it is not
// refused for naming attributes the index does not project. An index
// with a multi-attribute key is refused, as DynamoDB Local refuses it.

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
	if err := c.beginSelect(plan, req, first); err != nil {
		return err
	}
	switch {
	case plan.none:
	case len(plan.iqs) > 0:
		for _, q := range plan.iqs[first:] {
			q.ExclusiveStart = start
			if err := t.indexData(ix, p.req.consistent).QueryIndex(ix.name, q, p.visit); err != nil {
				return apierr.Validation(apierr.MsgPartiQLNoSuchIndex) // deleted since the lookup
			}
			if p.stopped {
				break
			}
			start = nil
		}
	default:
		if err := t.indexData(ix, p.req.consistent).ScanIndex(ix.name, storage.IndexScanRange{ExclusiveStart: start}, p.visit); err != nil {
			return apierr.Validation(apierr.MsgPartiQLNoSuchIndex)
		}
	}
	return nil
}
