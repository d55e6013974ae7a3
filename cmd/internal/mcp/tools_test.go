package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// toolCase is one tool's test: a call that works, and a bad input that
// is a tool error saying what is wrong and changes nothing. Arguments may
// name values earlier calls captured ({{name}}).
type toolCase struct {
	tool    string
	args    string
	want    string            // in the answer
	capture map[string]string // name: a regexp whose first group is captured from the answer
	bad     string            // a bad input
	badWant string            // in its error
}

// ordersDesign is a design of the Orders table the cases create.
const ordersDesign = `table Orders
key pk sk
index byStatus status
entity Order pk=ORDER#{id} sk={line} status={status}
pattern lines-of-order query Order where pk = ORDER#{id}
pattern line get Order where pk = ORDER#{id} and sk = {line}
pattern orders-by-status query Order on byStatus where pk = {status}
`

// toolCases is every tool's case, in an order where each finds what the
// earlier ones made.
func toolCases(t *testing.T) []toolCase {
	model, err := os.ReadFile("../../../internal/insights/testdata/blog.workbench.json")
	require.NoError(t, err)
	modelJSON, _ := json.Marshal(string(model))
	designJSON, _ := json.Marshal(ordersDesign)
	item := func(pk, sk, status string, more string) string {
		return `{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sk + `"},"status":{"S":"` + status + `"}` + more + `}`
	}
	key := func(pk, sk string) string { return `{"pk":{"S":"` + pk + `"},"sk":{"S":"` + sk + `"}}` }
	return []toolCase{
		{tool: "enable_tools", args: `{"groups":["snapshots"]}`, want: `"note":"those groups were listed already`, bad: `{"groups":["snapshot"]}`, badWant: `no tool group "snapshot": did you mean "snapshots"?`},
		{tool: "list_tables", args: `{}`, want: `"TableNames":[]`, bad: `{"Limit":"ten"}`, badWant: `argument "Limit" is string, want integer`},
		{tool: "create_table", args: `{"TableName":"Orders","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"status","AttributeType":"S"}],
			"GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeySchema":[{"AttributeName":"status","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],
			"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},"BillingMode":"PAY_PER_REQUEST"}`,
			want: `"TableStatus":"CREATING"`, // as AWS answers; ACTIVE from the next request
			bad:  `{"TableName":"Bad","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[],"BillingMode":"PAY_PER_REQUEST"}`, badWant: "ValidationException"},
		{tool: "describe_table", args: `{"TableName":"Orders"}`, want: `"IndexName":"byStatus"`, capture: map[string]string{"stream": `"LatestStreamArn":"([^"]+)"`},
			bad: `{"TableName":"Nope"}`, badWant: "ResourceNotFoundException"},
		{tool: "update_table", args: `{"TableName":"Orders","AttributeDefinitions":[{"AttributeName":"customer","AttributeType":"S"}],
			"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byCustomer","KeySchema":[{"AttributeName":"customer","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}}]}`,
			want: `byCustomer`, bad: `{"TableName":"Orders","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"nope"}}]}`, badWant: "Exception"},
		{tool: "put_item", args: `{"TableName":"Orders","Item":` + item("ORDER#1", "a", "OPEN", `,"total":{"N":"10"}`) + `}`, want: `{`,
			bad: `{"TableName":"Orders","Item":{"pk":{"S":"ORDER#9"}}}`, badWant: "ValidationException"},
		{tool: "get_item", args: `{"TableName":"Orders","Key":` + key("ORDER#1", "a") + `}`, want: `"OPEN"`,
			bad: `{"TableName":"Orders","Key":{"pk":{"S":"ORDER#1"}}}`, badWant: "ValidationException"},
		{tool: "update_item", args: `{"TableName":"Orders","Key":` + key("ORDER#1", "a") + `,"UpdateExpression":"SET #s = :s","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"PAID"}},"ReturnValues":"ALL_NEW"}`,
			want: `"PAID"`, bad: `{"TableName":"Orders","Key":` + key("ORDER#1", "a") + `,"UpdateExpression":"SET"}`, badWant: "ValidationException"},
		{tool: "batch_write_item", args: `{"RequestItems":{"Orders":[{"PutRequest":{"Item":` + item("ORDER#2", "a", "OPEN", "") + `}},{"PutRequest":{"Item":` + item("ORDER#3", "a", "OPEN", "") + `}},
			{"PutRequest":{"Item":` + item("ORDER#4", "a", "OPEN", `,"expires":{"N":"1777600000"}`) + `}}]}}`, want: `"UnprocessedItems":{}`,
			bad: `{"RequestItems":{"Orders":[{"PutRequest":{"Item":` + item("ORDER#5", "a", "OPEN", "") + `}},{"DeleteRequest":{"Key":{"pk":{"S":"ORDER#1"}}}}]}}`, badWant: "ValidationException"},
		{tool: "batch_get_item", args: `{"RequestItems":{"Orders":{"Keys":[` + key("ORDER#1", "a") + `,` + key("ORDER#2", "a") + `]}}}`, want: `ORDER#2`,
			bad: `{"RequestItems":{}}`, badWant: "ValidationException"},
		{tool: "query", args: `{"TableName":"Orders","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"ORDER#1"}}}`, want: `"Count":1`,
			bad: `{"TableName":"Orders","KeyConditionExpression":"sk = :s","ExpressionAttributeValues":{":s":{"S":"a"}}}`, badWant: "ValidationException"},
		{tool: "scan", args: `{"TableName":"Orders"}`, want: `"Count":4`, bad: `{"TableName":"Orders","Segment":1}`, badWant: "ValidationException"},
		{tool: "transact_write_items", args: `{"TransactItems":[{"Update":{"TableName":"Orders","Key":` + key("ORDER#2", "a") + `,"UpdateExpression":"SET note = :n","ExpressionAttributeValues":{":n":{"S":"gift"}}}},
			{"ConditionCheck":{"TableName":"Orders","Key":` + key("ORDER#1", "a") + `,"ConditionExpression":"attribute_exists(pk)"}}]}`, want: `{`,
			bad:     `{"TransactItems":[{"Put":{"TableName":"Orders","Item":` + item("ORDER#6", "a", "OPEN", "") + `}},{"ConditionCheck":{"TableName":"Orders","Key":` + key("ORDER#1", "a") + `,"ConditionExpression":"attribute_not_exists(pk)"}}]}`,
			badWant: "TransactionCanceledException"},
		{tool: "transact_get_items", args: `{"TransactItems":[{"Get":{"TableName":"Orders","Key":` + key("ORDER#2", "a") + `}}]}`, want: `"gift"`,
			bad: `{"TransactItems":[]}`, badWant: "ValidationException"},
		{tool: "execute_statement", args: `{"Statement":"SELECT * FROM \"Orders\" WHERE pk = ?","Parameters":[{"S":"ORDER#1"}]}`, want: `"PAID"`,
			bad: `{"Statement":"SELEC * FROM \"Orders\""}`, badWant: "ValidationException"},
		{tool: "batch_execute_statement", args: `{"Statements":[{"Statement":"SELECT * FROM \"Orders\" WHERE pk = 'ORDER#1' AND sk = 'a'"}]}`, want: `"Responses"`,
			bad: `{"Statements":[]}`, badWant: "ValidationException"},
		{tool: "execute_transaction", args: `{"TransactStatements":[{"Statement":"UPDATE \"Orders\" SET note = 'rush' WHERE pk = 'ORDER#3' AND sk = 'a'"}]}`, want: `{`,
			bad: `{"TransactStatements":[]}`, badWant: "ValidationException"},
		{tool: "describe_ttl", args: `{"TableName":"Orders"}`, want: `"TimeToLiveStatus":"DISABLED"`, bad: `{"TableName":"Nope"}`, badWant: "ResourceNotFoundException"},
		{tool: "update_ttl", args: `{"TableName":"Orders","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"expires"}}`, want: `"expires"`,
			bad: `{"TableName":"Orders","TimeToLiveSpecification":{"Enabled":true}}`, badWant: "ValidationException"},
		{tool: "sweep_ttl", args: `{}`, want: `"deleted":1`, bad: `{"now":true}`, badWant: `unknown argument "now"`},
		{tool: "list_tags", args: `{"TableName":"Orders"}`, want: `"Tags":[]`, bad: `{}`, badWant: "give ResourceArn or TableName"},
		{tool: "tag_resource", args: `{"TableName":"Orders","Tags":[{"Key":"team","Value":"orders"}]}`, want: `{`,
			bad: `{"TableName":"Nope","Tags":[{"Key":"team","Value":"x"}]}`, badWant: "ResourceNotFoundException"},
		{tool: "untag_resource", args: `{"TableName":"Orders","TagKeys":["team"]}`, want: `{`, bad: `{"TableName":"Orders"}`, badWant: `missing argument "TagKeys"`},
		{tool: "list_streams", args: `{"TableName":"Orders"}`, want: `"StreamArn"`, bad: `{"Limit":0}`, badWant: "ValidationException"},
		{tool: "describe_stream", args: `{"StreamArn":"{{stream}}"}`, want: `"StreamViewType":"NEW_AND_OLD_IMAGES"`, bad: `{"StreamArn":"arn:aws:dynamodb:us-east-1:000000000000:table/Nope/stream/x"}`, badWant: "Exception"},
		{tool: "read_stream", args: `{"TableName":"Orders","Limit":3}`, want: `"eventName":"INSERT"`, capture: map[string]string{"iterator": `"NextShardIterator":"([^"]+)"`},
			bad: `{"TableName":"Orders","ShardIteratorType":"AT_SEQUENCE_NUMBER"}`, badWant: `want one of TRIM_HORIZON, LATEST`},
		{tool: "get_records", args: `{"ShardIterator":"{{iterator}}","Limit":2}`, want: `"Records"`, bad: `{"ShardIterator":"not-an-iterator"}`, badWant: "Exception"},
		{tool: "delete_item", args: `{"TableName":"Orders","Key":` + key("ORDER#3", "a") + `,"ReturnValues":"ALL_OLD"}`, want: `"rush"`,
			bad: `{"TableName":"Orders","Key":{"pk":{"N":"1"},"sk":{"S":"a"}}}`, badWant: "ValidationException"},
		{tool: "snapshot_create", args: `{"label":"three orders"}`, want: `"label":"three orders"`, capture: map[string]string{"snap": `"id":"([^"]+)"`},
			bad: `{"label":3}`, badWant: `argument "label" is integer, want string`},
		{tool: "snapshot_list", args: `{}`, want: `"three orders"`, bad: `{"all":true}`, badWant: `unknown argument "all"`},
		{tool: "snapshot_restore", args: `{"id":"{{snap}}"}`, want: `"restored"`, bad: `{"id":"snap-none"}`, badWant: `no snapshot "snap-none"`},
		{tool: "faults_get", args: `{}`, want: `"rules"`, bad: `{"rules":1}`, badWant: `unknown argument "rules"`},
		{tool: "faults_set", args: `{"rules":{"seed":1,"rules":[{"table":"Elsewhere","fault":"Throttling","count":1}]}}`, want: `"rules":1`,
			bad: `{"rules":{"rules":[{"fault":"Bogus"}]}}`, badWant: "Bogus"},
		{tool: "faults_clear", args: `{}`, want: `"cleared":true`, bad: `{"rule":"x"}`, badWant: `unknown argument "rule"`},
		{tool: "lag_set", args: `{"table":"Orders","index":"byStatus","delay":"0s"}`, want: `"view":"index byStatus"`,
			bad: `{"table":"Orders","index":"byStatus"}`, badWant: "give one of index, reads or stream, and one of delay, hold or release"},
		{tool: "lag_list", args: `{}`, want: `byStatus`, bad: `{"table":"Orders"}`, badWant: `unknown argument "table"`},
		{tool: "design_set", args: `{"design":` + string(designJSON) + `}`, want: `"lines-of-order"`, bad: `{"design":"table"}`, badWant: "design:1:1: table takes one name"},
		{tool: "design_show", args: `{}`, want: `"orders-by-status"`, bad: `{"table":"Orders"}`, badWant: `unknown argument "table"`},
		{tool: "design_match", args: `{"operation":"Query","request":{"TableName":"Orders","IndexName":"byStatus","KeyConditionExpression":"#s = :s","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"OPEN"}}}}`,
			want: `"pattern":"orders-by-status"`, bad: `{"operation":"ListTables","request":{}}`, badWant: `argument "operation" is "ListTables", want one of`},
		{tool: "explain", args: `{"operation":"Scan","request":{"TableName":"Orders","FilterExpression":"#s = :s","ExpressionAttributeNames":{"#s":"status"},"ExpressionAttributeValues":{":s":{"S":"PAID"}}}}`,
			want: `"itemsDropped":1`, bad: `{"operation":"Query","request":{"TableName":"Orders","KeyConditionExpression":"nope = :x","ExpressionAttributeValues":{":x":{"S":"a"}}}}`, badWant: "KeyConditionExpression"},
		{tool: "access_report", args: `{"format":"json","table":"Orders"}`, want: `"table":"Orders"`, bad: `{"format":"xml"}`, badWant: `want one of text, json`},
		{tool: "access_findings", args: `{}`, want: `"findings"`, bad: `{"table":7}`, badWant: `argument "table" is integer, want string`},
		{tool: "report_control", args: `{"action":"reset"}`, want: `"reporting":true`, bad: `{"action":"pause"}`, badWant: "want one of start, stop, reset"},
		{tool: "conventions_report", args: `{"allRules":true}`, want: `"why"`, bad: `{"allRules":"yes"}`, badWant: `argument "allRules" is string, want boolean`},
		{tool: "conventions_reset", args: `{}`, want: `"reset":true`, bad: `{"table":"x"}`, badWant: `unknown argument "table"`},
		{tool: "stream_handlers", args: `{}`, want: `"mappings"`, bad: `{"table":"x"}`, badWant: `unknown argument "table"`},
		{tool: "stream_handlers_drain", args: `{"timeoutSeconds":5}`, want: `"drained":true`, bad: `{"timeoutSeconds":"x"}`, badWant: `argument "timeoutSeconds" is string, want number`},
		{tool: "load_model", args: `{"model":` + string(modelJSON) + `}`, want: `"items":3`,
			bad: `{"model":"{\"DataModel\":[{\"TableName\":\"X\"}]}"}`, badWant: "DataModel[0].KeyAttributes: missing"},
		{tool: "snapshot_delete", args: `{"id":"{{snap}}"}`, want: `"deleted"`, bad: `{"id":"snap-none"}`, badWant: `no snapshot "snap-none"`},
		{tool: "delete_table", args: `{"TableName":"Blog"}`, want: `snapshot_restore with this id undoes it`, bad: `{"TableName":"Nope"}`, badWant: "ResourceNotFoundException"},
	}
}

// TestEveryTool: over both transports, every tool's happy call works and
// its bad input is a tool error that says what is wrong and changes
// nothing; every tool the server lists has a case.
func TestEveryTool(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			f := newFixture(t, transport, Options{})
			cases := toolCases(t)
			listed := f.toolNames()
			var covered []string
			vars := map[string]string{}
			subst := func(s string) string {
				for k, v := range vars {
					s = strings.ReplaceAll(s, "{{"+k+"}}", v)
				}
				return s
			}
			for _, tc := range cases {
				covered = append(covered, tc.tool)
				before := f.state()
				text, isErr := f.call(tc.tool, subst(tc.bad))
				require.True(t, isErr, "%s: the bad input %s was taken: %s", tc.tool, tc.bad, text)
				require.Contains(t, text, tc.badWant, "%s: the error of %s", tc.tool, tc.bad)
				require.Equal(t, before, f.state(), "%s: the bad input %s changed something", tc.tool, tc.bad)

				f.misspelt(tc.tool, subst(tc.args))

				text = f.ok(tc.tool, subst(tc.args))
				require.Contains(t, text, tc.want, "%s: the answer", tc.tool)
				for name, re := range tc.capture {
					m := regexp.MustCompile(re).FindStringSubmatch(text)
					require.NotNil(t, m, "%s: %s not in %s", tc.tool, re, text)
					vars[name] = m[1]
				}
			}
			require.ElementsMatch(t, listed, covered, "every listed tool has a case, and every case a tool")
		})
	}
}

// toolNames lists the server's tools through the client.
func (f *fixture) toolNames() []string {
	f.t.Helper()
	res, err := f.session.ListTools(testCtx(f.t), nil)
	require.NoError(f.t, err)
	var names []string
	for _, tl := range res.Tools {
		require.NotEmpty(f.t, tl.Description, tl.Name)
		names = append(names, tl.Name)
	}
	return names
}

// misspelt calls tool with args and one of its optional members
// misspelt (a letter left out), and requires a tool error that names the
// member and the one meant, and that nothing changed.
func (f *fixture) misspelt(name, args string) {
	f.t.Helper()
	var tl *tool
	for _, t := range f.srv.tools {
		if t.name == name {
			tl = t
		}
	}
	require.NotNil(f.t, tl, name)
	var m map[string]any
	require.NoError(f.t, json.Unmarshal([]byte(args), &m))
	member, want := "Limit", `unknown argument "Limit"`
	var value any = 1
	candidates := slices.Clone(tl.schema.props)
	for _, n := range tl.schema.more {
		candidates = append(candidates, prop{name: n, typ: "string"})
	}
	for _, p := range candidates {
		if !slices.Contains(tl.schema.required, p.name) && len(p.name) > 3 {
			member = p.name[:len(p.name)/2] + p.name[len(p.name)/2+1:]
			want = fmt.Sprintf("unknown argument %q: did you mean %q?", member, p.name)
			value = map[string]any{"string": "x", "boolean": false, "integer": 1, "number": 1, "object": map[string]any{}, "array": []any{}}[p.typ]
			break
		}
	}
	m[member] = value
	b, err := json.Marshal(m)
	require.NoError(f.t, err)
	before := f.state()
	text, isErr := f.call(name, string(b))
	require.True(f.t, isErr, "%s: the misspelt %s was taken: %s", name, member, text)
	require.Contains(f.t, text, want, "%s: the error of the misspelt %s", name, member)
	require.Equal(f.t, before, f.state(), "%s: the misspelt %s changed something", name, member)
}

// TestMisspeltMember: the misspellings that went by unseen are refused
// before anything runs: a put_item whose ConditionExpression lacks an s
// does not overwrite, a query whose ScanIndexForward lacks an r does not
// answer in the wrong order.
func TestMisspeltMember(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	f.ok("create_table", `{"TableName":"Tab","BillingMode":"PAY_PER_REQUEST","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}]}`)
	f.ok("put_item", `{"TableName":"Tab","Item":{"pk":{"S":"p"},"sk":{"S":"a"},"v":{"S":"first"}}}`)
	before := f.state()
	text, isErr := f.call("put_item", `{"TableName":"Tab","Item":{"pk":{"S":"p"},"sk":{"S":"a"},"v":{"S":"second"}},"ConditionExpresion":"attribute_not_exists(pk)"}`)
	require.True(t, isErr, text)
	require.Contains(t, text, `unknown argument "ConditionExpresion": did you mean "ConditionExpression"?`)
	require.Equal(t, before, f.state(), "the item was overwritten")
	text, isErr = f.call("query", `{"TableName":"Tab","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"p"}},"ScanIndexForwad":false}`)
	require.True(t, isErr, text)
	require.Contains(t, text, `did you mean "ScanIndexForward"?`)
	// A member of the request the tool does not describe is taken.
	text = f.ok("get_item", `{"TableName":"Tab","Key":{"pk":{"S":"p"},"sk":{"S":"a"}},"AttributesToGet":["v"]}`)
	require.JSONEq(t, `{"Item":{"v":{"S":"first"}}}`, text)
	// A name far from every member names none.
	text, isErr = f.call("get_item", `{"TableName":"Tab","Key":{"pk":{"S":"p"},"sk":{"S":"a"}},"zzzzzzzzzz":1}`)
	require.True(t, isErr, text)
	require.NotContains(t, text, "did you mean")
	require.Contains(t, text, `unknown argument "zzzzzzzzzz"`)
	// A misspelt member inside a transaction, a batch or a table's
	// settings is refused as well, with where it is.
	text, isErr = f.call("transact_write_items", `{"TransactItems":[{"Put":{"TableName":"Tab","Item":{"pk":{"S":"p"},"sk":{"S":"a"},"v":{"S":"third"}},"ConditionExpresion":"attribute_not_exists(pk)"}}]}`)
	require.True(t, isErr, text)
	require.Contains(t, text, `unknown member "TransactItems[0].Put.ConditionExpresion": did you mean "ConditionExpression"?`)
	require.Equal(t, before, f.state(), "the item was overwritten")
	text, isErr = f.call("batch_get_item", `{"RequestItems":{"Tab":{"Keys":[{"pk":{"S":"p"},"sk":{"S":"a"}}],"ProjectionExpresion":"v"}}}`)
	require.True(t, isErr, text)
	require.Contains(t, text, `did you mean "ProjectionExpression"?`)
}

// TestEmptyListsAsArrays: a tool's list with nothing in it is [] in its
// answer, never null (snapshots, fault rules and their events, the
// conventions' rules), and making it so changes nothing of the value the
// tool returned.
func TestEmptyListsAsArrays(t *testing.T) {
	f := newFixture(t, "memory", Options{})
	f.ok("enable_tools", `{"groups":["snapshots","faults","conventions"]}`)
	for tool, want := range map[string][]string{
		"snapshot_list":      {`"snapshots":[]`},
		"faults_get":         {`"rules":[]`, `"Rules":[]`, `"Events":[]`},
		"conventions_report": {`"rules":[]`},
	} {
		text := f.ok(tool, `{}`)
		require.NotContains(t, text, "null", tool)
		for _, w := range want {
			require.Contains(t, text, w, tool)
		}
	}

	type inner struct {
		List  []string
		Bytes []byte
		Raw   json.RawMessage
	}
	in := struct {
		A   []int
		P   *inner
		M   map[string]inner
		Any any
	}{P: &inner{}, M: map[string]inner{"k": {}}, Any: inner{}}
	out, err := json.Marshal(emptyLists(reflect.ValueOf(in)).Interface())
	require.NoError(t, err)
	require.JSONEq(t, `{"A":[],"P":{"List":[],"Bytes":null,"Raw":null},"M":{"k":{"List":[],"Bytes":null,"Raw":null}},"Any":{"List":[],"Bytes":null,"Raw":null}}`, string(out))
	require.Nil(t, in.A)
	require.Nil(t, in.P.List, "the value given is not changed")
	require.Nil(t, in.M["k"].List)
}
