package insights

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The blog design in the three formats: a design file, a NoSQL Workbench
// model and a OneTable schema.
var blogDesigns = []string{"blog.design", "blog.workbench.json", "blog.onetable.json"}

// TestDesignFormatsSameDesign: the three files declare the same entities
// with the same templates, in the same order.
func TestDesignFormatsSameDesign(t *testing.T) {
	render := func(d *Design) string {
		var b strings.Builder
		for _, tb := range d.Tables {
			fmt.Fprintf(&b, "table %s key %+v\n", tb.Name, tb.Key)
			for _, x := range tb.Indexes {
				fmt.Fprintf(&b, "index %s %+v\n", x.Name, x.Key)
			}
			for _, e := range tb.Entities {
				fmt.Fprintf(&b, "entity %s", e.Name)
				for _, a := range sortedKeys(e.Attrs) {
					fmt.Fprintf(&b, " %s=%s", a, e.Attrs[a])
				}
				b.WriteString("\n")
			}
			for _, p := range tb.Patterns {
				fmt.Fprintf(&b, "pattern %s %s %v %s %s %s %q\n", p.Name, p.Access, p.Entities, p.ServedBy(), p.conditionText(), p.Order, p.Description)
			}
		}
		return b.String()
	}
	want := render(loadDesign(t, blogDesigns[0]))
	for _, name := range blogDesigns[1:] {
		d := loadDesign(t, name)
		require.Equal(t, want, render(d), name)
		require.Equal(t, strings.TrimSuffix(strings.TrimPrefix(name, "blog."), ".json"), d.Format)
	}
}

// TestWorkbenchModel: a model's tables, indexes, billing and sample
// items, for loading it.
func TestWorkbenchModel(t *testing.T) {
	src, err := os.ReadFile("testdata/blog.workbench.json")
	require.NoError(t, err)
	m, d, err := ParseWorkbenchModel(src)
	require.NoError(t, err)
	require.Equal(t, "Blog", d.Tables[0].Name)
	require.Len(t, m.Tables, 1)
	blog := m.Tables[0]
	require.Equal(t, "Blog", blog.Name)
	require.Equal(t, KeyDef{"PK", "SK_GSI1PK"}, blog.Key)
	require.Equal(t, "PAY_PER_REQUEST", blog.BillingMode)
	require.Len(t, blog.Indexes, 3)
	require.Equal(t, WorkbenchIndex{Name: "GSI2", Key: KeyDef{"GSI2PK", "GSI1SK_GSI2SK_GSI3SK"}, Projection: "ALL"}, blog.Indexes[1])
	require.Equal(t, map[string]string{"PK": "S", "SK_GSI1PK": "S", "GSI1SK_GSI2SK_GSI3SK": "S", "GSI2PK": "S", "GSI3PK": "S"}, blog.AttrTypes)
	require.Len(t, blog.Items, 3)
	require.Contains(t, string(blog.Items[0]), "77fcab6b")

	_, _, err = ParseWorkbenchModel([]byte(`{"models":{}}`))
	require.EqualError(t, err, "workbench: no DataModel member: not a NoSQL Workbench data model")
}

// TestWorkbenchAliases: a facet's key aliases as templates.
func TestWorkbenchAliases(t *testing.T) {
	tests := []struct {
		alias   string
		samples []string
		want    string
	}{
		{"{id}", nil, "{id}"},
		{"USER#<id>", nil, "USER#{id}"},
		{"ORDER#${orderId}", nil, "ORDER#{orderId}"},
		{"post", []string{"post"}, "post"},     // a sample item holds it: a constant
		{"SongId", []string{"s1"}, "{SongId}"}, // a name no item holds: a variable
		{"METADATA#1", nil, "METADATA#1"},      // not a name: a constant
		{"PROFILE", nil, "PROFILE"},            // capitals, no attribute's name: a constant
		{"PROFILE", []string{"u7"}, "PROFILE"},
		{"PK", nil, "{PK}"}, // the attribute's own name: its value
		{"GSI1SK", nil, "{GSI1SK}"},
		{"userId", nil, "{userId}"},
	}
	dt := &DesignTable{Key: KeyDef{Partition: "PK", Sort: "SK"}}
	for _, tc := range tests {
		got, _, err := aliasTemplate(tc.alias, tc.samples, dt, []string{"GSI1SK", "userId"})
		require.NoError(t, err, tc.alias)
		require.Equal(t, tc.want, got.String(), tc.alias)
	}
}

// TestWorkbenchConstantAlias: a plain Workbench model (no templates, no
// sample items) whose User facet's sort-key alias is PROFILE keeps
// PROFILE a constant in the entity and its get; the facets whose alias is
// the attribute's name (SK) keep a variable.
func TestWorkbenchConstantAlias(t *testing.T) {
	src, err := os.ReadFile("testdata/usersblog.workbench-plain.json")
	require.NoError(t, err)
	var model map[string]any
	require.NoError(t, json.Unmarshal(src, &model))
	table := model["DataModel"].([]any)[0].(map[string]any)
	for i, f := range table["TableFacets"].([]any) {
		facet := f.(map[string]any)
		delete(facet, "TableData")
		if i == 0 {
			require.Equal(t, "User", facet["FacetName"])
			facet["KeyAttributeAlias"].(map[string]any)["SortKeyAlias"] = "PROFILE"
		}
	}
	src, err = json.Marshal(model)
	require.NoError(t, err)
	d, err := ParseDesign(src)
	require.NoError(t, err)
	require.Len(t, d.Tables, 1)
	attrs := map[string]string{}
	for _, e := range d.Tables[0].Entities {
		attrs[e.Name] = e.Attrs["SK"].String()
	}
	require.Equal(t, map[string]string{"User": "PROFILE", "Post": "{SK}", "Comment": "{SK}", "TagPost": "{SK}"}, attrs)
	conds := map[string]string{}
	for _, p := range d.Tables[0].Patterns {
		conds[p.Name] = p.Condition()
	}
	require.Equal(t, "pk = {PK} and sk = PROFILE", conds["get-User"], conds)
}

// TestDerivedPatterns: a Workbench model without patterns gets one get
// per facet by the table's key and one query per index that holds it;
// facets keyed alike share a pattern.
func TestDerivedPatterns(t *testing.T) {
	var m map[string]any
	src, err := os.ReadFile("testdata/blog.workbench.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(src, &m))
	delete(m, "dynamoemu")
	plain, err := json.Marshal(m)
	require.NoError(t, err)
	d, err := ParseDesign(plain)
	require.NoError(t, err)
	var got []string
	for _, p := range d.Tables[0].Patterns {
		require.True(t, p.Derived, p.Name)
		got = append(got, fmt.Sprintf("%s %s %v on %s: %s", p.Name, p.Access, p.Entities, p.ServedBy(), p.conditionText()))
	}
	require.Equal(t, []string{
		"get-Post get [Post] on table key: pk = {id} and sk = post",
		"query-Post-GSI1 query [Post] on index GSI1: pk = post",
		"query-Post-GSI2 query [Post] on index GSI2: pk = {GSI2PK}",
		"query-Post-GSI3 query [Post] on index GSI3: pk = {GSI3PK}",
		"get-Comment-Like get [Comment Like] on table key: pk = {id} and sk = {post_id}",
		"query-Comment-Like-GSI1 query [Comment Like] on index GSI1: pk = {post_id}",
	}, got)

	// A facet-less table is one entity in every index, with several
	// items in a partition: a query by the partition key is one of its
	// patterns.
	d, err = ParseDesign([]byte(`{"DataModel":[{"TableName":"Orders",
		"KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"S"},"SortKey":{"AttributeName":"sk","AttributeType":"S"}},
		"GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeyAttributes":{"PartitionKey":{"AttributeName":"status","AttributeType":"S"}}}]}]}`))
	require.NoError(t, err)
	got = nil
	for _, p := range d.Tables[0].Patterns {
		got = append(got, p.Name+": "+p.conditionText())
	}
	require.Equal(t, []string{"get-Orders: pk = {pk} and sk = {sk}", "query-Orders: pk = {pk}", "query-Orders-byStatus: pk = {status}"}, got)
}

// TestOneTableQueries: saved queries are patterns; a model's value
// templates and mapped fields are its key templates.
func TestOneTableQueries(t *testing.T) {
	d, err := ParseDesign([]byte(`{
	"format": "onetable:1.1.0", "version": "0.1.0",
	"indexes": {"primary": {"hash": "pk", "sort": "sk"}, "gs1": {"hash": "gs1pk", "sort": "gs1sk", "project": "keys"},
		"ls1": {"type": "local", "sort": "created"}},
	"params": {"typeField": "_type", "isoDates": true},
	"models": {
		"Account": {"pk": {"type": "string", "value": "account#${name}"}, "sk": {"type": "string", "value": "account#"},
			"name": {"type": "string", "required": true, "validate": "/^[a-z]+$/"}},
		"User": {"primaryKey": {"type": "string", "map": "pk", "value": "account#${accountName}"},
			"sortKey": {"type": "string", "map": "sk", "value": "user#${email}"},
			"gs1pk": {"type": "string", "value": "user#${email}"}, "gs1sk": {"type": "string", "value": "user#"},
			"seq": {"type": "number", "value": "${n:8:0}", "map": "data.seq"},
			"email": {"type": "string"}, "accountName": {"type": "string"}}
	},
	"queries": {
		"users of an account": {"index": "primary", "model": "User", "hash": "account#${accountName}",
			"operation": "Begins with", "sort": "user#", "type": "Entity", "limit": 100, "schema": "Current",
			"filters": [{"field": "email", "operation": "Equal", "combine": "And", "type": "string", "value": "a@b"}]},
		"user by email": {"index": "gs1", "model": "User", "hash": "user#${email}", "operation": "Equal", "sort": "user#", "type": "Query"},
		"recent": {"index": "primary", "model": "Account", "hash": "account#${name}", "operation": "Between", "sort": ["account#", "account#~"]},
		"everything": {"index": "primary", "type": "Scan", "hash": "", "operation": "Equal"}
	},
	"items": [],
	"extensions": {"dynamoemu": {"table": "Accounts"}, "another-tool": {"anything": true}}
}`))
	require.NoError(t, err)
	tb := d.Tables[0]
	require.Equal(t, "Accounts", tb.Name)
	require.Equal(t, KeyDef{"pk", "sk"}, tb.Key)
	require.Equal(t, []*IndexDef{{Name: "gs1", Key: KeyDef{"gs1pk", "gs1sk"}, At: "indexes.gs1"}, {Name: "ls1", Key: KeyDef{"pk", "created"}, At: "indexes.ls1"}}, tb.Indexes)
	user := tb.entity("User")
	require.Equal(t, "account#{accountName}", user.Attrs["pk"].String())
	require.Equal(t, "user#{email}", user.Attrs["sk"].String())
	require.Equal(t, "user#", user.Attrs["gs1sk"].String())
	require.Len(t, user.Attrs, 4, "data.seq is packed, not a key")
	var got []string
	for _, p := range tb.Patterns {
		got = append(got, fmt.Sprintf("%s: %s %v on %s: %s", p.Name, p.Access, p.Entities, p.ServedBy(), p.conditionText()))
	}
	require.Equal(t, []string{
		"users of an account: query [User] on table key: pk = account#{accountName} and sk begins_with user#",
		"user by email: query [User] on index gs1: pk = user#{email} and sk = user#",
		"recent: query [Account] on table key: pk = account#{name} and sk between account# and account#~",
		"everything: scan [Account User] on Scan of table key: ",
	}, got)
}

// TestDesignFormatErrors: a malformed model or schema names the member
// at fault; nothing is dropped silently.
func TestDesignFormatErrors(t *testing.T) {
	blogWB, err := os.ReadFile("testdata/blog.workbench.json")
	require.NoError(t, err)
	wb := func(old, new string) string {
		require.Contains(t, string(blogWB), old)
		return strings.Replace(string(blogWB), old, new, 1)
	}
	const key = `"KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"S"}}`
	const ot = `{"indexes":{"primary":{"hash":"pk"}},"extensions":{"dynamoemu":{"table":"T"}},`
	tests := []struct {
		name, src, want string
	}{
		{"not JSON", `{"DataModel": [`, "json: DataModel: not JSON"},
		{"neither format", `{"tables": []}`, "json: neither a NoSQL Workbench data model"},
		{"electrodb: no table key", `{"model":{"entity":"post","version":"1","service":"blog"},"attributes":{"id":{"type":"string"}},"indexes":{"byId":{"index":"g","pk":{"field":"pk","composite":["id"]}}}}`, `electrodb: indexes: no access pattern without "index"`},
		{"electrodb: an unknown member", `{"model":{"entity":"post","version":"1","service":"blog"},"indexes":{"byId":{"pk":{"field":"pk","composite":["id"],"colour":1}}}}`, `electrodb: indexes.byId.pk.colour: unknown member`},
		{"electrodb: two table keys", `[{"model":{"entity":"a","version":"1","service":"s"},"indexes":{"x":{"pk":{"field":"pk","composite":["id"]}}}},{"model":{"entity":"b","version":"1","service":"s"},"indexes":{"x":{"pk":{"field":"p2","composite":["id"]}}}}]`, `electrodb: [1].indexes.x.pk: the table's key is pk`},
		{"data model: an unknown member", `{"tables": [], "access_patterns": [], "extra": 1}`, "dynamodb-data-model: extra: unknown member"},
		{"data model: a bad key schema", `{"tables": [{"TableName":"T","KeySchema":[{"AttributeName":"a","KeyType":"RANGE"}]}], "access_patterns": []}`, `dynamodb-data-model: tables[0].KeySchema[0].KeyType: "RANGE": the first element is HASH`},
		{"data model: a pattern of no table", `{"tables": [{"TableName":"T","KeySchema":[{"AttributeName":"a","KeyType":"HASH"}]}], "access_patterns": [{"pattern":"1","table":"U","dynamodb_operation":"Query"}]}`, `dynamodb-data-model: access_patterns[0].table: no table "U" in tables`},
		{"data model: an unknown operation", `{"tables": [{"TableName":"T","KeySchema":[{"AttributeName":"a","KeyType":"HASH"}]}], "access_patterns": [{"pattern":"1","table":"T","dynamodb_operation":"Select"}]}`, `dynamodb-data-model: access_patterns[0].dynamodb_operation: "Select" is not Query`},
		{"data model: an unquoted command", `{"tables": [{"TableName":"T","KeySchema":[{"AttributeName":"a","KeyType":"HASH"}]}], "access_patterns": [{"pattern":"1","table":"T","dynamodb_operation":"Query","implementation":"aws dynamodb query --key-condition-expression 'a = :a"}]}`, `dynamodb-data-model: access_patterns[0].implementation: a ' without its closing '`},
		{"data model: a value not given", `{"tables": [{"TableName":"T","KeySchema":[{"AttributeName":"a","KeyType":"HASH"}]}], "access_patterns": [{"pattern":"1","table":"T","dynamodb_operation":"Query","implementation":"aws dynamodb query --key-condition-expression 'a = :a'"}]}`, `dynamodb-data-model: access_patterns[0].implementation: :a has no value`},
		{"cloudformation: no table", "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n", "cloudformation: the template declares no DynamoDB table"},
		{"a duplicate member", `{"DataModel": [], "DataModel": []}`, "json: DataModel: the member appears twice"},
		{"text after the model", `{"DataModel": []} {}`, "json: text after the object"},
		{"workbench: no table", `{"DataModel": []}`, "workbench: the design declares no table"},
		{"workbench: an unknown top member", `{"DataModel": [], "Tables": 1}`, "workbench: Tables: unknown member (known here: ModelName, ModelMetadata, DataModel, dynamoemu)"},
		{"workbench: DataModel not an array", `{"DataModel": {}}`, "workbench: DataModel: want an array, found an object"},
		{"workbench: a table not an object", `{"DataModel": [1]}`, "workbench: DataModel[0]: want an object, found a number"},
		{"workbench: no table name", `{"DataModel": [{` + key + `}]}`, "workbench: DataModel[0].TableName: missing or empty"},
		{"workbench: an unknown table member", `{"DataModel": [{"TableName":"T",` + key + `,"LocalSecondaryIndexes":[]}]}`, "workbench: DataModel[0].LocalSecondaryIndexes: unknown member"},
		{"workbench: no key", `{"DataModel": [{"TableName":"T"}]}`, "workbench: DataModel[0].KeyAttributes: missing: a table has a key"},
		{"workbench: no partition key", `{"DataModel": [{"TableName":"T","KeyAttributes":{}}]}`, "workbench: DataModel[0].KeyAttributes.PartitionKey: missing"},
		{"workbench: a key attribute without a name", `{"DataModel": [{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeType":"S"}}}]}`, "workbench: DataModel[0].KeyAttributes.PartitionKey.AttributeName: missing or empty"},
		{"workbench: a key of a map", `{"DataModel": [{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"M"}}}]}`, `workbench: DataModel[0].KeyAttributes.PartitionKey.AttributeType: a key attribute is S, N or B, not "M"`},
		{"workbench: a name of the wrong type", `{"DataModel": [{"TableName":7}]}`, "workbench: DataModel[0].TableName: want a string, found a number"},
		{"workbench: a bad projection", `{"DataModel": [{"TableName":"T",` + key + `,"GlobalSecondaryIndexes":[{"IndexName":"G",` + key + `,"Projection":{"ProjectionType":"SOME"}}]}]}`, `workbench: DataModel[0].GlobalSecondaryIndexes[0].Projection.ProjectionType: "SOME" is not ALL, KEYS_ONLY or INCLUDE`},
		{"workbench: a bad billing mode", `{"DataModel": [{"TableName":"T",` + key + `,"BillingMode":"FREE"}]}`, `workbench: DataModel[0].BillingMode: "FREE" is not PAY_PER_REQUEST or PROVISIONED`},
		{"workbench: zero capacity", `{"DataModel": [{"TableName":"T",` + key + `,"BillingMode":"PROVISIONED","ProvisionedCapacitySettings":{"ProvisionedThroughput":{"ReadCapacityUnits":0}}}]}`, "workbench: DataModel[0].ProvisionedCapacitySettings.ProvisionedThroughput.ReadCapacityUnits: want a whole number of at least 1"},
		{"workbench: a facet without aliases", wb(`"KeyAttributeAlias": {
            "PartitionKeyAlias": "{id}",
            "SortKeyAlias": "post"
          },`, ``), "workbench: DataModel[0].TableFacets[0].KeyAttributeAlias: missing: a facet names its key"},
		{"workbench: a facet without a sort alias", wb(`"SortKeyAlias": "post"`, `"SortKey": "post"`), "workbench: DataModel[0].TableFacets[0].KeyAttributeAlias.SortKey: unknown member (known here: PartitionKeyAlias, SortKeyAlias)"},
		{"workbench: a bad alias", wb(`"PartitionKeyAlias": "{id}"`, `"PartitionKeyAlias": "{id"`), "workbench: DataModel[0].TableFacets[0].KeyAttributeAlias.PartitionKeyAlias: template \"{id\": { without }"},
		{"workbench: a facet twice", wb(`"FacetName": "Like"`, `"FacetName": "Post"`), `workbench: DataModel[0].TableFacets[2].FacetName: facet "Post" twice`},
		{"workbench: an unknown facet member", wb(`"FacetName": "Like",`, `"FacetName": "Like", "Colour": "red",`), "workbench: DataModel[0].TableFacets[2].Colour: unknown member"},
		{"workbench: a key attribute of two types", `{"DataModel": [{"TableName":"T",` + key + `,"GlobalSecondaryIndexes":[{"IndexName":"G","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"N"}}}]}]}`,
			`workbench: DataModel[0].GlobalSecondaryIndexes[0].KeyAttributes.PartitionKey.AttributeType: attribute "pk" is S elsewhere in the table`},
		{"workbench: dynamoemu's block names another table", wb(`"tables": {
      "Blog"`, `"tables": {
      "Blogs"`), `workbench: dynamoemu.tables.Blogs: no table "Blogs" in DataModel`},
		{"workbench: a template for an unknown entity", wb(`"Like": {
            "GSI1SK_GSI2SK_GSI3SK"`, `"Likes": {
            "GSI1SK_GSI2SK_GSI3SK"`), `workbench: dynamoemu.tables.Blog.entities.Likes: no entity "Likes" in table "Blog"`},
		{"workbench: a bad template", wb(`"Like_{created_at}"`, `"Like_{created at}"`), `workbench: dynamoemu.tables.Blog.entities.Like.GSI1SK_GSI2SK_GSI3SK: template "Like_{created at}"`},
		{"workbench: a bad pattern line", wb(`"pattern posts-newest     query Post    on GSI1`, `"pattern posts-newest     fetch Post    on GSI1`), `workbench: dynamoemu.tables.Blog.patterns[0]: column 26: access "fetch" is not get`},
		{"workbench: a pattern line without its keyword", wb(`"pattern posts-newest `, `"posts-newest `), `workbench: dynamoemu.tables.Blog.patterns[0]: a pattern line starts with "pattern"`},
		{"workbench: a pattern of no entity", wb(`query Post    on GSI2`, `query Author    on GSI2`), `workbench: dynamoemu.tables.Blog.patterns[4]: pattern "posts-by-author": no entity "Author" in table "Blog"`},
		{"workbench: a template for a non-key attribute", wb(`"GSI3PK": "{genre}"`, `"genre": "{genre}"`), `workbench: DataModel[0].TableFacets[0]: entity "Post": "genre" is no key attribute of table "Blog" or its indexes`},
		{"onetable: a bad format", ot + `"format":"dynamo:1"}`, `onetable: format: "dynamo:1" is not onetable:<version>`},
		{"onetable: an unknown top member", ot + `"tables":{}}`, "onetable: tables: unknown member"},
		{"onetable: no primary index", `{"indexes":{"gs1":{"hash":"x"}},"extensions":{"dynamoemu":{"table":"T"}}}`, "onetable: indexes.primary: missing: the table's key"},
		{"onetable: an index without hash", `{"indexes":{"primary":{"sort":"sk"}},"extensions":{"dynamoemu":{"table":"T"}}}`, "onetable: indexes.primary.hash: missing"},
		{"onetable: an unknown index member", `{"indexes":{"primary":{"hash":"pk","projection":"all"}},"extensions":{"dynamoemu":{"table":"T"}}}`, "onetable: indexes.primary.projection: unknown member"},
		{"onetable: an unknown field property", ot + `"models":{"M":{"pk":{"type":"string","value":"m#${id}","colour":"red"}}}}`, "onetable: models.M.pk.colour: unknown member"},
		{"onetable: a value that is not a template", ot + `"models":{"M":{"pk":{"type":"string","value":7}}}}`, "onetable: models.M.pk.value: a key attribute's value is a template string, found a number"},
		{"onetable: a bad value template", ot + `"models":{"M":{"pk":{"value":"m#${id"}}}}`, "onetable: models.M.pk.value: template \"m#${id\": ${ without }"},
		{"onetable: a model without the key", ot + `"models":{"M":{"id":{"type":"string"}}}}`, `onetable: models.M: entity "M" has no template for the table's key attribute "pk"`},
		{"onetable: an unknown param", ot + `"params":{"typeField":"_type","colour":"red"}}`, "onetable: params.colour: unknown member"},
		{"onetable: an unknown query member", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"index":"primary","model":"M","hash":"m","colour":1}}}`, "onetable: queries.q.colour: unknown member"},
		{"onetable: a query of an unknown index", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"index":"gs9","model":"M","hash":"m"}}}`, `onetable: queries.q: pattern "q": no index "gs9" in table "T"`},
		{"onetable: a bad operation", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"index":"primary","model":"M","hash":"m","operation":"Like","sort":"x"}}}`, `onetable: queries.q.operation: "Like" is not Equal`},
		{"onetable: a between of one", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"index":"primary","model":"M","hash":"m","operation":"Between","sort":"x"}}}`, `onetable: queries.q.sort: Between takes two templates`},
		{"onetable: an entity query without model", ot + `"models":{"M":{"pk":{"value":"m"}}},"queries":{"q":{"index":"primary","hash":"m","type":"Entity"}}}`, `onetable: queries.q.model: missing: an Entity query names its model`},
		{"onetable: an unknown block member", `{"indexes":{"primary":{"hash":"pk"}},"extensions":{"dynamoemu":{"table":"T","tables":{}}}}`, "onetable: extensions.dynamoemu.tables: unknown member (known here: entities, patterns, table)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDesign([]byte(tc.src))
			require.Error(t, err)
			var de *DesignError
			require.True(t, errors.As(err, &de) && errors.Is(err, ErrDesign), "%v is not a *DesignError", err)
			require.True(t, strings.HasPrefix(err.Error(), tc.want), "got %q\nwant %q...", err.Error(), tc.want)
		})
	}
}

// fuzzSeeds adds the blog files and a few small documents of a format.
func fuzzSeeds(f *testing.F, file string, more ...string) {
	src, err := os.ReadFile("testdata/" + file)
	require.NoError(f, err)
	f.Add(src)
	for _, m := range more {
		f.Add([]byte(m))
	}
}

// checkParsed is what any design read from JSON must satisfy: an error is
// a *DesignError of the format, a design checks and matches requests.
func checkParsed(t *testing.T, d *Design, err error) {
	if err != nil {
		var de *DesignError
		if !errors.As(err, &de) || de.Format == "" || de.Msg == "" {
			t.Fatalf("error %v is not a *DesignError with a format and a message", err)
		}
		return
	}
	for _, f := range d.Check() {
		if f.Kind == "" || f.Detail == "" {
			t.Fatalf("empty finding %+v", f)
		}
	}
	for _, tb := range d.Tables {
		if tb.Key.Partition == "" {
			t.Fatalf("table %q without a key", tb.Name)
		}
		for _, p := range tb.Patterns {
			q := Request{Access: p.Access, Table: tb.Name, Index: p.Index,
				Key: KeyCondition{Partition: s(p.PK.String()), SortOp: p.SortOp, Sort: s(p.SK.String()), Sort2: s(p.SK2.String())}}
			tb.match(&q)
		}
	}
}

// FuzzParseWorkbench: any input is a Workbench model and its design, or
// a *DesignError naming what is wrong.
func FuzzParseWorkbench(f *testing.F) {
	fuzzSeeds(f, "blog.workbench.json",
		`{"DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"pk","AttributeType":"S"}},"TableFacets":[{"FacetName":"F","KeyAttributeAlias":{"PartitionKeyAlias":"A#<id>"}}],"TableData":[{"pk":{"S":"x"}}]}]}`,
		`{"DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"p","AttributeType":"S"},"SortKey":{"AttributeName":"s","AttributeType":"N"}},"GlobalSecondaryIndexes":[{"IndexName":"g","KeyAttributes":{"PartitionKey":{"AttributeName":"s","AttributeType":"N"}}}]}],"dynamoemu":{"tables":{"T":{"patterns":["pattern a scan T"]}}}}`,
		`{"ModelName":"M","ModelMetadata":{},"DataModel":[{"TableName":"T","KeyAttributes":{"PartitionKey":{"AttributeName":"p","AttributeType":"S"}},"NonKeyAttributes":[{"AttributeName":"a","AttributeType":"M"}],"GlobalSecondaryIndexes":[{"IndexName":"g","KeyAttributes":{"PartitionKey":{"AttributeName":"a2","AttributeType":"S"}},"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],"DataAccess":{},"SampleDataFormats":{},"BillingMode":"PROVISIONED","ProvisionedCapacitySettings":{"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2},"AutoScalingRead":{},"AutoScalingWrite":{}}}]}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		m, d, err := ParseWorkbenchModel(src)
		checkParsed(t, d, err)
		if err == nil && len(m.Tables) != len(d.Tables) {
			t.Fatalf("%d tables in the model, %d in the design", len(m.Tables), len(d.Tables))
		}
	})
}

// FuzzOwnBlock: any dynamoemu block is templates and patterns for its
// table, or a *DesignError naming what is wrong.
func FuzzOwnBlock(f *testing.F) {
	f.Add([]byte(`{"entities":{"Post":{"PK":"POST#{id}","SK":"post"}},"patterns":["pattern p get Post where pk = POST#{id} and sk = post"]}`))
	f.Add([]byte(`{"entities":{"Post":{"PK":"a","PK":"b"}},"patterns":[1]}`))
	f.Add([]byte(`{"entities":null,"patterns":null}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseDesign([]byte("table T\nkey PK SK\nentity Post PK=POST#{id} SK=post\n"))
		require.NoError(t, err)
		tb := d.Tables[0]
		b, err := decodeOwnBlock(src, FormatWorkbench, "dynamoemu.tables.T", membersClosed)
		if err == nil {
			err = b.apply(tb, FormatWorkbench)
		}
		if err == nil {
			err = tb.resolve(FormatWorkbench)
		}
		checkParsed(t, d, err)
	})
}

// FuzzParseOneTable: any input is a OneTable design or a *DesignError
// naming what is wrong.
func FuzzParseOneTable(f *testing.F) {
	fuzzSeeds(f, "blog.onetable.json",
		`{"indexes":{"primary":{"hash":"pk","sort":"sk"},"l":{"type":"local","sort":"x"}},"models":{"M":{"pk":{"value":"a#${b:4:0}"},"sk":{"map":"sk"}}},"queries":{"q":{"index":"l","model":"M","hash":"a#${b}","operation":"Between","sort":["1","2"]}},"extensions":{"dynamoemu":{"table":"T"}}}`,
		`{"models":{},"indexes":{}}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseDesign(src)
		if !isJSON(src) || err == nil && d.Format != FormatOneTable {
			return // the fuzzer found another format
		}
		checkParsed(t, d, err)
	})
}

// FuzzParseDataModel: any input is a design of AWS's DynamoDB MCP data
// model or a *DesignError naming what is wrong.
func FuzzParseDataModel(f *testing.F) {
	fuzzSeeds(f, "blog.dynamodb_data_model.json",
		`{"tables":[{"TableName":"T","KeySchema":[{"AttributeName":"p","KeyType":"HASH"},{"AttributeName":"s","KeyType":"RANGE"}]}],"items":{"T":[{"PutRequest":{"Item":{"p":{"S":"U#1"},"s":{"S":"x"},"id":{"S":"1"}}}}]},"access_patterns":[{"pattern":"1","table":"T","dynamodb_operation":"Query","implementation":"aws dynamodb query --key-condition-expression \"p = :p AND s BETWEEN :a AND :b\" --expression-attribute-values '{\":p\":{\"S\":\"U#1\"},\":a\":{\"S\":\"a\"},\":b\":{\"S\":\"b\"}}'"}]}`,
		`{"tables":[{"TableName":"T","KeySchema":[{"AttributeName":"p","KeyType":"HASH"}],"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"q","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}],"LocalSecondaryIndexes":[{"IndexName":"l","KeySchema":[{"AttributeName":"p","KeyType":"HASH"},{"AttributeName":"r","KeyType":"RANGE"}]}],"BillingMode":"PAY_PER_REQUEST"}],"access_patterns":[{"pattern":"1","table":"T","index":"g","dynamodb_operation":"Query"},{"pattern":"2","reason":"search"}]}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseDesign(src)
		if !isJSON(src) || err == nil && d.Format != FormatDataModel {
			return
		}
		checkParsed(t, d, err)
	})
}

// FuzzParseTemplateDesign: any template is a design of its tables or a
// *DesignError.
func FuzzParseTemplateDesign(f *testing.F) {
	fuzzSeeds(f, "blog.cloudformation.yaml", "Resources: {}\n", `{"Resources":{"T":{"Type":"AWS::DynamoDB::Table","Properties":{"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"}}}}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		if !isTemplate(src) {
			return
		}
		d, err := parseTemplateDesign(src)
		checkParsed(t, d, err)
	})
}

// FuzzParseElectroDB: any input is a design of ElectroDB entities or a
// *DesignError naming what is wrong.
func FuzzParseElectroDB(f *testing.F) {
	fuzzSeeds(f, "blog.electrodb.json",
		`{"model":{"entity":"task","version":"1","service":"app"},"attributes":{},"indexes":{"primary":{"pk":{"field":"pk","composite":["team"]},"sk":{"field":"sk","composite":["project","task"]}},"byStatus":{"index":"gsi1","collection":["assignments"],"pk":{"field":"gsi1pk","composite":["employee"]},"sk":{"field":"gsi1sk","composite":["status"],"casing":"upper"}}}}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseDesign(src)
		if !isJSON(src) || err == nil && d.Format != FormatElectroDB {
			return
		}
		checkParsed(t, d, err)
	})
}

// TestElectroDBDefaultKeys: without a template, an access pattern's keys
// are ElectroDB's default format, lower case unless the key says.
func TestElectroDBDefaultKeys(t *testing.T) {
	d, err := ParseDesign([]byte(`{"model":{"entity":"Task","version":"1","service":"TaskApp"},"attributes":{},
	"indexes":{"primary":{"pk":{"field":"pk","composite":["team"]},"sk":{"field":"sk","composite":["project","task"]}},
	"assigned":{"index":"gsi1","collection":"assignments","pk":{"field":"gsi1pk","composite":["employee"]},"sk":{"field":"gsi1sk","composite":["status"],"casing":"upper"}}}}`))
	require.NoError(t, err)
	tb := d.Tables[0]
	require.True(t, tb.Unnamed)
	require.Equal(t, KeyDef{"pk", "sk"}, tb.Key)
	e := tb.entity("Task")
	require.Equal(t, "$taskapp#team_{team}", e.Attrs["pk"].String())
	require.Equal(t, "$task_1#project_{project}#task_{task}", e.Attrs["sk"].String())
	require.Equal(t, "$ASSIGNMENTS#TASK_1#STATUS_{status}", e.Attrs["gsi1sk"].String())
	var got []string
	for _, p := range tb.Patterns {
		got = append(got, fmt.Sprintf("%s %s on %s: %s", p.Name, p.Access, p.ServedBy(), p.conditionText()))
	}
	require.Equal(t, []string{
		"primary get on table key: pk = $taskapp#team_{team} and sk = $task_1#project_{project}#task_{task}",
		"primary-query query on table key: pk = $taskapp#team_{team}",
		"assigned query on index gsi1: pk = $taskapp#employee_{employee}",
	}, got)
}
