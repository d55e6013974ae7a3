package vectorsearch

import (
	"errors"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"math"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/exprparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/readparams"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/dynamoemu/dynamoemu/internal/vector"
)

// SearchVectors (vector/VECTOR_SPEC.md is the spec): the TopK
// items of a vector index nearest a search vector, best first, with their
// scores. The search is exact (storage scores every vector of the
// partition searched: the true nearest neighbours, where AWS's search is
// approximate), and equal scores come in the table's Scan order
// (partition key hash, partition key, sort key), so answers are
// deterministic. The checks, in order: the model constraints (required
// members, names, ReturnConsumedCapacity), TopK's range, the table and
// the index (not CREATING), the search vector's values and length, the
// placeholder maps and expressions (SearchConditionExpression: attr =
// :value terms joined by AND, on search schema attributes, the HASH
// element required when the schema has one), unused placeholders.

// Feature is SearchVectors (service.Config.Features).
type Feature struct{}

// Name is the feature's name. It keeps no slot: the vector indexes are
// the core's (CreateTable and UpdateTable define them, storage keeps
// their vectors on the one write path).
func (Feature) Name() string { return "vectorSearch" }

// Register installs SearchVectors.
// SearchVectors is a data-plane operation: it runs inside the request
// pipeline's stages (service.DataOp).
func (Feature) Register(r service.Registrar) {
	service.Op(r, "SearchVectors", boundary.ItemsScan, searchVectors)
}

// SearchVectorsInput is the SearchVectors request. It is read by a
// strict deserializer before any member is validated, unlike the other
// operations' (AWS's answers as recorded by
// paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/searchVectors.test.ts, eu-west-2 and
// us-east-1, 2026-10-09):
//
//   - an explicit JSON null for a member is a SerializationException
//     "invalid type: null, expected <what> at line L column C", where
//     <what> is "a string", "a sequence" (SearchVector) or "i32" (TopK),
//     and C is the column of the null's last character;
//   - a missing TableName is a ValidationException "missing field
//     `TableName` at line L column C", C the column of the body's closing
//     brace, ahead of every constraint (a too-short IndexName).
//
// The maps' "a map" is the same deserializer's word for a map (not in
// the record); ReturnConsumedCapacity is taken for a string. Line and
// column count from the start of the JSON object (leading blanks of the
// body are not counted). Members the operation does not have are
// skipped, null or not. The strict tags say this to the request decoder,
// which makes these checks in its one reading of the body (wire's
// wire_strict.go), ahead of every error of its own but a syntax error.
type SearchVectorsInput struct {
	TableName                 *string               `json:"TableName" strict:"a string,required"`
	IndexName                 *string               `json:"IndexName" strict:"a string"`
	SearchVector              []wire.AttributeValue `json:"SearchVector" strict:"a sequence"`
	TopK                      *int64                `json:"TopK" strict:"i32"`
	SearchConditionExpression *string               `json:"SearchConditionExpression" strict:"a string"`
	ExpressionAttributeNames  wire.ExpressionNames  `json:"ExpressionAttributeNames" strict:"a map"`
	ExpressionAttributeValues wire.ExpressionValues `json:"ExpressionAttributeValues" strict:"a map"`
	ProjectionExpression      *string               `json:"ProjectionExpression" strict:"a string"`
	ReturnConsumedCapacity    string                `json:"ReturnConsumedCapacity" strict:"a string"`
}

// maxSearchBytes is SearchVectors' answer limit: "SearchVectors responses
// are limited to 16 MB. Pagination is not supported." (AWS's developer
// guide). What AWS does past it is not documented; the emulator answers
// the results that fit, best first.
const maxSearchBytes = 16 << 20

// minSearchBytes is the least VectorSearchRequestBytes a search reports
// (a 1 KB minimum per request, VECTOR_SPEC.md).
const minSearchBytes = 1024

func searchVectors(c service.Call, in *SearchVectorsInput) (*SearchVectorsOutput, error) {
	name1, name2 := tablespec.TableNameViolations(in.TableName)
	if err := apierr.ConstraintErrors(name1, name2,
		apierr.NullViolation("indexName", in.IndexName == nil),
		readparams.IndexNameConstraint(in.IndexName),
		apierr.NullViolation("searchVector", in.SearchVector == nil),
		apierr.NullViolation("topK", in.TopK == nil),
		readparams.ReturnConsumedCapacityViolation(in.ReturnConsumedCapacity),
	); err != nil {
		return nil, err
	}
	if k := *in.TopK; k < 1 || k > vector.MaxTopK {
		return nil, apierr.Validationf(apierr.MsgTopKRange, k)
	}
	t, err := c.LookupDataTable(*in.TableName)
	if err != nil {
		return nil, err
	}
	x, ok := t.VectorIndex(*in.IndexName)
	if !ok {
		return nil, apierr.Validationf(apierr.MsgSearchNoIndex, *in.IndexName)
	}
	if x.StatusAt(c.Now()) == tablespec.IndexCreating {
		return nil, apierr.Validationf(apierr.MsgSearchBackfilling, x.Name)
	}
	q := vector.Query{TopK: int(*in.TopK), Vector: make([]float32, len(in.SearchVector))}
	for i, v := range in.SearchVector {
		f, ok := float32Of(v.Value)
		if !ok {
			return nil, apierr.Validation(apierr.MsgSearchVectorInvalid)
		}
		q.Vector[i] = f
	}
	if len(q.Vector) != int(x.Dims) {
		return nil, apierr.Validationf(apierr.MsgSearchVectorDimension, len(q.Vector), x.Dims)
	}
	comp, err := exprparams.NewCompiler(in.ExpressionAttributeNames, in.ExpressionAttributeValues)
	if err != nil {
		return nil, err
	}
	var terms []searchTerm
	if in.SearchConditionExpression != nil {
		if terms, err = searchCondition(comp, *in.SearchConditionExpression, in); err != nil {
			return nil, err
		}
	}
	var proj *expr.Projection
	if in.ProjectionExpression != nil {
		if proj, err = comp.Projection(*in.ProjectionExpression); err != nil {
			return nil, err
		}
	}
	if err := comp.Unused(); err != nil {
		return nil, err
	}
	if err := bindTerms(x, terms, &q); err != nil {
		return nil, err
	}
	var out *SearchVectorsOutput
	err = c.Search(x, q.Hash, func(s service.Searching) error {
		res, err := searchIndex(t.Storage(), x.Name, q)
		if errors.Is(err, storage.ErrNoVectorIndex) {
			return apierr.Validationf(apierr.MsgSearchNoIndex, x.Name) // deleted since the lookup
		}
		if err != nil {
			return err
		}
		out = &SearchVectorsOutput{results: make([]searchResult, 0, len(res))}
		p := newProjector(x, t.Schema(), proj)
		size := 0
		for _, r := range res {
			it := p.apply(r.Item)
			n := storage.ItemSize(it) + 8
			if size+n > maxSearchBytes {
				break
			}
			size += n
			out.results = append(out.results, searchResult{item: it, score: r.Score})
		}
		b := float64(max(minSearchBytes, 4*int(x.Dims)+size))
		s.Searched(b, len(out.results))
		if mode := in.ReturnConsumedCapacity; mode == "TOTAL" || mode == "INDEXES" {
			out.requestBytes = &b
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// float32Of returns a search vector element as float32: a number (N)
// whose magnitude fits a 32-bit float once rounded.
func float32Of(v storage.Value) (float32, bool) {
	if v.Kind() != storage.KindN {
		return 0, false
	}
	return vector.Float32OfNumber(storage.Number(v.Str()))
}

// searchTerm is one attr = :value term of a SearchConditionExpression,
// its attribute name resolved.
type searchTerm struct {
	name  string
	value storage.Value
}

// searchCondition checks and compiles a SearchConditionExpression: the
// checks of every condition expression (syntax, placeholders, reserved
// words; they mark the placeholders used), then its shape: equalities
// of a top-level attribute and a value, joined by AND.
func searchCondition(comp *expr.Compiler, src string, in *SearchVectorsInput) ([]searchTerm, error) {
	const param = "SearchConditionExpression"
	if _, err := comp.Condition(param, src); err != nil {
		return nil, err
	}
	tree, err := expr.ParseCondition(param, src)
	if err != nil {
		return nil, err
	}
	var eqs []*expr.BinaryExpr
	if !flattenAnd(tree, &eqs) {
		return nil, apierr.Validation(apierr.MsgSearchComparator)
	}
	names, values := in.ExpressionAttributeNames, in.ExpressionAttributeValues
	terms := make([]searchTerm, 0, len(eqs))
	for _, eq := range eqs {
		path, pok := eq.X.(*expr.PathExpr)
		val, vok := eq.Y.(*expr.ValueExpr)
		if !pok || !vok {
			path, pok = eq.Y.(*expr.PathExpr)
			val, vok = eq.X.(*expr.ValueExpr)
		}
		if !pok || !vok {
			return nil, apierr.Validation(apierr.MsgSearchComparator)
		}
		parts := make([]string, len(path.Elems))
		for i, e := range path.Elems {
			switch {
			case e.IsIndex:
				parts[i] = "[" + e.Lit + "]"
			case strings.HasPrefix(e.Name, "#"):
				parts[i] = names[e.Name]
			default:
				parts[i] = e.Name
			}
		}
		name := strings.Join(parts, ".")
		terms = append(terms, searchTerm{name: name, value: values[val.Name]})
		if len(path.Elems) > 1 {
			return nil, apierr.Validationf(apierr.MsgSearchNotInSchema, name)
		}
	}
	return terms, nil
}

// flattenAnd collects the equalities of x, a tree of equalities joined
// by AND (parentheses allowed); false for anything else.
func flattenAnd(x expr.Expr, out *[]*expr.BinaryExpr) bool {
	switch e := x.(type) {
	case *expr.ParenExpr:
		return flattenAnd(e.X, out)
	case *expr.BinaryExpr:
		switch e.Op {
		case expr.AND:
			return flattenAnd(e.X, out) && flattenAnd(e.Y, out)
		case expr.EQ:
			*out = append(*out, e)
			return true
		}
	}
	return false
}

// bindTerms checks a condition's terms against x's search schema and
// puts them in q: the HASH element's value, the inline filters.
func bindTerms(x service.VectorIndexView, terms []searchTerm, q *vector.Query) error {
	seen := make([]string, 0, len(terms))
	for _, tm := range terms {
		e := x.SchemaElem(tm.name)
		if e == nil {
			return apierr.Validationf(apierr.MsgSearchNotInSchema, tm.name)
		}
		if slices.Contains(seen, tm.name) {
			return apierr.Validationf(apierr.MsgSearchTwice, tm.name)
		}
		seen = append(seen, tm.name)
		if e.Type == tablespec.SearchHash {
			q.Hash = tm.value
		} else {
			q.Filters = append(q.Filters, vector.Filter{Name: tm.name, Value: tm.value})
		}
	}
	if x.Def.HasHash() && !q.Hash.IsValid() {
		return apierr.Validation(apierr.MsgSearchHashRequired)
	}
	return nil
}

// searchProjector turns a result's stored item into what the answer
// holds: the index's projection (keys, search schema attributes and
// NonKeyAttributes, or every attribute for ALL), the vector attribute
// left out, or the ProjectionExpression's paths on attributes the index
// projects (the vector attribute among them), others silently dropped
// (VECTOR_SPEC.md).
type searchProjector struct {
	attr  string      // the index's vector attribute
	keep  []string    // the index's attributes; nil: all
	paths []expr.Path // the ProjectionExpression's allowed paths; nil: none given
	read  []string    // the attributes the paths read
}

func newProjector(x service.VectorIndexView, ks storage.KeySchema, proj *expr.Projection) *searchProjector {
	p := &searchProjector{attr: x.Attr, keep: x.Projected(ks)}
	if proj == nil {
		return p
	}
	p.paths = []expr.Path{}
	for _, path := range proj.Paths() {
		top := path[0].Name
		if p.keep == nil || slices.Contains(p.keep, top) || top == p.attr {
			p.paths = append(p.paths, path)
			if !slices.Contains(p.read, top) {
				p.read = append(p.read, top)
			}
		}
	}
	slices.Sort(p.read)
	return p
}

func (p *searchProjector) apply(e storage.EncodedItem) storage.Item {
	switch {
	case p.paths != nil:
		return expr.ProjectPaths(e.Attributes(p.read), p.paths)
	case p.keep != nil:
		return e.Attributes(p.keep)
	}
	it := e.Item()
	delete(it, p.attr)
	return it
}

// SearchVectorsOutput is the SearchVectors response.
type SearchVectorsOutput struct {
	results      []searchResult
	requestBytes *float64 // ConsumedCapacity.VectorSearchRequestBytes; nil: not asked for
}

// searchResult is one element of SearchResults.
type searchResult struct {
	item  storage.Item
	score float64
}

// AppendJSON writes {"SearchResults":[{"Item":{...},"Score":s},...],
// "ConsumedCapacity":{"VectorSearchRequestBytes":n}}. A score beyond
// float64 (a float32 overflow of huge vectors scores ±Inf) is written as
// ±MaxFloat64: JSON has no infinity (service.JSONAppender).
func (o *SearchVectorsOutput) AppendJSON(b []byte) []byte {
	b = append(b, `{"SearchResults":[`...)
	for i, r := range o.results {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"Item":`...)
		b = wire.AppendItem(b, r.item)
		b = append(b, `,"Score":`...)
		s := r.score
		switch {
		case math.IsInf(s, 1) || math.IsNaN(s):
			s = math.MaxFloat64
		case math.IsInf(s, -1):
			s = -math.MaxFloat64
		}
		b = wire.AppendFloat(b, s)
		b = append(b, '}')
	}
	b = append(b, ']')
	if o.requestBytes != nil {
		b = append(b, `,"ConsumedCapacity":{"VectorSearchRequestBytes":`...)
		b = wire.AppendFloat(b, *o.requestBytes)
		b = append(b, '}')
	}
	return append(b, '}')
}

// searchIndex returns the q.TopK items of data's vector index called name
// nearest q's vector (vector.Search; storage.ErrNoVectorIndex
// once the index is deleted). It reads the table's eventual view: a
// vector index is kept asynchronously on AWS, so a table's read lag
// holds a search back from a write as it holds an eventually consistent
// read (the pipeline's lag stage). An index added since the lag was set
// is not the eventual view's: it is searched in the table itself.
func searchIndex(data *storage.Table, name string, q vector.Query) ([]vector.Result, error) {
	res, err := vector.Search(data.Eventual(), name, q)
	if errors.Is(err, storage.ErrNoVectorIndex) {
		return vector.Search(data, name, q)
	}
	return res, err
}
