package conformance

// UpdateTable's AttributeDefinitions when it creates a GSI, as AWS
// answers: the new index's keys are defined in the request itself, a
// table key included, and a definition no key uses is dropped. Captured
// against AWS (eu-west-2) by nubo-db/dynoxide (its issue threads on new
// indexes' definitions and its CHANGELOG: "DynamoDB requires a new index's key attributes to appear
// in the request itself"; "an entry supplied in the delta that is used
// by no key schema is dropped rather than stored").

import (
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// attrDefNames are a table's AttributeDefinitions' names, sorted.
func attrDefNames(d *types.TableDescription) []string {
	var out []string
	for _, a := range d.AttributeDefinitions {
		out = append(out, aws.ToString(a.AttributeName))
	}
	sort.Strings(out)
	return out
}

func TestUpdateTableIndexKeysDefinedInRequest(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, `DynamoDB Local takes a new index's key from the table's definitions`)
	c := newClient(t)
	tbl := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	_, err := c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &tbl,
		AttributeDefinitions:        ads("gsk", "S"),
		GlobalSecondaryIndexUpdates: []types.GlobalSecondaryIndexUpdate{createGSI("byPk", "pk", "gsk", types.ProjectionTypeAll)}})
	requireValidationMatch(t, err, `^One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions`)
	d := mustDescribe(t, c, tbl)
	require.Empty(t, d.GlobalSecondaryIndexes)
	require.Equal(t, []string{"pk"}, attrDefNames(d))
}

func TestUpdateTableUnusedDefinitionDropped(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local keeps a definition no key uses")
	c := newClient(t)
	tbl := createTable(t, c, tableDef(keyDef{"pk", "S"}, keyDef{}))
	mustUpdate(t, c, tbl, func(in *dynamodb.UpdateTableInput) {
		in.AttributeDefinitions = ads("g", "S", "unused", "N")
		in.GlobalSecondaryIndexUpdates = []types.GlobalSecondaryIndexUpdate{createGSI("byG", "g", "", types.ProjectionTypeAll)}
	})
	d := waitIndex(t, c, tbl, "byG", isActive)
	require.Equal(t, []string{"g", "pk"}, attrDefNames(d))
}
