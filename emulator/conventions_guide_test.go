package emulator_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// The guide's rules through the emulator: each with the framework's (or
// the guide's) shape accepted and a wrong shape refused, a refusal naming
// its item, position and reason, and the report and the log saying what
// is checked.

// guideConfig opts in the tables of these tests.
const guideConfig = `{
  "tables": [
    {"match": "*-command", "role": "command"},
    {"match": "*-data", "role": "data"},
    {"match": "*-log-data", "role": "data", "tenantSegment": 1, "monthSegment": 2},
    {"match": "*-user-data", "role": "data", "enable": ["B14"]},
    {"match": "*-note-command", "role": "command", "updatable": ["status", "taskToken", "updatedAt", "note"]},
    {"match": "*sequences", "role": "sequences", "sequenceStart": {"INVOICE#*": 1001}},
    {"match": "*master-data", "role": "master+data"},
    {"match": "warn-*", "role": "command", "mode": "warn"},
    {"match": "strict-*-data", "role": "data", "strict": ["A14"]},
    {"match": "Blog", "design": true},
    {"match": "*-comand", "role": "command"}
  ]
}`

// syncBuffer is a log destination the handler goroutines may write to.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type guideEnv struct {
	*convEnv
	log *syncBuffer
	url string
}

func newGuideEnv(t *testing.T) *guideEnv {
	t.Helper()
	cfg, err := conventions.ParseConfig([]byte(guideConfig))
	require.NoError(t, err)
	log := &syncBuffer{}
	e, err := emulator.New(emulator.Options{Conventions: &cfg, SharedDB: true,
		Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelInfo}))})
	require.NoError(t, err)
	srv := httptest.NewServer(e.Handler())
	t.Cleanup(srv.Close)
	env := &guideEnv{convEnv: &convEnv{t: t, ctx: t.Context(), e: e, db: emulatortest.Client(t, e, accessKey)}, log: log, url: srv.URL}
	return env
}

// refusedWith asserts err is a conventions refusal of class code naming
// every want (rule ids, positions, messages).
func refusedWith(t *testing.T, err error, code string, want ...string) string {
	t.Helper()
	got, msg := apiError(t, err)
	require.Equal(t, code, got, msg)
	for _, w := range want {
		require.Contains(t, msg, w)
	}
	return msg
}

func TestConventionsTimeSeries(t *testing.T) {
	env := newGuideEnv(t)
	const table = "local-demo-log-data"
	require.NoError(t, env.createTable(table, nil))
	row := func(pk string) map[string]av {
		return map[string]av{"pk": s(pk), "sk": s("2026-11-22T11:00:00.000Z#evt001"), "version": n("1"), "tenantCode": s(tenant)}
	}
	env.mustPut(table, row("LOG#tenant001#2026-11"), "") // the guide's shape
	for _, pk := range []string{"LOG#tenant001", "LOG#tenant001#2026-11-22", "LOG#tenant001#202611", "LOG#2026-11#tenant001"} {
		item := row(pk)
		if pk == "LOG#2026-11#tenant001" {
			delete(item, "tenantCode")
		}
		refusedWith(t, env.put(table, item, ""), "ValidationException", "[conventions A13]", "why: the guide's LOG#<tenant>#<YYYY-MM>")
	}
	require.Len(t, env.getItems(table), 1, "nothing refused was written")
}

func TestConventionsCommandUpdatable(t *testing.T) {
	env := newGuideEnv(t)
	const notes = "local-demo-note-command"
	for _, name := range []string{cmdTable, notes} {
		require.NoError(t, env.createTable(name, nil))
		env.mustPut(name, commandItem(orderPK, orderSK, 1), createCnd)
	}
	update := func(table, expr string, values map[string]av) error {
		_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table),
			Key: map[string]av{"pk": s(orderPK), "sk": s(orderSK + "@1")}, UpdateExpression: aws.String(expr), ExpressionAttributeValues: values})
		return err
	}
	env.updateStatus(orderPK, orderSK+"@1", "finish:FINISHED") // the framework's updateStatus
	require.NoError(t, update(cmdTable, "SET taskToken = :t", map[string]av{":t": s("token")}))
	refusedWith(t, update(cmdTable, "SET attributes = :v", map[string]av{":v": n("1")}), "ValidationException",
		"[conventions B7] UpdateItem changes the command row's attributes; an update may change only status, taskToken, updatedAt")
	refusedWith(t, update(cmdTable, "SET note = :v", map[string]av{":v": s("x")}), "ValidationException", "[conventions B7]")
	require.NoError(t, update(notes, "SET note = :v", map[string]av{":v": s("x")}), "a table lists its own updatable attributes")
	refusedWith(t, update(notes, "SET attributes = :v", map[string]av{":v": s("x")}), "ValidationException", "[conventions B7]")
}

// getItems scans table.
func (env *convEnv) getItems(table string) []map[string]av {
	env.t.Helper()
	out, err := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(table)})
	require.NoError(env.t, err)
	return out.Items
}

func TestConventionsCommonTenantWrites(t *testing.T) {
	env := newGuideEnv(t)
	const users = "local-demo-user-data"
	require.NoError(t, env.createTable(users, nil))
	row := func(pk string, tenantCode string) map[string]av {
		return map[string]av{"pk": s(pk), "sk": s("sso#u1"), "version": n("1"), "tenantCode": s(tenantCode)}
	}
	admin := env.db // bound to no tenant: the shared data's writer
	own := emulatortest.TenantClient(t, env.e, accessKey, tenant)
	_, err := admin.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(users), Item: row("USER#common", "common")})
	require.NoError(t, err)
	_, err = own.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(users), Item: row("USER#"+tenant, tenant)})
	require.NoError(t, err)
	_, err = own.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(users), Key: map[string]av{"pk": s("USER#common"), "sk": s("sso#u1")}})
	require.NoError(t, err, "reading the common tenant stays allowed")
	_, err = own.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(users), Item: row("USER#common", "common")})
	refusedWith(t, err, "AccessDeniedException", "[conventions B14]", `caller bound to tenant "tenant001" writes the common tenant "common"`)
	_, err = own.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(users), Key: map[string]av{"pk": s("USER#common"), "sk": s("sso#u1")}})
	refusedWith(t, err, "AccessDeniedException", "[conventions B14]")
	// A table that does not enable it lets the framework's guard decide.
	require.NoError(t, env.createTable(dataTable, nil))
	_, err = own.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(dataTable), Item: row("USER#common", "common")})
	require.NoError(t, err)
}

func TestConventionsVersionedReads(t *testing.T) {
	env := newGuideEnv(t)
	const strict = "strict-order-data"
	for _, name := range []string{dataTable, strict} {
		require.NoError(t, env.createTable(name, nil))
		env.mustPut(name, dataItem(orderPK, orderSK, 1), "")
	}
	get := func(table, sk string) error {
		_, err := env.db.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(table), Key: map[string]av{"pk": s(orderPK), "sk": s(sk)}})
		return err
	}
	require.NoError(t, get(dataTable, orderSK))
	require.NoError(t, get(dataTable, orderSK+"@1"), "a warning refuses no read")
	_, err := env.db.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String(dataTable),
		KeyConditionExpression:    aws.String("pk = :pk AND sk = :sk"),
		ExpressionAttributeValues: map[string]av{":pk": s(orderPK), ":sk": s(orderSK + "@1")}})
	require.NoError(t, err)
	_, err = env.db.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
		dataTable: {Keys: []map[string]av{{"pk": s(orderPK), "sk": s(orderSK + "@1")}}}}})
	require.NoError(t, err)
	var ops []string
	for _, e := range env.e.Reports().Conventions().Tables[0].Entries {
		require.Equal(t, "A14", e.Rule)
		require.Equal(t, conventions.SeverityWarn, e.Severity)
		ops = append(ops, e.Operation)
	}
	require.Equal(t, []string{"BatchGetItem", "Query", "GetItem"}, ops, "each read reported, most recent first")
	refusedWith(t, get(strict, orderSK+"@1"), "ValidationException", "[conventions A14] GetItem reads the data table with sort key")
}

func TestConventionsMasterAndSeparators(t *testing.T) {
	env := newGuideEnv(t)
	const master = "local-demo-master-data"
	require.NoError(t, env.createTable(master, nil))
	row := func(sk string) map[string]av {
		return map[string]av{"pk": s("MASTER#" + tenant), "sk": s(sk), "version": n("1"), "tenantCode": s(tenant)}
	}
	for _, sk := range []string{"DATA#product_category#electronics", "MASTER_SETTING#currency", "TTL#local-demo-order-data"} {
		env.mustPut(master, row(sk), "")
	}
	env.wantNoViolations()
	for _, sk := range []string{"electronics", "DATA#electronics", "DATA#product-category:electronics#x"} {
		env.mustPut(master, row(sk), "") // warnings: written and reported
	}
	require.ElementsMatch(t, []string{"A16", "A16", "A15"}, env.reported(master))
}

func TestConventionsSequenceStart(t *testing.T) {
	env := newGuideEnv(t)
	require.NoError(t, env.createTable(seqTable, nil))
	put := func(sk, seq string) error {
		return env.put(seqTable, map[string]av{"pk": s("SEQ#" + tenant), "sk": s(sk), "seq": n(seq)}, "")
	}
	require.NoError(t, put("INVOICE#2026", "1001"), "pre-seeded at the declared start")
	require.Equal(t, "1002", env.nextSeq("SEQ#"+tenant, "INVOICE#2026"))
	refusedWith(t, put("INVOICE#2027", "5000"), "ValidationException", "[conventions A8]", "declared start is 1001")
	refusedWith(t, put("ORDER#2026", "1001"), "ValidationException", "[conventions A8] PutItem writes seq")
}

// TestConventionsBatchNamesEveryItem: a refused BatchWriteItem names each
// item that broke a rule, with its position, and writes none.
func TestConventionsBatchNamesEveryItem(t *testing.T) {
	env := newGuideEnv(t)
	require.NoError(t, env.createTable(dataTable, nil))
	good := dataItem(orderPK, orderSK, 1)
	bad1 := dataItem(orderPK, orderSK+"2", 1)
	bad1["sk"] = s(orderSK + "2@1")
	bad2 := dataItem("ORDER", orderSK+"3", 1)
	_, err := env.db.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		dataTable: {{PutRequest: &types.PutRequest{Item: good}}, {PutRequest: &types.PutRequest{Item: bad1}}, {PutRequest: &types.PutRequest{Item: bad2}}}}})
	msg := refusedWith(t, err, "ValidationException", "conventions violations",
		`[conventions A5]`, `item RequestItems["local-demo-order-data"][1] pk="ORDER#tenant001"`,
		`[conventions A2]`, `item RequestItems["local-demo-order-data"][2] pk="ORDER"`, "why: ")
	require.NotContains(t, msg, "[0]")
	require.Empty(t, env.getItems(dataTable))
	var positions []string
	for _, e := range env.e.Reports().Conventions().Tables[0].Entries {
		require.NotEmpty(t, e.RequestID)
		require.NotEmpty(t, e.Reason)
		positions = append(positions, e.Position)
	}
	require.Contains(t, positions, `RequestItems["local-demo-order-data"][1]`)
	require.Contains(t, positions, `RequestItems["local-demo-order-data"][2]`)

	// A transaction too: TransactItems[i].
	_, err = env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: aws.String(dataTable), Item: good}},
		{Put: &types.Put{TableName: aws.String(dataTable), Item: bad1}}}})
	refusedWith(t, err, "ValidationException", `[conventions A5]`, `item TransactItems[1] pk=`)
}

// TestConventionsLatestConditional: seed 002's second way. The version is
// written alone, then the latest item by a write whose condition fails
// when it moved.
func TestConventionsLatestConditional(t *testing.T) {
	env := latestEnv(t, "")
	doc := func(v, content string) map[string]av {
		return map[string]av{"documentVersion": s(v), "content": s(content)}
	}
	latest := func(v, content string) map[string]av {
		it := doc("latest", content)
		it["actualVersion"] = s(v)
		return it
	}
	put := func(item map[string]av, cond string, values map[string]av) error {
		in := &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: item, ExpressionAttributeValues: values}
		if cond != "" {
			in.ConditionExpression = aws.String(cond)
		}
		_, err := env.db.PutItem(env.ctx, in)
		return err
	}
	require.NoError(t, put(doc("v1", "hello"), "attribute_not_exists(documentVersion)", nil))
	require.NoError(t, put(latest("v1", "hello"), "attribute_not_exists(documentVersion)", nil), "the first latest item")
	require.NoError(t, put(doc("v2", "hello again"), "attribute_not_exists(documentVersion)", nil))
	refusedWith(t, put(latest("v2", "hello again"), "", nil), "ValidationException",
		"[conventions L1] latest item written apart from the version it copies", "add actualVersion = :seen")
	_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String("docs"),
		Key:                       map[string]av{"documentVersion": s("latest")},
		UpdateExpression:          aws.String("SET content = :c, actualVersion = :v"),
		ConditionExpression:       aws.String("actualVersion = :seen"),
		ExpressionAttributeValues: map[string]av{":c": s("hello again"), ":v": s("v2"), ":seen": s("v1")}})
	require.NoError(t, err, "moved on, conditioned on where it pointed")
	// Another writer that read v1 loses: DynamoDB's own condition.
	err = put(latest("v3", "x"), "actualVersion = :seen", map[string]av{":seen": s("v1")})
	code, _ := apiError(t, err)
	require.Equal(t, "ConditionalCheckFailedException", code)
	// The version latest points at is not rewritten, alone or with latest.
	refusedWith(t, put(doc("v2", "edited"), "", nil), "ValidationException", `[conventions L1] PutItem rewrites partition key "v2"`)
	_, err = env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		docPut("v1", "edited"), latestPut("v1", "edited")}})
	refusedWith(t, err, "ValidationException", `[conventions L1] PutItem rewrites the existing version partition key "v1"`, "TransactItems[0]")
	_, err = env.db.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String("docs"), Key: map[string]av{"documentVersion": s("latest")}})
	refusedWith(t, err, "ValidationException", "[conventions L1] DeleteItem deletes the latest item")
}

// TestConventionsDesign: seed 001's table with its design declared; a
// like without its Like_ prefix is refused with the templates compared.
func TestConventionsDesign(t *testing.T) {
	env := newGuideEnv(t)
	design, err := os.ReadFile("../internal/insights/testdata/blog.design")
	require.NoError(t, err)
	require.NoError(t, env.e.Reports().SetDesign(design))
	str := func(name string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(name), AttributeType: types.ScalarAttributeTypeS}
	}
	gsi := func(name, pk, sk string) types.GlobalSecondaryIndex {
		return types.GlobalSecondaryIndex{IndexName: aws.String(name), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
			KeySchema: []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}, {AttributeName: aws.String(sk), KeyType: types.KeyTypeRange}}}
	}
	_, err = env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{TableName: aws.String("Blog"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{str("PK"), str("SK_GSI1PK"), str("GSI1SK_GSI2SK_GSI3SK"), str("GSI2PK"), str("GSI3PK")},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}, {AttributeName: aws.String("SK_GSI1PK"), KeyType: types.KeyTypeRange}},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{gsi("GSI1", "SK_GSI1PK", "GSI1SK_GSI2SK_GSI3SK"),
			gsi("GSI2", "GSI2PK", "GSI1SK_GSI2SK_GSI3SK"), gsi("GSI3", "GSI3PK", "GSI1SK_GSI2SK_GSI3SK")}})
	require.NoError(t, err)
	put := func(item map[string]av) error {
		_, err := env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("Blog"), Item: item})
		return err
	}
	require.NoError(t, put(map[string]av{"PK": s("77fcab6b"), "SK_GSI1PK": s("post"), "GSI1SK_GSI2SK_GSI3SK": s("Post_2021-12-03T10:06:57.650Z"),
		"GSI2PK": s("和田哲也"), "GSI3PK": s("データベース"), "content": s("この記事の目的は…")}))
	require.NoError(t, put(map[string]av{"PK": s("6b9b9319"), "SK_GSI1PK": s("77fcab6b"), "GSI1SK_GSI2SK_GSI3SK": s("Like_2021-12-03T10:12:45.033Z"), "like_author": s("山田太郎")}))
	refusedWith(t, put(map[string]av{"PK": s("6b9b9320"), "SK_GSI1PK": s("77fcab6b"), "GSI1SK_GSI2SK_GSI3SK": s("2021-12-03T10:12:45.033Z")}),
		"ValidationException", "[conventions D1] item matches no entity of the table's design; compared with Post (PK={id}",
		"Like (PK={id} SK_GSI1PK={post_id} GSI1SK_GSI2SK_GSI3SK=Like_{created_at})")
}

// TestConventionsVisible: the log names each table's role and mode and
// a table no entry matches; GET /dynamoemu/report says which reports
// collect (not zeros without -report); GET /dynamoemu/conventions lists
// the tables checked and the entries that match none.
func TestConventionsVisible(t *testing.T) {
	env := newGuideEnv(t)
	require.NoError(t, env.createTable(cmdTable, nil))
	require.NoError(t, env.createTable("local-demo-order-comand-typo", nil))
	require.NoError(t, env.createTable("tagged", map[string]string{conventions.TagRoles: "keys", conventions.TagMode: "warn"}))
	log := env.log.String()
	require.Contains(t, log, `msg="conventions entry" match=*-command roles=command mode=enforce`)
	require.Contains(t, log, `msg="conventions table" table=local-demo-order-command roles=command mode=enforce source=*-command`)
	require.Contains(t, log, `msg="conventions table" table=tagged roles=keys mode=warn source=tags`)
	require.Contains(t, log, `msg="conventions: table matches no configuration entry, not checked" op=CreateTable`)
	require.Regexp(t, `table=local-demo-order-comand-typo entries_matching_no_table=".*\*-comand.*"`, log)

	get := func(path string) map[string]any {
		res, err := http.Get(env.url + path)
		require.NoError(t, err)
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		var out map[string]any
		require.NoError(t, json.Unmarshal(body, &out), string(body))
		return out
	}
	rep := get(adminpath.Report)
	require.Equal(t, false, rep["reporting"])
	require.Contains(t, rep["note"], "not collecting: start dynamoemu with -report")
	require.Empty(t, rep["namespaces"], "no zeros")
	reports := rep["reports"].(map[string]any)
	require.Equal(t, map[string]any{"collecting": false, "path": "/dynamoemu/report"}, reports["accessPatterns"])
	require.Equal(t, map[string]any{"collecting": true, "path": "/dynamoemu/conventions", "tables": float64(2)}, reports["conventions"])
	res, err := http.Get(env.url + adminpath.Report + "?format=text")
	require.NoError(t, err)
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Contains(t, string(text), "not collecting")
	env.e.Reports().SetReporting(true)
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	rep = get(adminpath.Report)
	require.Nil(t, rep["note"])
	require.NotEmpty(t, rep["namespaces"])

	conv := get(adminpath.Conventions)
	require.Equal(t, []any{
		map[string]any{"table": cmdTable, "roles": "command", "mode": "enforce", "source": "*-command"},
		map[string]any{"table": "tagged", "roles": "keys", "mode": "warn", "source": "tags"},
	}, conv["checked"])
	unmatched := map[string]bool{}
	for _, e := range conv["config"].([]any) {
		e := e.(map[string]any)
		if e["tables"].(float64) == 0 {
			unmatched[e["match"].(string)] = true
		}
	}
	require.True(t, unmatched["*-comand"])
	require.False(t, unmatched["*-command"])
}

// TestConventionsExemptCase: exempt matches case unless told otherwise.
func TestConventionsExemptCase(t *testing.T) {
	cfg, err := conventions.ParseConfig([]byte(`{"tables": [
		{"match": "exact-command", "role": "command", "exempt": ["test"]},
		{"match": "fold-command", "role": "command", "exempt": ["test"], "exemptIgnoreCase": true}]}`))
	require.NoError(t, err)
	e, err := emulator.New(emulator.Options{Conventions: &cfg})
	require.NoError(t, err)
	env := &convEnv{t: t, ctx: t.Context(), e: e, db: emulatortest.Client(t, e, accessKey)}
	for _, name := range []string{"exact-command", "fold-command"} {
		require.NoError(t, env.createTable(name, nil))
		require.NoError(t, env.put(name, map[string]av{"pk": s("test"), "sk": s("1700000000")}, ""))
	}
	refusedWith(t, env.put("exact-command", map[string]av{"pk": s("TEST"), "sk": s("1700000000")}, ""), "ValidationException", "[conventions A2]")
	require.NoError(t, env.put("fold-command", map[string]av{"pk": s("TEST"), "sk": s("1700000000")}, ""))
}
