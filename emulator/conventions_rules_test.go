package emulator_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// TestConventionsTenantGuard: a client bound to a tenant (by the
// x-tenant-code header, or by its access key in the configuration) may
// touch only its tenant's keys and the common tenant's, may not Scan, and a
// cross-tenant caller may do both.
func TestConventionsTenantGuard(t *testing.T) {
	env := newConvEnv(t)
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	common := commandItem("ORDER#common", orderSK, 1)
	common["tenantCode"] = s("common")
	env.mustPut(cmdTable, common, createCnd)

	own := emulatortest.TenantClient(t, env.e, accessKey, tenant)
	other := emulatortest.TenantClient(t, env.e, accessKey, "tenant002")
	key := func(pk string) map[string]av { return map[string]av{"pk": s(pk), "sk": s(orderSK + "@1")} }
	cases := []struct {
		name string
		call func() error
		want string // error code, "" for success
	}{
		{"own tenant GetItem", func() error {
			_, err := own.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(cmdTable), Key: key(orderPK)})
			return err
		}, ""},
		{"common tenant GetItem", func() error {
			_, err := other.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(cmdTable), Key: key("ORDER#common")})
			return err
		}, ""},
		{"other tenant GetItem", func() error {
			_, err := other.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(cmdTable), Key: key(orderPK)})
			return err
		}, "AccessDeniedException"},
		{"other tenant PutItem", func() error {
			_, err := other.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String(cmdTable), Item: commandItem(orderPK, orderSK, 2), ConditionExpression: aws.String(createCnd)})
			return err
		}, "AccessDeniedException"},
		{"other tenant UpdateItem", func() error {
			_, err := other.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(cmdTable), Key: key(orderPK),
				UpdateExpression: aws.String("SET #s = :s"), ExpressionAttributeNames: map[string]string{"#s": "status"},
				ExpressionAttributeValues: map[string]av{":s": s("x")}})
			return err
		}, "AccessDeniedException"},
		{"other tenant DeleteItem", func() error {
			_, err := other.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(cmdTable), Key: key(orderPK)})
			return err
		}, "AccessDeniedException"},
		{"other tenant Query", func() error {
			_, err := other.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String(cmdTable),
				KeyConditionExpression:    aws.String("pk = :pk"),
				ExpressionAttributeValues: map[string]av{":pk": s(orderPK)}})
			return err
		}, "AccessDeniedException"},
		{"own tenant Query", func() error {
			_, err := own.Query(env.ctx, &dynamodb.QueryInput{TableName: aws.String(cmdTable),
				KeyConditionExpression:    aws.String("pk = :pk"),
				ExpressionAttributeValues: map[string]av{":pk": s(orderPK)}})
			return err
		}, ""},
		{"other tenant BatchGetItem", func() error {
			_, err := other.BatchGetItem(env.ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				cmdTable: {Keys: []map[string]av{key("ORDER#common"), key(orderPK)}}}})
			return err
		}, "AccessDeniedException"},
		{"other tenant BatchWriteItem", func() error {
			_, err := other.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				cmdTable: {{DeleteRequest: &types.DeleteRequest{Key: key(orderPK)}}}}})
			return err
		}, "AccessDeniedException"},
		{"other tenant TransactGetItems", func() error {
			_, err := other.TransactGetItems(env.ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: aws.String(cmdTable), Key: key(orderPK)}}}})
			return err
		}, "AccessDeniedException"},
		{"other tenant TransactWriteItems", func() error {
			_, err := other.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{ConditionCheck: &types.ConditionCheck{TableName: aws.String(cmdTable), Key: key(orderPK), ConditionExpression: aws.String("attribute_exists(pk)")}}}})
			return err
		}, "AccessDeniedException"},
		{"tenant-bound Scan", func() error {
			_, err := own.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(cmdTable)})
			return err
		}, "AccessDeniedException"},
		{"access-key-bound caller", func() error {
			bound := emulatortest.Client(t, env.e, "AKIDTENANT002")
			_, err := bound.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(cmdTable)})
			return err
		}, "AccessDeniedException"},
		{"cross-tenant Scan", func() error {
			_, err := emulatortest.TenantClient(t, env.e, "AKIDADMIN", tenant).Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(cmdTable)})
			return err
		}, ""},
		{"unbound Scan", func() error {
			_, err := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(cmdTable)})
			return err
		}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, msg := apiError(t, tc.call())
			if code != tc.want {
				t.Fatalf("got %s %q, want %q", code, msg, tc.want)
			}
			if code != "" && !strings.HasPrefix(msg, "[conventions B10] ") {
				t.Fatalf("message %q does not name rule B10", msg)
			}
		})
	}
	if got := env.getItem(cmdTable, orderPK, orderSK+"@1"); got == nil {
		t.Fatal("the refused writes changed the item")
	}
}

// latestEnv has a partition-key-only table "docs" that keeps the 'latest'
// item of versioned documents, opted in by its tags; way is its latest
// write ("" either way).
func latestEnv(t *testing.T, way string) *convEnv {
	env := newConvEnv(t)
	_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("docs"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("documentVersion"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("documentVersion"), KeyType: types.KeyTypeHash}},
		Tags: []types.Tag{
			{Key: aws.String(conventions.TagRoles), Value: aws.String("")},
			{Key: aws.String(conventions.TagLatest), Value: aws.String("latest")},
			{Key: aws.String(conventions.TagLatestWrite), Value: aws.String(way)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func docPut(version, content string) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String("docs"),
		Item: map[string]av{"documentVersion": s(version), "content": s(content)}}}
}

func latestPut(actual, content string) types.TransactWriteItem {
	return types.TransactWriteItem{Put: &types.Put{TableName: aws.String("docs"),
		Item: map[string]av{"documentVersion": s("latest"), "content": s(content), "actualVersion": s(actual)}}}
}

// TestConventionsLatest: the 'latest' pattern of versioned documents
// (seed 002), kept in step by a transaction: a new version and the latest
// item go together in one TransactWriteItems; a latest item that copies
// something else, or that moves onto a rewritten version, is refused; on
// a table whose latest write is "transaction", a new version alone too.
func TestConventionsLatest(t *testing.T) {
	cases := []struct {
		name  string
		way   string
		items []types.TransactWriteItem
		put   bool // a PutItem of the first item instead
		want  string
	}{
		{"version with latest", "", []types.TransactWriteItem{docPut("v1", "hello"), latestPut("v1", "hello")}, false, ""},
		{"version alone: the conditional way's first write", "", []types.TransactWriteItem{docPut("v1", "hello")}, true, ""},
		{"version alone in a transaction", "transaction", []types.TransactWriteItem{docPut("v1", "hello")}, false, "[conventions L1] new item written without its latest item"},
		{"version alone by PutItem", "transaction", []types.TransactWriteItem{docPut("v1", "hello")}, true, "[conventions L1]"},
		{"latest copies another content", "", []types.TransactWriteItem{docPut("v1", "hello"), latestPut("v1", "bye")}, false, "[conventions L1] latest item's content differs"},
		{"latest points at a version not written", "transaction", []types.TransactWriteItem{docPut("v2", "hello"), latestPut("v1", "hello")}, false,
			"[conventions L1] latest item points at partition key \"v1\", which this transaction does not write"},
		{"latest points elsewhere without a condition", "", []types.TransactWriteItem{docPut("v2", "hello"), latestPut("v1", "hello")}, false,
			"[conventions L1] latest item written apart from the version it copies"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := latestEnv(t, tc.way)
			var err error
			if tc.put {
				_, err = env.db.PutItem(env.ctx, &dynamodb.PutItemInput{TableName: aws.String("docs"), Item: tc.items[0].Put.Item})
			} else {
				_, err = env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: tc.items})
			}
			code, msg := apiError(t, err)
			if tc.want == "" {
				if code != "" {
					t.Fatalf("got %s %q, want success", code, msg)
				}
				return
			}
			if code != "ValidationException" || !strings.Contains(msg, tc.want) {
				t.Fatalf("got %s %q, want ValidationException naming %q", code, msg, tc.want)
			}
			out, _ := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("docs")})
			if len(out.Items) != 0 {
				t.Fatalf("refused transaction wrote %d items", len(out.Items))
			}
		})
	}
}

// TestConventionsTransactAndBatch: a refused write refuses the whole
// transaction or batch; a transaction writing @1 and @2 together does not
// break B5; the framework's create guard in a transaction counts (no B6).
func TestConventionsTransactAndBatch(t *testing.T) {
	env := newConvEnv(t)
	put := func(it map[string]av, cond bool) types.TransactWriteItem {
		p := &types.Put{TableName: aws.String(cmdTable), Item: it}
		if cond {
			p.ConditionExpression = aws.String(createCnd)
		}
		return types.TransactWriteItem{Put: p}
	}
	bad := commandItem(orderPK, "ORDER#B", 1)
	bad["sk"] = s("ORDER#B")
	_, err := env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		put(commandItem(orderPK, "ORDER#A", 1), true), put(bad, true)}})
	if code, msg := apiError(t, err); code != "ValidationException" || !strings.HasPrefix(msg, "[conventions A3]") {
		t.Fatalf("transaction with a bad item: got %s %q", code, msg)
	}
	// A batch put carries no create guard, so it cannot create command
	// rows at all (B6); the data table takes batches.
	_, err = env.db.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		cmdTable: {{PutRequest: &types.PutRequest{Item: commandItem(orderPK, "ORDER#A", 1)}}}}})
	if code, msg := apiError(t, err); code != "ValidationException" || !strings.HasPrefix(msg, "[conventions B6]") {
		t.Fatalf("batch of a command row: got %s %q", code, msg)
	}
	badData := dataItem(orderPK, "ORDER#B", 1)
	badData["sk"] = s("ORDER#B@1")
	env.commandRows(orderPK, "ORDER#C", 1) // the good data row's version (rule B18)
	_, err = env.db.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		dataTable: {{PutRequest: &types.PutRequest{Item: dataItem(orderPK, "ORDER#C", 1)}}, {PutRequest: &types.PutRequest{Item: badData}}}}})
	if code, msg := apiError(t, err); code != "ValidationException" || !strings.HasPrefix(msg, "[conventions A5]") {
		t.Fatalf("batch with a bad item: got %s %q", code, msg)
	}
	if got := env.getItem(cmdTable, orderPK, "ORDER#A@1"); got != nil {
		t.Fatal("a refused transaction or batch wrote its good item")
	}
	if got := env.getItem(dataTable, orderPK, "ORDER#C"); got != nil {
		t.Fatal("a refused batch wrote its good item")
	}
	env.wantReportedOnly(cmdTable, "A3", "B6")

	env2 := newConvEnv(t)
	_, err = env2.db.TransactWriteItems(env2.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		put(commandItem(orderPK, "ORDER#A", 1), true), put(commandItem(orderPK, "ORDER#A", 2), true)}})
	if err != nil {
		t.Fatalf("transaction of @1 and @2: %v", err)
	}
	env2.wantNoViolations()
}

// wantReportedOnly fails unless table's report holds only these rules.
func (env *convEnv) wantReportedOnly(table string, rules ...string) {
	env.t.Helper()
	for _, r := range env.reported(table) {
		if !slices.Contains(rules, r) {
			env.t.Fatalf("reported %v, want only %v", env.reported(table), rules)
		}
	}
}

// TestConventionsOptIn: tables opt in by tags at CreateTable or later by
// TagResource, opt out by UntagResource, and a table that does not opt in
// behaves as on AWS. A key schema the rules refuse (A1) fails CreateTable.
func TestConventionsOptIn(t *testing.T) {
	e, err := emulator.New(emulator.Options{}) // no configuration: tags only
	if err != nil {
		t.Fatal(err)
	}
	env := &convEnv{t: t, ctx: t.Context(), e: e, db: emulatortest.Client(t, e, accessKey)}
	bad := commandItem(orderPK, orderSK, 1)
	bad["sk"] = s(orderSK)

	if err := env.createTable("plain", nil); err != nil {
		t.Fatal(err)
	}
	env.mustPut("plain", bad, "")

	if err := env.createTable("tagged", map[string]string{conventions.TagRoles: "command"}); err != nil {
		t.Fatal(err)
	}
	if code, _ := apiError(t, env.put("tagged", bad, "")); code != "ValidationException" {
		t.Fatalf("tagged table: got %q, want ValidationException", code)
	}

	arn := "arn:aws:dynamodb:us-east-1:000000000000:table/plain"
	if _, err := env.db.TagResource(env.ctx, &dynamodb.TagResourceInput{ResourceArn: aws.String(arn),
		Tags: []types.Tag{{Key: aws.String(conventions.TagRoles), Value: aws.String("command")}}}); err != nil {
		t.Fatal(err)
	}
	if code, _ := apiError(t, env.put("plain", bad, "")); code != "ValidationException" {
		t.Fatalf("after TagResource: got %q, want ValidationException", code)
	}
	if _, err := env.db.UntagResource(env.ctx, &dynamodb.UntagResourceInput{ResourceArn: aws.String(arn),
		TagKeys: []string{conventions.TagRoles}}); err != nil {
		t.Fatal(err)
	}
	env.mustPut("plain", bad, "")

	if err := env.createTable("off", map[string]string{conventions.TagRoles: "command", conventions.TagMode: "off"}); err != nil {
		t.Fatal(err)
	}
	env.mustPut("off", bad, "")
	if got := env.reported("off"); len(got) != 0 {
		t.Fatalf("mode off reported %v", got)
	}

	if code, msg := apiError(t, env.createTable("badtag", map[string]string{conventions.TagRoles: "commando"})); code != "ValidationException" {
		t.Fatalf("bad role tag: got %s %q, want ValidationException", code, msg)
	}
	_, err = env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("idkeyed"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
		Tags:                 []types.Tag{{Key: aws.String(conventions.TagRoles), Value: aws.String("data")}},
	})
	why := " (why: every table of the framework's CLI template is keyed so; the rules read keys as strings)"
	want := "2 conventions violations: [conventions A1] data table partition key is id (S); want pk (S)" + why + "; [conventions A1] data table sort key is none; want sk (S)" + why
	if code, msg := apiError(t, err); code != "ValidationException" || msg != want {
		t.Fatalf("table keyed by id: got %s %q, want ValidationException %q", code, msg, want)
	}
}

// TestDocsConventionsExample keeps docs/conventions.md's copy of
// Example_conventions and its output in step with the example.
func TestDocsConventionsExample(t *testing.T) {
	readme, err := os.ReadFile("../docs/conventions.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_conventions_test.go")
	if err != nil {
		t.Fatal(err)
	}
	ex := string(src)
	body := ex[strings.Index(ex, "func Example_conventions() {"):strings.Index(ex, "\t// Output:")] + "}\n"
	if !strings.Contains(string(readme), body) {
		t.Error("docs/conventions.md does not hold Example_conventions as in example_conventions_test.go")
	}
	var out []string
	for _, l := range strings.Split(ex[strings.Index(ex, "\t// Output:\n")+len("\t// Output:\n"):], "\n") {
		if l, ok := strings.CutPrefix(l, "\t// "); ok {
			out = append(out, l)
		}
	}
	if !strings.Contains(string(readme), "```\n"+strings.Join(out, "\n")+"\n```") {
		t.Error("docs/conventions.md does not hold Example_conventions's output")
	}
}

// TestConventionsPartiQL: ExecuteStatement's INSERT, UPDATE, DELETE and
// SELECT go through the same rules and tenant guard (a SELECT's, by the
// partitions its plan declares to the core's ReadPage: each of an IN
// list's).
func TestConventionsPartiQL(t *testing.T) {
	env := newConvEnv(t)
	other := emulatortest.TenantClient(t, env.e, accessKey, "tenant002")
	own := emulatortest.TenantClient(t, env.e, accessKey, tenant)
	id := conventions.GenerateID(orderPK, orderSK)
	cases := []struct {
		name   string
		client *dynamodb.Client
		stmt   string
		want   string // error message start; "" for success
	}{
		{"insert", env.db, `INSERT INTO "` + cmdTable + `" VALUE {'pk': '` + orderPK + `', 'sk': '` + orderSK + `@1', 'id': '` + id + `', 'version': 1}`, ""},
		{"insert without version", env.db, `INSERT INTO "` + cmdTable + `" VALUE {'pk': '` + orderPK + `', 'sk': '` + orderSK + `', 'version': 1}`, "[conventions A3]"},
		{"update keeps the rules", env.db, `UPDATE "` + cmdTable + `" SET version = 5 WHERE pk = '` + orderPK + `' AND sk = '` + orderSK + `@1'`,
			"2 conventions violations: [conventions A3] command item version 5 differs from its sort key's version 1 (item "},
		{"update status", env.db, `UPDATE "` + cmdTable + `" SET status = 'finish:FINISHED' WHERE pk = '` + orderPK + `' AND sk = '` + orderSK + `@1'`, ""},
		{"select own tenant", own, `SELECT * FROM "` + cmdTable + `" WHERE pk = '` + orderPK + `'`, ""},
		{"select other tenant", other, `SELECT * FROM "` + cmdTable + `" WHERE pk = '` + orderPK + `'`, "[conventions B10]"},
		{"select scan", own, `SELECT * FROM "` + cmdTable + `"`, "[conventions B10]"},
		{"select own and another tenant", own, `SELECT * FROM "` + cmdTable + `" WHERE pk IN ['` + orderPK + `', 'ORDER#tenant002']`, "[conventions B10]"},
		{"select own partitions", own, `SELECT * FROM "` + cmdTable + `" WHERE pk IN ['` + orderPK + `', 'CUSTOMER#tenant001']`, ""},
		{"delete other tenant", other, `DELETE FROM "` + cmdTable + `" WHERE pk = '` + orderPK + `' AND sk = '` + orderSK + `@1'`, "[conventions B10]"},
		{"delete own command row", own, `DELETE FROM "` + cmdTable + `" WHERE pk = '` + orderPK + `' AND sk = '` + orderSK + `@1'`, "[conventions B12]"},
	}
	for _, tc := range cases {
		_, err := tc.client.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{Statement: aws.String(tc.stmt)})
		_, msg := apiError(t, err)
		if (tc.want == "") != (err == nil) || !strings.HasPrefix(msg, tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestConventionsSequenceDown: a counter set below its value is refused
// (A8), except back to 1, as the framework's older genNewSequence resets a
// rotated counter.
func TestConventionsSequenceDown(t *testing.T) {
	env := newConvEnv(t)
	for range 3 {
		env.nextSeq("SEQ#"+tenant, "order#2026")
	}
	set := func(v string) error {
		_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(seqTable),
			Key:              map[string]av{"pk": s("SEQ#" + tenant), "sk": s("order#2026")},
			UpdateExpression: aws.String("SET #seq = :v"), ExpressionAttributeNames: map[string]string{"#seq": "seq"},
			ExpressionAttributeValues: map[string]av{":v": n(v)}})
		return err
	}
	want := "[conventions A8] seq goes from 3 to 2; counters move by one UpdateItem if_not_exists(seq, 0) + 1 at a time (or back to 1)" +
		` (item pk="SEQ#tenant001" sk="order#2026"; why: ` + mustRule(t, "A8").Why + ")"
	if code, msg := apiError(t, set("2")); code != "ValidationException" || msg != want {
		t.Fatalf("got %s %q, want ValidationException %q", code, msg, want)
	}
	if got := env.nextSeq("SEQ#"+tenant, "order#2026"); got != "4" {
		t.Fatalf("next sequence: got %s, want 4", got)
	}
	if err := set("1"); err != nil {
		t.Fatalf("reset to 1: %v", err)
	}
	if got := env.nextSeq("SEQ#"+tenant, "order#2026"); got != "2" {
		t.Fatalf("next sequence after the reset: got %s, want 2", got)
	}
}

// TestConventionsStrict: a table's strict list makes warn-only rules
// refuse: A12 (an upper case tenant) a write, A11 (no NEW_IMAGE stream)
// the CreateTable.
func TestConventionsStrict(t *testing.T) {
	env := newConvEnv(t)
	const table = "local-strict-command"
	if err := env.createTable(table, nil); err != nil {
		t.Fatal(err)
	}
	upper := commandItem("ORDER#MBC", orderSK, 1)
	upper["tenantCode"] = s("MBC")
	want := `[conventions A12] command partition key "ORDER#MBC" has tenant "MBC", not lower case "mbc"` +
		` (item pk="ORDER#MBC" sk="` + orderSK + `@1"; why: ` + mustRule(t, "A12").Why + ")"
	if code, msg := apiError(t, env.put(table, upper, createCnd)); code != "ValidationException" || msg != want {
		t.Errorf("got %s %q, want ValidationException %q", code, msg, want)
	}
	env.mustPut(table, commandItem(orderPK, orderSK, 1), createCnd)

	_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{
		TableName: aws.String("local-strict-nostream-command"), BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}},
	})
	if code, msg := apiError(t, err); code != "ValidationException" || !strings.HasPrefix(msg, "[conventions A11]") {
		t.Errorf("strict A11 without a stream: got %s %q, want ValidationException [conventions A11]", code, msg)
	}
	if _, err := env.db.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String("local-strict-nostream-command")}); err == nil {
		t.Errorf("a refused CreateTable created the table")
	}
}

// TestConventionsCommandStream: rule A11 warns about a command table
// without a NEW_IMAGE stream, at CreateTable and after UpdateTable, and
// never refuses the request.
func TestConventionsCommandStream(t *testing.T) {
	env := newConvEnv(t)
	const name = "local-demo-nostream-command"
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange},
		},
	}
	if _, err := env.db.CreateTable(env.ctx, in); err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	if got := env.reported(name); len(got) != 1 || got[0] != "A11" {
		t.Fatalf("after CreateTable without a stream: reported %v, want [A11]", got)
	}
	// A KEYS_ONLY stream has no NewImage either.
	if _, err := env.db.UpdateTable(env.ctx, &dynamodb.UpdateTableInput{TableName: aws.String(name),
		StreamSpecification: &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeKeysOnly}}); err != nil {
		t.Fatalf("UpdateTable: %v", err)
	}
	if got := env.reported(name); len(got) != 2 || got[0] != "A11" {
		t.Fatalf("after a KEYS_ONLY stream: reported %v, want [A11 A11]", got)
	}
	// The framework's own tables (NEW_IMAGE, created by newConvEnv) report nothing.
	if got := env.reported(cmdTable); len(got) != 0 {
		t.Errorf("%s: reported %v, want nothing", cmdTable, got)
	}
}
