package emulator_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestConventionsTenantBatchStatement: inside BatchExecuteStatement a
// tenant refusal (B10) is the statement's AccessDenied, as AWS's
// BatchStatementErrorCodeEnum names it, not InternalServerError; the
// other statements of the batch run.
func TestConventionsTenantBatchStatement(t *testing.T) {
	env := newConvEnv(t)
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	other := commandItem("ORDER#tenant002", orderSK, 1)
	other["tenantCode"] = s("tenant002")
	env.mustPut(cmdTable, other, createCnd)

	tenant2 := emulatortest.TenantClient(t, env.e, accessKey, "tenant002")
	out, err := tenant2.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`SELECT * FROM "` + cmdTable + `" WHERE pk = 'ORDER#tenant001' AND sk = '` + orderSK + `@1'`)},
		{Statement: aws.String(`SELECT * FROM "` + cmdTable + `" WHERE pk = 'ORDER#tenant002' AND sk = '` + orderSK + `@1'`)},
	}})
	require.NoError(t, err)
	require.NotNil(t, out.Responses[0].Error)
	require.Equal(t, types.BatchStatementErrorCodeEnumAccessDenied, out.Responses[0].Error.Code)
	require.Contains(t, aws.ToString(out.Responses[0].Error.Message), "[conventions B10]")
	require.Nil(t, out.Responses[1].Error)
	require.NotNil(t, out.Responses[1].Item)

	out, err = tenant2.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`UPDATE "` + cmdTable + `" SET status = 'x' WHERE pk = 'ORDER#tenant001' AND sk = '` + orderSK + `@1'`)},
	}})
	require.NoError(t, err)
	require.NotNil(t, out.Responses[0].Error)
	require.Equal(t, types.BatchStatementErrorCodeEnumAccessDenied, out.Responses[0].Error.Code)
	require.Equal(t, "publish_async:STARTED", env.getItem(cmdTable, orderPK, orderSK+"@1")["status"].(*types.AttributeValueMemberS).Value)
}

// TestConventionsTransactionOneTenant: rule B15. The framework's shape,
// an order and its items under one tenant (with the common tenant's
// items beside them), is accepted; an order under tenant001 and its item
// under tenant002 in one transaction is refused in enforce (nothing
// written), reported in warn, and allowed for a cross-tenant caller, by
// TransactWriteItems and by ExecuteTransaction.
func TestConventionsTransactionOneTenant(t *testing.T) {
	put := func(table string, it map[string]av) types.TransactWriteItem {
		return types.TransactWriteItem{Put: &types.Put{TableName: aws.String(table), Item: it, ConditionExpression: aws.String(createCnd)}}
	}
	itemOf := func(pk, tenantCode, base string) map[string]av {
		it := commandItem(pk, base, 1)
		it["tenantCode"] = s(tenantCode)
		return it
	}
	order := itemOf(orderPK, tenant, orderSK)
	item := itemOf(orderPK, tenant, "ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#001")
	itemElsewhere := itemOf("ORDER#tenant002", "tenant002", "ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#001")
	commonSetting := itemOf("ORDER#common", "common", "ORDER_SETTING#01HX7MBJK3V9WQBZ7XNDK5ZT2M")

	t.Run("one tenant and the common tenant", func(t *testing.T) {
		env := newConvEnv(t)
		_, err := env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			put(cmdTable, order), put(cmdTable, item), put(cmdTable, commonSetting)}})
		require.NoError(t, err)
		env.wantNoViolations()
	})
	t.Run("two tenants refused", func(t *testing.T) {
		env := newConvEnv(t)
		_, err := env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			put(cmdTable, order), put(cmdTable, itemElsewhere)}})
		code, msg := apiError(t, err)
		require.Equal(t, "ValidationException", code)
		require.Contains(t, msg, `[conventions B15] PutItem writes tenant "tenant002" (partition key "ORDER#tenant002") in a transaction that writes tenant "tenant001" (TransactItems[0])`)
		require.Contains(t, msg, "TransactItems[1]")
		require.Nil(t, env.getItem(cmdTable, orderPK, orderSK+"@1"))
		env.wantReportedOnly(cmdTable, "B15")
	})
	t.Run("two tenants by ExecuteTransaction refused", func(t *testing.T) {
		env := newConvEnv(t)
		ins := func(pk, tenantCode, base string) types.ParameterizedStatement {
			return types.ParameterizedStatement{Statement: aws.String(`INSERT INTO "` + cmdTable + `" VALUE {'pk': '` + pk + `', 'sk': '` + base + `@1', 'id': '` +
				pk + `#` + base + `', 'version': 1, 'tenantCode': '` + tenantCode + `'}`)}
		}
		_, err := env.db.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
			ins(orderPK, tenant, orderSK), ins("ORDER#tenant002", "tenant002", orderSK)}})
		code, msg := apiError(t, err)
		require.Equal(t, "ValidationException", code, msg)
		require.Contains(t, msg, "[conventions B15]")
		require.Nil(t, env.getItem(cmdTable, orderPK, orderSK+"@1"))
	})
	t.Run("two tenants reported in warn", func(t *testing.T) {
		env := newConvEnv(t)
		const warnTable = "warn-orders" // warn-*: command rows, warn mode
		require.NoError(t, env.createTable(warnTable, nil))
		_, err := env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			put(warnTable, order), put(warnTable, itemElsewhere)}})
		require.NoError(t, err)
		require.Contains(t, env.reported(warnTable), "B15") // beside A11: the table has no stream
		require.NotNil(t, env.getItem(warnTable, "ORDER#tenant002", "ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#001@1"))
	})
	t.Run("a cross-tenant caller may", func(t *testing.T) {
		env := newConvEnv(t)
		admin := emulatortest.Client(t, env.e, "AKIDADMIN")
		_, err := admin.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			put(cmdTable, order), put(cmdTable, itemElsewhere)}})
		require.NoError(t, err)
		env.wantNoViolations()
	})
	t.Run("concurrent transactions, each of one tenant", func(t *testing.T) {
		env := newConvEnv(t)
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				tn := "tenant00" + string(rune('1'+i))
				pk := "ORDER#" + tn
				base := "ORDER#C" + strings.Repeat("X", i+1)
				_, errs[i] = env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
					put(cmdTable, itemOf(pk, tn, base)), put(cmdTable, itemOf(pk, tn, base+"#001"))}})
			}()
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		env.wantNoViolations()
	})
}
