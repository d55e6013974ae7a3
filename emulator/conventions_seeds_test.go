package emulator_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The rules against the seeds' own sentences, rule by rule: what the key
// design guide (seed 000), the single-table walkthrough (seed 001) and
// the 'latest' item (seed 002) allow is accepted, whichever API writes it
// (PutItem, PartiQL alone, in a batch, in a transaction), and what they
// rule out is refused, each case quoting the sentence it rests on. The
// framework's code is cited where the seeds leave a shape to it.

const seedsConfig = `{"tables": [
  {"match": "*master-command", "role": "master+command"},
  {"match": "*master-data", "role": "master+data"},
  {"match": "*-log-data", "role": "data", "tenantSegment": 1, "monthSegment": 2},
  {"match": "*-command", "role": "command"},
  {"match": "*-data", "role": "data"},
  {"match": "*-history", "role": "history"},
  {"match": "warn-*-history", "role": "history", "mode": "warn"},
  {"match": "warn-*-command", "role": "command", "mode": "warn"},
  {"match": "products", "role": "keys"},
  {"match": "docs", "latest": "latest"}
], "commonTenants": ["common"]}`

// seedsNow is the emulator's clock in these tests.
var seedsNow = time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)

func newSeedsEnv(t *testing.T) *convEnv {
	t.Helper()
	cfg, err := conventions.ParseConfig([]byte(seedsConfig))
	require.NoError(t, err)
	e, err := emulator.New(emulator.Options{Conventions: &cfg, SharedDB: true, Clock: func() time.Time { return seedsNow }})
	require.NoError(t, err)
	return &convEnv{t: t, ctx: t.Context(), e: e, db: emulatortest.Client(t, e, accessKey)}
}

func (env *convEnv) statement(db *dynamodb.Client, stmt string) error {
	_, err := db.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(stmt)})
	return err
}

// docsTable makes seed 002's table (partition key documentVersion, no sort
// key) with v1 and its latest item, written together in one transaction.
func (env *convEnv) docsTable() {
	env.t.Helper()
	_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("docs"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("documentVersion"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("documentVersion"), KeyType: types.KeyTypeHash}},
	})
	require.NoError(env.t, err)
	_, err = env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		docPut("v1", "hello"), latestPut("v1", "hello")}})
	require.NoError(env.t, err)
}

// TestConventionsSeedLatestPartiQL: seed 002 keeps the latest item in
// step by a conditional write ("データの一貫性を確保するために、latest
// アイテムを更新する際には条件付き書き込みやトランザクションを検討して
// ください。"), and a writer knows what it read by actualVersion ("latest
// アイテムを取得してactualVersionと比較することで、それが最新かどうかを
// 確認できます。"). A PartiQL UPDATE whose WHERE clause pins the version it
// read (documentVersion = 'latest' AND actualVersion = 'v1') is that
// conditional write, alone, in BatchExecuteStatement and in
// ExecuteTransaction, and concurrent writers moving it so lose only by
// DynamoDB's own condition; one whose WHERE clause names the key alone
// is refused (rule L1).
func TestConventionsSeedLatestPartiQL(t *testing.T) {
	env := newSeedsEnv(t)
	env.docsTable()
	require.NoError(t, env.statement(env.db, `INSERT INTO docs VALUE {'documentVersion': 'v2', 'content': 'second'}`))

	// Not pinned: the move would overwrite another writer's.
	err := env.statement(env.db, `UPDATE docs SET actualVersion = 'v2' SET content = 'second' WHERE documentVersion = 'latest'`)
	refusedWith(t, err, "ValidationException", "[conventions L1]", "without a condition that fails when it moved")
	env.e.Reports().ResetConventions()

	// Pinned on the version read: accepted alone.
	require.NoError(t, env.statement(env.db,
		`UPDATE docs SET actualVersion = 'v2' SET content = 'second' WHERE documentVersion = 'latest' AND actualVersion = 'v1'`))
	// A stale pin fails by DynamoDB's condition, not by the rules.
	err = env.statement(env.db, `UPDATE docs SET actualVersion = 'v2' SET content = 'second' WHERE documentVersion = 'latest' AND actualVersion = 'v1'`)
	code, _ := apiError(t, err)
	require.Equal(t, "ConditionalCheckFailedException", code)

	// In a transaction with the version it copies.
	_, err = env.db.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(`INSERT INTO docs VALUE {'documentVersion': 'v3', 'content': 'third'}`)},
		{Statement: aws.String(`UPDATE docs SET actualVersion = 'v3' SET content = 'third' WHERE documentVersion = 'latest' AND actualVersion = ?`),
			Parameters: []types.AttributeValue{s("v2")}},
	}})
	require.NoError(t, err)

	// In a batch, after the version was written alone.
	require.NoError(t, env.statement(env.db, `INSERT INTO docs VALUE {'documentVersion': 'v4', 'content': 'fourth'}`))
	out, err := env.db.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(`UPDATE docs SET actualVersion = 'v4' SET content = 'fourth' WHERE documentVersion = 'latest' AND actualVersion = 'v3'`)},
	}})
	require.NoError(t, err)
	require.Nil(t, out.Responses[0].Error, "the batch's pinned UPDATE")
	env.wantNoViolations()

	// Writers racing: each writes its version, reads the latest item and
	// moves it by a pinned UPDATE, retrying when another moved it first
	// (and leaving it when it already points past its own version).
	var next atomic.Int64
	next.Store(4)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- raceLatest(env, int(next.Add(1)))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	env.wantNoViolations()
	got, err := env.db.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("docs"), Key: docKey("latest"), ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	require.Equal(t, "v10", got.Item["actualVersion"].(*types.AttributeValueMemberS).Value)
	require.Equal(t, "content 10", got.Item["content"].(*types.AttributeValueMemberS).Value)
}

// raceLatest writes version v alone, then moves the latest item onto it
// by a PartiQL UPDATE pinned on the pointer it read, until it moved it
// or the latest item points at a later version.
func raceLatest(env *convEnv, v int) error {
	name, content := "v"+strconv.Itoa(v), "content "+strconv.Itoa(v)
	if err := env.statement(env.db, fmt.Sprintf(`INSERT INTO docs VALUE {'documentVersion': '%s', 'content': '%s'}`, name, content)); err != nil {
		return err
	}
	for {
		got, err := env.db.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("docs"), Key: docKey("latest"), ConsistentRead: aws.Bool(true)})
		if err != nil {
			return err
		}
		seen := got.Item["actualVersion"].(*types.AttributeValueMemberS).Value
		if n, _ := strconv.Atoi(strings.TrimPrefix(seen, "v")); n >= v {
			return nil
		}
		err = env.statement(env.db, fmt.Sprintf(`UPDATE docs SET actualVersion = '%s' SET content = '%s' WHERE documentVersion = 'latest' AND actualVersion = '%s'`,
			name, content, seen))
		var ccf *types.ConditionalCheckFailedException
		if !errors.As(err, &ccf) {
			return err
		}
	}
}

// productsTable makes a table of the guide's simple entities ("PK:
// PRODUCT#<tenantCode>", "SK: <ulid>") with a global secondary index on
// categoryKey, a tenant's category: CATEGORY#<tenant>#<category>.
func (env *convEnv) productsTable() {
	env.t.Helper()
	_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("products"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("categoryKey"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("createdAt"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{{IndexName: aws.String("category-index"),
			KeySchema:  []types.KeySchemaElement{{AttributeName: aws.String("categoryKey"), KeyType: types.KeyTypeHash}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}}},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{{IndexName: aws.String("created-index"),
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
				{AttributeName: aws.String("createdAt"), KeyType: types.KeyTypeRange}},
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}}},
	})
	require.NoError(env.t, err)
}

func product(tenant, id, category string) map[string]av {
	return map[string]av{"pk": s("PRODUCT#" + tenant), "sk": s(id), "categoryKey": s(category), "tenantCode": s(tenant),
		"createdAt": s("2026-11-22T11:00:00.000Z")}
}

// TestConventionsSeedIndexTenant: the guide isolates tenants by their
// keys ("マルチテナント分離のために、常にPKにテナントコードを含めます"; "パー
// ティションレベルの分離のためにPKにテナントコードを含める"), and data shared
// between tenants lives under the common tenant ("テナント間で共有される
// データには共通テナントコードを使用します"), not under two tenants' codes.
// A tenant's caller may Query the index partition that names its tenant
// (CATEGORY#mbc#toys, by x-tenant-code mbc), by the Query API or PartiQL,
// while both tenants write at once (rule B10); not another tenant's, nor
// the index as a whole; a local index's partition is its table's. An index key naming another tenant
// (CATEGORY#mbc#acme on an mbc row) is refused (rule B16): a LeadingKeys
// pattern *#acme would hand it to acme.
func TestConventionsSeedIndexTenant(t *testing.T) {
	env := newSeedsEnv(t)
	env.productsTable()
	tenants := map[string]*dynamodb.Client{}
	for _, tn := range []string{"mbc", "acme"} {
		tenants[tn] = emulatortest.TenantClient(t, env.e, accessKey, tn)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tn := []string{"mbc", "acme"}[i%2]
			_, err := tenants[tn].PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("products"),
				Item: product(tn, fmt.Sprintf("01HX7MBJK3V9WQBZ7XNDK5ZT%02d", i), "CATEGORY#"+tn+"#toys")})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	query := func(db *dynamodb.Client, category string) (*dynamodb.QueryOutput, error) {
		return db.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("products"), IndexName: aws.String("category-index"),
			KeyConditionExpression:    aws.String("categoryKey = :c"),
			ExpressionAttributeValues: map[string]av{":c": s(category)}})
	}
	mbc := tenants["mbc"]
	out, err := query(mbc, "CATEGORY#mbc#toys")
	require.NoError(t, err, "a tenant's Query of its own index partition")
	require.Len(t, out.Items, 4)
	for _, it := range out.Items {
		require.Equal(t, "PRODUCT#mbc", it["pk"].(*types.AttributeValueMemberS).Value)
	}
	sel, err := mbc.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{
		Statement: aws.String(`SELECT pk FROM "products"."category-index" WHERE categoryKey = 'CATEGORY#mbc#toys'`)})
	require.NoError(t, err, "the same read by PartiQL")
	require.Len(t, sel.Items, 4)
	env.wantNoViolations()

	// A local index's partition is the table's: judged as its key.
	byCreated := func(pk string) error {
		_, err := mbc.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String("products"), IndexName: aws.String("created-index"),
			KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: map[string]av{":p": s(pk)}})
		return err
	}
	require.NoError(t, byCreated("PRODUCT#mbc"))
	refusedWith(t, byCreated("PRODUCT#acme"), "AccessDeniedException", "[conventions B10]", `caller tenant "mbc" may not use tenant "acme"`)

	_, err = query(mbc, "CATEGORY#acme#toys")
	refusedWith(t, err, "AccessDeniedException", "[conventions B10]", `caller tenant "mbc" may not query index category-index's partition "CATEGORY#acme#toys"`)
	_, err = mbc.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("products"), IndexName: aws.String("category-index")})
	refusedWith(t, err, "AccessDeniedException", "[conventions B10]")

	// mbc names acme in its row's index key: refused, so the partition
	// never holds both; and a partition naming both is no tenant's.
	_, err = mbc.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("products"),
		Item: product("mbc", "01HX7MBJK3V9WQBZ7XNDK5ZT99", "CATEGORY#mbc#acme")})
	refusedWith(t, err, "ValidationException", "[conventions B16]", `names tenant "acme" besides the item's tenant "mbc"`)
	_, err = query(tenants["acme"], "CATEGORY#mbc#acme")
	refusedWith(t, err, "AccessDeniedException", "[conventions B10]", `names tenant "mbc" too`)
	// A category that is no tenant's stays the item's own.
	_, err = mbc.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("products"),
		Item: product("mbc", "01HX7MBJK3V9WQBZ7XNDK5ZT98", "CATEGORY#mbc#games")})
	require.NoError(t, err)
}

// TestConventionsSeedInsertInTransaction: the guide versions each entity
// for optimistic locking ("SKのバージョンサフィックスで楽観的ロックを有効
// にする"), a version created once: a PartiQL INSERT fails when the item
// exists, which is the framework's create guard (attribute_not_exists(pk)
// AND attribute_not_exists(sk)), so a command row INSERTed is accepted in
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction alike
// (rule B6), many entities at once; a second INSERT of a version fails by
// DynamoDB's own condition.
func TestConventionsSeedInsertInTransaction(t *testing.T) {
	env := newSeedsEnv(t)
	require.NoError(t, env.createTable(cmdTable, nil))
	insert := func(id string, v int) string {
		pk, sk := orderPK, "ORDER#"+id
		return fmt.Sprintf(`INSERT INTO %q VALUE {'pk': '%s', 'sk': '%s@%d', 'id': '%s', 'version': %d, 'tenantCode': '%s'}`,
			cmdTable, pk, sk, v, conventions.GenerateID(pk, sk), v, tenant)
	}
	require.NoError(t, env.statement(env.db, insert("01HX7MBJK3V9WQBZ7XNDK5ZTA1", 1)))
	bout, err := env.db.BatchExecuteStatement(env.ctx, &dynamodb.BatchExecuteStatementInput{Statements: []types.BatchStatementRequest{
		{Statement: aws.String(insert("01HX7MBJK3V9WQBZ7XNDK5ZTA2", 1))}}})
	require.NoError(t, err)
	require.Nil(t, bout.Responses[0].Error)

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("01HX7MBJK3V9WQBZ7XNDK5ZTB%d", i)
			_, err := env.db.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
				{Statement: aws.String(insert(id, 1))}, {Statement: aws.String(insert(id, 2))}}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err, "a command row INSERTed in ExecuteTransaction")
	}
	env.wantNoViolations()

	_, err = env.db.ExecuteTransaction(env.ctx, &dynamodb.ExecuteTransactionInput{TransactStatements: []types.ParameterizedStatement{
		{Statement: aws.String(insert("01HX7MBJK3V9WQBZ7XNDK5ZTB0", 2))}}})
	code, _ := apiError(t, err)
	require.Equal(t, "TransactionCanceledException", code, "the version exists")
	env.wantNoViolations()
}

// ttlSetting is a TTL setting of the master data table as the framework's
// own e2e suite seeds it (publish-async.e2e-spec.ts: putItem of {pk:
// 'MASTER#MBC', sk: 'TTL#<table>', ..., version: 0, attributes: {days:
// 90}}), under the guide's keys ("masterPk("tenant001"); //
// "MASTER#tenant001"", "ttlSk("product"); // "TTL#product"").
func ttlSetting(table string, days int) map[string]av {
	sk := conventions.TTLSK(table)
	return map[string]av{"pk": s(conventions.MasterPK(tenant)), "sk": s(sk), "id": s(conventions.GenerateID(conventions.MasterPK(tenant), sk)),
		"code": s(conventions.MasterPK(tenant) + "#" + sk), "type": s("TTL"), "name": s(sk), "version": n("0"),
		"attributes": &types.AttributeValueMemberM{Value: map[string]av{"days": n(strconv.Itoa(days))}}}
}

// TestConventionsSeedTTLSetting: the guide's "テーブルレベルTTL設定用の
// TTLソートキー" (ttlSk) names a setting TtlService reads from the master
// data table alone; the framework's e2e suite writes such settings straight
// into master-data, with no command row behind them, and that is
// accepted (rule B18 judges the data rows the async path syncs). A master
// setting of another kind, or an order's data row, still needs its
// command row.
func TestConventionsSeedTTLSetting(t *testing.T) {
	env := newSeedsEnv(t)
	for _, name := range []string{"local-demo-master-command", "local-demo-master-data", cmdTable, dataTable} {
		require.NoError(t, env.createTable(name, nil))
	}
	const master = "local-demo-master-data"
	for _, table := range []string{cmdTable, dataTable, histTable} {
		require.NoError(t, env.put(master, ttlSetting(table, 90), ""), "the e2e suite's seeded TTL setting")
	}
	// The same setting as a synced row would carry it, without its
	// command row (a setting restored from another environment).
	synced := ttlSetting("local-demo-log-data", 30)
	synced["version"], synced["cpk"], synced["csk"] = n("1"), synced["pk"], s(synced["sk"].(*types.AttributeValueMemberS).Value+"@1")
	require.NoError(t, env.put(master, synced, ""))
	env.wantNoViolations()

	setting := dataItem(conventions.MasterPK(tenant), "MASTER_SETTING#currency", 1)
	err := env.put(master, setting, "")
	refusedWith(t, err, "ValidationException", "[conventions B18]", "holds no pk")
	err = env.put(dataTable, dataItem(orderPK, orderSK, 1), "")
	refusedWith(t, err, "ValidationException", "[conventions B18]")
}

// historyItem is the history row HistoryService.publish writes of the data
// row at version v: the data row with sk@v and the ttl it computed.
func historyItem(v int, ttl av) map[string]av {
	it := dataItem(orderPK, orderSK, v)
	it["sk"], it["ttl"] = s(fmt.Sprintf("%s@%d", orderSK, v)), ttl
	return it
}

// TestConventionsSeedHistory: the guide's command table "Stores all
// versions with @version suffix", and a version is read back from the
// history by it ("const historicalItem = await historyService.getItem({
// pk, sk: skWithVersion });"): the history records each version the log
// held, once. With the log holding @1 and @2:
//   - a rewrite of history @1 whose ttl goes from NULL to an hour ago
//     (the record would expire at once) is refused (rule B13), while the
//     framework's retried publish, ttl from NULL to now plus its TTL
//     setting's days, is accepted;
//   - a history row @7 is refused (rule B18): the log never held @7;
//   - a publishSync copy (csk the bare sk) is not judged, as 0.1.48-beta.0
//     writes no command row for it.
//
// Enforced, the wrong rows are refused; in warn mode, written and reported.
func TestConventionsSeedHistory(t *testing.T) {
	for _, m := range []struct {
		mode   conventions.Mode
		prefix string
	}{{conventions.ModeEnforce, "local-demo"}, {conventions.ModeWarn, "warn-demo"}} {
		t.Run(m.mode.String(), func(t *testing.T) {
			env := newSeedsEnv(t)
			command, history := m.prefix+"-order-command", m.prefix+"-order-history"
			require.NoError(t, env.createTable(command, nil))
			require.NoError(t, env.createTable(history, nil))
			for v := 1; v <= 2; v++ {
				require.NoError(t, env.put(command, commandItem(orderPK, orderSK, v), createCnd))
			}
			null := &types.AttributeValueMemberNULL{Value: true}
			require.NoError(t, env.put(history, historyItem(1, null), ""))
			env.wantNoViolations()

			hourAgo := n(strconv.FormatInt(seedsNow.Add(-time.Hour).Unix(), 10))
			env.wantRefusedOrReported(m.mode, history, env.put(history, historyItem(1, hourAgo), ""), "ValidationException", "B13")
			if m.mode == conventions.ModeEnforce {
				require.IsType(t, null, env.getItem(history, orderPK, orderSK+"@1")["ttl"], "the refused rewrite left the row")
				require.NoError(t, env.put(history, historyItem(1, n(strconv.FormatInt(seedsNow.AddDate(0, 0, 90).Unix(), 10))), ""),
					"a retried publish after a TTL setting appeared")
			}

			env.e.Reports().ResetConventions()
			seventh := historyItem(7, null)
			env.wantRefusedOrReported(m.mode, history, env.put(history, seventh, ""), "ValidationException", "B18")
			delete(seventh, "csk") // a copy without csk is no better
			seventh["sk"] = s(orderSK + "@8")
			seventh["version"] = n("8")
			env.wantRefusedOrReported(m.mode, history, env.put(history, seventh, ""), "ValidationException", "B18")

			env.e.Reports().ResetConventions()
			sync3 := historyItem(3, null)
			sync3["csk"] = s(orderSK)
			require.NoError(t, env.put(history, sync3, ""), "publishSync's copy")
			env.wantNoViolations()
		})
	}
}

// TestConventionsSeedDataLinks: the guide's data table "Stores latest
// version only (no version suffix)" beside the command table's versions;
// DataService.publish writes cpk and csk on every data row, naming the
// command version it syncs. An UpdateItem that REMOVEs cpk and csk cuts
// the row from its version and is refused (rule A5); one that changes an
// attribute of the row is not this rule's.
func TestConventionsSeedDataLinks(t *testing.T) {
	env := newSeedsEnv(t)
	require.NoError(t, env.createTable(cmdTable, nil))
	require.NoError(t, env.createTable(dataTable, nil))
	env.commandRows(orderPK, orderSK, 1)
	require.NoError(t, env.put(dataTable, dataItem(orderPK, orderSK, 1), ""))
	update := func(expr string) error {
		_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(dataTable),
			Key: map[string]av{"pk": s(orderPK), "sk": s(orderSK)}, UpdateExpression: aws.String(expr)})
		return err
	}
	refusedWith(t, update("REMOVE cpk, csk"), "ValidationException", "[conventions A5] UpdateItem removes cpk", "[conventions A5] UpdateItem removes csk")
	refusedWith(t, update("REMOVE csk"), "ValidationException", "[conventions A5] UpdateItem removes csk")
	require.NotNil(t, env.getItem(dataTable, orderPK, orderSK)["csk"])
	require.NoError(t, update("REMOVE isDeleted"))
}

// TestConventionsSeedTimeSeriesEvent: the guide's time series is "PK:
// LOG#<tenantCode>#<year-month>", "SK: <timestamp>#<eventId>"
// (generateLogKeys: "const sk = `${timestamp.toISOString()}${KEY_SEPARATOR}
// ${eventId}`;"): a sort key with the timestamp alone has no event id and
// is refused (rule A13); two events of one instant would be one row.
func TestConventionsSeedTimeSeriesEvent(t *testing.T) {
	env := newSeedsEnv(t)
	const table = "local-demo-log-data"
	require.NoError(t, env.createTable(table, nil))
	row := func(sk string) map[string]av {
		return map[string]av{"pk": s("LOG#tenant001#2026-11"), "sk": s(sk), "version": n("1"), "tenantCode": s(tenant)}
	}
	require.NoError(t, env.put(table, row("2026-11-22T10:30:00.000Z#evt001"), ""))
	env.wantNoViolations()
	for _, sk := range []string{"2026-11-22T10:30:00.000Z", "2026-11-22T10:30:00.000Z#"} {
		refusedWith(t, env.put(table, row(sk), ""), "ValidationException", "[conventions A13]", "has no event id")
	}
}

// TestConventionsSeedUserTenantCase: the guide keeps user-tenant
// associations under the common tenant ("PK: USER_TENANT#<commonTenant>",
// "SK: <tenantCode>#<userCode>"). A tenant's caller attaching a user to
// another tenant is refused (rule B17) however the prefix is spelt:
// user_tenant#common is the common tenant too, to the tenant guard.
func TestConventionsSeedUserTenantCase(t *testing.T) {
	env := newSeedsEnv(t)
	const table = "local-demo-user-data"
	require.NoError(t, env.createTable(table, nil))
	row := func(pk, sk string) map[string]av {
		_, common, _ := strings.Cut(pk, "#")
		return map[string]av{"pk": s(pk), "sk": s(sk), "version": n("1"), "tenantCode": s(common)}
	}
	t001 := emulatortest.TenantClient(t, env.e, accessKey, "tenant001")
	for _, pk := range []string{"USER_TENANT#common", "user_tenant#common", "User_Tenant#COMMON"} {
		_, err := t001.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: row(pk, "tenant002#user123")})
		refusedWith(t, err, "AccessDeniedException", "[conventions B17]", `names tenant "tenant002"`)
		_, err = t001.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(table), Item: row(pk, "tenant001#user123")})
		require.NoError(t, err, "its own user, under %s", pk)
	}
}

// TestConventionsTaggedWithoutConfiguration: a server started without a
// conventions configuration (no -conventions) checks the tables that opt
// in by their own tags, as the documented way for a setup script to opt
// in without touching the command line: a tagged table's wrong write is
// refused, a warn-tagged table's reported, an untagged table behaves as
// on AWS, and untagging opts a table out.
func TestConventionsTaggedWithoutConfiguration(t *testing.T) {
	e, err := emulator.New(emulator.Options{SharedDB: true})
	require.NoError(t, err)
	env := &convEnv{t: t, ctx: t.Context(), e: e, db: emulatortest.Client(t, e, accessKey)}
	require.NoError(t, env.createTable("tagged-command", map[string]string{conventions.TagRoles: "command"}))
	require.NoError(t, env.createTable("warned-command", map[string]string{conventions.TagRoles: "command", conventions.TagMode: "warn"}))
	require.NoError(t, env.createTable("plain-command", nil))
	wrong := commandItem(orderPK, orderSK, 1)
	wrong["sk"] = s(orderSK) // no @version (rule A3)

	refusedWith(t, env.put("tagged-command", wrong, createCnd), "ValidationException", "[conventions A3]")
	require.NoError(t, env.put("warned-command", wrong, createCnd))
	require.Contains(t, env.reported("warned-command"), "A3")
	require.NoError(t, env.put("plain-command", wrong, createCnd))
	require.Empty(t, env.reported("plain-command"))

	desc, err := env.db.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("tagged-command")})
	require.NoError(t, err)
	_, err = env.db.UntagResource(env.ctx, &dynamodb.UntagResourceInput{ResourceArn: desc.Table.TableArn, TagKeys: []string{conventions.TagRoles}})
	require.NoError(t, err)
	require.NoError(t, env.put("tagged-command", wrong, createCnd), "untagged, it follows AWS")
}
