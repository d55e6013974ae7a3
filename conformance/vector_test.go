package conformance

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Vector indexes and SearchVectors. DynamoDB Local 3.3.0 does
// not have them, so every test follows AWS and is marked AWSDiffers with
// the page its expectation comes from; vector/VECTOR_SPEC.md gathers the
// sources. Where AWS's wording is not documented, the emulator's is
// checked here and apierr/messages_vectors.go says so.
const (
	docSearchVectors = "https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html"
	docVectorIndex   = "https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_VectorIndex.html"
	docVectorTrouble = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchTroubleshooting.html"
	docVectorReqs    = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearch.Requirements.html"
	docVectorWorking = "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/VectorSearchWorkingWith.html"
)

// vectorDiffers marks a vector test: DynamoDB Local lacks the API.
func vectorDiffers(t *testing.T, page string) {
	t.Helper()
	AWSDiffers(t, "DynamoDB Local 3.3.0 has no vector indexes or SearchVectors; AWS: "+page)
}

// vectorIndex is a vector index definition for the tests.
func vectorIndex(name, attr string, dims int64, dist types.VectorDistanceFunction, proj types.ProjectionType, schema ...types.SearchSchemaElement) types.VectorIndex {
	x := types.VectorIndex{
		IndexName:        aws.String(name),
		VectorAttribute:  &types.VectorAttributeDefinition{AttributeName: aws.String(attr)},
		Dimensions:       aws.Int64(dims),
		DistanceFunction: dist,
		Projection:       &types.Projection{ProjectionType: proj},
		SearchSchema:     schema,
	}
	if proj == types.ProjectionTypeInclude {
		x.Projection.NonKeyAttributes = []string{"title"}
	}
	return x
}

func schemaElem(name string, typ types.SearchSchemaElementType) types.SearchSchemaElement {
	return types.SearchSchemaElement{AttributeName: aws.String(name), SearchSchemaElementType: typ}
}

// vectorTableDef is a table keyed by pk (S) with attribute definitions
// for tenant (S) and cat (N) and the given vector indexes.
func vectorTableDef(xs ...types.VectorIndex) *dynamodb.CreateTableInput {
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.BillingMode = types.BillingModePayPerRequest
	used := map[string]bool{}
	for _, x := range xs {
		for _, e := range x.SearchSchema {
			used[*e.AttributeName] = true
		}
	}
	for _, d := range []keyDef{{"tenant", "S"}, {"cat", "N"}} {
		if used[d.name] {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(d.name), AttributeType: types.ScalarAttributeType(d.typ)})
		}
	}
	in.VectorIndexes = xs
	return in
}

func vec(xs ...float64) types.AttributeValue {
	out := make([]types.AttributeValue, len(xs))
	for i, x := range xs {
		out[i] = n(fmt.Sprint(x))
	}
	return l(out...)
}

func searchVec(xs ...float64) []types.AttributeValue {
	return vec(xs...).(*types.AttributeValueMemberL).Value
}

func TestVectorCreateTableDescribe(t *testing.T) {
	vectorDiffers(t, docVectorIndex)
	c := newClient(t)
	x := vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeInclude,
		schemaElem("tenant", types.SearchSchemaElementTypeHash), schemaElem("cat", types.SearchSchemaElementTypeInlineFilter))
	out, err := c.CreateTable(ctx(t), func() *dynamodb.CreateTableInput {
		in := vectorTableDef(x)
		in.TableName = aws.String(uniqueName(t))
		return in
	}())
	mustNoError(t, err)
	name := *out.TableDescription.TableName
	t.Cleanup(func() { deleteTable(t, c, name) })
	mustPut(t, c, name, item{"pk": s("a"), "tenant": s("t"), "emb": vec(1, 0, 0)})
	mustPut(t, c, name, item{"pk": s("b"), "emb": vec(1, 0, 0)}) // no HASH value: not indexed
	d := mustDescribe(t, c, name)
	if len(d.VectorIndexes) != 1 {
		t.Fatalf("got %d vector indexes, want 1", len(d.VectorIndexes))
	}
	v := d.VectorIndexes[0]
	got := fmt.Sprintf("%s %s %s %d %s %v %s %v", aws.ToString(v.IndexName), aws.ToString(v.IndexArn), aws.ToString(v.VectorAttribute.AttributeName),
		aws.ToInt64(v.Dimensions), v.DistanceFunction, v.Projection.NonKeyAttributes, v.IndexStatus, aws.ToInt64(v.ItemCount))
	want := fmt.Sprintf("byEmb %s/index/byEmb emb 3 COSINE [title] ACTIVE 1", aws.ToString(d.TableArn))
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
	if len(v.SearchSchema) != 2 || aws.ToString(v.SearchSchema[1].AttributeName) != "cat" || v.SearchSchema[1].SearchSchemaElementType != types.SearchSchemaElementTypeInlineFilter {
		t.Errorf("SearchSchema: got %+v", v.SearchSchema)
	}
	if v.Backfilling != nil {
		t.Errorf("an index created with its table reports Backfilling %v, want none", *v.Backfilling)
	}
	if aws.ToInt64(v.IndexSizeBytes) <= 0 {
		t.Errorf("IndexSizeBytes %d, want > 0", aws.ToInt64(v.IndexSizeBytes))
	}
}

func TestVectorCreateTableValidation(t *testing.T) {
	vectorDiffers(t, docVectorIndex+", "+docVectorTrouble+", "+docVectorReqs)
	c := newClient(t)
	base := func() types.VectorIndex {
		return vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionEuclidean, types.ProjectionTypeAll)
	}
	tests := []struct {
		name string
		edit func(in *dynamodb.CreateTableInput)
		want string
	}{
		{"short index name", func(in *dynamodb.CreateTableInput) { in.VectorIndexes[0].IndexName = aws.String("ab") },
			"1 validation error detected: Value 'ab' at 'vectorIndexes.1.member.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"zero dimensions", func(in *dynamodb.CreateTableInput) { in.VectorIndexes[0].Dimensions = aws.Int64(0) },
			"1 validation error detected: Value '0' at 'vectorIndexes.1.member.dimensions' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"bad distance", func(in *dynamodb.CreateTableInput) { in.VectorIndexes[0].DistanceFunction = "MANHATTAN" },
			"1 validation error detected: Value 'MANHATTAN' at 'vectorIndexes.1.member.distanceFunction' failed to satisfy constraint: Member must satisfy enum value set: [COSINE, DOT_PRODUCT, EUCLIDEAN]"},
		{"bad schema type", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("tenant"), AttributeType: types.ScalarAttributeTypeS})
			in.VectorIndexes[0].SearchSchema = []types.SearchSchemaElement{schemaElem("tenant", "RANGE")}
		}, "1 validation error detected: Value 'RANGE' at 'vectorIndexes.1.member.searchSchema.1.member.searchSchemaElementType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, INLINE_FILTER]"},
		{"schema attribute not defined", func(in *dynamodb.CreateTableInput) {
			in.VectorIndexes[0].SearchSchema = []types.SearchSchemaElement{schemaElem("tenant", types.SearchSchemaElementTypeHash)}
		}, "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions"},
		{"provisioned table", func(in *dynamodb.CreateTableInput) {
			in.BillingMode = types.BillingModeProvisioned
			in.ProvisionedThroughput = &types.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(1), WriteCapacityUnits: aws.Int64(1)}
		}, "One or more parameter values were invalid: Vector indexes are supported only on tables that use on-demand capacity mode (PAY_PER_REQUEST)"},
		{"too many dimensions", func(in *dynamodb.CreateTableInput) { in.VectorIndexes[0].Dimensions = aws.Int64(4097) },
			"One or more parameter values were invalid: Dimensions of vector index byEmb must be between 1 and 4096, got 4097"},
		{"two HASH elements", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = append(in.AttributeDefinitions,
				types.AttributeDefinition{AttributeName: aws.String("tenant"), AttributeType: types.ScalarAttributeTypeS},
				types.AttributeDefinition{AttributeName: aws.String("cat"), AttributeType: types.ScalarAttributeTypeN})
			in.VectorIndexes[0].SearchSchema = []types.SearchSchemaElement{schemaElem("tenant", types.SearchSchemaElementTypeHash), schemaElem("cat", types.SearchSchemaElementTypeHash)}
		}, "One or more parameter values were invalid: SearchSchema of vector index byEmb has more than one HASH element"},
		{"six indexes", func(in *dynamodb.CreateTableInput) {
			in.VectorIndexes = nil
			for i := range 6 {
				in.VectorIndexes = append(in.VectorIndexes, vectorIndex(fmt.Sprint("idx", i), "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeKeysOnly))
			}
		}, "One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5"},
		{"same attribute, other dimensions", func(in *dynamodb.CreateTableInput) {
			in.VectorIndexes = append(in.VectorIndexes, vectorIndex("byEmb4", "emb", 4, types.VectorDistanceFunctionCosine, types.ProjectionTypeKeysOnly))
		}, "One or more parameter values were invalid: Vector indexes on the same attribute must have the same Dimensions: attribute emb has 3 in index byEmb and 4 in index byEmb4"},
		{"duplicate name", func(in *dynamodb.CreateTableInput) { in.VectorIndexes = append(in.VectorIndexes, base()) },
			"One or more parameter values were invalid: Duplicate index name: byEmb"},
		{"unused definition", func(in *dynamodb.CreateTableInput) {
			in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String("tenant"), AttributeType: types.ScalarAttributeTypeS})
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := vectorTableDef(base())
			in.TableName = aws.String(uniqueName(t))
			tc.edit(in)
			_, err := c.CreateTable(ctx(t), in)
			if err == nil {
				deleteTable(t, c, *in.TableName)
			}
			requireValidation(t, err, tc.want)
		})
	}
}

// vectorFixture is a table with one vector index over items a..e.
func vectorFixture(t *testing.T, c *dynamodb.Client, x types.VectorIndex) string {
	t.Helper()
	name := createTable(t, c, vectorTableDef(x))
	for _, it := range []item{
		{"pk": s("a"), "tenant": s("t1"), "cat": n("1"), "title": s("A"), "misc": s("m"), "emb": vec(1, 0, 0)},
		{"pk": s("b"), "tenant": s("t1"), "cat": n("2"), "title": s("B"), "emb": vec(0, 2, 0)},
		{"pk": s("c"), "tenant": s("t1"), "cat": n("1"), "emb": vec(-1, 0, 0)},
		{"pk": s("d"), "tenant": s("t2"), "cat": n("1"), "emb": vec(1, 1, 0)},
		{"pk": s("e"), "tenant": s("t1"), "emb": vec(3, 0, 4)},
	} {
		mustPut(t, c, name, it)
	}
	return name
}

// renderResults renders search results as "pk:score" in order.
func renderResults(rs []types.SearchResultItem) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s:%.4g", r.Item["pk"].(*types.AttributeValueMemberS).Value, r.Score)
	}
	return strings.Join(parts, " ")
}

func TestSearchVectorsScores(t *testing.T) {
	vectorDiffers(t, docSearchVectors)
	c := newClient(t)
	// Search [1, 0, 0] over a [1,0,0], b [0,2,0], c [-1,0,0], d [1,1,0], e [3,0,4].
	tests := []struct {
		dist types.VectorDistanceFunction
		want string
	}{
		// COSINE: 1 - cosine similarity, smallest first.
		{types.VectorDistanceFunctionCosine, "a:0 d:0.2929 e:0.4 b:1 c:2"},
		// EUCLIDEAN: the distance, smallest first.
		{types.VectorDistanceFunctionEuclidean, "a:0 d:1 c:2 b:2.236 e:4.472"},
		// DOT_PRODUCT: the dot product, largest first.
		{types.VectorDistanceFunctionDotProduct, "e:3 a:1 d:1 b:0 c:-1"},
	}
	for _, tc := range tests {
		t.Run(string(tc.dist), func(t *testing.T) {
			name := vectorFixture(t, c, vectorIndex("byEmb", "emb", 3, tc.dist, types.ProjectionTypeKeysOnly))
			out, err := c.SearchVectors(ctx(t), &dynamodb.SearchVectorsInput{TableName: &name, IndexName: aws.String("byEmb"),
				SearchVector: searchVec(1, 0, 0), TopK: aws.Int32(10)})
			mustNoError(t, err)
			if got := renderResults(out.SearchResults); got != tc.want {
				t.Errorf("got %s\nwant %s", got, tc.want)
			}
			if out.ConsumedCapacity != nil {
				t.Errorf("ConsumedCapacity without ReturnConsumedCapacity: %+v", out.ConsumedCapacity)
			}
			out, err = c.SearchVectors(ctx(t), &dynamodb.SearchVectorsInput{TableName: &name, IndexName: aws.String("byEmb"),
				SearchVector: searchVec(1, 0, 0), TopK: aws.Int32(2), ReturnConsumedCapacity: types.ReturnConsumedCapacityTotal})
			mustNoError(t, err)
			if got, want := renderResults(out.SearchResults), strings.Join(strings.Fields(tc.want)[:2], " "); got != want {
				t.Errorf("TopK 2: got %s, want %s", got, want)
			}
			if out.ConsumedCapacity == nil || aws.ToFloat64(out.ConsumedCapacity.VectorSearchRequestBytes) < 1024 {
				t.Errorf("ConsumedCapacity: got %+v, want VectorSearchRequestBytes >= 1024", out.ConsumedCapacity)
			}
		})
	}
}

func TestSearchVectorsProjectionAndFilters(t *testing.T) {
	vectorDiffers(t, docSearchVectors+", "+docVectorWorking)
	c := newClient(t)
	name := vectorFixture(t, c, vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionEuclidean, types.ProjectionTypeInclude,
		schemaElem("tenant", types.SearchSchemaElementTypeHash), schemaElem("cat", types.SearchSchemaElementTypeInlineFilter)))
	search := func(in *dynamodb.SearchVectorsInput) []types.SearchResultItem {
		t.Helper()
		in.TableName, in.IndexName, in.SearchVector = &name, aws.String("byEmb"), searchVec(1, 0, 0)
		if in.TopK == nil {
			in.TopK = aws.Int32(10)
		}
		out, err := c.SearchVectors(ctx(t), in)
		mustNoError(t, err)
		return out.SearchResults
	}
	// The HASH element restricts the search to one partition; the
	// projection holds the keys, the search schema and NonKeyAttributes,
	// not the vector.
	rs := search(&dynamodb.SearchVectorsInput{SearchConditionExpression: aws.String("tenant = :t"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": s("t1")}})
	if got, want := renderResults(rs), "a:0 c:2 b:2.236 e:4.472"; got != want {
		t.Errorf("HASH only: got %s, want %s", got, want)
	}
	requireItem(t, rs[0].Item, item{"pk": s("a"), "tenant": s("t1"), "cat": n("1"), "title": s("A")})
	// An inline filter, through a name placeholder.
	rs = search(&dynamodb.SearchVectorsInput{SearchConditionExpression: aws.String("(#c = :c) AND tenant = :t"),
		ExpressionAttributeNames:  map[string]string{"#c": "cat"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": s("t1"), ":c": n("1")}})
	if got, want := renderResults(rs), "a:0 c:2"; got != want {
		t.Errorf("HASH and filter: got %s, want %s", got, want)
	}
	// A ProjectionExpression: the vector when named, unprojected names dropped.
	rs = search(&dynamodb.SearchVectorsInput{SearchConditionExpression: aws.String("tenant = :t"), TopK: aws.Int32(1),
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": s("t1")}, ProjectionExpression: aws.String("pk, emb, misc")})
	requireItem(t, rs[0].Item, item{"pk": s("a"), "emb": vec(1, 0, 0)})
}

func TestSearchVectorsErrors(t *testing.T) {
	vectorDiffers(t, docSearchVectors+", "+docVectorTrouble)
	c := newClient(t)
	name := vectorFixture(t, c, vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll,
		schemaElem("tenant", types.SearchSchemaElementTypeHash), schemaElem("cat", types.SearchSchemaElementTypeInlineFilter)))
	vals := map[string]types.AttributeValue{":t": s("t1")}
	tests := []struct {
		name string
		in   dynamodb.SearchVectorsInput
		code string
		want string
	}{
		{"TopK 101", dynamodb.SearchVectorsInput{TopK: aws.Int32(101)}, "ValidationException",
			"Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive"},
		{"TopK 0", dynamodb.SearchVectorsInput{TopK: aws.Int32(0)}, "ValidationException",
			"Provided TopK value '0' is out of valid range. The value must be between 1 and 100 inclusive"},
		{"dimension", dynamodb.SearchVectorsInput{SearchVector: searchVec(1, 0)}, "ValidationException",
			"Input search vector dimension 2 does not match vector index dimension 3"},
		{"string element", dynamodb.SearchVectorsInput{SearchVector: []types.AttributeValue{n("1"), s("x"), n("0")}}, "ValidationException",
			"Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{"beyond float32", dynamodb.SearchVectorsInput{SearchVector: []types.AttributeValue{n("1"), n("1e39"), n("0")}}, "ValidationException",
			"Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{"no condition", dynamodb.SearchVectorsInput{SearchConditionExpression: nil}, "ValidationException",
			"SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{"comparator", dynamodb.SearchVectorsInput{SearchConditionExpression: aws.String("tenant <> :t")}, "ValidationException",
			"Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{"OR", dynamodb.SearchVectorsInput{SearchConditionExpression: aws.String("tenant = :t OR tenant = :t")}, "ValidationException",
			"Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{"not in schema", dynamodb.SearchVectorsInput{SearchConditionExpression: aws.String("tenant = :t AND title = :t")}, "ValidationException",
			"SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: title"},
		{"filter without HASH", dynamodb.SearchVectorsInput{SearchConditionExpression: aws.String("cat = :c"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":c": n("1")}}, "ValidationException",
			"SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{"no such index", dynamodb.SearchVectorsInput{IndexName: aws.String("nope")}, "ValidationException",
			"The table does not have the specified index: nope"},
		{"no such table", dynamodb.SearchVectorsInput{TableName: aws.String("conf.no-such-table")}, "ResourceNotFoundException", "Requested resource not found"},
		{"unused value", dynamodb.SearchVectorsInput{ExpressionAttributeValues: map[string]types.AttributeValue{":t": s("t1"), ":x": s("x")}}, "ValidationException",
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			if in.TableName == nil {
				in.TableName = &name
			}
			if in.IndexName == nil {
				in.IndexName = aws.String("byEmb")
			}
			if in.SearchVector == nil {
				in.SearchVector = searchVec(1, 0, 0)
			}
			if in.TopK == nil {
				in.TopK = aws.Int32(5)
			}
			if in.ExpressionAttributeValues == nil && tc.name != "no condition" {
				in.ExpressionAttributeValues = vals
			}
			if in.SearchConditionExpression == nil && tc.name != "no condition" && tc.name != "unused value" {
				in.SearchConditionExpression = aws.String("tenant = :t")
			}
			if tc.name == "unused value" {
				in.SearchConditionExpression = aws.String("tenant = :t")
			}
			_, err := c.SearchVectors(ctx(t), &in)
			requireAPIError(t, err, tc.code, tc.want)
		})
	}
}

func TestVectorIndexNotReadable(t *testing.T) {
	vectorDiffers(t, docVectorReqs)
	c := newClient(t)
	name := vectorFixture(t, c, vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll))
	_, err := c.Query(ctx(t), &dynamodb.QueryInput{TableName: &name, IndexName: aws.String("byEmb"),
		KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{":p": s("a")}})
	requireValidation(t, err, "Query operation not supported on this index type.")
	_, err = c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &name, IndexName: aws.String("byEmb")})
	requireValidation(t, err, "Scan operation not supported on this index type.")
	_, err = c.ExecuteStatement(ctx(t), &dynamodb.ExecuteStatementInput{Statement: aws.String(`SELECT * FROM "` + name + `"."byEmb"`)})
	requireValidation(t, err, "The table does not have the specified index")
}

func TestVectorWritesChecked(t *testing.T) {
	vectorDiffers(t, docVectorTrouble)
	c := newClient(t)
	name := vectorFixture(t, c, vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeAll,
		schemaElem("tenant", types.SearchSchemaElementTypeHash)))
	tests := []struct {
		name string
		it   item
		want string
	}{
		{"short", item{"pk": s("x"), "emb": vec(1, 2)}, "One or more parameter values were invalid: Invalid size for parameter emb, Expected: 3, Actual: 2. IndexName: byEmb"},
		{"string", item{"pk": s("x"), "emb": s("v")}, "One or more parameter values were invalid: Invalid type for parameter emb, Expected: L, Actual: S. IndexName: byEmb"},
		{"number set", item{"pk": s("x"), "emb": ns("1", "2", "3")}, "One or more parameter values were invalid: Invalid type for parameter emb, Expected: L, Actual: NS. IndexName: byEmb"},
		{"element", item{"pk": s("x"), "emb": l(n("1"), s("2"), n("3"))}, "One or more parameter values were invalid: Invalid type for parameter emb[1], Expected: N, Actual: S. IndexName: byEmb"},
		{"beyond float32", item{"pk": s("x"), "emb": l(n("1"), n("1e39"), n("3"))}, "One or more parameter values were invalid: Invalid value for parameter emb[1], Expected: a 32-bit floating-point number. IndexName: byEmb"},
		{"HASH of another type", item{"pk": s("x"), "tenant": n("1"), "emb": vec(1, 2, 3)}, "One or more parameter values were invalid: Type mismatch for Index Key tenant Expected: S Actual: N IndexName: byEmb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &name, Item: tc.it})
			requireValidation(t, err, tc.want)
		})
	}
	// Missing vector or HASH attribute: accepted, not indexed.
	mustPut(t, c, name, item{"pk": s("y"), "tenant": s("t1")})
	mustPut(t, c, name, item{"pk": s("z"), "emb": vec(1, 0, 0)})
	// Values are kept at float32 precision in the index: the search still
	// finds an item whose vector has more digits than float32 holds.
	mustPut(t, c, name, item{"pk": s("p"), "tenant": s("t9"), "emb": l(n("0.1000000000000000055511151231257827"), n("0"), n("0"))})
	out, err := c.SearchVectors(ctx(t), &dynamodb.SearchVectorsInput{TableName: &name, IndexName: aws.String("byEmb"), TopK: aws.Int32(5),
		SearchVector: searchVec(1, 0, 0), SearchConditionExpression: aws.String("tenant = :t"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": s("t9")}})
	mustNoError(t, err)
	if len(out.SearchResults) != 1 || out.SearchResults[0].Score > 1e-6 {
		t.Errorf("got %s, want p at about 0", renderResults(out.SearchResults))
	}
}

// TestVectorIndexRequiredMembers: what the SDK checks itself, sent raw.
func TestVectorIndexRequiredMembers(t *testing.T) {
	vectorDiffers(t, docVectorIndex+", "+docSearchVectors)
	name := uniqueName(t)
	r := rawCall(t, "CreateTable", `{"TableName":"`+name+`","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],`+
		`"VectorIndexes":[{"IndexName":"byEmb","Dimensions":3,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"ALL"}}]}`)
	if r.Status != 400 || r.Type != "ValidationException" ||
		r.Message != "1 validation error detected: Value null at 'vectorIndexes.1.member.vectorAttribute' failed to satisfy constraint: Member must not be null" {
		t.Errorf("CreateTable without VectorAttribute: %d %s %q", r.Status, r.Type, r.Message)
	}
	r = rawCall(t, "SearchVectors", `{"TableName":"`+name+`","IndexName":"byEmb"}`)
	want := "2 validation errors detected: Value null at 'searchVector' failed to satisfy constraint: Member must not be null; " +
		"Value null at 'topK' failed to satisfy constraint: Member must not be null"
	if r.Status != 400 || r.Type != "ValidationException" || r.Message != want {
		t.Errorf("SearchVectors without SearchVector and TopK: %d %s %q", r.Status, r.Type, r.Message)
	}
}

func TestVectorUpdateTable(t *testing.T) {
	vectorDiffers(t, docVectorWorking)
	c := newClient(t)
	name := vectorFixture(t, c, vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeKeysOnly))
	create := func(x types.VectorIndex) (*dynamodb.UpdateTableOutput, error) {
		return c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, VectorIndexUpdates: []types.VectorIndexUpdate{{Create: &types.CreateVectorIndexAction{
			IndexName: x.IndexName, VectorAttribute: x.VectorAttribute, Dimensions: x.Dimensions, DistanceFunction: x.DistanceFunction,
			Projection: x.Projection, SearchSchema: x.SearchSchema}}}})
	}
	_, err := create(vectorIndex("byEmb", "emb", 3, types.VectorDistanceFunctionCosine, types.ProjectionTypeKeysOnly))
	requireValidation(t, err, "Attempting to create an index which already exists")
	_, err = create(vectorIndex("byEmb4", "emb", 4, types.VectorDistanceFunctionCosine, types.ProjectionTypeKeysOnly))
	requireValidation(t, err, "One or more parameter values were invalid: Vector indexes on the same attribute must have the same Dimensions: attribute emb has 3 in index byEmb and 4 in index byEmb4")
	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, VectorIndexUpdates: []types.VectorIndexUpdate{
		{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String("byEmb")}},
		{Create: &types.CreateVectorIndexAction{IndexName: aws.String("other"), VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("o")},
			Dimensions: aws.Int64(2), DistanceFunction: types.VectorDistanceFunctionCosine, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}}}})
	requireAPIError(t, err, "LimitExceededException", "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table")
	_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, VectorIndexUpdates: []types.VectorIndexUpdate{
		{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String("nope")}}}})
	requireAPIError(t, err, "ResourceNotFoundException", "Requested resource not found") // as for a GSI

	// A new index is backfilled from the items there are.
	_, err = create(vectorIndex("byEmbE", "emb", 3, types.VectorDistanceFunctionEuclidean, types.ProjectionTypeKeysOnly,
		schemaElem("tenant", types.SearchSchemaElementTypeHash)))
	requireValidation(t, err, "One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions")
	out, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("tenant"), AttributeType: types.ScalarAttributeTypeS}},
		VectorIndexUpdates: []types.VectorIndexUpdate{{Create: &types.CreateVectorIndexAction{IndexName: aws.String("byEmbE"),
			VectorAttribute: &types.VectorAttributeDefinition{AttributeName: aws.String("emb")}, Dimensions: aws.Int64(3),
			DistanceFunction: types.VectorDistanceFunctionEuclidean, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly},
			SearchSchema: []types.SearchSchemaElement{schemaElem("tenant", types.SearchSchemaElementTypeHash)}}}}})
	mustNoError(t, err)
	var added *types.VectorIndexDescription
	for i, v := range out.TableDescription.VectorIndexes {
		if aws.ToString(v.IndexName) == "byEmbE" {
			added = &out.TableDescription.VectorIndexes[i]
		}
	}
	if added == nil || added.IndexStatus != types.IndexStatusCreating || !aws.ToBool(added.Backfilling) {
		t.Fatalf("UpdateTable's answer: got %+v, want byEmbE CREATING, Backfilling", added)
	}
	waitVectorActive(t, c, name, "byEmbE")
	sv, err := c.SearchVectors(ctx(t), &dynamodb.SearchVectorsInput{TableName: &name, IndexName: aws.String("byEmbE"), TopK: aws.Int32(10),
		SearchVector: searchVec(1, 0, 0), SearchConditionExpression: aws.String("tenant = :t"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":t": s("t1")}})
	mustNoError(t, err)
	if got, want := renderResults(sv.SearchResults), "a:0 c:2 b:2.236 e:4.472"; got != want {
		t.Errorf("search of the backfilled index: got %s, want %s", got, want)
	}
	d := mustDescribe(t, c, name)
	attrs := []string{}
	for _, a := range d.AttributeDefinitions {
		attrs = append(attrs, aws.ToString(a.AttributeName))
	}
	if got := strings.Join(attrs, ","); got != "pk,tenant" {
		t.Errorf("AttributeDefinitions after the create: %s, want pk,tenant", got)
	}

	// Delete: DELETING in the answer, then gone; the items stay.
	out, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, VectorIndexUpdates: []types.VectorIndexUpdate{
		{Delete: &types.DeleteVectorIndexAction{IndexName: aws.String("byEmbE")}}}})
	mustNoError(t, err)
	deleting := false
	for _, v := range out.TableDescription.VectorIndexes {
		deleting = deleting || aws.ToString(v.IndexName) == "byEmbE" && v.IndexStatus == types.IndexStatusDeleting
	}
	if !deleting {
		t.Errorf("UpdateTable Delete's answer: %+v, want byEmbE DELETING", out.TableDescription.VectorIndexes)
	}
	if got := aws.ToInt64(mustDescribe(t, c, name).ItemCount); got != 5 {
		t.Errorf("ItemCount after the delete: %d, want 5", got)
	}
}

// waitVectorActive waits until the table's vector index is ACTIVE and not backfilling.
func waitVectorActive(t *testing.T, c *dynamodb.Client, table, index string) {
	t.Helper()
	for range 600 {
		for _, v := range mustDescribe(t, c, table).VectorIndexes {
			if aws.ToString(v.IndexName) == index && v.IndexStatus == types.IndexStatusActive && !aws.ToBool(v.Backfilling) {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("vector index %s of %s never became ACTIVE", index, table)
}
