package emulator_test

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The rules that read a row against another (B17, B18, D2), through the
// emulator: the framework's (or the seed's) shapes accepted while they
// run concurrently, as the framework's runtime runs them, and the wrong
// shape refused in enforce and reported in warn.

const linksConfig = `{"tables": [
  {"match": "*-command", "role": "command"},
  {"match": "*-data", "role": "data"},
  {"match": "warn-*-command", "role": "command", "mode": "warn"},
  {"match": "warn-*-data", "role": "data", "mode": "warn"},
  {"match": "Blog", "design": true},
  {"match": "WarnBlog", "design": true, "mode": "warn"}
]}`

// linksModes are the two modes the tests run in, by table name prefix.
var linksModes = []struct {
	mode   conventions.Mode
	prefix string
}{{conventions.ModeEnforce, "local-demo"}, {conventions.ModeWarn, "warn-demo"}}

func newLinksEnv(t *testing.T) *convEnv {
	t.Helper()
	cfg, err := conventions.ParseConfig([]byte(linksConfig))
	require.NoError(t, err)
	e, err := emulator.New(emulator.Options{Conventions: &cfg, SharedDB: true})
	require.NoError(t, err)
	return &convEnv{t: t, ctx: t.Context(), e: e, db: emulatortest.Client(t, e, accessKey)}
}

// wantRefusedOrReported asserts that a wrong write was refused with code
// naming rule (enforce), or written and reported (warn).
func (env *convEnv) wantRefusedOrReported(mode conventions.Mode, table string, err error, code, rule string) {
	env.t.Helper()
	if mode == conventions.ModeEnforce {
		refusedWith(env.t, err, code, "[conventions "+rule+"]")
		return
	}
	require.NoError(env.t, err)
	require.Contains(env.t, env.reported(table), rule)
}

// userTenantRow is a user-tenant row of seed 000 (USER_TENANT#common /
// <tenantCode>#<userCode>) as publishAsync writes it (command) and the
// sync copies it (data).
func userTenantRow(sk string, version int, data bool) map[string]av {
	it := map[string]av{"pk": s("USER_TENANT#common"), "sk": s(fmt.Sprintf("%s@%d", sk, version)),
		"id": s(conventions.GenerateID("USER_TENANT#common", sk)), "code": s(sk), "name": s("member"),
		"version": n(fmt.Sprint(version)), "tenantCode": s("common"), "type": s("USER_TENANT")}
	if data {
		it["sk"], it["cpk"], it["csk"] = s(sk), s("USER_TENANT#common"), s(fmt.Sprintf("%s@%d", sk, version))
	}
	return it
}

// TestConventionsUserTenant: tenants attach their own users under the
// common tenant concurrently (accepted); a tenant attaching a user to
// another tenant, or detaching one, is refused (rule B17).
func TestConventionsUserTenant(t *testing.T) {
	for _, m := range linksModes {
		t.Run(m.mode.String(), func(t *testing.T) {
			env := newLinksEnv(t)
			command, data := m.prefix+"-user-command", m.prefix+"-user-data"
			require.NoError(t, env.createTable(command, nil))
			require.NoError(t, env.createTable(data, nil))
			client := func(tenant string) *dynamodb.Client { return emulatortest.TenantClient(t, env.e, accessKey, tenant) }
			publish := func(db *dynamodb.Client, sk string) error {
				if _, err := db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(command), Item: userTenantRow(sk, 1, false),
					ConditionExpression: aws.String(createCnd)}); err != nil {
					return err
				}
				_, err := db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(data), Item: userTenantRow(sk, 1, true)})
				return err
			}

			// Four tenants, each attaching two users at once, as concurrent
			// requests of the framework's tenant-bound callers do.
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for i := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					tenant := fmt.Sprintf("tenant%03d", i%4+1)
					errs <- publish(client(tenant), fmt.Sprintf("%s#user%03d", tenant, i))
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			env.wantNoViolations()

			// tenant001 attaches a user to tenant002, and detaches one of
			// tenant002's users.
			own := client("tenant001")
			_, err := own.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(command), Item: userTenantRow("tenant002#user900", 1, false),
				ConditionExpression: aws.String(createCnd)})
			env.wantRefusedOrReported(m.mode, command, err, "AccessDeniedException", "B17")
			if m.mode == conventions.ModeEnforce {
				require.Contains(t, err.Error(), `caller bound to tenant "tenant001" names tenant "tenant002" in the user-tenant row "tenant002#user900@1"`)
			}
			_, err = own.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(data),
				Key: map[string]av{"pk": s("USER_TENANT#common"), "sk": s("tenant002#user001")}})
			env.wantRefusedOrReported(m.mode, data, err, "AccessDeniedException", "B17")
			got := env.getItem(data, "USER_TENANT#common", "tenant002#user001")
			require.Equal(t, m.mode == conventions.ModeEnforce, got != nil, "enforce keeps the row; warn deletes it")

			// A caller bound to no tenant (an administrator's) may.
			require.NoError(t, publish(env.db, "tenant003#user901"))
		})
	}
}

// TestConventionsDataCommand: data rows follow their command rows, many
// entities at once, through PutItem, TransactWriteItems (both rows in
// one) and PartiQL; a data row whose command row is missing is refused
// (rule B18), whichever way it is written.
func TestConventionsDataCommand(t *testing.T) {
	for _, m := range linksModes {
		t.Run(m.mode.String(), func(t *testing.T) {
			env := newLinksEnv(t)
			command, data := m.prefix+"-order-command", m.prefix+"-order-data"
			require.NoError(t, env.createTable(command, nil))
			require.NoError(t, env.createTable(data, nil))
			putData := func(it map[string]av) error {
				_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(data), Item: it})
				return err
			}

			// Sixteen entities published at once, each v1..v3: the command
			// row, then its sync, as the stream handler does.
			var wg sync.WaitGroup
			errs := make(chan error, 16*3)
			for i := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					base := fmt.Sprintf("ORDER#%03d", i)
					for v := 1; v <= 3; v++ {
						_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(command), Item: commandItem(orderPK, base, v),
							ConditionExpression: aws.String(createCnd)})
						if err == nil {
							err = putData(dataItem(orderPK, base, v))
						}
						errs <- err
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			// Both rows in one transaction; a publishSync data row (csk
			// unversioned).
			sync1 := dataItem(orderPK, "ORDER#TX", 1)
			_, err := env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String(command), Item: commandItem(orderPK, "ORDER#TX", 1), ConditionExpression: aws.String(createCnd)}},
				{Put: &types.Put{TableName: aws.String(data), Item: sync1}}}})
			require.NoError(t, err)
			env.mustPut(command, commandItem(orderPK, "ORDER#SYNC", 1), createCnd)
			it := dataItem(orderPK, "ORDER#SYNC", 1)
			it["csk"] = s("ORDER#SYNC")
			require.NoError(t, putData(it))
			env.wantNoViolations()

			// No command row: a PutItem, a version moved past the command
			// table, a batch, PartiQL, a transaction of the data row alone.
			env.wantRefusedOrReported(m.mode, data, putData(dataItem(orderPK, "ORDER#NONE", 1)), "ValidationException", "B18")
			env.wantRefusedOrReported(m.mode, data, putData(dataItem(orderPK, "ORDER#000", 4)), "ValidationException", "B18")
			_, err = env.db.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				data: {{PutRequest: &types.PutRequest{Item: dataItem(orderPK, "ORDER#BATCH", 1)}}}}})
			env.wantRefusedOrReported(m.mode, data, err, "ValidationException", "B18")
			_, err = env.db.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{
				Statement:  aws.String(fmt.Sprintf(`INSERT INTO "%s" VALUE {'pk': ?, 'sk': ?, 'id': ?, 'version': 1, 'tenantCode': ?, 'cpk': ?, 'csk': ?}`, data)),
				Parameters: []av{s(orderPK), s("ORDER#PARTIQL"), s(conventions.GenerateID(orderPK, "ORDER#PARTIQL")), s(tenant), s(orderPK), s("ORDER#PARTIQL@1")}})
			env.wantRefusedOrReported(m.mode, data, err, "ValidationException", "B18")
			_, err = env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Put: &types.Put{TableName: aws.String(data), Item: dataItem(orderPK, "ORDER#TXONLY", 1)}}}})
			env.wantRefusedOrReported(m.mode, data, err, "ValidationException", "B18")
			for _, base := range []string{"ORDER#NONE", "ORDER#BATCH", "ORDER#PARTIQL", "ORDER#TXONLY"} {
				require.Equal(t, m.mode == conventions.ModeWarn, env.getItem(data, orderPK, base) != nil, base)
			}
		})
	}
}

// TestConventionsDesignReplaces: seed 001's Comment and Like have keys of
// one shape. Written at once under the same primary key, the first lands
// and the second is refused (rule D2); warn writes both and reports it.
func TestConventionsDesignReplaces(t *testing.T) {
	design, err := os.ReadFile("../internal/insights/testdata/blog.design")
	require.NoError(t, err)
	warnDesign := strings.Replace(string(design), "table Blog", "table WarnBlog", 1)
	for _, m := range []struct {
		mode  conventions.Mode
		table string
	}{{conventions.ModeEnforce, "Blog"}, {conventions.ModeWarn, "WarnBlog"}} {
		t.Run(m.mode.String(), func(t *testing.T) {
			env := newLinksEnv(t)
			require.NoError(t, env.e.Reports().SetDesign([]byte(warnDesign+"\n"+string(design))))
			str := func(name string) types.AttributeDefinition {
				return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
			}
			_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{TableName: aws.String(m.table), BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{str("PK"), str("SK_GSI1PK"), str("GSI1SK_GSI2SK_GSI3SK")},
				KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash},
					{AttributeName: aws.String("SK_GSI1PK"), KeyType: types.KeyTypeRange}},
				GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("GSI1"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
					KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("SK_GSI1PK"), KeyType: types.KeyTypeHash},
						{AttributeName: aws.String("GSI1SK_GSI2SK_GSI3SK"), KeyType: types.KeyTypeRange}}}}})
			require.NoError(t, err)
			item := func(id, model string) map[string]av {
				return map[string]av{"PK": s(id), "SK_GSI1PK": s("77fcab6b"), "GSI1SK_GSI2SK_GSI3SK": s(model + "_2021-12-03T10:11:44.137Z")}
			}
			put := func(it map[string]av) error {
				_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(m.table), Item: it})
				return err
			}
			// Eight keys, a Comment and a Like written at once under each.
			const keys = 8
			var wg sync.WaitGroup
			errs := make([][2]error, keys)
			for i := range keys {
				for j, model := range []string{"Comment", "Like"} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						errs[i][j] = put(item(fmt.Sprintf("81fcab%02d", i), model))
					}()
				}
			}
			wg.Wait()
			for i := range keys {
				id := fmt.Sprintf("81fcab%02d", i)
				stored := env.getItemKeyed(m.table, map[string]av{"PK": s(id), "SK_GSI1PK": s("77fcab6b")})
				require.NotNil(t, stored)
				if m.mode == conventions.ModeWarn {
					require.NoError(t, errs[i][0])
					require.NoError(t, errs[i][1])
					continue
				}
				refused := 0
				for j, model := range []string{"Comment", "Like"} {
					if errs[i][j] == nil {
						require.True(t, strings.HasPrefix(stored["GSI1SK_GSI2SK_GSI3SK"].(*types.AttributeValueMemberS).Value, model+"_"),
							"the write that landed is the one stored")
						continue
					}
					refused++
					refusedWith(t, errs[i][j], "ValidationException", "[conventions D2]", "under the same primary key")
				}
				require.Equal(t, 1, refused, "key %s: one of the two lands, the other is refused", id)
			}
			var counted uint64
			for _, tr := range env.e.Reports().Conventions().Tables {
				counted += uint64(tr.Counts["D2"])
			}
			require.EqualValues(t, keys, counted, "each key's second write is reported")

			// A like written again under its own key: the same entity, accepted.
			require.NoError(t, put(item("6b9b9319", "Like")))
			require.NoError(t, put(item("6b9b9319", "Like")))
		})
	}
}

// getItemKeyed is GetItem by a key of any attribute names.
func (env *convEnv) getItemKeyed(table string, key map[string]av) map[string]av {
	env.t.Helper()
	out, err := env.db.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key, ConsistentRead: aws.Bool(true)})
	require.NoError(env.t, err)
	return out.Item
}
