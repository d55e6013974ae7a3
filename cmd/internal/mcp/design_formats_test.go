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
			src, err := os.ReadFile(filepath.Join("..", "..", "..", "internal", "insights", "testdata", file))
			require.NoError(t, err)
			f := newFixture(t, "memory", Options{})
			require.NoError(t, f.emu.Reports().SetDesign(src))
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

// TestUsersBlogInstructions: the users blog written as a plain NoSQL
// Workbench model and as AWS's data model puts each pattern's declared
// template in the instructions an agent reads, never another key
// attribute's variable.
func TestUsersBlogInstructions(t *testing.T) {
	for file, wants := range map[string][]string{
		"usersblog.workbench-plain.json": {"get-User: get on the table where pk = USER#{userId} and sk = PROFILE",
			"query-Post-GSI1: query on GSI1 where pk = USER#{userId}", "query-TagPost-GSI1: query on GSI1 where pk = TAG#{tag}",
			"query-Comment: query on the table where pk = POST#{postId} and sk begins_with COMMENT#"},
		"usersblog.dynamodb_data_model.json": {"get-user: get on the table where pk = USER#{userId} and sk = PROFILE",
			"posts-by-user: query on GSI1 where pk = USER#{userId} and sk begins_with POST#", "posts-by-tag: query on GSI1 where pk = TAG#{tag} and sk begins_with POST#",
			"tag-post: put on the table where pk = POST#{postId} and sk = TAG#{tag}", "add-comment: put on the table where pk = POST#{postId} and sk = COMMENT#{commentId}"},
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", "..", "internal", "insights", "testdata", file))
		require.NoError(t, err)
		f := newFixture(t, "memory", Options{})
		require.NoError(t, f.emu.Reports().SetDesign(src))
		srv, err := New(f.emu, Options{})
		require.NoError(t, err)
		got := srv.instructions()
		for _, want := range wants {
			require.Contains(t, got, want, file)
		}
		for _, bad := range []string{"{PK}", "{SK}", "{GSI1PK}", "{GSI1SK}"} {
			require.NotContains(t, got, bad, file)
		}
	}
}
