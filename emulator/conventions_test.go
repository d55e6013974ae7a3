package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// The conventions layer is emulator-only behaviour (DynamoDB has no such
// checks), so these tests run here and not in conformance/: they walk the
// exact calls mbc-cqrs-serverless makes (shared/mbc-conventions.md §2 and
// §4) on tables that opt in, and break each rule once.

type av = types.AttributeValue

func s(v string) av { return &types.AttributeValueMemberS{Value: v} }
func n(v string) av { return &types.AttributeValueMemberN{Value: v} }

const (
	cmdTable  = "local-demo-order-command"
	dataTable = "local-demo-order-data"
	histTable = "local-demo-order-history"
	seqTable  = "local-demo-sequences"
	mstTable  = "local-demo-master-command"
	createCnd = "attribute_not_exists(pk) AND attribute_not_exists(sk)"
	tenant    = "tenant001"
	orderPK   = "ORDER#" + tenant
	orderSK   = "ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M"
	accessKey = "AKIDCONVENTIONS"
)

// convConfig is the configuration of the tests: the framework's four table
// kinds by name pattern, the demo tables enforced.
func convConfig() *conventions.Config {
	return &conventions.Config{
		Tables: []conventions.TableConfig{
			{Match: "local-strict-*", Policy: conventions.Policy{Roles: conventions.RoleCommand, Strict: []string{"A11", "A12"}}},
			{Match: "*master-command", Policy: conventions.Policy{Roles: conventions.RoleMaster | conventions.RoleCommand}},
			{Match: "*-command", Policy: conventions.Policy{Roles: conventions.RoleCommand}},
			{Match: "*-log-data", Policy: conventions.Policy{Roles: conventions.RoleData, TenantSegment: 1}},
			{Match: "*-data", Policy: conventions.Policy{Roles: conventions.RoleData}},
			{Match: "*-history", Policy: conventions.Policy{Roles: conventions.RoleHistory}},
			{Match: "*sequences", Policy: conventions.Policy{Roles: conventions.RoleSequences}},
			{Match: "warn-*", Policy: conventions.Policy{Roles: conventions.RoleCommand, Mode: conventions.ModeWarn}},
		},
		Callers:     map[string]string{"AKIDTENANT002": "tenant002"},
		CrossTenant: []string{"AKIDADMIN"},
	}
}

type convEnv struct {
	t   *testing.T
	ctx context.Context
	e   *emulator.Emulator
	db  *dynamodb.Client
}

func newConvEnv(t *testing.T) *convEnv {
	t.Helper()
	return newConvEnvClock(t, nil)
}

// newConvEnvClock is newConvEnv with the emulator's clock (nil: the real one).
func newConvEnvClock(t *testing.T, clock func() time.Time) *convEnv {
	t.Helper()
	// One database for every access key: the tenant guard's callers are
	// told apart by their keys.
	e, err := emulator.New(emulator.Options{Conventions: convConfig(), SharedDB: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	env := &convEnv{t: t, ctx: context.Background(), e: e, db: emulatortest.Client(t, e, accessKey)}
	for _, name := range []string{cmdTable, dataTable, histTable, seqTable, mstTable} {
		env.createTable(name, nil)
	}
	return env
}

// createTable creates a pk/sk table as the framework's migration does.
func (env *convEnv) createTable(name string, tags map[string]string) error {
	env.t.Helper()
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
	if strings.HasSuffix(name, "-command") { // as the framework's cqrs_desc.json has it
		in.StreamSpecification = &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage}
	}
	for k, v := range tags {
		in.Tags = append(in.Tags, types.Tag{Key: aws.String(k), Value: aws.String(v)})
	}
	_, err := env.db.CreateTable(env.ctx, in)
	return err
}

// commandItem is a command row as publishAsync writes it.
func commandItem(pk, base string, version int) map[string]av {
	return map[string]av{
		"pk": s(pk), "sk": s(fmt.Sprintf("%s@%d", base, version)),
		"id": s(conventions.GenerateID(pk, base)), "code": s("01HX7MBJK3V9WQBZ7XNDK5ZT2M"),
		"name": s("order"), "version": n(fmt.Sprint(version)), "tenantCode": s(tenant),
		"type": s("ORDER"), "isDeleted": &types.AttributeValueMemberBOOL{Value: false},
		"status": s("publish_async:STARTED"), "ttl": &types.AttributeValueMemberNULL{Value: true},
		"attributes": &types.AttributeValueMemberM{Value: map[string]av{"total": n("1200")}},
	}
}

// dataItem is the data row DataService.publish writes for a command row.
func dataItem(pk, base string, version int) map[string]av {
	it := commandItem(pk, base, version)
	it["sk"] = s(base)
	it["cpk"] = s(pk)
	it["csk"] = s(fmt.Sprintf("%s@%d", base, version))
	return it
}

func (env *convEnv) put(table string, item map[string]av, cond string) error {
	in := &dynamodb.PutItemInput{TableName: aws.String(table), Item: item, ReturnValues: types.ReturnValueNone}
	if cond != "" {
		in.ConditionExpression = aws.String(cond)
	}
	_, err := env.db.PutItem(env.ctx, in)
	return err
}

// commandRows publishes versions 1..upTo of (pk, base) to the command
// table, each with the create guard: what a data row of those versions
// needs behind it (rule B18).
func (env *convEnv) commandRows(pk, base string, upTo int) {
	env.t.Helper()
	for v := 1; v <= upTo; v++ {
		env.mustPut(cmdTable, commandItem(pk, base, v), createCnd)
	}
}

func (env *convEnv) mustPut(table string, item map[string]av, cond string) {
	env.t.Helper()
	if err := env.put(table, item, cond); err != nil {
		env.t.Fatalf("PutItem %s: %v", table, err)
	}
}

func (env *convEnv) getItem(table, pk, sk string) map[string]av {
	env.t.Helper()
	out, err := env.db.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String(table),
		Key: map[string]av{"pk": s(pk), "sk": s(sk)}})
	if err != nil {
		env.t.Fatalf("GetItem: %v", err)
	}
	return out.Item
}

// latestVersion is the framework's getLatestItem probe: GetItem from
// data.version+5 stepping up by 5 while rows exist, then down by 1.
func (env *convEnv) latestVersion(pk, base string, dataVersion int) int {
	v := dataVersion + 5
	for env.getItem(cmdTable, pk, fmt.Sprintf("%s@%d", base, v)) != nil {
		v += 5
	}
	for v > 0 && env.getItem(cmdTable, pk, fmt.Sprintf("%s@%d", base, v)) == nil {
		v--
	}
	return v
}

// updateStatus is CommandService.updateStatus.
func (env *convEnv) updateStatus(pk, sk, status string) {
	env.t.Helper()
	out, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(cmdTable),
		Key:                       map[string]av{"pk": s(pk), "sk": s(sk)},
		UpdateExpression:          aws.String(" SET #status=:status, #updatedAt=:updatedAt"),
		ExpressionAttributeNames:  map[string]string{"#status": "status", "#updatedAt": "updatedAt"},
		ExpressionAttributeValues: map[string]av{":status": s(status), ":updatedAt": s("2026-01-01T09:00:00+09:00")},
		ReturnValues:              types.ReturnValueAllNew,
	})
	if err != nil {
		env.t.Fatalf("updateStatus: %v", err)
	}
	if got := out.Attributes["status"].(*types.AttributeValueMemberS).Value; got != status {
		env.t.Fatalf("updateStatus: got status %q, want %q", got, status)
	}
}

// nextSeq is SequencesService's counter: one UpdateItem, no condition,
// ALL_NEW.
func (env *convEnv) nextSeq(pk, sk string) string {
	env.t.Helper()
	out, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{
		TableName:                aws.String(seqTable),
		Key:                      map[string]av{"pk": s(pk), "sk": s(sk)},
		UpdateExpression:         aws.String(" SET #seq=if_not_exists(#seq, :seqInitVal) + :seqIncrementBy, #createdAt=if_not_exists(#createdAt, :createdAtInitVal), #updatedAt=:updatedAt"),
		ExpressionAttributeNames: map[string]string{"#seq": "seq", "#createdAt": "createdAt", "#updatedAt": "updatedAt"},
		ExpressionAttributeValues: map[string]av{":seqInitVal": n("0"), ":seqIncrementBy": n("1"),
			":createdAtInitVal": s("2026-01-01"), ":updatedAt": s("2026-01-01")},
		ReturnValues: types.ReturnValueAllNew,
	})
	if err != nil {
		env.t.Fatalf("sequence: %v", err)
	}
	return out.Attributes["seq"].(*types.AttributeValueMemberN).Value
}

// wantNoViolations fails when the report has any violation.
func (env *convEnv) wantNoViolations() {
	env.t.Helper()
	for _, tr := range env.e.Reports().Conventions().Tables {
		env.t.Errorf("table %s: unexpected violations %v: %v", tr.Table, tr.Counts, tr.Entries)
	}
}

// reported returns the rules reported for table, most recent first.
func (env *convEnv) reported(table string) []string {
	var rules []string
	for _, tr := range env.e.Reports().Conventions().Tables {
		if tr.Table == table {
			for _, v := range tr.Entries {
				rules = append(rules, v.Rule)
			}
		}
	}
	return rules
}

// apiError returns err's code and message, or "" when err is nil.
// mustRule is the rule with id, from the rule table.
func mustRule(t *testing.T, id string) conventions.RuleInfo {
	t.Helper()
	r, ok := conventions.LookupRule(id)
	if !ok {
		t.Fatalf("no rule %s", id)
	}
	return r
}

func apiError(t *testing.T, err error) (string, string) {
	t.Helper()
	if err == nil {
		return "", ""
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("not an API error: %v", err)
	}
	return ae.ErrorCode(), ae.ErrorMessage()
}

// TestConventionsFrameworkSequence walks the framework's calls for one
// entity through two versions; none of them breaks a rule.
func TestConventionsFrameworkSequence(t *testing.T) {
	env := newConvEnv(t)

	// publishAsync, version 1: the conditional create, then the status.
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	env.updateStatus(orderPK, orderSK+"@1", "publish_async:FINISHED")
	// The data sync: GetItem of the data row, then an unconditional put.
	if got := env.getItem(dataTable, orderPK, orderSK); got != nil {
		t.Fatalf("data row before the sync: %v", got)
	}
	env.mustPut(dataTable, dataItem(orderPK, orderSK, 1), "")

	// publishAsync, version 2, from the latest version found by probing.
	if got := env.latestVersion(orderPK, orderSK, 1); got != 1 {
		t.Fatalf("getLatestItem probe: got version %d, want 1", got)
	}
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 2), createCnd)
	// A second insert of the same version fails as the framework expects.
	code, msg := apiError(t, env.put(cmdTable, commandItem(orderPK, orderSK, 2), createCnd))
	if code != "ConditionalCheckFailedException" || msg != "The conditional request failed" {
		t.Fatalf("second insert of @2: got %s %q, want ConditionalCheckFailedException %q", code, msg, "The conditional request failed")
	}
	// updateTtl: GetItem of the previous version, unconditional overwrite.
	prev := env.getItem(cmdTable, orderPK, orderSK+"@1")
	prev["ttl"] = n("1767225600")
	env.mustPut(cmdTable, prev, "")
	// history_copy of the current data row, then the new data row.
	hist := dataItem(orderPK, orderSK, 1)
	hist["sk"] = s(orderSK + "@1")
	env.mustPut(histTable, hist, "")
	env.mustPut(dataTable, dataItem(orderPK, orderSK, 2), "")
	env.updateStatus(orderPK, orderSK+"@2", "finish:FINISHED")
	if got := env.latestVersion(orderPK, orderSK, 2); got != 2 {
		t.Fatalf("getLatestItem probe: got version %d, want 2", got)
	}

	// Order items in the same partition, and a listing with begins_with,
	// one item per page as the framework pages on LastEvaluatedKey.
	for _, id := range []string{"001", "002", "003"} {
		base := "ORDER_ITEM#01HX7MBJK3V9WQBZ7XNDK5ZT2M#" + id
		env.mustPut(cmdTable, commandItem(orderPK, base, 1), createCnd)
		env.mustPut(dataTable, dataItem(orderPK, base, 1), "")
	}
	var got []string
	var start map[string]av
	for {
		out, err := env.db.Query(env.ctx, &dynamodb.QueryInput{
			TableName:                 aws.String(dataTable),
			KeyConditionExpression:    aws.String("pk = :pk and begins_with(sk, :sk)"),
			ExpressionAttributeValues: map[string]av{":pk": s(orderPK), ":sk": s("ORDER_ITEM#")},
			Limit:                     aws.Int32(1),
			ExclusiveStartKey:         start,
		})
		if err != nil {
			t.Fatalf("Query: %v", err)
		}
		for _, it := range out.Items {
			got = append(got, it["sk"].(*types.AttributeValueMemberS).Value)
		}
		if start = out.LastEvaluatedKey; start == nil {
			break
		}
	}
	if len(got) != 3 {
		t.Fatalf("Query pages: got %v, want 3 order items", got)
	}

	// A TTL setting of the master module, and a data row of the guide's
	// time series pattern (tenant in the second of three segments, declared).
	ttl := commandItem("MASTER#"+tenant, "TTL#"+cmdTable, 1)
	ttl["attributes"] = &types.AttributeValueMemberM{Value: map[string]av{"days": n("30")}}
	env.mustPut(mstTable, ttl, createCnd)
	if err := env.createTable("local-demo-log-data", nil); err != nil {
		t.Fatal(err)
	}
	logPK := "LOG#" + tenant + "#2026-01"
	logRow := map[string]av{"pk": s(logPK), "sk": s("2026-01-02T03:04:05Z#01HX7"), "version": n("1"),
		"id": s(conventions.GenerateID(logPK, "2026-01-02T03:04:05Z#01HX7")), "tenantCode": s(tenant)}
	env.mustPut("local-demo-log-data", logRow, "")

	// The sequence counter.
	for want := 1; want <= 2; want++ {
		if got := env.nextSeq("SEQ#"+tenant, "order#2026"); got != fmt.Sprint(want) {
			t.Fatalf("sequence: got %s, want %d", got, want)
		}
	}
	env.wantNoViolations()
}

// TestConventionsRefused breaks each enforced rule once: the request fails
// with ValidationException naming the rule, and nothing is written.
func TestConventionsRefused(t *testing.T) {
	withSK := func(it map[string]av, sk string) map[string]av {
		it["sk"] = s(sk)
		it["id"] = s(conventions.GenerateID(orderPK, sk))
		return it
	}
	withPK := func(it map[string]av, pk string) map[string]av {
		it["pk"] = s(pk)
		it["id"] = s(conventions.GenerateID(pk, orderSK))
		return it
	}
	with := func(it map[string]av, name string, v av) map[string]av { it[name] = v; return it }
	cases := []struct {
		name, table string
		item        map[string]av
		want        string // the message's start
	}{
		{"A2 no tenant", cmdTable, withPK(commandItem(orderPK, orderSK, 1), "ORDER"), "[conventions A2] command partition key \"ORDER\" has no tenant"},
		{"A2 empty tenant", cmdTable, withPK(commandItem(orderPK, orderSK, 1), "ORDER#"), "[conventions A2]"},
		{"A3 no version", cmdTable, withSK(commandItem(orderPK, orderSK, 1), orderSK), `[conventions A3] command sort key "` + orderSK + `" has no @version suffix`},
		{"A3 version differs", cmdTable, with(commandItem(orderPK, orderSK, 1), "version", n("3")), "[conventions A3] command item version 3 differs"},
		{"A2 empty prefix", cmdTable, withPK(commandItem(orderPK, orderSK, 1), "#"+tenant), "[conventions A2] command partition key \"#tenant001\" has an empty prefix"},
		{"A3 no version attribute", cmdTable, func() map[string]av { it := commandItem(orderPK, orderSK, 1); delete(it, "version"); return it }(), "[conventions A3] command item has no version"},
		{"B1 at in base", cmdTable, withSK(commandItem(orderPK, orderSK, 1), "USER#a@example.com@1"), "[conventions B1]"},
		{"B2 tenant not last (and so B9)", cmdTable, withPK(commandItem(orderPK, orderSK, 1), "ORDER#tenant001#2026-01"),
			"2 conventions violations: [conventions B2] command partition key \"ORDER#tenant001#2026-01\" has 3 segments: getTenantCode reads \"2026-01\" as its tenant; declare the tenant segment if the tenant is elsewhere (item pk=\"ORDER#tenant001#2026-01\" sk=\"ORDER#01HX7MBJK3V9WQBZ7XNDK5ZT2M@1\"; why: getTenantCode reads the last segment: LOG#t1#2024-01 would be tenant 2024-01); [conventions B9] tenantCode \"tenant001\" differs"},
		{"B3 loose version", cmdTable, withSK(commandItem(orderPK, orderSK, 1), orderSK+"@01"), "[conventions B3]"},
		{"B4 version zero", cmdTable, withSK(commandItem(orderPK, orderSK, 1), orderSK+"@0"), "[conventions B4]"},
		{"B4 version latest", cmdTable, withSK(commandItem(orderPK, orderSK, 1), orderSK+"@-1"), "[conventions B"},
		{"A7 id", cmdTable, with(commandItem(orderPK, orderSK, 1), "id", s("X")), "[conventions A7] id \"X\" is not generateId(pk, sk)"},
		{"A10 ttl string", cmdTable, with(commandItem(orderPK, orderSK, 1), "ttl", s("2026-01-01")), "[conventions A10]"},
		{"A10 ttl millis", cmdTable, with(commandItem(orderPK, orderSK, 1), "ttl", n("1767225600000")), "[conventions A10]"},
		{"A5 data sk versioned", dataTable, withSK(dataItem(orderPK, orderSK, 1), orderSK+"@1"), "[conventions A5] data sort key"},
		{"A5 data csk", dataTable, with(dataItem(orderPK, orderSK, 1), "csk", s(orderSK+"@2")), "[conventions A5] data item csk"},
		{"A5 data version 0", dataTable, with(dataItem(orderPK, orderSK, 1), "version", n("0")), "[conventions A5]"},
		{"A6 history unversioned", histTable, withSK(dataItem(orderPK, orderSK, 1), orderSK), "[conventions A6] history sort key"},
		{"A8 sequence put", seqTable, map[string]av{"pk": s("SEQ#" + tenant), "sk": s("order#2026"), "seq": n("5")}, "[conventions A8] PutItem writes seq"},
		{"A9 master pk", mstTable, withPK(commandItem(orderPK, orderSK, 1), "ORDER#"+tenant), "[conventions A9]"},
		{"A9 TTL days negative", mstTable, func() map[string]av {
			it := commandItem("MASTER#"+tenant, "TTL#"+cmdTable, 1)
			it["attributes"] = &types.AttributeValueMemberM{Value: map[string]av{"days": n("-5")}}
			return it
		}(), "[conventions A9] TTL setting attributes.days -5 is negative"},
		{"A8 sequence pk", seqTable, map[string]av{"pk": s("ORDER#" + tenant), "sk": s("order#2026")}, "[conventions A8]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newConvEnv(t)
			if tc.table == dataTable {
				env.commandRows(orderPK, orderSK, 1) // the data row's command row (rule B18)
			}
			code, msg := apiError(t, env.put(tc.table, tc.item, createCnd))
			if code != "ValidationException" || !strings.HasPrefix(msg, tc.want) {
				t.Fatalf("got %s %q, want ValidationException %q...", code, msg, tc.want)
			}
			out, err := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(tc.table)})
			if err != nil || len(out.Items) != 0 {
				t.Fatalf("Scan after a refused write: %v items, err %v; want none", len(out.Items), err)
			}
			if rules := env.reported(tc.table); len(rules) == 0 {
				t.Fatalf("refused write not reported")
			}
		})
	}
}

// TestConventionsRefusedByDefault breaks each rule the study had left
// warn-only (B5-B9) and the rules added since (B12, the A8 step, B8's
// jump, B6's overwrite): enforce mode refuses each by default now, and
// nothing changes.
func TestConventionsRefusedByDefault(t *testing.T) {
	cases := []struct {
		name  string
		setup func(env *convEnv)
		run   func(env *convEnv) error
		want  string // the message's start
	}{
		{"B6 create without the guard", nil, func(env *convEnv) error {
			return env.put(cmdTable, commandItem(orderPK, orderSK, 1), "")
		}, "[conventions B6] PutItem creates command row without the condition"},
		{"B6 overwrite of a version", func(env *convEnv) {
			env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
		}, func(env *convEnv) error {
			it := commandItem(orderPK, orderSK, 1)
			it["name"] = s("changed")
			return env.put(cmdTable, it, "")
		}, "[conventions B6] PutItem overwrites an existing command version and changes name"},
		{"B5 version gap", func(env *convEnv) {
			env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
		}, func(env *convEnv) error {
			return env.put(cmdTable, commandItem(orderPK, orderSK, 3), createCnd)
		}, "[conventions B5] command version 3 written while version 2"},
		{"B7 update creates a command row", nil, func(env *convEnv) error {
			_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(cmdTable),
				Key:                       map[string]av{"pk": s(orderPK), "sk": s(orderSK + "@1")},
				UpdateExpression:          aws.String("SET #v = :v"),
				ExpressionAttributeNames:  map[string]string{"#v": "version"},
				ExpressionAttributeValues: map[string]av{":v": n("1")}})
			return err
		}, "[conventions B7] UpdateItem creates a command row"},
		{"B8 data version down", func(env *convEnv) {
			env.commandRows(orderPK, orderSK, 2)
			env.mustPut(dataTable, dataItem(orderPK, orderSK, 2), "")
		}, func(env *convEnv) error {
			return env.put(dataTable, dataItem(orderPK, orderSK, 1), "")
		}, "[conventions B8] data item version goes down from 2 to 1"},
		{"B8 data version jump", func(env *convEnv) {
			env.commandRows(orderPK, orderSK, 9)
			env.mustPut(dataTable, dataItem(orderPK, orderSK, 3), "")
		}, func(env *convEnv) error {
			return env.put(dataTable, dataItem(orderPK, orderSK, 9), "")
		}, "[conventions B8] data item version jumps from 3 to 9; the next version is 4"},
		{"B9 tenantCode differs", nil, func(env *convEnv) error {
			it := commandItem(orderPK, orderSK, 1)
			it["tenantCode"] = s("tenant002")
			return env.put(cmdTable, it, createCnd)
		}, `[conventions B9] tenantCode "tenant002" differs from the partition key's tenant "tenant001"`},
		{"B12 DeleteItem of a command row", func(env *convEnv) {
			env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
		}, func(env *convEnv) error {
			_, err := env.db.DeleteItem(env.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(cmdTable),
				Key: map[string]av{"pk": s(orderPK), "sk": s(orderSK + "@1")}})
			return err
		}, "[conventions B12] DeleteItem deletes a command row"},
		{"B12 PartiQL DELETE of a command row", func(env *convEnv) {
			env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
		}, func(env *convEnv) error {
			_, err := env.db.ExecuteStatement(env.ctx, &dynamodb.ExecuteStatementInput{
				Statement:  aws.String(`DELETE FROM "` + cmdTable + `" WHERE pk = ? AND sk = ?`),
				Parameters: []av{s(orderPK), s(orderSK + "@1")}})
			return err
		}, "[conventions B12] DeleteItem deletes a command row"},
		{"B12 batch delete of a command row", func(env *convEnv) {
			env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
		}, func(env *convEnv) error {
			_, err := env.db.BatchWriteItem(env.ctx, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
				cmdTable: {{DeleteRequest: &types.DeleteRequest{Key: map[string]av{"pk": s(orderPK), "sk": s(orderSK + "@1")}}}}}})
			return err
		}, "[conventions B12] DeleteItem deletes a command row"},
		{"B12 transaction delete of a command row", func(env *convEnv) {
			env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
		}, func(env *convEnv) error {
			_, err := env.db.TransactWriteItems(env.ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
				{Delete: &types.Delete{TableName: aws.String(cmdTable), Key: map[string]av{"pk": s(orderPK), "sk": s(orderSK + "@1")}}}}})
			return err
		}, "[conventions B12] DeleteItem deletes a command row"},
		{"A8 sequence jump", func(env *convEnv) {
			env.nextSeq("SEQ#"+tenant, "order#2026")
		}, func(env *convEnv) error {
			_, err := env.db.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{TableName: aws.String(seqTable),
				Key:                       map[string]av{"pk": s("SEQ#" + tenant), "sk": s("order#2026")},
				UpdateExpression:          aws.String("SET #seq = :n"),
				ExpressionAttributeNames:  map[string]string{"#seq": "seq"},
				ExpressionAttributeValues: map[string]av{":n": n("9")}})
			return err
		}, "[conventions A8] seq goes from 1 to 9"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newConvEnv(t)
			if tc.setup != nil {
				tc.setup(env)
			}
			before := env.scanAll()
			code, msg := apiError(t, tc.run(env))
			if code != "ValidationException" || !strings.HasPrefix(msg, tc.want) {
				t.Fatalf("got %s %q, want ValidationException %q...", code, msg, tc.want)
			}
			if after := env.scanAll(); after != before {
				t.Fatalf("the refused request changed the tables:\n%s\nwant\n%s", after, before)
			}
		})
	}
}

// scanAll renders every item of the test's tables, for comparing states.
func (env *convEnv) scanAll() string {
	env.t.Helper()
	var b strings.Builder
	for _, name := range []string{cmdTable, dataTable, histTable, seqTable, mstTable} {
		out, err := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true)})
		if err != nil {
			env.t.Fatalf("Scan %s: %v", name, err)
		}
		fmt.Fprintf(&b, "%s: %d items\n", name, len(out.Items))
		for _, it := range out.Items {
			fmt.Fprintf(&b, "  %s\n", render(&types.AttributeValueMemberM{Value: it}))
		}
	}
	return b.String()
}

// render prints an attribute value with its map keys sorted.
func render(v av) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(v.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberL:
		parts := make([]string, len(v.Value))
		for i, e := range v.Value {
			parts[i] = render(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case *types.AttributeValueMemberM:
		names := slices.Sorted(maps.Keys(v.Value))
		parts := make([]string, len(names))
		for i, name := range names {
			parts[i] = name + ":" + render(v.Value[name])
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	return fmt.Sprintf("%T", v)
}

// TestConventionsWarned breaks each warn-only rule: the write succeeds and
// the violation is reported.
func TestConventionsWarned(t *testing.T) {
	cases := []struct {
		name  string
		table string
		run   func(env *convEnv) error
		want  string
	}{
		{"A12 upper case tenant", cmdTable, func(env *convEnv) error {
			it := commandItem("ORDER#MBC", orderSK, 1)
			it["tenantCode"] = s("MBC")
			return env.put(cmdTable, it, createCnd)
		}, "A12"},
		{"warn mode lets an error-severity violation through", "warn-order-cmd", func(env *convEnv) error {
			if err := env.createTable("warn-order-cmd", nil); err != nil {
				return err
			}
			it := commandItem(orderPK, orderSK, 1)
			it["sk"] = s(orderSK)
			return env.put("warn-order-cmd", it, createCnd)
		}, "A3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newConvEnv(t)
			if err := tc.run(env); err != nil {
				t.Fatalf("got %v, want success", err)
			}
			if got := env.reported(tc.table); len(got) == 0 || got[0] != tc.want {
				t.Fatalf("reported %v, want %s first", got, tc.want)
			}
		})
	}
}
