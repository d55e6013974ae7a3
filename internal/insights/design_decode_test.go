package insights

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDesignMemberOfWrongType: a member of the wrong JSON type is a
// *DesignError naming its path and both types, never a panic; so are a
// member a closed format does not know (even one that differs only in
// case) and a member given twice.
func TestDesignMemberOfWrongType(t *testing.T) {
	const wbKey = `"KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}}`
	const dmTable = `{"TableName": "T", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}]}`
	for _, tc := range []struct{ name, src, want string }{
		{"toolbox: a name not a string", `{"name": 7, "partitionKey": "pk"}`,
			"dynamodb-toolbox: name: want a string, found a number"},
		{"toolbox: indexes an array", `{"name": "T", "partitionKey": "pk", "indexes": []}`,
			"dynamodb-toolbox: indexes: want an object, found an array"},
		{"toolbox: an index not an object", `{"name": "T", "partitionKey": "pk", "indexes": {"G": "pk"}}`,
			"dynamodb-toolbox: indexes.G: want an object, found a string"},
		{"toolbox: an index type a boolean", `{"name": "T", "partitionKey": "pk", "indexes": {"G": {"type": true}}}`,
			"dynamodb-toolbox: indexes.G.type: want a string, found a boolean"},
		{"toolbox: a key's name a number", `{"name": "T", "partitionKey": {"name": 1}}`,
			"dynamodb-toolbox: partitionKey.name: want a string, found a number"},
		{"toolbox: an index twice", `{"name": "T", "partitionKey": "pk", "indexes": {"G": {"partitionKey": "a"}, "G": {"partitionKey": "b"}}}`,
			"dynamodb-toolbox: indexes.G: the member appears twice"},
		{"dynamoose: an index name a number", `{"a": {"type": "String", "hashKey": true}, "b": {"index": {"name": 5}}}`,
			"dynamoose: b.index.name: want a string, found a number"},
		{"dynamoose: global not a boolean", `{"a": {"type": "String", "hashKey": true}, "b": {"index": [{"name": "x", "global": "no"}]}}`,
			"dynamoose: b.index[0].global: want true or false, found a string"},
		{"dynamoose: an index a string", `{"a": {"type": "String", "hashKey": true}, "b": {"index": "x"}}`,
			"dynamoose: b.index: want an object, found a string"},
		{"dynamoose: a rangeKey an array", `{"a": {"type": "String", "hashKey": true}, "b": {"index": {"name": "x", "rangeKey": ["a"]}}}`,
			"dynamoose: b.index.rangeKey: want a string, found an array"},
		{"workbench: ModelMetadata an array", `{"ModelMetadata": [], "DataModel": []}`,
			"workbench: ModelMetadata: want an object, found an array"},
		{"workbench: a facet's NonKeyAttributes a string", `{"DataModel": [{"TableName": "T", ` + wbKey + `, "TableFacets": [{"FacetName": "F", "NonKeyAttributes": "a"}]}]}`,
			"workbench: DataModel[0].TableFacets[0].NonKeyAttributes: want an array of strings, found a string"},
		{"workbench: an attribute type a number", `{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": 1}}}]}`,
			"workbench: DataModel[0].KeyAttributes.PartitionKey.AttributeType: want a string, found a number"},
		{"workbench: DataAccess a string", `{"DataModel": [{"TableName": "T", ` + wbKey + `, "DataAccess": "x"}]}`,
			"workbench: DataModel[0].DataAccess: want an object, found a string"},
		{"workbench: an unknown key member", `{"DataModel": [{"TableName": "T", "KeyAttributes": {"PartitionKey": {"AttributeName": "pk", "AttributeType": "S"}, "HashKey": {}}}]}`,
			"workbench: DataModel[0].KeyAttributes.HashKey: unknown member (known here: PartitionKey, SortKey)"},
		{"workbench: a member in the wrong case", `{"DataModel": [{"tablename": "T", ` + wbKey + `}]}`,
			"workbench: DataModel[0].tablename: unknown member (known here: TableName, KeyAttributes, NonKeyAttributes, GlobalSecondaryIndexes, TableFacets, TableData, DataAccess, SampleDataFormats, BillingMode, ProvisionedCapacitySettings)"},
		{"workbench: an unknown throughput member", `{"DataModel": [{"TableName": "T", ` + wbKey + `, "ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacity": 1}}}]}`,
			"workbench: DataModel[0].ProvisionedCapacitySettings.ProvisionedThroughput.ReadCapacity: unknown member (known here: ReadCapacityUnits, WriteCapacityUnits)"},
		{"workbench: a table name twice", `{"DataModel": [{"TableName": "T", "TableName": "U", ` + wbKey + `}]}`,
			"workbench: DataModel[0].TableName: the member appears twice"},
		{"workbench: a block's table twice", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {}, "T": {}}}}`,
			"workbench: dynamoemu.tables.T: the member appears twice"},
		{"own block: entities an array", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {"entities": []}}}}`,
			"workbench: dynamoemu.tables.T.entities: want an object, found an array"},
		{"own block: patterns a string", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {"patterns": "pattern a scan T"}}}}`,
			"workbench: dynamoemu.tables.T.patterns: want an array, found a string"},
		{"own block: a template a number", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {"entities": {"T": {"pk": 1}}}}}}`,
			"workbench: dynamoemu.tables.T.entities.T.pk: want a string, found a number"},
		{"own block: an unknown member", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {"Patterns": []}}}}`,
			"workbench: dynamoemu.tables.T.Patterns: unknown member (known here: entities, patterns)"},
		{"own block: a OneTable block's unknown member", `{"indexes": {"primary": {"hash": "pk"}}, "extensions": {"dynamoemu": {"table": "T", "Entities": {}}}}`,
			"onetable: extensions.dynamoemu.Entities: unknown member (known here: entities, patterns, table)"},
		{"own block: patterns twice", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {"patterns": [], "patterns": []}}}}`,
			"workbench: dynamoemu.tables.T.patterns: the member appears twice"},
		{"own block: an entity twice", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {"entities": {"T": {}, "T": {}}}}}}`,
			"workbench: dynamoemu.tables.T.entities.T: the member appears twice"},
		{"own block: a template twice", `{"DataModel": [{"TableName": "T", ` + wbKey + `}], "dynamoemu": {"tables": {"T": {"entities": {"T": {"pk": "a", "pk": "b"}}}}}}`,
			"workbench: dynamoemu.tables.T.entities.T.pk: the member appears twice"},
		{"data model: a description a number", `{"tables": [` + dmTable + `], "access_patterns": [{"pattern": "1", "description": 2, "table": "T", "dynamodb_operation": "Scan"}]}`,
			"dynamodb-data-model: access_patterns[0].description: want a string, found a number"},
		{"data model: items an array", `{"tables": [` + dmTable + `], "items": [], "access_patterns": []}`,
			"dynamodb-data-model: items: want an object, found an array"},
		{"data model: a key schema an object", `{"tables": [{"TableName": "T", "KeySchema": {}}], "access_patterns": []}`,
			"dynamodb-data-model: tables[0].KeySchema: want an array, found an object"},
		{"data model: a key type a boolean", `{"tables": [{"TableName": "T", "KeySchema": [{"AttributeName": "a", "KeyType": true}]}], "access_patterns": []}`,
			"dynamodb-data-model: tables[0].KeySchema[0].KeyType: want a string, found a boolean"},
		{"data model: a pattern member in the wrong case", `{"tables": [` + dmTable + `], "access_patterns": [{"Pattern": "1", "table": "T", "dynamodb_operation": "Scan"}]}`,
			"dynamodb-data-model: access_patterns[0].Pattern: unknown member (known here: pattern, description, table, index, dynamodb_operation, implementation, reason)"},
		{"data model: an unknown index member", `{"tables": [{"TableName": "T", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}], "GlobalSecondaryIndexes": [{"IndexName": "G", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}], "Colour": 1}]}], "access_patterns": []}`,
			"dynamodb-data-model: tables[0].GlobalSecondaryIndexes[0].Colour: unknown member (known here: IndexName, KeySchema, Projection, ProvisionedThroughput, OnDemandThroughput, WarmThroughput)"},
		{"data model: a table member twice", `{"tables": [{"TableName": "T", "TableName": "U", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}]}], "access_patterns": []}`,
			"dynamodb-data-model: tables[0].TableName: the member appears twice"},
		{"data model: a pattern's table twice", `{"tables": [` + dmTable + `], "access_patterns": [{"pattern": "1", "table": "T", "table": "U", "dynamodb_operation": "Scan"}]}`,
			"dynamodb-data-model: access_patterns[0].table: the member appears twice"},
		{"data model: a table's items twice", `{"tables": [` + dmTable + `], "items": {"T": [], "T": []}, "access_patterns": []}`,
			"dynamodb-data-model: items.T: the member appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { _, err = ParseDesign([]byte(tc.src)) })
			var de *DesignError
			require.ErrorAs(t, err, &de)
			require.EqualError(t, err, tc.want)
		})
	}
}
