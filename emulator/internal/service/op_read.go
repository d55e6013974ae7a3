package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/capacity"
	"github.com/dynamoemu/dynamoemu/emulator/internal/exprparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/access"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Query and Scan: validation in AWS's order, one page read through
// storage.Table.Query (one partition, seeking by sort key) or
// storage.Table.Scan, the filter applied to each item read, Limit and the
// 1 MB page size counted on items read before filtering.

// maxPageBytes is the data one Query or Scan page reads at most: the page
// stops after the item that brings the total to 1 MB or more.
const maxPageBytes = 1 << 20

// QueryInput is the Query request.
type QueryInput struct {
	TableName                 *string               `json:"TableName"`
	IndexName                 *string               `json:"IndexName"`
	Select                    *string               `json:"Select"`
	AttributesToGet           expr.NameList         `json:"AttributesToGet"`
	Limit                     *int64                `json:"Limit"`
	ConsistentRead            *bool                 `json:"ConsistentRead"`
	KeyConditions             wire.KeyConditions    `json:"KeyConditions"`
	QueryFilter               *expr.LegacyFilter    `json:"QueryFilter"`
	ConditionalOperator       *string               `json:"ConditionalOperator"`
	ScanIndexForward          *bool                 `json:"ScanIndexForward"`
	ExclusiveStartKey         wire.WireItem         `json:"ExclusiveStartKey"`
	ReturnConsumedCapacity    string                `json:"ReturnConsumedCapacity"`
	ProjectionExpression      *string               `json:"ProjectionExpression"`
	FilterExpression          *string               `json:"FilterExpression"`
	KeyConditionExpression    *string               `json:"KeyConditionExpression"`
	ExpressionAttributeNames  wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues wire.ExpressionValues `json:"ExpressionAttributeValues"`
}

// ScanInput is the Scan request.
type ScanInput struct {
	TableName                 *string               `json:"TableName"`
	IndexName                 *string               `json:"IndexName"`
	AttributesToGet           expr.NameList         `json:"AttributesToGet"`
	Limit                     *int64                `json:"Limit"`
	Select                    *string               `json:"Select"`
	ScanFilter                *expr.LegacyFilter    `json:"ScanFilter"`
	ConditionalOperator       *string               `json:"ConditionalOperator"`
	ExclusiveStartKey         wire.WireItem         `json:"ExclusiveStartKey"`
	ReturnConsumedCapacity    string                `json:"ReturnConsumedCapacity"`
	TotalSegments             *int64                `json:"TotalSegments"`
	Segment                   *int64                `json:"Segment"`
	ProjectionExpression      *string               `json:"ProjectionExpression"`
	FilterExpression          *string               `json:"FilterExpression"`
	ExpressionAttributeNames  wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues wire.ExpressionValues `json:"ExpressionAttributeValues"`
	ConsistentRead            *bool                 `json:"ConsistentRead"`
}

// QueryOutput is the Query response; ScanOutput is the same shape.
type QueryOutput = pageOutput

// ScanOutput is the Scan response.
type ScanOutput = pageOutput

// pageOutput is one page of a Query or Scan. It encodes itself: items are
// appended straight from storage values, without an intermediate wire map.
type pageOutput struct {
	Items            []storage.Item         // nil and omitted for Select COUNT
	stored           []storage.EncodedItem  // whole items written straight from storage, after Items
	storedBox        *[]storage.EncodedItem // the pool's box stored came from (page_pool.go); nil: not pooled
	countOnly        bool
	Count            int
	ScannedCount     int
	LastEvaluatedKey storage.Item // nil when the page reached the end
	ConsumedCapacity *ConsumedCapacity
	req              *readRequest // the request whose out this is, pooled (page_pool.go); nil: not pooled
	lekPooled        bool         // LastEvaluatedKey is the decoder's map (pooledKeyItem), given back by recycle
}

// MarshalJSON encodes the page in AWS's member order (see appendJSON).
func (o *pageOutput) MarshalJSON() ([]byte, error) {
	return o.appendJSON(make([]byte, 0, 64+len(o.Items)*128)), nil
}

// readRequest is what Query and Scan share once their parameters are
// validated: the page rules and the compiled filter and projection.
type readRequest struct {
	t           *table
	limit       int // 0: no Limit
	countOnly   bool
	consistent  bool
	capacity    string // ReturnConsumedCapacity
	filter      *expr.Condition
	filterAttrs []string // the top-level attributes the filter reads
	filterOver  []string // the attributes the filter sees (nil: all; ReadPage's index entry)
	projection  *expr.Projection
	index       *indexRead // nil: the read is of the table; else indexBuf
	pooled      bool       // from readRequests: its page's recycle gives it back (page_pool.go)
	out         pageOutput // the page's answer, in the request's allocation
	// A read of an index: index and its keyNames, in the request's
	// allocation too (setIndex).
	indexBuf    indexRead
	keyNamesBuf [6]string
}

// newReadRequest is a Query's or Scan's request before its filter,
// projection and Select are compiled.
func newReadRequest(t *table, limit *int64, consistentRead *bool, capacity string) *readRequest {
	req := readRequests.Get()
	*req = readRequest{
		pooled:     true,
		t:          t,
		limit:      readparams.LimitOf(limit),
		consistent: consistentRead != nil && *consistentRead,
		capacity:   capacity,
	}
	return req
}

// compileFilter sets the request's filter, from FilterExpression or else
// from the legacy filter (QueryFilter, ScanFilter) and ConditionalOperator,
// and the attributes it reads.
func (req *readRequest) compileFilter(comp *expr.Compiler, filterExpr *string, legacy *expr.LegacyFilter, op *string) error {
	var err error
	switch {
	case filterExpr != nil:
		req.filter, err = comp.Condition("FilterExpression", *filterExpr)
	case legacy != nil:
		req.filter, err = legacyFilter(legacy, op)
	}
	if err != nil {
		return err
	}
	if req.filter != nil {
		req.filterAttrs = req.filter.Attributes()
	}
	return nil
}

// pageReader collects one page while storage walks the items. visit runs
// under the table's read lock, so it only evaluates and collects; encoding
// happens after the walk. Items are kept as storage holds them and written
// out from their records; the filter and the projection work on the
// records too (page_eval.go).
type pageReader struct {
	req       *readRequest
	eval      pageEval               // the filter and projection bound to this page
	bound     bool                   // eval is set
	items     []storage.Item         // items of an index's projection
	stored    []storage.EncodedItem  // whole items, without a projection
	storedBox *[]storage.EncodedItem // the pool's box of stored (page_pool.go)
	count     int
	scanned   int
	readBytes int                 // total size of the items read, filtered or not
	last      storage.EncodedItem // the last item read when the page stopped early
	stopped   bool                // Limit or the 1 MB page size ended the page
	fetched   float64             // read units of the items an LSI read fetched from the table
}

func (p *pageReader) visit(e storage.EncodedItem) bool {
	p.scanned++
	ir := p.req.index
	if ir != nil {
		p.readBytes += ir.entrySize(e)
	} else {
		p.readBytes += e.Size()
	}
	if !p.bound {
		p.eval, p.bound = newPageEval(p.req), true
	}
	if p.eval.keep(e) {
		p.count++
		switch {
		case p.req.countOnly:
		case p.eval.projects():
			p.eval.project(e)
		case ir != nil && ir.keep != nil:
			p.items = append(p.items, e.Attributes(ir.keep)) // only if expr refused a name of keep
		default:
			if p.storedBox == nil {
				p.storedBox = getStored(storedHint(p.req.limit))
				p.stored = *p.storedBox
			}
			p.stored = append(p.stored, e)
		}
	}
	if ir != nil && ir.fetch {
		// The table read happens on the way past the row: a filter that
		// drops it afterwards refunds nothing (AWS, captured eu-west-2
		// 2026-08-17: a filtered LSI reach-back reports the unfiltered
		// table arm; nubo-db/dynoxide tests/partiql_index_qualifier.rs).
		p.fetched = p.fetched + capacity.ReadUnits(e.Size(), p.req.consistent)
	}
	if (p.req.limit > 0 && p.scanned >= p.req.limit) || p.readBytes >= maxPageBytes {
		p.last = e
		p.stopped = true
		return false
	}
	return true
}

// storedHint is the room a page first makes for whole items: its Limit,
// up to 64, or 16 without one (one allocation for a small page instead of
// one per doubling).
func storedHint(limit int) int {
	if limit > 0 {
		return min(limit, 64)
	}
	return 16
}

// output builds the response of the page read.
func (p *pageReader) output() (*pageOutput, error) {
	stored := p.stored
	if p.eval.projects() {
		stored = p.eval.projected()
	}
	out := &p.req.out
	*out = pageOutput{
		Items:        p.items,
		stored:       stored,
		countOnly:    p.req.countOnly,
		Count:        p.count,
		ScannedCount: p.scanned,
	}
	if p.req.pooled {
		out.req = p.req // given back by out.recycle once encoded
	}
	if p.storedBox != nil && !p.eval.projects() {
		out.storedBox = p.storedBox // given back by out.recycle once encoded
	}
	if !out.countOnly && out.Items == nil && out.stored == nil {
		out.Items = []storage.Item{}
	}
	ir := p.req.index
	if p.stopped {
		if ir != nil {
			out.LastEvaluatedKey = p.last.Attributes(ir.keyNames)
		} else {
			out.LastEvaluatedKey = pooledKeyItem(p.req.t.schema, p.last.Key()) // given back by out.recycle (page_pool.go)
			out.lekPooled = true
		}
	}
	if ir != nil {
		out.ConsumedCapacity = readIndexCapacity(p.req.t, ir.x, p.req.capacity, p.readBytes, p.req.consistent, p.fetched)
	} else {
		out.ConsumedCapacity = readCapacity(p.req.t, p.req.capacity, p.readBytes, p.req.consistent)
	}
	return out, nil
}

func query(c *call, in *QueryInput) (*QueryOutput, error) {
	if err := checkQuery(in); err != nil {
		return nil, err
	}
	// An empty filter or projection, then the key condition's own checks
	// (syntax, placeholders, operand types) come before the table
	// (validation_order.go); the placeholder maps' errors after it, as
	// DynamoDB Local (AWS's order unknown); then the expressions and
	// unused placeholders, the start key, and only then Select.
	comp, cerr := exprparams.NewCompiler(in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if cerr == nil {
		defer comp.Release() // the key condition, filter and projection keep nothing of it
		if err := exprparams.EmptyFilterOrProjection(in.FilterExpression, in.ProjectionExpression); err != nil {
			return nil, err
		}
	}
	if cerr == nil && in.KeyConditionExpression != nil {
		if err := comp.CheckKeyCondition(*in.KeyConditionExpression); err != nil {
			return nil, err
		}
	}
	t, x, err := c.readTable(*in.TableName, in.IndexName)
	if err != nil {
		return nil, err
	}
	if cerr != nil {
		return nil, cerr
	}
	if x != nil && x.Multi() {
		if err := c.guardScan(t, x.Name, storage.Value{}); err != nil {
			return nil, err
		}
		return queryMulti(c, t, x, comp, in)
	}
	ks := t.schema
	if x != nil {
		ks = indexKeySchema(x)
	}
	kc, err := queryKeyCondition(comp, in, ks)
	if err != nil {
		return nil, err
	}
	defer kc.Release() // the range, start key checks and the pipeline's key copy its values
	if err := c.guardQuery(t, optString(in.IndexName), kc); err != nil {
		return nil, err
	}
	req, err := queryRequest(t, comp, in, func(names []string) (string, bool) { return keyAttrIn(names, ks) })
	if err != nil {
		return nil, err
	}
	forward := in.ScanIndexForward == nil || *in.ScanIndexForward
	var out *QueryOutput
	err = c.useRead(t, x, queryKey(kc.Partition, kc.Sort), nil, access.Query, req.filter != nil, func(u *readUse) error { //gcassert:noescape
		var err error
		if x != nil {
			out, err = queryIndexPage(u, t, x, req, in, indexQuery(x, kc, forward), func(esk storage.Item) (storage.Item, error) {
				return indexStartKey(t, x, esk, kc)
			})
		} else {
			out, err = queryTablePage(u, t, req, in, kc, forward)
		}
		return err
	})
	return out, err
}

// msgConditionalOperatorNewerEnum is the newer form of an unknown
// ConditionalOperator's message, in AWS's words (its enum as AWS lists it).
const msgConditionalOperatorNewerEnum = "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]"

// checkQuery runs a Query's checks that come before its table: the
// member constraints, the mix of expression and legacy parameters, the
// placeholder values' use, a key condition given, ConditionalOperator
// only with QueryFilter.
func checkQuery(in *QueryInput) error {
	in.Select = absentIfEmpty(in.Select)
	selectV := apierr.EnumPtrViolation("select", in.Select, apierr.EnumSelect)
	condOpV := apierr.EnumPtrViolation(paramConditionalOpWire, in.ConditionalOperator, enumConditionalOp)
	if selectV != "" && condOpV != "" && in.QueryFilter != nil {
		// An unknown ConditionalOperator of a QueryFilter beside an
		// unknown Select: AWS answers the operator alone, bare and in its
		// newer enum form (eu-west-2 and us-east-1, 2026-10-09,
		// paritysuite/dynamodb-conformance validation-ordering/
		// query.test.ts).
		return apierr.Validation(msgConditionalOperatorNewerEnum)
	}
	name1, name2 := tablespec.TableNameViolations(in.TableName)
	if err := apierr.ConstraintErrors(name1, name2,
		readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity),
		apierr.EmptyLenViolation("attributesToGet", in.AttributesToGet.Given(), in.AttributesToGet.Len()), // AWS's model: at least 1 (DynamoDB Local takes [])
		apierr.LimitViolation(in.Limit, "Limit", 0, false),
		selectV,
		condOpV,
		readparams.IndexNameConstraint(in.IndexName),
		readparams.ComparisonOpViolationOf("keyConditions", in.KeyConditions),
		readparams.ComparisonOpViolation("queryFilter", in.QueryFilter.UnknownOps(), expr.LegacyOp.String),
	); err != nil {
		return err
	}
	var paramsBuf [7]string // the lists' room: no allocation
	if err := queryExprParams(in, &paramsBuf).Check(); err != nil {
		return err
	}
	if err := exprparams.ValuesNeedValueExpr(in.ExpressionAttributeValues, in.FilterExpression, in.KeyConditionExpression); err != nil {
		return err
	}
	if in.KeyConditions == nil && in.KeyConditionExpression == nil {
		return apierr.Validation(apierr.MsgNoKeyCondition)
	}
	if in.ConditionalOperator != nil && in.QueryFilter == nil {
		return apierr.Validation(apierr.MsgConditionalOperatorOnly)
	}
	return nil
}

// queryKeyCondition compiles a Query's key condition on key schema ks
// (KeyConditionExpression, or the legacy KeyConditions) and checks its
// values. The caller releases it.
func queryKeyCondition(comp *expr.Compiler, in *QueryInput, ks storage.KeySchema) (*expr.KeyCondition, error) {
	var kc *expr.KeyCondition
	var err error
	if in.KeyConditionExpression != nil {
		kc, err = comp.KeyCondition(*in.KeyConditionExpression, ks)
	} else {
		kc, err = expr.KeyConditions(in.KeyConditions, ks)
	}
	if err != nil {
		return nil, err
	}
	if err := tablespec.CheckKeyConditionValues(kc, ks); err != nil {
		kc.Release()
		return nil, err
	}
	return kc, nil
}

// queryTablePage reads one Query page of table t: the start key, Select,
// then the seek.
func queryTablePage(u *readUse, t *table, req *readRequest, in *QueryInput, kc *expr.KeyCondition, forward bool) (*QueryOutput, error) {
	r := storage.QueryRange{
		Partition: kc.Partition,
		Sort:      kc.Sort,
		Forward:   forward,
	}
	if in.ExclusiveStartKey != nil {
		start, err := queryStartKey(t, in.ExclusiveStartKey.Item(), kc)
		if err != nil {
			return nil, err
		}
		if err := readparams.CheckStartBeforeEnd(kc, r.Forward, start); err != nil {
			return nil, err
		}
		r.ExclusiveStart = &start
	}
	var err error
	if req.countOnly, err = readparams.CheckSelect(in.Select, in.IndexName, in.ProjectionExpression, in.AttributesToGet.Given()); err != nil {
		return nil, err
	}
	p := &pageReader{req: req}
	u.view(nil, req.consistent).QueryEncoded(r, p.visit)
	p.stopped = p.stopped && !readparams.QueryExhausted(t.schema, kc, r.Forward, p.last.Key())
	return u.answerPage(p)
}

// queryRequest compiles a Query's filter and projection, refusing a filter
// on a key attribute of what is queried (keyIn returns the first of the
// filter's attributes that is one), and checks for unused placeholders.
func queryRequest(t *table, comp *expr.Compiler, in *QueryInput, keyIn func([]string) (string, bool)) (*readRequest, error) {
	req := newReadRequest(t, in.Limit, in.ConsistentRead, in.ReturnConsumedCapacity)
	legacy := in.QueryFilter // let go of as Scan's ScanFilter
	in.QueryFilter = nil
	if err := req.compileFilter(comp, in.FilterExpression, legacy, in.ConditionalOperator); err != nil {
		return nil, err
	}
	if req.filter != nil {
		if name, ok := keyIn(req.filterAttrs); ok {
			filterParam := "Filter Expression"
			if in.FilterExpression == nil {
				filterParam = "QueryFilter"
			}
			return nil, apierr.Validationf(apierr.MsgFilterOnKey, filterParam, name)
		}
	}
	var err error
	if req.projection, err = readparams.ProjectionOf(comp, in.ProjectionExpression, &in.AttributesToGet); err != nil {
		return nil, err
	}
	if err := comp.Unused(); err != nil {
		return nil, err
	}
	return req, nil
}

// projParam names the projection parameter a read gives, "" for none.
func projParam(projection *string, attrs bool) string {
	switch {
	case projection != nil:
		return "ProjectionExpression"
	case attrs:
		return "AttributesToGet"
	}
	return ""
}

func scan(c *call, in *ScanInput) (*ScanOutput, error) {
	if err := checkScan(in); err != nil {
		return nil, err
	}
	t, x, err := c.readTable(*in.TableName, in.IndexName)
	if err != nil {
		return nil, err
	}
	if err := c.guardScan(t, "", storage.Value{}); err != nil {
		return nil, err
	}

	// As DynamoDB Local: the placeholder maps, the expressions and unused
	// placeholders, the start key, and only then Select.
	comp, err := exprparams.NewCompiler(in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if err != nil {
		return nil, err
	}
	defer comp.Release() // the filter and projection keep nothing of it
	req := newReadRequest(t, in.Limit, in.ConsistentRead, in.ReturnConsumedCapacity)
	// Nothing reads ScanFilter's map after its filter is made from it: the
	// input lets go of it, to be collected while the filter is built.
	legacy := in.ScanFilter
	in.ScanFilter = nil
	if err := req.compileFilter(comp, in.FilterExpression, legacy, in.ConditionalOperator); err != nil {
		return nil, err
	}
	if req.projection, err = readparams.ProjectionOf(comp, in.ProjectionExpression, &in.AttributesToGet); err != nil {
		return nil, err
	}
	if err := comp.Unused(); err != nil {
		return nil, err
	}
	var r storage.ScanRange
	if in.TotalSegments != nil {
		r.Segment, r.TotalSegments = int(*in.Segment), int(*in.TotalSegments)
	}
	var out *ScanOutput
	err = c.useRead(t, x, access.KeyCondition{}, nil, access.Scan, req.filter != nil, func(u *readUse) error { //gcassert:noescape
		var err error
		if x != nil {
			out, err = scanIndex(u, t, x, req, r, in)
		} else {
			out, err = scanTablePage(u, t, req, r, in)
		}
		return err
	})
	return out, err
}

// checkScan runs a Scan's checks that come before its table: the member
// constraints, the mix of expression and legacy parameters, the
// placeholder values' use, the segments, ConditionalOperator only with
// ScanFilter.
func checkScan(in *ScanInput) error {
	in.Select = absentIfEmpty(in.Select)
	name1, name2 := tablespec.TableNameViolations(in.TableName)
	if err := apierr.ConstraintErrors(name1, name2,
		readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity),
		apierr.EmptyLenViolation("attributesToGet", in.AttributesToGet.Given(), in.AttributesToGet.Len()), // AWS's model: at least 1 (DynamoDB Local takes [])
		apierr.LimitViolation(in.Limit, "limit", 0, true),
		apierr.EnumPtrViolation("select", in.Select, apierr.EnumSelect),
		apierr.EnumPtrViolation(paramConditionalOpWire, in.ConditionalOperator, enumConditionalOp),
		readparams.IndexNameConstraint(in.IndexName),
		readparams.SegmentConstraint(in.Segment),
		readparams.TotalSegmentsConstraint(in.TotalSegments),
		readparams.ComparisonOpViolation("scanFilter", in.ScanFilter.UnknownOps(), expr.LegacyOp.String),
	); err != nil {
		return err
	}
	var paramsBuf [7]string // the lists' room: no allocation
	if err := scanExprParams(in, &paramsBuf).Check(); err != nil {
		return err
	}
	if err := exprparams.ValuesNeedValueExpr(in.ExpressionAttributeValues, in.FilterExpression); err != nil {
		return err
	}
	if err := readparams.CheckSegments(in.Segment, in.TotalSegments); err != nil {
		return err
	}
	if in.ConditionalOperator != nil && in.ScanFilter == nil {
		return apierr.Validation(apierr.MsgConditionalOperatorOnly)
	}
	return nil
}

// scanTablePage reads one Scan page of table t (segment r): the start
// key, Select, then the walk.
func scanTablePage(u *readUse, t *table, req *readRequest, r storage.ScanRange, in *ScanInput) (*ScanOutput, error) {
	if in.ExclusiveStartKey != nil {
		start, err := t.keyFromKeyParam(in.ExclusiveStartKey.Item())
		if err != nil {
			return nil, apierr.Validationf(apierr.MsgStartKeyInvalidReason, err.Error())
		}
		if r.TotalSegments > 1 && storage.SegmentOf(start.Partition, r.TotalSegments) != r.Segment {
			return nil, apierr.Validationf(apierr.MsgStartKeyWrongSegment, r.TotalSegments, r.Segment)
		}
		r.ExclusiveStart = &start
	}
	var err error
	if req.countOnly, err = readparams.CheckSelect(in.Select, in.IndexName, in.ProjectionExpression, in.AttributesToGet.Given()); err != nil {
		return nil, err
	}
	p := &pageReader{req: req}
	u.view(nil, req.consistent).ScanEncoded(r, p.visit)
	return u.answerPage(p)
}

// queryExprParams lists Query's expression and legacy parameters in AWS's
// order. KeyConditions counts as legacy only beside KeyConditionExpression:
// AWS accepts KeyConditions with a FilterExpression or ProjectionExpression.
func queryExprParams(in *QueryInput, buf *[7]string) exprparams.Params {
	p := readExprParams(valueExprsQuery, in.ExpressionAttributeNames, in.ExpressionAttributeValues, buf)
	p.Expressions = exprparams.AppendIf(p.Expressions, in.ProjectionExpression != nil, "ProjectionExpression")
	p.Expressions = exprparams.AppendIf(p.Expressions, in.FilterExpression != nil, "FilterExpression")
	p.Expressions = exprparams.AppendIf(p.Expressions, in.KeyConditionExpression != nil, "KeyConditionExpression")
	p.Legacy = exprparams.AppendIf(p.Legacy, in.AttributesToGet.Given(), "AttributesToGet")
	p.Legacy = exprparams.AppendIf(p.Legacy, in.QueryFilter != nil, "QueryFilter")
	p.Legacy = exprparams.AppendIf(p.Legacy, in.ConditionalOperator != nil, "ConditionalOperator")
	p.Legacy = exprparams.AppendIf(p.Legacy, in.KeyConditions != nil && in.KeyConditionExpression != nil, "KeyConditions")
	return p
}

// scanExprParams lists Scan's expression and legacy parameters in AWS's order.
func scanExprParams(in *ScanInput, buf *[7]string) exprparams.Params {
	p := readExprParams(valueExprsScan, in.ExpressionAttributeNames, in.ExpressionAttributeValues, buf)
	p.Expressions = exprparams.AppendIf(p.Expressions, in.ProjectionExpression != nil, "ProjectionExpression")
	p.Expressions = exprparams.AppendIf(p.Expressions, in.FilterExpression != nil, "FilterExpression")
	p.Legacy = exprparams.AppendIf(p.Legacy, in.AttributesToGet.Given(), "AttributesToGet")
	p.Legacy = exprparams.AppendIf(p.Legacy, in.ScanFilter != nil, "ScanFilter")
	p.Legacy = exprparams.AppendIf(p.Legacy, in.ConditionalOperator != nil, "ConditionalOperator")
	return p
}

// readExprParams is Query's or Scan's Params before its parameters are
// listed, in buf: at most 3 expressions, then at most 4 legacy ones.
func readExprParams(valueExprs []string, names map[string]string, values wire.ExpressionValues, buf *[7]string) exprparams.Params {
	return exprparams.Params{ValueExprs: valueExprs, Names: names, Values: values, Expressions: buf[:0:3], Legacy: buf[3:3:7]}
}

// The expression parameters of Query and Scan that may use :values.
var (
	valueExprsQuery = []string{"FilterExpression", "KeyConditionExpression"}
	valueExprsScan  = []string{"FilterExpression"}
)

// readTable looks up the table a Query or Scan reads and the index its
// IndexName names (nil without one), with AWS's error when the table has
// no such index.
func (c *call) readTable(name string, index *string) (*table, *tablespec.IndexDef, error) {
	t, err := c.lookupTable(name)
	if err != nil {
		return nil, nil, err
	}
	if index == nil {
		return t, nil, nil
	}
	gsis, lsis := t.indexes()
	for _, defs := range [2][]*tablespec.IndexDef{gsis, lsis} {
		for _, d := range defs {
			if d.Name == *index {
				return t, d, nil
			}
		}
	}
	if t.vectorIndex(*index) != nil {
		// "Vector indexes do not support Query or Scan operations" (AWS's
		// developer guide); Query's wording is AWS's, Scan's the same.
		if c.op == "Scan" {
			return nil, nil, apierr.Validation(apierr.MsgVectorIndexScan)
		}
		return nil, nil, apierr.Validation(apierr.MsgVectorIndexQuery)
	}
	return nil, nil, apierr.Validationf(apierr.MsgNoSuchIndex, *index)
}

// scanIndex reads one Scan page of index x.
func scanIndex(u *readUse, t *table, x *tablespec.IndexDef, req *readRequest, r storage.ScanRange, in *ScanInput) (*ScanOutput, error) {
	if err := req.setIndex(x, in.Select, projParam(in.ProjectionExpression, in.AttributesToGet.Given()), false); err != nil {
		return nil, err
	}
	ir := storage.IndexScanRange{Segment: r.Segment, TotalSegments: r.TotalSegments}
	if in.ExclusiveStartKey != nil {
		esk, err := indexStartKey(t, x, in.ExclusiveStartKey.Item(), nil)
		if err != nil {
			return nil, err
		}
		if r.TotalSegments > 1 {
			if seg, _ := t.data.IndexSegmentOf(x.Name, esk, r.TotalSegments); seg != r.Segment {
				return nil, apierr.Validationf(apierr.MsgStartKeyWrongSegment, r.TotalSegments, r.Segment)
			}
		}
		ir.ExclusiveStart = esk
	}
	var err error
	if req.countOnly, err = readparams.CheckSelect(in.Select, in.IndexName, in.ProjectionExpression, in.AttributesToGet.Given()); err != nil {
		return nil, err
	}
	p := &pageReader{req: req}
	if err := u.view(x, req.consistent).ScanIndex(x.Name, ir, p.visit); err != nil {
		return nil, apierr.Validationf(apierr.MsgNoSuchIndex, x.Name) // deleted since the lookup
	}
	return u.answerPage(p)
}

// queryStartKey validates a Query's ExclusiveStartKey against the table's
// key schema and the key condition, with AWS's messages.
func queryStartKey(t *table, esk storage.Item, kc *expr.KeyCondition) (storage.Key, error) {
	ks := t.schema
	if err := readparams.CheckStartKeyShape(ks, esk); err != nil {
		return storage.Key{}, err
	}
	k, err := t.keyFromKeyParam(esk)
	if err != nil {
		return storage.Key{}, apierr.Validationf(apierr.MsgStartKeyInvalidReason, err.Error())
	}
	if !ks.HasSort() {
		return storage.Key{}, readparams.NoSortKeyStart(ks, k)
	}
	samePartition := storage.Equal(k.Partition, kc.Partition)
	if kc.Sort.Op == storage.SortAny {
		if !samePartition {
			return storage.Key{}, apierr.Validation(apierr.MsgStartKeyOutside)
		}
		return k, nil
	}
	if !kc.Match(kc.Partition, k.Sort) {
		return storage.Key{}, apierr.Validation(apierr.MsgStartKeyRangePred)
	}
	if !samePartition {
		return storage.Key{}, apierr.Validation(apierr.MsgStartKeyOneRow)
	}
	return k, nil
}

// Adapters to the expr package's legacy-parameter translation.

// legacyFilter compiles a QueryFilter or ScanFilter with its ConditionalOperator.
func legacyFilter(conds *expr.LegacyFilter, op *string) (*expr.Condition, error) {
	cop := ""
	if op != nil {
		cop = *op
	}
	return expr.FilterOf(conds, cop)
}

// keyAttrIn returns the first of names (a filter's attributes, sorted) that
// is a key attribute, if any: a Query filter may not use the table's key
// attributes.
func keyAttrIn(names []string, ks storage.KeySchema) (string, bool) {
	for _, n := range names {
		if n == ks.Partition.Name || (ks.HasSort() && n == ks.Sort.Name) {
			return n, true
		}
	}
	return "", false
}
