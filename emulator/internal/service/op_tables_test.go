package service

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

const (
	hashOnly  = `"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"}],"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}]`
	hashRange = `"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"},{"AttributeName":"b","AttributeType":"N"}],` +
		`"KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"RANGE"}]`
	ppr = `"BillingMode":"PAY_PER_REQUEST"`
	pt1 = `"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}`
)

func TestCreateTableErrors(t *testing.T) {
	lsi := func(name, keys, proj string) string {
		return `{"IndexName":"` + name + `","KeySchema":` + keys + `,"Projection":` + proj + `}`
	}
	abKeys := `[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"RANGE"}]`
	ab := `"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"},{"AttributeName":"b","AttributeType":"S"}]`
	abTable := ab + `,"KeySchema":` + abKeys
	tooManyGSIs := make([]string, 21)
	for i := range tooManyGSIs {
		tooManyGSIs[i] = fmt.Sprintf(`{"IndexName":"g%02d","KeySchema":%s,"Projection":{"ProjectionType":"ALL"}}`, i, abKeys)
	}
	cases := []struct {
		name string
		body string
		typ  string
		msg  string
	}{
		{"no name", `{}`, "ValidationException",
			"The parameter 'TableName' is required but was not present in the request"},
		{"short name", `{"TableName":"a;"}`, "ValidationException",
			"4 validation errors detected: Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null; " +
				"Value 'a;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				"Value 'a;' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value null at 'keySchema' failed to satisfy constraint: Member must not be null"},
		{"short name alone", `{"TableName":"ab","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`, "ValidationException",
			"1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"empty name before the key schema", `{"TableName":"","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"x","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`, "ValidationException",
			"2 validation errors detected: Value '' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				"Value '' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"long name", `{"TableName":"` + strings.Repeat("a", 256) + `","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`, "ValidationException",
			"1 validation error detected: Value '" + strings.Repeat("a", 256) + "' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255"},
		{"nulls and pattern", `{"TableName":"abc;"}`, "ValidationException",
			"3 validation errors detected: " +
				"Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null; " +
				"Value 'abc;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				"Value null at 'keySchema' failed to satisfy constraint: Member must not be null"},
		{"bad attribute type", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"b","AttributeType":"SS"}],"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],` + pt1 + `}`,
			"ValidationException",
			"1 validation error detected: Value 'SS' at 'attributeDefinitions.1.member.attributeType' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]"},
		{"throughput and key schema constraints", `{"TableName":"abc","AttributeDefinitions":[],"KeySchema":[],"ProvisionedThroughput":{"ReadCapacityUnits":-1,"WriteCapacityUnits":-1}}`,
			"ValidationException",
			"3 validation errors detected: " +
				"Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1; " +
				"Value '-1' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1; " +
				"Value '[]' at 'keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"key type enum", `{"TableName":"abc","AttributeDefinitions":[],"KeySchema":[{"AttributeName":"a","KeyType":"Woop"}]}`,
			"ValidationException",
			"1 validation error detected: Value 'Woop' at 'keySchema.1.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]"},
		{"billing mode enum", `{"TableName":"abc",` + hashOnly + `,"BillingMode":"ON_DEMAND"}`, "ValidationException",
			"1 validation error detected: Value 'ON_DEMAND' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]"},
		{"pay per request with throughput", `{"TableName":"abc",` + hashOnly + `,` + ppr + `,` + pt1 + `}`, "ValidationException",
			"One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"},
		{"default billing without throughput", `{"TableName":"abc",` + hashOnly + `}`, "ValidationException",
			"One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
		{"provisioned without throughput", `{"TableName":"abc",` + hashOnly + `,"BillingMode":"PROVISIONED"}`, "ValidationException",
			"One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
		{"read out of bounds", `{"TableName":"abc",` + hashOnly + `,"ProvisionedThroughput":{"ReadCapacityUnits":1000000000001,"WriteCapacityUnits":1000000000001}}`,
			"ValidationException", "Given value 1000000000001 for ReadCapacityUnits is out of bounds"},
		{"write out of bounds", `{"TableName":"abc",` + hashOnly + `,"ProvisionedThroughput":{"ReadCapacityUnits":1000000000000,"WriteCapacityUnits":1000000000001}}`,
			"ValidationException", "Given value 1000000000001 for WriteCapacityUnits is out of bounds"},
		{"more keys than definitions", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"b","AttributeType":"S"}],"KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"a","KeyType":"HASH"}],` + pt1 + `}`,
			"ValidationException", "Invalid KeySchema: Some index key attribute have no definition"},
		{"key not defined", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"b","AttributeType":"S"}],"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],` + pt1 + `}`,
			"ValidationException",
			"One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [a], AttributeDefinitions: [b]"},
		{"same key names", `{"TableName":"abc",` + ab + `,"KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"a","KeyType":"HASH"}],` + pt1 + `}`,
			"ValidationException", "Both the Hash Key and the Range Key element in the KeySchema have the same name"},
		{"second not range", `{"TableName":"abc",` + ab + `,"KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"HASH"}],` + pt1 + `}`,
			"ValidationException", "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"},
		{"first not hash", `{"TableName":"abc",` + ab + `,"KeySchema":[{"AttributeName":"a","KeyType":"RANGE"},{"AttributeName":"b","KeyType":"HASH"}],` + pt1 + `}`,
			"ValidationException", "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
		{"extra definition", `{"TableName":"abc",` + ab + `,"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],` + pt1 + `}`,
			"ValidationException",
			"One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
		{"duplicate definition", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"x","AttributeType":"S"},{"AttributeName":"x","AttributeType":"N"}],"KeySchema":[{"AttributeName":"x","KeyType":"HASH"}],` + ppr + `}`,
			"ValidationException", "Attribute Name is duplicated: x"},
		{"empty LSI list", `{"TableName":"abc",` + ab + `,"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"LocalSecondaryIndexes":[],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: List of LocalSecondaryIndexes is empty"},
		{"LSI without table range", `{"TableName":"abc",` + ab + `,"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"LocalSecondaryIndexes":[` +
			lsi("abc", `[{"AttributeName":"c","KeyType":"RANGE"}]`, `{}`) + `],` + pt1 + `}`,
			"ValidationException",
			"One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"},
		{"LSI name constraints", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("h;", `[]`, `{}`) + `],` + pt1 + `}`,
			"ValidationException",
			"3 validation errors detected: " +
				"Value 'h;' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
				"Value 'h;' at 'localSecondaryIndexes.1.member.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
				"Value '[]' at 'localSecondaryIndexes.1.member.keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"LSI key not defined", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("abc", `[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"c","KeyType":"RANGE"}]`, `{}`) + `],` + pt1 + `}`,
			"ValidationException",
			"One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [a, c], AttributeDefinitions: [a, b]"},
		{"LSI without range", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("abc", `[{"AttributeName":"b","KeyType":"HASH"}]`, `{}`) + `],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: Index KeySchema does not have a range key for index: abc"},
		{"LSI other hash", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("abc", `[{"AttributeName":"b","KeyType":"HASH"},{"AttributeName":"a","KeyType":"RANGE"}]`, `{}`) + `],` + pt1 + `}`,
			"ValidationException",
			"One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: abc. index hash key: b, table hash key: a"},
		{"LSI projection missing type", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("abc", abKeys, `{}`) + `],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: Unknown ProjectionType: null"},
		{"LSI projection constraints", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("abc", abKeys, `{"NonKeyAttributes":[],"ProjectionType":"abc"}`) + `],` + pt1 + `}`,
			"ValidationException",
			"2 validation errors detected: " +
				"Value 'abc' at 'localSecondaryIndexes.1.member.projection.projectionType' failed to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, KEYS_ONLY]; " +
				"Value '[]' at 'localSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"LSI ALL with non-key attributes", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("abc", abKeys, `{"ProjectionType":"ALL","NonKeyAttributes":["a"]}`) + `],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: ProjectionType is ALL, but NonKeyAttributes is specified"},
		{"LSI duplicate", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			lsi("abc", abKeys, `{"ProjectionType":"ALL"}`) + `,` + lsi("abc", abKeys, `{"ProjectionType":"ALL"}`) + `],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: Duplicate index name: abc"},
		{"too many LSIs", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` +
			strings.Join([]string{lsi("ab1", abKeys, `{"ProjectionType":"ALL"}`), lsi("ab2", abKeys, `{"ProjectionType":"ALL"}`),
				lsi("ab3", abKeys, `{"ProjectionType":"ALL"}`), lsi("ab4", abKeys, `{"ProjectionType":"ALL"}`),
				lsi("ab5", abKeys, `{"ProjectionType":"ALL"}`), lsi("ab6", abKeys, `{"ProjectionType":"ALL"}`)}, ",") + `],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5"},
		{"empty GSI list", `{"TableName":"abc",` + abTable + `,"GlobalSecondaryIndexes":[],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty"},
		{"GSI first not hash", `{"TableName":"abc",` + abTable + `,"GlobalSecondaryIndexes":[` +
			lsi("abc", `[{"AttributeName":"a","KeyType":"RANGE"}]`, `{"ProjectionType":"ALL"}`) + `],` + ppr + `}`,
			"ValidationException", "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
		{"GSI without throughput on provisioned table", `{"TableName":"abc",` + abTable + `,"GlobalSecondaryIndexes":[` +
			lsi("gsi", `[{"AttributeName":"b","KeyType":"HASH"}]`, `{"ProjectionType":"ALL"}`) + `],` + pt1 + `}`,
			"ValidationException", "One or more parameter values were invalid: ProvisionedThroughput is not specified for index: gsi"},
		{"GSI throughput on on-demand table", `{"TableName":"abc",` + abTable + `,"GlobalSecondaryIndexes":[` +
			`{"IndexName":"gsi","KeySchema":[{"AttributeName":"b","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},` + pt1 + `}],` + ppr + `}`,
			"ValidationException",
			"One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified for index: gsi when BillingMode is PAY_PER_REQUEST"},
		{"GSI and LSI share a name", `{"TableName":"abc",` + abTable + `,"LocalSecondaryIndexes":[` + lsi("abc", abKeys, `{"ProjectionType":"ALL"}`) +
			`],"GlobalSecondaryIndexes":[` + lsi("abc", abKeys, `{"ProjectionType":"ALL"}`) + `],` + ppr + `}`,
			"ValidationException", "One or more parameter values were invalid: Duplicate index name: abc"},
		{"too many GSIs", `{"TableName":"abc",` + abTable + `,"GlobalSecondaryIndexes":[` + strings.Join(tooManyGSIs, ",") + `],` + ppr + `}`,
			"ValidationException", "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20"},
		{"unused definition with index", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"},{"AttributeName":"b","AttributeType":"S"},{"AttributeName":"c","AttributeType":"S"}],` +
			`"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"GlobalSecondaryIndexes":[` +
			lsi("gsi", `[{"AttributeName":"b","KeyType":"HASH"}]`, `{"ProjectionType":"ALL"}`) + `],` + ppr + `}`,
			"ValidationException",
			"One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [a, b, c], keys used: [a, b]"},
		{"empty key attribute name", `{"TableName":"abc","AttributeDefinitions":[{"AttributeName":"","AttributeType":"S"}],"KeySchema":[{"AttributeName":"","KeyType":"HASH"}],` + ppr + `}`,
			"ValidationException", "2 validation errors detected: " +
				"Value '' at 'attributeDefinitions.1.member.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1; " +
				"Value '' at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member must have length greater than or equal to 1"},
		{"stream disabled with view type", `{"TableName":"abc",` + hashOnly + `,` + ppr + `,"StreamSpecification":{"StreamEnabled":false,"StreamViewType":"KEYS_ONLY"}}`,
			"ValidationException", "One or more parameter values were invalid: Table is being created with a stream disabled, UpdateViewType should not be specified"},
		{"stream without view type", `{"TableName":"abc",` + hashOnly + `,` + ppr + `,"StreamSpecification":{"StreamEnabled":true}}`,
			"ValidationException", "One or more parameter values were invalid: Table is being created with a stream enabled, UpdateViewType is required"},
		{"stream enabled null", `{"TableName":"abc",` + hashOnly + `,` + ppr + `,"StreamSpecification":{}}`,
			"ValidationException",
			"1 validation error detected: Value null at 'streamSpecification.streamEnabled' failed to satisfy constraint: Member must not be null"},
		{"table class enum", `{"TableName":"abc",` + hashOnly + `,` + ppr + `,"TableClass":"COLD"}`,
			"ValidationException",
			"1 validation error detected: Value 'COLD' at 'tableClass' failed to satisfy constraint: Member must satisfy enum value set: [STANDARD, STANDARD_INFREQUENT_ACCESS]"},
		{"wrong JSON type", `{"TableName":5}`, "SerializationException", "NUMBER_VALUE cannot be converted to String"},
	}
	e := newTablesEmulator(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tablesDo(t, e, "CreateTable", tc.body)
			if r.status != 400 || r.typ != tc.typ || r.msg != tc.msg {
				t.Errorf("got %d %s %q\nwant 400 %s %q", r.status, r.typ, r.msg, tc.typ, tc.msg)
			}
		})
	}
	// Nothing was created by the failed requests.
	if got := mustTables(t, e, "ListTables", `{}`); got != `{"TableNames":[]}` {
		t.Errorf("ListTables after failures = %s", got)
	}
}

func TestCreateAndDescribeTable(t *testing.T) {
	e := newTablesEmulator(t)
	created := mustTables(t, e, "CreateTable", `{"TableName":"Music",`+hashRange+`,`+ppr+`,`+
		`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},`+
		`"SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"1234abcd"},`+
		`"TableClass":"STANDARD_INFREQUENT_ACCESS","DeletionProtectionEnabled":true,"Tags":[{"Key":"team","Value":"x"}]}`)
	id := regexp.MustCompile(`"TableId":"([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})"`).FindStringSubmatch(created)
	if id == nil {
		t.Fatalf("no UUID TableId in %s", created)
	}
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/Music"
	want := `{"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"},{"AttributeName":"b","AttributeType":"N"}],` +
		`"TableName":"Music","KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"RANGE"}],` +
		`"TableStatus":"ACTIVE","CreationDateTime":` + tablesEpoch + `,` +
		`"ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,"WriteCapacityUnits":0},` +
		`"TableSizeBytes":0,"ItemCount":0,"TableArn":"` + arn + `","TableId":"` + id[1] + `",` +
		`"BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST","LastUpdateToPayPerRequestDateTime":` + tablesEpoch + `},` +
		`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"},` +
		`"LatestStreamLabel":"2026-11-22T01:02:03.456","LatestStreamArn":"` + arn + `/stream/2026-11-22T01:02:03.456",` +
		`"SSEDescription":{"Status":"ENABLED","SSEType":"KMS","KMSMasterKeyArn":"arn:aws:kms:us-east-1:000000000000:key/1234abcd"},` +
		`"TableClassSummary":{"TableClass":"STANDARD_INFREQUENT_ACCESS"},"DeletionProtectionEnabled":true`
	// CreateTable's answer shows no warm throughput unless one was asked
	// for; DescribeTable's always does (tablespec/warm.go). It says
	// CREATING, and its BillingModeSummary has no time: DescribeTable's,
	// from the next request, say ACTIVE and give the time (tablespec.CreatedDescription).
	answer := strings.Replace(strings.Replace(want, `"TableStatus":"ACTIVE"`, `"TableStatus":"CREATING"`, 1),
		`,"LastUpdateToPayPerRequestDateTime":`+tablesEpoch, "", 1)
	if created != `{"TableDescription":`+answer+`}}` {
		t.Errorf("CreateTable:\n got %s\nwant %s", created, `{"TableDescription":`+answer+`}}`)
	}
	want += `,"WarmThroughput":{"ReadUnitsPerSecond":12000,"WriteUnitsPerSecond":4000,"Status":"ACTIVE"}}`
	for _, name := range []string{"Music", arn} {
		if got := mustTables(t, e, "DescribeTable", `{"TableName":"`+name+`"}`); got != `{"Table":`+want+`}` {
			t.Errorf("DescribeTable %s:\n got %s\nwant %s", name, got, `{"Table":`+want+`}`)
		}
	}
	r := tablesDo(t, e, "CreateTable", `{"TableName":"Music",`+hashOnly+`,`+ppr+`}`)
	if r.typ != "ResourceInUseException" || r.msg != "Table already exists: Music" {
		t.Errorf("second CreateTable: %s %q", r.typ, r.msg)
	}
}

func TestCreateTableProvisionedWithIndexes(t *testing.T) {
	e := newTablesEmulator(t)
	body := mustTables(t, e, "CreateTable", `{"TableName":"idx",`+
		`"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"},{"AttributeName":"b","AttributeType":"N"},{"AttributeName":"c","AttributeType":"B"}],`+
		`"KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"RANGE"}],`+
		`"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6},`+
		`"LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"c","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],`+
		`"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"c","KeyType":"HASH"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["x","y"]},`+
		`"ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4}}]}`)
	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/idx"
	for _, want := range []string{
		`"ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":5,"WriteCapacityUnits":6}`,
		`"LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"c","KeyType":"RANGE"}],` +
			`"Projection":{"ProjectionType":"KEYS_ONLY"},"IndexSizeBytes":0,"ItemCount":0,"IndexArn":"` + arn + `/index/lsi"}]`,
		`"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"c","KeyType":"HASH"}],` +
			`"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["x","y"]},"IndexStatus":"ACTIVE",` +
			`"ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":3,"WriteCapacityUnits":4},` +
			`"IndexSizeBytes":0,"ItemCount":0,"IndexArn":"` + arn + `/index/gsi"}]`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("CreateTable response lacks %s\n%s", want, body)
		}
	}
	// A table left on the default billing mode reports no BillingModeSummary.
	if strings.Contains(body, "BillingModeSummary") {
		t.Errorf("unexpected BillingModeSummary: %s", body)
	}
}

func TestTableNameLookupErrors(t *testing.T) {
	e := newTablesEmulator(t)
	cases := []struct {
		op, body, typ, msg string
	}{
		{"DescribeTable", `{}`, "ValidationException", "The parameter 'TableName' is required but was not present in the request"},
		{"DescribeTable", `{"TableName":"nope"}`, "ResourceNotFoundException", "Requested resource not found: Table: nope not found"},
		{"DeleteTable", `{"TableName":"nope"}`, "ResourceNotFoundException", "Requested resource not found: Table: nope not found"},
		{"UpdateTable", `{"TableName":"nope","DeletionProtectionEnabled":true}`, "ResourceNotFoundException", "Requested resource not found: Table: nope not found"},
		{"DescribeTable", `{"TableName":"ab"}`, "ValidationException",
			"1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		{"DescribeTable", `{"TableName":"a b!"}`, "ValidationException",
			"1 validation error detected: Value 'a b!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"},
		{"DescribeTable", `{"TableName":"arn:aws:dynamodb:eu-west-1:000000000000:table/nope"}`, "ResourceNotFoundException",
			"Requested resource not found: Table: arn:aws:dynamodb:eu-west-1:000000000000:table/nope not found"},
	}
	for _, tc := range cases {
		t.Run(tc.op+" "+tc.body, func(t *testing.T) {
			r := tablesDo(t, e, tc.op, tc.body)
			if r.typ != tc.typ || r.msg != tc.msg {
				t.Errorf("got %s %q\nwant %s %q", r.typ, r.msg, tc.typ, tc.msg)
			}
		})
	}
}

func TestListTables(t *testing.T) {
	e := newTablesEmulator(t)
	for _, name := range []string{"ccc", "aaa", "bbb", "Zed", "a.b", "a-b", "a_b"} {
		mustTables(t, e, "CreateTable", `{"TableName":"`+name+`",`+hashOnly+`,`+ppr+`}`)
	}
	cases := []struct {
		name, body, want string
	}{
		{"all sorted by bytes", `{}`, `{"TableNames":["Zed","a-b","a.b","a_b","aaa","bbb","ccc"]}`},
		{"first page", `{"Limit":3}`, `{"TableNames":["Zed","a-b","a.b"],"LastEvaluatedTableName":"a.b"}`},
		{"next page", `{"Limit":3,"ExclusiveStartTableName":"a.b"}`, `{"TableNames":["a_b","aaa","bbb"],"LastEvaluatedTableName":"bbb"}`},
		{"last page exactly full", `{"Limit":1,"ExclusiveStartTableName":"bbb"}`, `{"TableNames":["ccc"]}`},
		{"start need not exist", `{"ExclusiveStartTableName":"b00"}`, `{"TableNames":["bbb","ccc"]}`},
		{"start after all", `{"ExclusiveStartTableName":"zzz"}`, `{"TableNames":[]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustTables(t, e, "ListTables", tc.body); got != tc.want {
				t.Errorf("got %s\nwant %s", got, tc.want)
			}
		})
	}
	errCases := []struct {
		name, body, msg string
	}{
		{"limit 0", `{"Limit":0}`, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"limit 101", `{"Limit":101}`, "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100"},
		{"bad start", `{"ExclusiveStartTableName":"a!","Limit":0}`, "3 validation errors detected: " +
			"Value 'a!' at 'exclusiveStartTableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; " +
			"Value 'a!' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or equal to 3; " +
			"Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			r := tablesDo(t, e, "ListTables", tc.body)
			if r.typ != "ValidationException" || r.msg != tc.msg {
				t.Errorf("got %s %q\nwant ValidationException %q", r.typ, r.msg, tc.msg)
			}
		})
	}
}

func TestNamespacesAreSeparate(t *testing.T) {
	e := newTablesEmulator(t)
	mustTables(t, e, "CreateTable", `{"TableName":"mine",`+hashOnly+`,`+ppr+`}`)
	other := strings.Replace(testkit.DefaultAuth, "AKID1", "AKID2", 1)
	_, body := doService(t, e, "DynamoDB_20120810.ListTables", other, `{}`)
	if body != `{"TableNames":[]}` {
		t.Errorf("other access key sees %s", body)
	}
}

func TestDeleteTable(t *testing.T) {
	e := newTablesEmulator(t)
	mustTables(t, e, "CreateTable", `{"TableName":"del",`+hashOnly+`,`+ppr+`,"DeletionProtectionEnabled":true}`)
	r := tablesDo(t, e, "DeleteTable", `{"TableName":"del"}`)
	if r.typ != "ValidationException" ||
		r.msg != "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first." {
		t.Fatalf("protected DeleteTable: %s %q", r.typ, r.msg)
	}
	mustTables(t, e, "UpdateTable", `{"TableName":"del","DeletionProtectionEnabled":false}`)
	body := mustTables(t, e, "DeleteTable", `{"TableName":"del"}`)
	if !strings.Contains(body, `"TableStatus":"DELETING"`) || !strings.Contains(body, `"DeletionProtectionEnabled":false`) {
		t.Errorf("DeleteTable response: %s", body)
	}
	r = tablesDo(t, e, "DescribeTable", `{"TableName":"del"}`)
	if r.typ != "ResourceNotFoundException" {
		t.Errorf("DescribeTable after delete: %s %q", r.typ, r.msg)
	}
	// The name is free again.
	mustTables(t, e, "CreateTable", `{"TableName":"del",`+hashOnly+`,`+ppr+`}`)
}

// msgNothingAWS is UpdateTable's answer to a request that changes nothing.
const msgNothingAWS = "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates, " +
	"SSESpecification, ReplicaUpdates, MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, " +
	"DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is required"

func TestUpdateTable(t *testing.T) {
	e := newTablesEmulator(t)
	mustTables(t, e, "CreateTable", `{"TableName":"prov",`+hashOnly+`,"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}`)
	mustTables(t, e, "CreateTable", `{"TableName":"ondemand",`+hashOnly+`,`+ppr+`}`)
	errCases := []struct {
		name, body, typ, msg string
	}{
		{"nothing to update", `{"TableName":"prov"}`, "ValidationException",
			msgNothingAWS},
		{"nothing to update on a missing table", `{"TableName":"nope"}`, "ValidationException",
			msgNothingAWS},
		{"same throughput", `{"TableName":"prov","ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}`, "ValidationException",
			"The provisioned throughput for the table will not change. The requested value equals the current value. " +
				"Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5. " +
				"Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. " +
				"Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits."},
		{"throughput on on-demand table", `{"TableName":"ondemand","ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}`, "ValidationException",
			"One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"},
		{"provisioned without throughput", `{"TableName":"ondemand","BillingMode":"PROVISIONED"}`, "ValidationException",
			"One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED"},
		{"throughput constraint", `{"TableName":"prov","ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":1}}`, "ValidationException",
			"1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"disable absent stream", `{"TableName":"prov","StreamSpecification":{"StreamEnabled":false}}`, "ValidationException",
			"Table has no stream to disable: TableName: prov"},
		{"empty GSI update", `{"TableName":"prov","GlobalSecondaryIndexUpdates":[{}]}`, "ValidationException",
			"One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null"},
		{"GSI updated twice", `{"TableName":"prov","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"abc"}},{"Delete":{"IndexName":"abc"}}]}`, "ValidationException",
			"One or more parameter values were invalid: Only one global secondary index update per index is allowed simultaneously. Index: abc"},
		{"delete missing GSI", `{"TableName":"prov","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"abc"}}]}`, "ResourceNotFoundException",
			"Requested resource not found"},
		{"create GSI without attribute definitions", `{"TableName":"prov","GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"abc","KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},` + pt1 + `}}]}`,
			"ValidationException", "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [a], AttributeDefinitions: []"},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			r := tablesDo(t, e, "UpdateTable", tc.body)
			if r.typ != tc.typ || r.msg != tc.msg {
				t.Errorf("got %s %q\nwant %s %q", r.typ, r.msg, tc.typ, tc.msg)
			}
		})
	}

	// Decrease, then increase: history is kept.
	body := mustTables(t, e, "UpdateTable", `{"TableName":"prov","ProvisionedThroughput":{"ReadCapacityUnits":4,"WriteCapacityUnits":5}}`)
	if want := `"ProvisionedThroughput":{"LastDecreaseDateTime":` + tablesEpoch + `,"NumberOfDecreasesToday":1,"ReadCapacityUnits":4,"WriteCapacityUnits":5}`; !strings.Contains(body, want) {
		t.Errorf("after decrease: %s\nwant %s", body, want)
	}
	body = mustTables(t, e, "UpdateTable", `{"TableName":"prov","ProvisionedThroughput":{"ReadCapacityUnits":9,"WriteCapacityUnits":9}}`)
	if want := `"ProvisionedThroughput":{"LastIncreaseDateTime":` + tablesEpoch + `,"LastDecreaseDateTime":` + tablesEpoch + `,"NumberOfDecreasesToday":1,"ReadCapacityUnits":9,"WriteCapacityUnits":9}`; !strings.Contains(body, want) {
		t.Errorf("after increase: %s\nwant %s", body, want)
	}

	// Switch to on-demand and back.
	body = mustTables(t, e, "UpdateTable", `{"TableName":"prov","BillingMode":"PAY_PER_REQUEST"}`)
	if want := `"BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST","LastUpdateToPayPerRequestDateTime":` + tablesEpoch + `}`; !strings.Contains(body, want) {
		t.Errorf("after switch to on-demand: %s", body)
	}
	body = mustTables(t, e, "UpdateTable", `{"TableName":"prov","BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":2,"WriteCapacityUnits":3}}`)
	for _, want := range []string{
		`"BillingModeSummary":{"BillingMode":"PROVISIONED","LastUpdateToPayPerRequestDateTime":` + tablesEpoch + `}`,
		`"ReadCapacityUnits":2,"WriteCapacityUnits":3}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("after switch to provisioned: %s\nlacks %s", body, want)
		}
	}

	// Streams, class, SSE, deletion protection: one per request.
	for _, step := range []struct{ update, want string }{
		{`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}`,
			`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"},"LatestStreamLabel":"2026-11-22T01:02:03.456"`},
		{`"SSESpecification":{"Enabled":true}`,
			`"SSEDescription":{"Status":"UPDATING","SSEType":"KMS","KMSMasterKeyArn":"arn:aws:kms:us-east-1:000000000000:key/` + tablespec.ManagedKeyID("us-east-1", "000000000000") + `"}`},
		{`"TableClass":"STANDARD_INFREQUENT_ACCESS"`, `"TableClassSummary":{"TableClass":"STANDARD_INFREQUENT_ACCESS"}`},
		{`"DeletionProtectionEnabled":true`, `"DeletionProtectionEnabled":true`},
	} {
		body := mustTables(t, e, "UpdateTable", `{"TableName":"ondemand",`+step.update+`}`)
		if !strings.Contains(body, step.want) {
			t.Errorf("UpdateTable %s: response lacks %s\n%s", step.update, step.want, body)
		}
	}
	r := tablesDo(t, e, "UpdateTable", `{"TableName":"ondemand","StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}`)
	if r.msg != "Table already has an enabled stream: TableName: ondemand" {
		t.Errorf("enable twice: %s %q", r.typ, r.msg)
	}
	body = mustTables(t, e, "UpdateTable", `{"TableName":"ondemand","StreamSpecification":{"StreamEnabled":false}}`)
	// The disabled stream's label and ARN stay; its specification goes.
	if strings.Contains(body, "StreamSpecification") || !strings.Contains(body, `"LatestStreamLabel":"2026-11-22T01:02:03.456"`) {
		t.Errorf("after disabling the stream: %s", body)
	}
}

func TestUpdateTableGSIs(t *testing.T) {
	e := newTablesEmulator(t)
	mustTables(t, e, "CreateTable", `{"TableName":"gsitab",`+
		`"AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"},{"AttributeName":"x","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],`+pt1+`,`+
		`"GlobalSecondaryIndexes":[{"IndexName":"byx","KeySchema":[{"AttributeName":"x","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},`+pt1+`}]}`)
	body := mustTables(t, e, "UpdateTable", `{"TableName":"gsitab","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"byx","ProvisionedThroughput":{"ReadCapacityUnits":7,"WriteCapacityUnits":1}}}]}`)
	if want := `"LastIncreaseDateTime":` + tablesEpoch + `,"NumberOfDecreasesToday":0,"ReadCapacityUnits":7,"WriteCapacityUnits":1}`; !strings.Contains(body, want) {
		t.Errorf("GSI update: %s\nlacks %s", body, want)
	}
	body = mustTables(t, e, "UpdateTable", `{"TableName":"gsitab","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byx"}}]}`)
	if !strings.Contains(body, `"IndexStatus":"DELETING"`) {
		t.Errorf("UpdateTable's answer does not show the index DELETING: %s", body)
	}
	body = mustTables(t, e, "DescribeTable", `{"TableName":"gsitab"}`)
	if strings.Contains(body, "GlobalSecondaryIndexes") || strings.Contains(body, `"x"`) {
		t.Errorf("GSI or its attribute definition still reported: %s", body)
	}
}

func TestDescribeLimitsAndEndpoints(t *testing.T) {
	e := newTablesEmulator(t)
	if got, want := mustTables(t, e, "DescribeLimits", `{}`),
		`{"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,"TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000}`; got != want {
		t.Errorf("DescribeLimits = %s", got)
	}
	// httptest requests go to example.com: the emulator answers the host
	// the client used (see TestDescribeEndpointsHost).
	if got, want := mustTables(t, e, "DescribeEndpoints", `{}`),
		`{"Endpoints":[{"Address":"example.com","CachePeriodInMinutes":1440}]}`; got != want {
		t.Errorf("DescribeEndpoints = %s", got)
	}
}

// TestTablesConcurrent races creates, describes, updates and deletes of
// the same names; run with -race.
func TestTablesConcurrent(t *testing.T) {
	e := newTablesEmulator(t)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				name := fmt.Sprintf("t%d", i%5)
				switch (w + i) % 4 {
				case 0:
					tablesDo(t, e, "CreateTable", `{"TableName":"`+name+`",`+hashOnly+`,`+ppr+`}`)
				case 1:
					tablesDo(t, e, "DescribeTable", `{"TableName":"`+name+`"}`)
				case 2:
					tablesDo(t, e, "UpdateTable", `{"TableName":"`+name+`","DeletionProtectionEnabled":false}`)
				case 3:
					tablesDo(t, e, "DeleteTable", `{"TableName":"`+name+`"}`)
				}
				tablesDo(t, e, "ListTables", `{}`)
			}
		}()
	}
	wg.Wait()
}

// FuzzCreateTable feeds arbitrary bodies to CreateTable and UpdateTable:
// bad input must get a 400, never a panic or a 500.
func FuzzCreateTable(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"TableName":"abc"}`,
		`{"TableName":"abc",` + hashOnly + `,` + ppr + `}`,
		`{"TableName":"abc",` + hashRange + `,` + pt1 + `,"LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}`,
		`{"TableName":"abc",` + hashRange + `,` + ppr + `,"GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[{"AttributeName":"b"}],"Projection":{}}]}`,
		`{"TableName":"abc","KeySchema":[{},{},{}],"AttributeDefinitions":[{}],"StreamSpecification":{"StreamEnabled":true}}`,
	} {
		f.Add(seed)
	}
	e := newTestService(f, Config{Clock: func() time.Time { return tablesClock }})
	f.Fuzz(func(t *testing.T, body string) {
		for _, op := range []string{"CreateTable", "UpdateTable"} {
			res, b := doService(t, e, "DynamoDB_20120810."+op, testkit.DefaultAuth, body)
			if res.StatusCode != 200 && res.StatusCode != 400 && res.StatusCode != 413 {
				t.Fatalf("%s %s: status %d %s", op, body, res.StatusCode, b)
			}
		}
		tablesDo(t, e, "DeleteTable", `{"TableName":"abc"}`)
	})
}
