package conformance

// Index key attributes in written items: the types their definitions give,
// never empty. (Index data itself is the secondary-index issue.)

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestIndexKeyTypes(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("g"), AttributeType: types.ScalarAttributeTypeS},
		types.AttributeDefinition{AttributeName: aws.String("h"), AttributeType: types.ScalarAttributeTypeN})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("byGH"),
		KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("g"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("h"), KeyType: types.KeyTypeRange}},
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	table := createTable(t, c, in)
	// AWS's wording, as quoted in reports of real errors; DynamoDB Local stops
	// after "Type mismatch for Index Key".
	const differ = `DynamoDB Local says only "One or more parameter values were invalid: Type mismatch for Index Key"`
	tests := []struct {
		name string
		call func(t *testing.T) error
		msg  string // AWS's message
	}{
		{"put hash key of wrong type", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("a"), "g": n("1")}})
			return err
		}, "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S Actual: N IndexName: byGH"},
		{"put range key of wrong type", func(t *testing.T) error {
			_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("a"), "h": s("x")}})
			return err
		}, "One or more parameter values were invalid: Type mismatch for Index Key h Expected: N Actual: S IndexName: byGH"},
		{"update to wrong type", func(t *testing.T) error {
			_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("u")}, UpdateExpression: aws.String("SET g = :v"),
				ExpressionAttributeValues: item{":v": n("1")}})
			return err
		}, "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S Actual: N IndexName: byGH"},
		{"batch put wrong type", func(t *testing.T) error {
			_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				table: {{PutRequest: &types.PutRequest{Item: item{"pk": s("b"), "g": bl(true)}}}}}})
			return err
		}, "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S Actual: BOOL IndexName: byGH"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			requireValidation(t, tc.call(t), "")
		})
		t.Run(tc.name+" message", func(t *testing.T) {
			t.Parallel()
			AWSDiffers(t, differ)
			requireValidation(t, tc.call(t), tc.msg)
		})
	}
	t.Run("correct types and absent keys are fine", func(t *testing.T) {
		t.Parallel()
		mustPut(t, c, table, item{"pk": s("ok1"), "g": s("x"), "h": n("1")})
		mustPut(t, c, table, item{"pk": s("ok2"), "g": s("x")})
		mustPut(t, c, table, item{"pk": s("ok3")})
	})
}
