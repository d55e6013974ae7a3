package conformance

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/stretchr/testify/require"
)

// TestCreateTableAnswersCreating: CreateTable's answer says CREATING
// (API_CreateTable: "DynamoDB immediately returns a response with a
// TableStatus of CREATING"), and an on-demand table's BillingModeSummary
// in it holds the BillingMode alone (a published capture of AWS's
// answer; records/table-answers.jsonl). DescribeTable gives the time the
// mode was set. The SDK's TableExistsWaiter, which asks DescribeTable at
// once and then every 20 seconds, finds the emulator's table ACTIVE at its
// first request: CREATING in the answer costs a waiter no wait.
func TestCreateTableAnswersCreating(t *testing.T) {
	AWSDiffers(t, "DynamoDB Local's CreateTable answers ACTIVE, with LastUpdateToPayPerRequestDateTime")
	t.Parallel()
	c := newClient(t)
	name := uniqueName(t)
	out, err := c.CreateTable(ctx(t), &dynamodb.CreateTableInput{
		TableName:            &name,
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
	})
	mustNoError(t, err)
	t.Cleanup(func() { deleteTable(t, c, name) })
	require.Equal(t, types.TableStatusCreating, out.TableDescription.TableStatus)
	require.NotNil(t, out.TableDescription.BillingModeSummary)
	require.Equal(t, types.BillingModePayPerRequest, out.TableDescription.BillingModeSummary.BillingMode)
	require.Nil(t, out.TableDescription.BillingModeSummary.LastUpdateToPayPerRequestDateTime, "CreateTable's BillingModeSummary gives no time")

	asked := 0
	count := func(o *dynamodb.TableExistsWaiterOptions) {
		o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
			return s.Initialize.Add(middleware.InitializeMiddlewareFunc("countDescribes",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					asked++
					return next.HandleInitialize(ctx, in)
				}), middleware.After)
		})
	}
	d, err := dynamodb.NewTableExistsWaiter(c, count).WaitForOutput(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}, 10*time.Minute)
	mustNoError(t, err)
	require.Equal(t, types.TableStatusActive, d.Table.TableStatus)
	require.NotNil(t, d.Table.BillingModeSummary.LastUpdateToPayPerRequestDateTime, "DescribeTable gives the time the mode was set")
	if target(t).Oracle == "" { // AWS's table may take seconds; the emulator's is ACTIVE at the next request
		require.Equal(t, 1, asked, "the waiter asked DescribeTable more than once")
	}
}
