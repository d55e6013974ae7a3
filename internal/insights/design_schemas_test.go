package insights

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSchemaDesigns: a Dynamoose schema and a DynamoDB Toolbox table, in
// their JSON-able forms and their older spellings, are read as the
// table's keys and indexes, global and local.
func TestSchemaDesigns(t *testing.T) {
	tests := []struct {
		name, src, format, table string
		want                     []string // the key, then each index
	}{
		{"dynamoose", `{"pk": {"type": "String", "hashKey": true}, "sk": {"type": "Number", "rangeKey": true},
			"email": {"type": "String", "index": [{"name": "byEmail", "type": "global", "rangeKey": "sk"}, {"name": "byEmail2", "type": "global"}]},
			"at": {"type": "Date", "index": {"name": "byAt", "type": "local"}}, "title": "String"}`,
			FormatDynamoose, "", []string{"pk sk", "byEmail: email sk", "byEmail2: email", "byAt: pk at"}},
		{"dynamoose 2", `{"id": {"type": "String", "hashKey": true}, "owner": {"type": "String", "index": {"name": "byOwner", "global": true, "rangeKey": "id"}},
			"at": {"type": "Number", "index": {"name": "byAt", "global": false}}}`,
			FormatDynamoose, "", []string{"id", "byOwner: owner id", "byAt: id at"}},
		{"toolbox", `{"name": "App", "partitionKey": {"name": "pk", "type": "string"}, "sortKey": {"name": "sk", "type": "string"},
			"indexes": {"GSI1": {"type": "global", "partitionKey": {"name": "g1pk", "type": "string"}}, "LSI1": {"type": "local", "sortKey": {"name": "l1sk", "type": "number"}}}}`,
			FormatToolbox, "App", []string{"pk sk", "GSI1: g1pk", "LSI1: pk l1sk"}},
		{"toolbox 1", `{"name": "App", "partitionKey": "pk", "sortKey": "sk", "indexes": {"GSI1": {"partitionKey": "GSI1pk", "sortKey": "GSI1sk"}, "LSI1": {"sortKey": "data"}}}`,
			FormatToolbox, "App", []string{"pk sk", "GSI1: GSI1pk GSI1sk", "LSI1: pk data"}},
	}
	key := func(k KeyDef) string {
		if k.Sort == "" {
			return k.Partition
		}
		return k.Partition + " " + k.Sort
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ParseDesign([]byte(tc.src))
			require.NoError(t, err)
			require.Equal(t, tc.format, d.Format)
			require.Len(t, d.Tables, 1)
			tb := d.Tables[0]
			require.Equal(t, tc.table, tb.Name)
			require.Equal(t, tc.table == "", tb.Unnamed, "a schema names no table; a Toolbox table does")
			require.True(t, tb.FromTraffic, "the patterns come from the traffic")
			got := []string{key(tb.Key)}
			for _, x := range tb.Indexes {
				got = append(got, fmt.Sprintf("%s: %s", x.Name, key(x.Key)))
			}
			require.Equal(t, tc.want, got)
		})
	}
}

// TestSchemaDesignErrors: a malformed schema or table names the member
// at fault.
func TestSchemaDesignErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"dynamoose: two hash keys", `{"a": {"type": "String", "hashKey": true}, "b": {"type": "String", "hashKey": true}}`, "dynamoose: b.hashKey: the table's hashKey is a already"},
		{"dynamoose: an unknown setting", `{"a": {"type": "String", "hashKey": true, "hashkey": true}}`, "dynamoose: a.hashkey: unknown member"},
		{"dynamoose: a flag not boolean", `{"a": {"type": "String", "hashKey": true}, "b": {"type": "String", "rangeKey": "yes"}}`, "dynamoose: b.rangeKey: want true or false, found a string"},
		{"dynamoose: an index without a name", `{"a": {"type": "String", "hashKey": true, "index": {"type": "global"}}}`, "dynamoose: a.index.name: missing or empty"},
		{"dynamoose: an index of another type", `{"a": {"type": "String", "hashKey": true}, "b": {"index": {"name": "x", "type": "sparse"}}}`, `dynamoose: b.index.type: "sparse": an index is global or local`},
		{"dynamoose: an index twice", `{"a": {"type": "String", "hashKey": true}, "b": {"index": [{"name": "x"}, {"name": "x"}]}}`, `dynamoose: b.index[1].name: index "x" twice`},
		{"dynamoose: an unknown index member", `{"a": {"type": "String", "hashKey": true}, "b": {"index": {"name": "x", "sortKey": "a"}}}`, "dynamoose: b.index.sortKey: unknown member"},
		{"toolbox: no name", `{"partitionKey": "pk"}`, "dynamodb-toolbox: name: missing or empty"},
		{"toolbox: an unknown member", `{"name": "T", "partitionKey": "pk", "sortkey": "sk"}`, "dynamodb-toolbox: sortkey: unknown member"},
		{"toolbox: a key of a map", `{"name": "T", "partitionKey": {"name": "pk", "type": "map"}}`, `dynamodb-toolbox: partitionKey.type: "map": a key is a string, number or binary`},
		{"toolbox: a key not named", `{"name": "T", "partitionKey": 7}`, `dynamodb-toolbox: partitionKey: want an attribute's name or {"name", "type"}`},
		{"toolbox: a local index with a partition key", `{"name": "T", "partitionKey": "pk", "indexes": {"L": {"type": "local", "partitionKey": "x", "sortKey": "y"}}}`, "dynamodb-toolbox: indexes.L.partitionKey: a local index's partition key is the table's (pk)"},
		{"toolbox: a local index without a sort key", `{"name": "T", "partitionKey": "pk", "indexes": {"L": {"type": "local"}}}`, "dynamodb-toolbox: indexes.L.sortKey: missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDesign([]byte(tc.src))
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// FuzzParseDynamoose: any input is a design of a Dynamoose schema or a
// *DesignError naming what is wrong.
func FuzzParseDynamoose(f *testing.F) {
	fuzzSeeds(f, "blog.dynamoose.json", `{"id": {"type": "String", "hashKey": true}, "owner": {"index": [{"name": "byOwner", "global": true, "rangeKey": "id"}, {"name": "l", "type": "local"}]}}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseDesign(src)
		if !isJSON(src) || err == nil && d.Format != FormatDynamoose {
			return
		}
		checkParsed(t, d, err)
	})
}

// FuzzParseToolbox: any input is a design of a DynamoDB Toolbox table or
// a *DesignError naming what is wrong.
func FuzzParseToolbox(f *testing.F) {
	fuzzSeeds(f, "blog.dynamodb-toolbox.json", `{"name": "App", "partitionKey": "pk", "sortKey": "sk", "indexes": {"GSI1": {"partitionKey": "GSI1pk", "sortKey": "GSI1sk"}, "LSI1": {"sortKey": "data"}}}`)
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := ParseDesign(src)
		if !isJSON(src) || err == nil && d.Format != FormatToolbox {
			return
		}
		checkParsed(t, d, err)
	})
}
