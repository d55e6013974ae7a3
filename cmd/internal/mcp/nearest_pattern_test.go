package mcp

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNearestPattern: requests no pattern of the users blog serves (one
// overloaded GSI1 for a user by e-mail, a user's posts and a tag's
// posts), each with the pattern design_match names nearest: ranked by
// the key attributes the request names and whether their values fit a
// pattern's literal prefix, then by the attributes a pattern's key is
// made of, then by access and index.
func TestNearestPattern(t *testing.T) {
	src, err := os.ReadFile("../../../internal/insights/testdata/usersblog.design")
	require.NoError(t, err)
	f := newFixture(t, "memory", Options{})
	design, _ := json.Marshal(string(src))
	f.ok("design_set", `{"design":`+string(design)+`}`)
	scan := func(filter, values string) string {
		return `{"TableName":"BlogApp","FilterExpression":"` + filter + `","ExpressionAttributeValues":` + values + `}`
	}
	for _, tc := range []struct {
		name, op, req string
		want          string // the nearest pattern
		text          string // in the hint
	}{
		{"a Scan on GSI1PK with a user's key", "Scan", scan("GSI1PK = :v", `{":v":{"S":"USER#u7"}}`),
			"posts-by-user", `Use a Query of index GSI1 with KeyConditionExpression \"GSI1PK = :v AND begins_with(GSI1SK, :s)\" (:v = \"USER#u7\", :s = \"POST#\")`},
		{"a Scan on GSI1PK with an e-mail's key", "Scan", scan("GSI1PK = :v", `{":v":{"S":"EMAIL#ann@example.com"}}`),
			"user-by-email", `KeyConditionExpression \"GSI1PK = :v\" (:v = \"EMAIL#ann@example.com\")`},
		{"a Scan on a GSI1PK prefix", "Scan", scan("begins_with(GSI1PK, :p)", `{":p":{"S":"TAG#"}}`),
			"posts-by-tag", "this request filters on GSI1PK instead"},
		{"a Scan on userId", "Scan", scan("userId = :u", `{":u":{"S":"u7"}}`),
			"posts-by-user", `filters on userId (which GSI1PK, USER#{userId}, is made of)`},
		{"a Scan on e-mail", "Scan", scan("email = :e", `{":e":{"S":"ann@example.com"}}`),
			"user-by-email", `(:v = \"EMAIL#ann@example.com\")`},
		{"a Scan on a tag", "Scan", scan("#t = :t", `{":t":{"S":"dynamodb"}}`+`,"ExpressionAttributeNames":{"#t":"tag"}`),
			"posts-by-tag", `(:v = \"TAG#dynamodb\", :s = \"POST#\")`},
		{"a Scan on PK with a post's key", "Scan", scan("PK = :p", `{":p":{"S":"POST#p1"}}`),
			"comments-of-post", "Use a Query of the table's key"},
		{"a Scan of the index on a user's key, legacy ScanFilter", "Scan",
			`{"TableName":"BlogApp","IndexName":"GSI1","ScanFilter":{"GSI1PK":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"USER#u8"}]}}}`,
			"posts-by-user", `(:v = \"USER#u8\", :s = \"POST#\")`},
		{"a get of a user's settings", "GetItem", `{"TableName":"BlogApp","Key":{"PK":{"S":"USER#u7"},"SK":{"S":"SETTINGS"}}}`,
			"get-user", `the sort key \"SETTINGS\" does not fit sk = PROFILE`},
		{"a get of a comment: the query of a post's comments", "GetItem", `{"TableName":"BlogApp","Key":{"PK":{"S":"POST#p1"},"SK":{"S":"COMMENT#c1"}}}`,
			"comments-of-post", "a query pattern; the request is a get"},
		{"a user's posts without the sort key's prefix", "Query",
			`{"TableName":"BlogApp","IndexName":"GSI1","KeyConditionExpression":"GSI1PK = :u","ExpressionAttributeValues":{":u":{"S":"USER#u7"}}}`,
			"posts-by-user", "the pattern takes sk begins_with POST#"},
		{"a tag's posts on the table, not the index", "Query",
			`{"TableName":"BlogApp","KeyConditionExpression":"PK = :t","ExpressionAttributeValues":{":t":{"S":"TAG#dynamodb"}}}`,
			"posts-by-tag", "on index GSI1; the request uses the table key"},
		{"a post's likes", "Query",
			`{"TableName":"BlogApp","KeyConditionExpression":"PK = :p AND begins_with(SK, :s)","ExpressionAttributeValues":{":p":{"S":"POST#p1"},":s":{"S":"LIKE#"}}}`,
			"comments-of-post", `the sort key \"LIKE#\" does not fit`},
		{"a write of a tag in the user's partition", "PutItem",
			`{"TableName":"BlogApp","Item":{"PK":{"S":"USER#u7"},"SK":{"S":"TAG#go"},"tag":{"S":"go"}}}`,
			"create-user", "does not fit sk = PROFILE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := f.ok("design_match", `{"operation":"`+tc.op+`","request":`+tc.req+`}`)
			var m struct {
				Matches []struct{ Pattern, NearestPattern string }
			}
			require.NoError(t, json.Unmarshal([]byte(text), &m))
			require.Len(t, m.Matches, 1)
			require.Empty(t, m.Matches[0].Pattern, "a pattern serves it")
			near := m.Matches[0].NearestPattern
			require.True(t, strings.HasPrefix(near, tc.want+" ") || strings.HasPrefix(near, tc.want+":"), "nearest %q, want %s", near, tc.want)
			require.Contains(t, text, tc.text)
		})
	}
}

// TestNearestPatternWithoutTemplates: in designs whose keys have no
// templates of their own (the plain Workbench model and OneTable's, whose
// patterns hold the key attributes' names), a Scan filtered on an
// attribute no pattern's key is, or is made of, gets no nearest pattern;
// one on a key attribute, or on the attribute a key is made of, gets the
// pattern of that key.
func TestNearestPatternWithoutTemplates(t *testing.T) {
	scan := func(filter, values string) string {
		return `{"TableName":"Blog","FilterExpression":"` + filter + `","ExpressionAttributeValues":` + values + `}`
	}
	for file, byKey := range map[string]string{
		"blog.workbench-plain.json": "query-Post-GSI2",
		"blog.onetable-plain.json":  "posts-by-author",
	} {
		src, err := os.ReadFile("../../../internal/insights/testdata/" + file)
		require.NoError(t, err)
		f := newFixture(t, "memory", Options{})
		design, _ := json.Marshal(string(src))
		f.ok("design_set", `{"design":`+string(design)+`}`)
		nearest := func(req string) string {
			var m struct {
				Matches []struct{ Pattern, NearestPattern string }
			}
			require.NoError(t, json.Unmarshal([]byte(f.ok("design_match", `{"operation":"Scan","request":`+req+`}`)), &m))
			require.Len(t, m.Matches, 1)
			require.Empty(t, m.Matches[0].Pattern, file)
			return m.Matches[0].NearestPattern
		}
		for _, req := range []string{
			scan("userId = :u", `{":u":{"S":"u7"}}`),
			scan("email = :e", `{":e":{"S":"ann@example.com"}}`),
			scan("#t = :t", `{":t":{"S":"dynamodb"}}`+`,"ExpressionAttributeNames":{"#t":"tag"}`),
			scan("attribute_exists(userId)", `{}`),
		} {
			require.Empty(t, nearest(req), "%s: %s", file, req)
		}
		near := nearest(scan("GSI2PK = :a", `{":a":{"S":"和田哲也"}}`))
		require.True(t, strings.HasPrefix(near, byKey+":"), "%s: %s", file, near)
		require.Contains(t, near, `Use a Query of index GSI2 with KeyConditionExpression "GSI2PK = :v" (:v = "和田哲也")`)
		near = nearest(scan("author = :a", `{":a":{"S":"和田哲也"}}`))
		require.True(t, strings.HasPrefix(near, byKey+":"), "%s: %s", file, near)
		require.Contains(t, near, "this request filters on author (which GSI2PK")
	}
}
