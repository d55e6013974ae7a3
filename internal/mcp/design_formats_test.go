package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDesignEveryFormat: the blog design in each format insights reads
// is summed up in the server's instructions with its table and indexes,
// and design_match judges a request on it before the table exists.
func TestDesignEveryFormat(t *testing.T) {
	files := map[string]string{
		"blog.design":                   "posts-by-author",
		"blog.workbench.json":           "posts-by-author",
		"blog.workbench-plain.json":     "query-Post-GSI2",
		"blog.onetable.json":            "posts-by-author",
		"blog.onetable-plain.json":      "posts-by-author",
		"blog.dynamodb_data_model.json": "posts-by-author",
		"blog.electrodb.json":           "posts-by-author",
		"blog.dynamoose.json":           "query-GSI2",
		"blog.dynamodb-toolbox.json":    "query-GSI2",
		"blog.cloudformation.yaml":      "query-GSI2",
	}
	for file, pattern := range files {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "insights", "testdata", file))
			require.NoError(t, err)
			f := newFixture(t, "memory", Options{})
			require.NoError(t, f.emu.SetDesign(src))
			srv, err := New(f.emu, Options{})
			require.NoError(t, err)
			got := srv.instructions()
			require.Contains(t, got, "The design (")
			require.Contains(t, got, "key PK, SK_GSI1PK; index GSI1 (SK_GSI1PK, GSI1SK_GSI2SK_GSI3SK)")
			design, _ := json.Marshal(string(src))
			f.ok("design_set", `{"design":`+string(design)+`}`)
			text := f.ok("design_match", `{"operation":"Query","request":{"TableName":"Blog","IndexName":"GSI2","KeyConditionExpression":"GSI2PK = :a","ExpressionAttributeValues":{":a":{"S":"和田哲也"}}}}`)
			require.Contains(t, text, `"pattern":"`+pattern+`"`)
			if pattern == "query-GSI2" {
				require.Contains(t, got, "the report takes them from the traffic")
				require.Contains(t, text, "declares no access patterns: the report takes this request's shape")
			}
		})
	}
}
