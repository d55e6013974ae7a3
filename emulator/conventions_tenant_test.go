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

// TestConventionsIndexTenant: rule B16. A global secondary index's
// partition key names the item's tenant (or the common tenant), so a
// Query of the index stays inside one tenant; one naming another tenant
// or none is refused in enforce and reported in warn.
func TestConventionsIndexTenant(t *testing.T) {
	create := func(env *convEnv, name, mode string) {
		t.Helper()
		in := &dynamodb.CreateTableInput{
			TableName:   aws.String(name),
			BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{
				{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
				{AttributeName: aws.String("gsi1pk"), AttributeType: types.ScalarAttributeTypeS},
			},
			KeySchema: []types.KeySchemaElement{
				{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
			},
			GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("byStatus"),
				KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("gsi1pk"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
			Tags: []types.Tag{{Key: aws.String("dynamoemu:conventions"), Value: aws.String("data")}},
		}
		if mode != "" {
			in.Tags = append(in.Tags, types.Tag{Key: aws.String("dynamoemu:conventions-mode"), Value: aws.String(mode)})
		}
		_, err := env.db.CreateTable(env.ctx, in)
		require.NoError(t, err)
	}
	row := func(gsi string) map[string]av {
		it := dataItem(orderPK, orderSK, 1)
		if gsi != "" {
			it["gsi1pk"] = s(gsi)
		}
		return it
	}
	cases := []struct {
		name, gsi, want string
	}{
		{"tenant in the index key", "STATUS#tenant001#PENDING", ""},
		{"common tenant in the index key", "STATUS#common", ""},
		{"not in the index", "", ""},
		{"no tenant", "PENDING", `[conventions B16] index byStatus's partition key gsi1pk "PENDING" does not name the item's tenant "tenant001"`},
		{"another tenant", "STATUS#tenant002#PENDING", `[conventions B16] index byStatus's partition key gsi1pk "STATUS#tenant002#PENDING"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newConvEnv(t)
			create(env, "orders-by-status", "")
			code, msg := apiError(t, env.put("orders-by-status", row(tc.gsi), ""))
			if tc.want == "" {
				require.Empty(t, code, msg)
				env.wantNoViolations()
				return
			}
			require.Equal(t, "ValidationException", code)
			require.Contains(t, msg, tc.want)
			require.Nil(t, env.getItem("orders-by-status", orderPK, orderSK))
			// UpdateItem moving an item into the index is judged the same.
			env.mustPut("orders-by-status", row(""), "")
			_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("orders-by-status"),
				Key: map[string]av{"pk": s(orderPK), "sk": s(orderSK)}, UpdateExpression: aws.String("SET gsi1pk = :g"),
				ExpressionAttributeValues: map[string]av{":g": s(tc.gsi)}})
			code, msg = apiError(t, err)
			require.Equal(t, "ValidationException", code)
			require.Contains(t, msg, "[conventions B16]")

			warn := newConvEnv(t)
			create(warn, "orders-by-status", "warn")
			require.NoError(t, warn.put("orders-by-status", row(tc.gsi), ""))
			require.Equal(t, []string{"B16"}, warn.reported("orders-by-status"))
		})
	}
}
