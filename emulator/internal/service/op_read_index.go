package service

import (
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Query and Scan on a secondary index: the checks AWS makes of what an
// index can answer, its projection applied to each item, its key
// attributes in LastEvaluatedKey and ExclusiveStartKey, and its capacity.

// indexRead is what a read of an index needs beyond a table read.
type indexRead struct {
	x         *tablespec.IndexDef
	keep      []string // attributes of each returned item (nil: the whole item)
	keyNames  []string // LastEvaluatedKey's attributes
	projected []string // the index's attributes (nil: ALL), for entry sizes
	fetch     bool     // an LSI read that fetches non-projected attributes from the table
}

// setIndex applies the rules of reading index x to a compiled read
// request: ConsistentRead, Select and the projection against what the
// index holds, and for a Query the filter's attributes. sel is Select
// (nil: absent), projParam names the projection parameter given ("" when
// none).
func (req *readRequest) setIndex(x *tablespec.IndexDef, sel *string, projParam string, isQuery bool) error {
	ks := req.t.schema
	local := x.Local
	if !local && req.consistent {
		return apierr.Validation(apierr.MsgGSIConsistentRead)
	}
	projected := x.Projected(ks)
	ir := &req.indexBuf
	*ir = indexRead{x: x, keyNames: x.KeyNamesInto(req.keyNamesBuf[:], ks), projected: projected}
	selectAllAttrs := sel != nil && *sel == readparams.SelectAll
	if sel != nil && *sel == readparams.SelectAllProjected && projParam != "" {
		return apierr.Validationf(apierr.MsgAllProjectedWithExp, projParam)
	}
	if projected != nil {
		if selectAllAttrs {
			if !local {
				return apierr.Validationf(apierr.MsgGSISelectAll, x.Name)
			}
			ir.fetch = true
		}
		if req.projection != nil {
			missing := notProjected(topNames(req.projection), projected)
			if len(missing) > 0 {
				if !local {
					return apierr.Validationf(apierr.MsgGSINotProjected, x.Name, bracketList(missing))
				}
				ir.fetch = true
			}
		}
		if isQuery && req.filter != nil {
			if missing := notProjected(req.filterAttrs, projected); len(missing) > 0 {
				return apierr.Validationf(apierr.MsgFilterNotProjected, x.Name, bracketList(missing))
			}
		}
		if req.projection == nil && !selectAllAttrs {
			ir.keep = projected
		}
	}
	req.index = ir
	return nil
}

// topNames returns the top-level attribute names a projection's paths start with.
func topNames(p *expr.Projection) []string {
	var names []string
	for _, path := range p.Paths() {
		if len(path) > 0 {
			names = append(names, path[0].Name)
		}
	}
	return names
}

// notProjected returns the names (sorted, distinct) not in projected.
func notProjected(names, projected []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(projected, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// bracketList formats names as AWS lists them: [a, b].
func bracketList(names []string) string {
	return "[" + strings.Join(names, ", ") + "]"
}

// entrySize is the size of e's entry in the index read, which a page's
// 1 MB and the capacity are counted on.
func (ir *indexRead) entrySize(e storage.EncodedItem) int {
	if ir.projected == nil {
		return e.Size()
	}
	return e.SizeOf(ir.projected) // from the record: no map per item read
}

// indexKeySchema is the key schema a Query's key condition on index x is
// compiled against: the index's key attributes, single attributes in
// storage's KeySchema shape.
func indexKeySchema(x *tablespec.IndexDef) storage.KeySchema { return x.Schema }

// indexStartKey validates a Query's or Scan's ExclusiveStartKey on index
// x: exactly the index's and the table's key attributes, of their kinds,
// and for a Query inside the key condition's partition and range.
func indexStartKey(t *table, x *tablespec.IndexDef, esk storage.Item, kc *expr.KeyCondition) (storage.Item, error) {
	names := x.KeyNames(t.schema)
	shape := apierr.MsgStartKeyInvalid
	if x.Local {
		shape = apierr.MsgStartKeySize // an LSI's start key is worded as the table's
	}
	if len(esk) != len(names) {
		return nil, apierr.Validation(shape)
	}
	for _, n := range names {
		if _, ok := esk[n]; !ok {
			return nil, apierr.Validation(shape)
		}
	}
	if _, err := t.keyFromKeyParam(t.schema.KeyItem(t.schema.KeyOf(esk))); err != nil {
		return nil, err
	}
	for _, list := range [2][]storage.KeyAttr{x.PartAttrs, x.SortAttrs} {
		for _, a := range list {
			if esk[a.Name].Kind() != a.Kind {
				return nil, apierr.Validation(apierr.MsgKeySchemaMismatch)
			}
		}
	}
	if kc == nil {
		return esk, nil
	}
	ks := indexKeySchema(x)
	if !storage.Equal(esk[ks.Partition.Name], kc.Partition) {
		// DynamoDB Local words a start key of another index partition so,
		// with or without a sort key condition.
		return nil, apierr.Validation(apierr.MsgStartKeyRangePred)
	}
	if ks.HasSort() && kc.Sort.Op != storage.SortAny && !kc.Match(kc.Partition, esk[ks.Sort.Name]) {
		return nil, apierr.Validation(apierr.MsgStartKeyRangePred)
	}
	return esk, nil
}

// queryIndexPage reads one Query page of index x with the storage query q:
// the index's read rules, the ExclusiveStartKey (checked by start), Select,
// then the seek.
func queryIndexPage(u *readUse, t *table, x *tablespec.IndexDef, req *readRequest, in *QueryInput, q storage.IndexQuery, start func(storage.Item) (storage.Item, error)) (*QueryOutput, error) {
	if err := req.setIndex(x, in.Select, projParam(in.ProjectionExpression, in.AttributesToGet.Given()), true); err != nil {
		return nil, err
	}
	var err error
	if in.ExclusiveStartKey != nil {
		if q.ExclusiveStart, err = start(in.ExclusiveStartKey.Item()); err != nil {
			return nil, err
		}
	}
	if req.countOnly, err = readparams.CheckSelect(in.Select, in.IndexName, in.ProjectionExpression, in.AttributesToGet.Given()); err != nil {
		return nil, err
	}
	p := &pageReader{req: req}
	if err := u.view(x, req.consistent).QueryIndex(x.Name, q, p.visit); err != nil {
		return nil, apierr.Validationf(apierr.MsgNoSuchIndex, x.Name) // deleted since the lookup
	}
	return u.answerPage(p)
}

// indexQuery is the storage query of a key condition on index x.
func indexQuery(x *tablespec.IndexDef, kc *expr.KeyCondition, forward bool) storage.IndexQuery {
	return storage.IndexQuery{
		Partition: []storage.Value{kc.Partition},
		Sort:      kc.Sort,
		Forward:   forward,
	}
}
