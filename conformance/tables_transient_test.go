package conformance

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/stretchr/testify/require"
)

// transientTarget is an endpoint whose tables pass through CREATING and
// DELETING, and how to let a transient state pass there.
type transientTarget struct {
	c      *dynamodb.Client
	settle func() // moves the in-process emulator's clock; nothing on AWS
}

// transientEndpoint returns the endpoint the table status tests use, or
// skips: AWS itself; for the in-process emulator, a second one started
// as with -delayTransientStatuses on a clock the test moves. DynamoDB
// Local 3.3.0 answers ACTIVE at once even with -delayTransientStatuses
// (measured: CreateTable answers ACTIVE and a PutItem right after it
// succeeds; DeleteTable's table is gone at once), and a server given by
// URL may not have the flag on.
func transientEndpoint(t *testing.T) transientTarget {
	t.Helper()
	tg := target(t)
	switch {
	case tg.Oracle == OracleDynamoDBLocal:
		AWSDiffers(t, "DynamoDB Local's tables are ACTIVE at once, even with -delayTransientStatuses; "+
			"AWS's are CREATING, then DELETING (API_CreateTable, API_DeleteTable)")
	case tg.InProcess:
		url, err := transientEmulator()
		require.NoError(t, err)
		return transientTarget{c: newClient(t, withEndpoint(url)), settle: func() {
			_, err := transientEmu.Clock().Advance(emulator.Options{}.WithDefaults().TransientStatusDelay)
			require.NoError(t, err)
		}}
	case tg.Oracle == OracleAWS:
		return transientTarget{c: newClient(t), settle: func() {}}
	}
	t.Skip("the table status tests need AWS or the in-process emulator (a server started with -delayTransientStatuses cannot be told from one without)")
	return transientTarget{}
}

// TestTableCreatingDeleting: a new table is CREATING (API_CreateTable:
// "CreateTable immediately returns a response with a TableStatus of
// CREATING ... You can perform read and write operations only on an
// ACTIVE table"): an item request meanwhile is ResourceNotFoundException
// "Requested resource not found" (API reference, ResourceNotFoundException:
// "... or its status might not be ACTIVE"; public records of a PutItem
// right after CreateTable: github.com/cirello-io/dynamolock/issues/120) and
// DeleteTable ResourceInUseException (API_DeleteTable: "If a table is in
// CREATING or UPDATING states, then DynamoDB returns a
// ResourceInUseException"). Once ACTIVE it serves items. A deleted table
// is DELETING: described and listed until it is gone (API_DeleteTable:
// "the specified table is in the DELETING state until DynamoDB completes
// the deletion"), then ResourceNotFoundException. While CREATING,
// UpdateTable, DeleteTable and a second CreateTable are
// ResourceInUseException "Attempt to change a resource which is still in
// use: Table is being created: <name>"; while DELETING a second
// DeleteTable is ResourceInUseException "... Table is being deleted:
// <name>", and so is UpdateTable (AWS's answers probed in October 2026:
// github.com/aws-controllers-k8s/dynamodb-controller,
// docs/api-quirks/table.md, DDB-TABLE-001, -005, -006, -008; newer than
// API_DeleteTable's "If table is already in the DELETING state, no error
// is returned", which it contradicts). AWS's states last
// seconds, so a request there may find the next state already; each
// check holds while the state it is about does.
func TestTableCreatingDeleting(t *testing.T) {
	tt := transientEndpoint(t)
	t.Parallel()
	c := tt.c
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

	if mustDescribe(t, c, name).TableStatus == types.TableStatusCreating {
		_, err = c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &name, Item: item{"pk": s("a")}})
		if err != nil || mustDescribe(t, c, name).TableStatus == types.TableStatusCreating {
			requireAPIError(t, err, "ResourceNotFoundException", "Requested resource not found")
		}
		creating := "Attempt to change a resource which is still in use: Table is being created: " + name
		_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
		if err != nil || mustDescribe(t, c, name).TableStatus == types.TableStatusCreating {
			requireAPIError(t, err, "ResourceInUseException", creating)
		}
		_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, DeletionProtectionEnabled: aws.Bool(false)})
		if err != nil || mustDescribe(t, c, name).TableStatus == types.TableStatusCreating {
			requireAPIError(t, err, "ResourceInUseException", creating)
		}
		_, err = c.CreateTable(ctx(t), &dynamodb.CreateTableInput{
			TableName:            &name,
			BillingMode:          types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		})
		if mustDescribe(t, c, name).TableStatus == types.TableStatusCreating {
			requireAPIError(t, err, "ResourceInUseException", creating)
		} else {
			requireAPIError(t, err, "ResourceInUseException", "")
		}
	}
	tt.settle()
	waitActive(t, c, name)
	mustPut(t, c, name, item{"pk": s("a")})

	del, err := c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
	mustNoError(t, err)
	require.Equal(t, types.TableStatusDeleting, del.TableDescription.TableStatus)
	if d, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}); err == nil {
		require.Equal(t, types.TableStatusDeleting, d.Table.TableStatus)
		deleting := "Attempt to change a resource which is still in use: Table is being deleted: " + name
		_, err = c.DeleteTable(ctx(t), &dynamodb.DeleteTableInput{TableName: &name})
		if !isNotFound(err) {
			requireAPIError(t, err, "ResourceInUseException", deleting)
		}
		_, err = c.UpdateTable(ctx(t), &dynamodb.UpdateTableInput{TableName: &name, DeletionProtectionEnabled: aws.Bool(false)})
		if !isNotFound(err) {
			requireAPIError(t, err, "ResourceInUseException", "")
		}
		if isolatedNamespaces(t) {
			lt, err := c.ListTables(ctx(t), &dynamodb.ListTablesInput{})
			mustNoError(t, err)
			if _, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &name}); err == nil {
				require.Contains(t, lt.TableNames, name)
			}
		}
	}
	tt.settle()
	eventually(t, "table gone", func() bool {
		_, err := c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &name})
		return err != nil
	})
	_, err = c.DescribeTable(ctx(t), &dynamodb.DescribeTableInput{TableName: &name})
	requireAPIError(t, err, "ResourceNotFoundException", "")
}

// isNotFound reports whether err is a ResourceNotFoundException: on AWS a
// DELETING table may be gone by the next request.
func isNotFound(err error) bool {
	var nf *types.ResourceNotFoundException
	return asErr(err, &nf)
}
