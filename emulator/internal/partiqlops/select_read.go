package partiqlops

import (
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// A SELECT's read: one page, read by the core as Query and Scan read
// theirs (service.Call.ReadPage: Limit, the 1 MB page, the filter, an
// index's rules), over the partitions its key conditions fix (seeking
// into each) or a Scan, with a NextToken (the last evaluated key, bound
// to the statement and its parameters: token.go).
//
// From an index target ("table"."index"): read as Query reads an index
// (a seek into each index partition the WHERE clause fixes by equality
// or IN) or as Scan reads one, with Query's and Scan's index rules (no
// consistent read on a GSI, only projected attributes from a GSI, an LSI
// fetching the others) and the index's and the table's key attributes
// in the NextToken. A keyed read whose WHERE clause names attributes the
// index does not project is refused, as AWS refuses it
// (filterProjected).

// selectPlan is a SELECT lowered against its table or index.
type selectPlan struct {
	t    service.Table
	x    *tablespec.IndexDef  // the index read; nil: the table
	sel  *lower.Select        // key conditions, filter, SELECT list, direction
	kcs  []*expr.KeyCondition // one per partition read, in order; none: Scan
	iqs  []storage.IndexQuery // for an index: kcs as index queries
	none bool                 // the key conditions match no partition: read nothing
	// stopped: the page ended (Limit or its size) in the partition read.
	stopped bool
	tokenFP tokenFingerprint // the statement's, which a NextToken must carry (token.go)
}

// readSelect reads one page of a SELECT sel of t (or its index x; keys:
// the target's key schema, as the lowering took it). The checks come in
// the API's order: the key values, then, in the core's ReadPage, the
// tenant guard of the partitions the read declares (PageRead.Parts, or
// the whole table or index: no handler guards its own keys), the index's
// rules, the NextToken; the stages then open the read.
func readSelect(c service.Call, t service.Table, x *tablespec.IndexDef, keys storage.KeySchema, sel *lower.Select, opt stmtOptions) (*service.Page, error) {
	// Of an IN list, a key that holds an empty value matches no item of
	// its partition; with pk = value it is the statement's error.
	if err := sel.CheckKeys(func(kc *expr.KeyCondition) error { return tablespec.CheckKeyConditionValues(kc, keys) }); err != nil {
		return nil, err
	}
	if err := filterProjected(t, x, sel); err != nil {
		return nil, err
	}
	plan := &selectPlan{t: t, x: x, sel: sel, kcs: sel.Keys, none: sel.None, tokenFP: opt.tokenFP}
	if x != nil {
		for _, kc := range sel.Keys {
			plan.iqs = append(plan.iqs, storage.IndexQuery{Partition: []storage.Value{kc.Partition}, Sort: kc.Sort, Forward: sel.Forward})
		}
	}
	r := &service.PageRead{Table: t, Index: x, Parts: sel.Keys, None: sel.None, Projection: sel.Projection, Filter: sel.Filter,
		Limit: opt.limit, Consistent: opt.consistent, Capacity: opt.capacity}
	first := 0
	var tableKey *storage.Key // the NextToken's
	var indexKey storage.Item
	return c.ReadPage(r, func() (service.PageUse, error) {
		var err error
		if x != nil {
			first, err = plan.indexStart(opt.nextToken, &indexKey)
		} else {
			first, err = plan.tableStart(opt.nextToken, &tableKey)
		}
		return plan.use(first), err
	}, func(view func() *storage.Table, visit func(storage.EncodedItem) bool) error {
		v := func(e storage.EncodedItem) bool {
			plan.stopped = !visit(e)
			return !plan.stopped
		}
		if x != nil {
			return plan.readIndex(first, indexKey, view, v)
		}
		return plan.readTable(first, tableKey, view, v)
	})
}

// filterProjected refuses a keyed read of index x (equality or IN on
// its partition key: a Query) whose WHERE clause filters on attributes
// the index does not project, as AWS does for a GSI and an LSI alike
// (AWS's answer: nubo-db/dynamodb-conformance,
// tests/tier3/error-messages/partiql.test.ts, "unprojected filter
// attribute on a GSI" and "... on an LSI"); DynamoDB Local filters the
// whole items. An unkeyed read (a Scan) is not refused.
func filterProjected(t service.Table, x *tablespec.IndexDef, sel *lower.Select) error {
	if x == nil || len(sel.Keys) == 0 || sel.Filter == nil {
		return nil
	}
	projected := x.Projected(t.Schema())
	if projected == nil {
		return nil // ALL
	}
	var missing []string
	for _, a := range sel.Filter.Attributes() {
		if !slices.Contains(projected, a) && !slices.Contains(missing, a) {
			missing = append(missing, a)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return apierr.Validationf(apierr.MsgFilterNotProjected, x.Name, "["+strings.Join(missing, ", ")+"]")
}

// tableStart reads a table SELECT's NextToken (nil: none) into *start
// and returns the partition to read first, of plan.kcs.
func (plan *selectPlan) tableStart(nextToken *string, start **storage.Key) (int, error) {
	if nextToken == nil {
		return 0, nil
	}
	it, err := decodeNextToken(*nextToken, plan.tokenFP)
	if err != nil {
		return 0, err
	}
	k, err := plan.t.KeyFromKeyParam(it)
	if err != nil {
		return 0, apierr.Validation(apierr.MsgPartiQLInvalidNextToken)
	}
	*start = &k
	return plan.firstPartition(func(i int) bool { return storage.Equal(k.Partition, plan.kcs[i].Partition) })
}

// readTable reads the table from partition first on into visit: Query
// pages of the partitions the plan fixes, or a Scan.
func (plan *selectPlan) readTable(first int, start *storage.Key, view func() *storage.Table, visit func(storage.EncodedItem) bool) error {
	switch {
	case plan.none:
	case len(plan.kcs) > 0:
		data := view()
		for _, kc := range plan.kcs[first:] {
			data.QueryEncoded(storage.QueryRange{Partition: kc.Partition, Sort: kc.Sort,
				Forward: plan.sel.Forward, ExclusiveStart: start}, visit)
			if plan.stopped {
				break
			}
			start = nil
		}
	default:
		view().ScanEncoded(storage.ScanRange{ExclusiveStart: start}, visit)
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
	return 0, apierr.Validation(apierr.MsgPartiQLInvalidNextToken)
}

// indexStart reads an index SELECT's NextToken (nil: none) into *start
// and returns the partition to read first, of plan.iqs.
func (plan *selectPlan) indexStart(nextToken *string, start *storage.Item) (int, error) {
	if nextToken == nil {
		return 0, nil
	}
	it, err := decodeNextToken(*nextToken, plan.tokenFP)
	if err != nil {
		return 0, err
	}
	k, err := plan.t.IndexStartKey(plan.x, it)
	if err != nil {
		return 0, apierr.Validation(apierr.MsgPartiQLInvalidNextToken)
	}
	*start = k
	return plan.firstPartition(func(i int) bool {
		for j, a := range plan.x.PartAttrs {
			if !storage.Equal(k[a.Name], plan.iqs[i].Partition[j]) {
				return false
			}
		}
		return true
	})
}

// readIndex reads the plan's index from partition first on into visit.
func (plan *selectPlan) readIndex(first int, start storage.Item, view func() *storage.Table, visit func(storage.EncodedItem) bool) error {
	ix := plan.x
	switch {
	case plan.none:
	case len(plan.iqs) > 0:
		data := view()
		for _, q := range plan.iqs[first:] {
			q.ExclusiveStart = start
			if err := data.QueryIndex(ix.Name, q, visit); err != nil {
				return apierr.Validation(apierr.MsgPartiQLNoSuchIndex) // deleted since the lookup
			}
			if plan.stopped {
				break
			}
			start = nil
		}
	default:
		if err := view().ScanIndex(ix.Name, storage.IndexScanRange{ExclusiveStart: start}, visit); err != nil {
			return apierr.Validation(apierr.MsgPartiQLNoSuchIndex)
		}
	}
	return nil
}

// use is the SELECT's read of its table or index as the stages see it
// (service.PageUse), from its first partition on (a NextToken's). A SELECT over
// several partitions (WHERE pk IN [...]) is a read of each: the fault
// rules decide on each partition it reads, with its key (so a key or
// key-prefix rule on one of them fires), and the first refused fails the
// statement, as that read would fail it; the throttler and the report
// see one Query with no key.
func (plan *selectPlan) use(first int) service.PageUse {
	var kc insights.KeyCondition
	access := insights.Scan
	if len(plan.kcs) > 0 || plan.none {
		access = insights.Query
	}
	var parts []*expr.KeyCondition
	switch {
	case len(plan.kcs) == 1:
		k := plan.kcs[0]
		kc = insights.KeyCondition{Partition: k.Partition, SortOp: insights.SortOp(k.Sort.Op), Sort: k.Sort.Values[0], Sort2: k.Sort.Values[1]}
	case len(plan.kcs) > 1:
		parts = plan.kcs[first:]
	}
	return service.PageUse{Key: kc, Parts: parts, Access: access}
}
