package mcp

import (
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// postsDesign is a design whose table the test creates late.
const postsDesign = `table Posts
key pk sk
index byUser userId
entity Post pk=POST#{id} sk=post userId={user}
pattern post get Post where pk = POST#{id} and sk = post
pattern posts-by-user query Post on byUser where pk = {user}
`

// TestDesignAlone: design_match and explain judge requests on the design
// before its table exists; a request no pattern serves names the nearest
// pattern and why; access_report of one table honours its format and
// refuses a table that is not there; setting the same design again keeps
// the counts.
func TestDesignAlone(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	design, _ := json.Marshal(postsDesign)
	f.ok("design_set", `{"design":`+string(design)+`}`)

	text := f.ok("design_match", `{"operation":"Query","request":{"TableName":"Posts","IndexName":"byUser","KeyConditionExpression":"userId = :u","ExpressionAttributeValues":{":u":{"S":"ann"}}}}`)
	require.Contains(t, text, `"pattern":"posts-by-user"`)
	require.Contains(t, text, "does not exist yet")
	text = f.ok("explain", `{"operation":"GetItem","request":{"TableName":"Posts","Key":{"pk":{"S":"POST#1"},"sk":{"S":"post"}}}}`)
	require.Contains(t, text, `"pattern":"post"`)
	require.Contains(t, text, "judged on the design alone")

	scan := `{"TableName":"Posts","FilterExpression":"#u = :u","ExpressionAttributeNames":{"#u":"userId"},"ExpressionAttributeValues":{":u":{"S":"ann"}}}`
	text = f.ok("design_match", `{"operation":"Scan","request":`+scan+`}`)
	var m struct {
		Summary string
	}
	require.NoError(t, json.Unmarshal([]byte(text), &m))
	require.Contains(t, m.Summary, "no pattern")
	require.Contains(t, m.Summary, "nearest: posts-by-user")
	require.Contains(t, m.Summary, `Use a Query of index byUser with KeyConditionExpression "userId = :v"`)
	text = f.ok("explain", `{"operation":"Scan","request":`+scan+`}`)
	require.Contains(t, text, `"nearestPattern":"posts-by-user`)
	// A get whose key fits no pattern: the nearest is the get pattern.
	text = f.ok("design_match", `{"operation":"GetItem","request":{"TableName":"Posts","Key":{"pk":{"S":"USER#1"},"sk":{"S":"x"}}}}`)
	require.Contains(t, text, `"nearestPattern":"post (a get on the table's key): the partition key`)

	// The table, and traffic in the report.
	f.ok("create_table", `{"TableName":"Posts","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"userId","AttributeType":"S"}],
		"GlobalSecondaryIndexes":[{"IndexName":"byUser","KeySchema":[{"AttributeName":"userId","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`)
	f.ok("put_item", `{"TableName":"Posts","Item":{"pk":{"S":"POST#1"},"sk":{"S":"post"},"userId":{"S":"ann"}}}`)
	f.ok("get_item", `{"TableName":"Posts","Key":{"pk":{"S":"POST#1"},"sk":{"S":"post"}}}`)
	text = f.ok("access_report", `{"table":"Posts","format":"text"}`)
	require.False(t, json.Valid([]byte(text)), "format text answered JSON: %s", text)
	require.Contains(t, text, "Posts")
	text, isErr := f.call("access_report", `{"table":"Postz"}`)
	require.True(t, isErr, text)
	require.Contains(t, text, `no table "Postz" in the namespace or the design: did you mean "Posts"?`)
	text, isErr = f.call("access_findings", `{"table":"Nope"}`)
	require.True(t, isErr, text)

	before := f.ok("access_report", `{"format":"json"}`)
	text = f.ok("design_set", `{"design":`+string(design)+`}`)
	require.Contains(t, text, "nothing changed")
	require.JSONEq(t, before, f.ok("access_report", `{"format":"json"}`), "setting the same design changed the report")
}

// TestExplainSchema: explain's schema offers only the operations it
// takes; design_match's the batches and transactions too.
func TestExplainSchema(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	res, err := f.session.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	enums := map[string][]any{}
	for _, tl := range res.Tools {
		if tl.Name == "explain" || tl.Name == "design_match" {
			b, err := json.Marshal(tl.InputSchema)
			require.NoError(t, err)
			var s struct {
				Properties map[string]struct{ Enum []any }
			}
			require.NoError(t, json.Unmarshal(b, &s))
			enums[tl.Name] = s.Properties["operation"].Enum
		}
	}
	require.Equal(t, []any{"GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan"}, enums["explain"])
	require.Contains(t, enums["design_match"], "TransactWriteItems")
	for _, op := range enums["explain"] {
		text, isErr := f.call("explain", `{"operation":"`+op.(string)+`","request":{"TableName":"Nope"}}`)
		require.True(t, isErr, "no table Nope")
		require.NotContains(t, text, "explain takes one", "%s is listed but refused", op)
	}
}

// TestMatchUnknownMember: design_match refuses a member the operation
// does not take, at any depth of its request, as explain does: a
// misspelt KeyConditionExpression would be judged as no key condition.
func TestMatchUnknownMember(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	design, _ := json.Marshal(postsDesign)
	f.ok("design_set", `{"design":`+string(design)+`}`)
	for _, tc := range []struct{ op, req, want string }{
		{"Query", `{"TableName":"Posts","IndexName":"byUser","KeyConditionExpresion":"userId = :u","ExpressionAttributeValues":{":u":{"S":"ann"}}}`,
			`unknown member "KeyConditionExpresion": did you mean "KeyConditionExpression"?`},
		{"Scan", `{"TableName":"Posts","KeyConditionExpression":"pk = :p"}`, `unknown member "KeyConditionExpression": Scan takes no KeyConditionExpression; the query tool does`},
		{"GetItem", `{"TableName":"Posts","Key":{"pk":{"S":"POST#1"},"sk":{"S":"post"}},"KeyConditionExpression":"pk = :p"}`, `GetItem takes no KeyConditionExpression; the query tool does`},
		{"GetItem", `{"TableName":"Posts","Key":{"pk":{"S":"POST#1"},"sk":{"S":"post"}},"ConsistentRaed":true}`, `did you mean "ConsistentRead"?`},
		{"TransactWriteItems", `{"TransactItems":[{"Put":{"TableName":"Posts","Item":{"pk":{"S":"POST#1"},"sk":{"S":"post"}},"ConditionExpresion":"attribute_not_exists(pk)"}}]}`,
			`unknown member "TransactItems[0].Put.ConditionExpresion": did you mean "ConditionExpression"?`},
	} {
		for _, tool := range []string{"design_match", "explain"} {
			if tool == "explain" && tc.op == "TransactWriteItems" {
				continue
			}
			text, isErr := f.call(tool, `{"operation":"`+tc.op+`","request":`+tc.req+`}`)
			require.True(t, isErr, "%s %s: %s", tool, tc.op, text)
			require.Contains(t, text, tc.want, tool)
		}
	}
	f.ok("create_table", `{"TableName":"Posts","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}`)
	for tool, req := range map[string]string{
		"scan":     `{"TableName":"Posts","KeyConditionExpression":"pk = :p"}`,
		"get_item": `{"TableName":"Posts","Key":{"pk":{"S":"POST#1"},"sk":{"S":"post"}},"KeyConditionExpression":"pk = :p"}`,
	} {
		text, isErr := f.call(tool, req)
		require.True(t, isErr, "%s: %s", tool, text)
		require.Contains(t, text, "takes no KeyConditionExpression; the query tool does", tool)
		require.NotContains(t, text, "ProjectionExpression?", tool)
	}
}

// TestToolAnnotations: the tools that may delete or overwrite say so
// (destructiveHint), reads say they are read-only, and the design tools'
// descriptions name every format a design is read from.
func TestToolAnnotations(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	res, err := f.session.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	byName := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
	}
	for _, name := range []string{"snapshot_delete", "snapshot_restore", "delete_table", "delete_item"} {
		a := byName[name].Annotations
		require.NotNil(t, a.DestructiveHint, name)
		require.True(t, *a.DestructiveHint, "%s is not marked destructive", name)
		require.False(t, a.ReadOnlyHint, name)
	}
	for _, name := range []string{"snapshot_list", "get_item", "design_show", "design_match"} {
		require.True(t, byName[name].Annotations.ReadOnlyHint, "%s is not marked read-only", name)
	}
	// enable_tools changes the session's list of tools (and sends
	// notifications/tools/list_changed): not read-only, not destructive.
	require.False(t, byName["enable_tools"].Annotations.ReadOnlyHint, "enable_tools is marked read-only")
	require.False(t, *byName["enable_tools"].Annotations.DestructiveHint)
	for _, name := range []string{"design_show", "design_set"} {
		for _, format := range []string{"Workbench", "OneTable", "ElectroDB", "Dynamoose", "DynamoDB Toolbox", "data model", "CloudFormation"} {
			require.Contains(t, byName[name].Description+" "+schemaText(t, byName[name]), format, name)
		}
	}
	for _, format := range []string{"NoSQL Workbench", "AWS's DynamoDB MCP data model", "CloudFormation", "SAM", "cdk synth", "serverless.yml"} {
		require.Contains(t, byName["load_model"].Description, format)
	}
}

// schemaText is a tool's input schema as text.
func schemaText(t *testing.T, tl *sdk.Tool) string {
	b, err := json.Marshal(tl.InputSchema)
	require.NoError(t, err)
	return string(b)
}
