package emulator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestPersistVectorsRestart: a table's vector index answers a search the
// same after restarts with and without -approximateVectors: the store
// builds the index's entries as it loads the table
// (persist.Options.VectorIndexes), and the namespace keeps them when its
// options are the store's, or builds them again when they differ.
func TestPersistVectorsRestart(t *testing.T) {
	dir := t.TempDir()
	must := func(e *Emulator, op, body string) string {
		t.Helper()
		res, out := do(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
		require.Equal(t, 200, res.StatusCode, "%s: %s", op, out)
		return out
	}
	e := openPersisted(t, dir, Options{ApproximateVectors: true})
	must(e, "CreateTable", `{"TableName":"docs","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"tenant","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],`+
		`"VectorIndexes":[{"IndexName":"byEmb","VectorAttribute":{"AttributeName":"emb"},"Dimensions":3,"DistanceFunction":"EUCLIDEAN",`+
		`"SearchSchema":[{"AttributeName":"tenant","SearchSchemaElementType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	for i := range 40 {
		must(e, "PutItem", fmt.Sprintf(`{"TableName":"docs","Item":{"pk":{"S":"d%d"},"tenant":{"S":"t%d"},`+
			`"emb":{"L":[{"N":"%d"},{"N":"%d"},{"N":"1"}]}}}`, i, i%2, i%7, i%5))
	}
	search := func(e *Emulator) string {
		t.Helper()
		out := must(e, "SearchVectors", `{"TableName":"docs","IndexName":"byEmb","TopK":5,`+
			`"SearchVector":[{"N":"3"},{"N":"2"},{"N":"1"}],`+
			`"SearchConditionExpression":"tenant = :t","ExpressionAttributeValues":{":t":{"S":"t1"}}}`)
		require.Equal(t, 5, strings.Count(out, `"Score"`), out)
		return out
	}
	want := search(e)
	require.NoError(t, e.Close())
	for _, opts := range []Options{{ApproximateVectors: true}, {}, {ApproximateVectors: true}} {
		e := openPersisted(t, dir, opts)
		require.Equal(t, want, search(e), "after a restart with %+v", opts)
		require.NoError(t, e.Close())
	}
}
