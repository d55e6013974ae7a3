package vectorsearch

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The feature in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{Feature{}}

// vecTable has the vector index vidx (3 dimensions, EUCLIDEAN) whose
// search schema is tenant (HASH) and cat (INLINE_FILTER).
const vecTable = `{"TableName":"vtab","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"tenant","AttributeType":"S"},{"AttributeName":"cat","AttributeType":"N"}],` +
	`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],` +
	`"VectorIndexes":[{"IndexName":"vidx","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"EUCLIDEAN",` +
	`"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["title"]},` +
	`"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"},{"AttributeName":"cat","SearchSchemaElementType":"INLINE_FILTER"}]}]}`

// search is a SearchVectors body on vidx with the vector [1,0,0] and
// TopK 3, plus more members.
func search(more string) string {
	return `{"TableName":"vtab","IndexName":"vidx","SearchVector":[{"N":"1"},{"N":"0"},{"N":"0"}],"TopK":3` + more + `}`
}

// TestSearchVectorsErrors: the checks in their order (the model, TopK,
// the table and index, the vector, the condition).
func TestSearchVectorsErrors(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures, TransientDelay: time.Minute}) // an index added is CREATING a minute
	e.Must("CreateTable", vecTable)
	e.Clock.Advance(time.Minute) // the table is CREATING until then
	e.Must("UpdateTable", `{"TableName":"vtab","VectorIndexUpdates":[{"Create":{"IndexName":"vnew","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"KEYS_ONLY"}}}]}`)
	const tenant = `,"SearchConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}`
	for _, tc := range []struct {
		name, body, typ, msg string
	}{
		{"no index name", `{"TableName":"vtab","SearchVector":[{"N":"1"}],"TopK":1}`, "ValidationException",
			"1 validation error detected: Value null at 'indexName' failed to satisfy constraint: Member must not be null"},
		{"bad capacity mode", search(`,"ReturnConsumedCapacity":"ALL"`), "ValidationException",
			"1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"},
		{"TopK 0", strings.Replace(search(""), `"TopK":3`, `"TopK":0`, 1), "ValidationException",
			"Provided TopK value '0' is out of valid range. The value must be between 1 and 100 inclusive"},
		{"missing table", strings.Replace(search(""), "vtab", "nosuch", 1), "ResourceNotFoundException", "Requested resource not found"},
		{"missing index", strings.Replace(search(""), "vidx", "nosuch", 1), "ValidationException", "The table does not have the specified index: nosuch"},
		{"index backfilling", strings.Replace(search(""), "vidx", "vnew", 1), "ValidationException", "Cannot search backfilling vector index: vnew"},
		{"vector of strings", strings.Replace(search(""), `{"N":"0"}]`, `{"S":"0"}]`, 1), "ValidationException",
			"Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"},
		{"vector too short", strings.Replace(search(""), `,{"N":"0"}]`, `]`, 1), "ValidationException",
			"Input search vector dimension 2 does not match vector index dimension 3"},
		{"no condition", search(""), "ValidationException", "SearchConditionExpression must be provided when SearchSchema has a HASH key"},
		{"a comparator", search(`,"SearchConditionExpression":"tenant < :t","ExpressionAttributeValues":{":t":{"S":"t1"}}`), "ValidationException",
			"Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression"},
		{"not in schema", search(`,"SearchConditionExpression":"tenant = :t AND title = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}`), "ValidationException",
			"SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: title"},
		{"twice", search(`,"SearchConditionExpression":"tenant = :t AND tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}`), "ValidationException",
			"Invalid SearchConditionExpression: Attribute tenant is used more than once in SearchConditionExpression"},
		{"unused value", search(tenant[:len(tenant)-1] + `,":u":{"S":"x"}}`), "ValidationException",
			"Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"},
	} {
		status, out := e.Send("SearchVectors", tc.body)
		require.Equal(t, 400, status, "%s: %s", tc.name, out)
		typ, msg := testkit.ErrorOf(out)
		require.Equal(t, tc.typ, typ, tc.name)
		require.Equal(t, tc.msg, msg, tc.name)
	}
	e.Clock.Advance(time.Hour) // vnew built
	require.Equal(t, `{"SearchResults":[]}`, e.Must("SearchVectors", strings.Replace(search(""), "vidx", "vnew", 1)))
}

// TestSearchVectorsAnswerLimit: an answer is at most 16 MB (AWS's limit,
// without pagination): the best results that fit.
func TestSearchVectorsAnswerLimit(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	e.Must("CreateTable", `{"TableName":"big","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"VectorIndexes":[{"IndexName":"vidx","VectorAttribute":{"AttributeName":"v"},"Dimensions":2,`+
		`"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"ALL"}}]}`)
	pad := strings.Repeat("x", 390_000)
	for i := range 50 {
		e.Must("PutItem", fmt.Sprintf(`{"TableName":"big","Item":{"pk":{"S":"k%02d"},"pad":{"S":"%s"},"v":{"L":[{"N":"%d"},{"N":"0"}]}}}`, i, pad, i))
	}
	body := e.Must("SearchVectors", `{"TableName":"big","IndexName":"vidx","SearchVector":[{"N":"0"},{"N":"0"}],"TopK":100}`)
	n := strings.Count(body, `"Score"`)
	require.Less(t, n, 50, "the answer holds fewer results than asked")
	require.GreaterOrEqual(t, n, 40, "the answer holds the ~42 best that fit in 16 MB")
	require.LessOrEqual(t, len(body), 16<<20)
	require.Contains(t, body, `"k00"`, "the best result")
	require.NotContains(t, body, fmt.Sprintf(`"k%02d"`, n), "the answer is the %d best", n)
}
