package emulator_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// Restores into a table that follows the conventions are judged as
// writes are: each restored item as its creation (a put with the create
// guard) into the table as the restore leaves it, by the restore's
// caller. One item refused refuses the restore and no table is made;
// the error says how many items were refused and names the first one's
// rule, row and fix, in the shape of an import's refusal.

// scratchTable makes a table no configuration entry matches and puts
// items into it unchecked.
func (env *convEnv) scratchTable(name string, items ...map[string]av) {
	env.t.Helper()
	require.NoError(env.t, env.createTable(name, nil))
	for _, it := range items {
		env.mustPut(name, it, "")
	}
}

// backupOf backs up table and returns the backup's ARN.
func (env *convEnv) backupOf(table string) *string {
	env.t.Helper()
	out, err := env.db.CreateBackup(env.ctx, &dynamodb.CreateBackupInput{TableName: aws.String(table), BackupName: aws.String(table + "-bk")})
	require.NoError(env.t, err)
	return out.BackupDetails.BackupArn
}

// chain is versions 1..upTo of the order's command rows.
func chain(upTo int) []map[string]av {
	var rows []map[string]av
	for v := 1; v <= upTo; v++ {
		rows = append(rows, commandItem(orderPK, orderSK, v))
	}
	return rows
}

// requireRestoreRefused: err is code's refusal of a restore into table
// of refused items, its message naming the first one's rule and row and
// what the rule wants.
func requireRestoreRefused(t *testing.T, err error, code, table string, refused int, want ...string) {
	t.Helper()
	var ae smithy.APIError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, code, ae.ErrorCode(), ae.ErrorMessage())
	msg := ae.ErrorMessage()
	require.Contains(t, msg, fmt.Sprintf("Table %s was not restored. The emulator refused %d item(s); the first: %s: ", table, refused, code))
	for _, w := range want {
		require.Contains(t, msg, w)
	}
}

// requireNoTable: no table of that name exists.
func (env *convEnv) requireNoTable(name string) {
	env.t.Helper()
	_, err := env.db.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var nf *types.ResourceNotFoundException
	require.ErrorAs(env.t, err, &nf, "table %s exists after a refused restore", name)
}

// TestConventionsRestoreFromBackup: a scratch table's backup holding a
// row with pk ORDER (no tenant) and no @version, restored as an opted-in
// command table, is refused (A2, its row and "want PREFIX#TENANT") and
// leaves no table; the same backup restored under a name that opts in to
// nothing is restored whole. A whole version chain (@1 to @11: @10 and
// @11 before @2 in key order) is restored; a chain with a hole (@1, @3)
// is refused by B5, read over the backup's own items.
func TestConventionsRestoreFromBackup(t *testing.T) {
	env := newConvEnv(t)
	bad := commandItem("ORDER", "X", 1)
	bad["sk"] = s("X")
	env.scratchTable("scratch-mixed", append(chain(3), bad)...)
	env.scratchTable("scratch-chain", chain(11)...)
	env.scratchTable("scratch-hole", commandItem(orderPK, orderSK, 1), commandItem(orderPK, orderSK, 3))

	restore := func(backup *string, target string) error {
		_, err := env.db.RestoreTableFromBackup(env.ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: backup, TargetTableName: aws.String(target)})
		return err
	}
	mixed := env.backupOf("scratch-mixed")
	err := restore(mixed, "local-demo-rst5-command")
	requireRestoreRefused(t, err, "ValidationException", "local-demo-rst5-command", 1,
		`[conventions A2] command partition key "ORDER" has no tenant: want PREFIX#TENANT`, `pk="ORDER" sk="X"`, "why: ")
	env.requireNoTable("local-demo-rst5-command")
	require.NotZero(t, env.e.Reports().Conventions().Violations, "the refused rows are reported")

	require.NoError(t, restore(mixed, "scratch-copy"))
	out, err := env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("scratch-copy")})
	require.NoError(t, err)
	require.Len(t, out.Items, 4)

	require.NoError(t, restore(env.backupOf("scratch-chain"), "local-demo-rst6-command"))
	out, err = env.db.Scan(env.ctx, &dynamodb.ScanInput{TableName: aws.String("local-demo-rst6-command")})
	require.NoError(t, err)
	require.Len(t, out.Items, 11)
	require.Equal(t, "11", env.getItem("local-demo-rst6-command", orderPK, orderSK+"@11")["version"].(*types.AttributeValueMemberN).Value)

	err = restore(env.backupOf("scratch-hole"), "local-demo-rst7-command")
	requireRestoreRefused(t, err, "ValidationException", "local-demo-rst7-command", 1, "[conventions B5]", orderSK+"@3")
	env.requireNoTable("local-demo-rst7-command")
}

// TestConventionsRestoreToPointInTime: RestoreTableToPointInTime of a
// scratch table holding a row with no tenant into an opted-in data
// table is refused as a restore from a backup is (A2), no table made;
// into a name that opts in to nothing it is restored.
func TestConventionsRestoreToPointInTime(t *testing.T) {
	env := newConvEnv(t)
	bad := dataItem(orderPK, orderSK, 1)
	bad["pk"], bad["cpk"] = s("ORDER"), s("ORDER")
	env.scratchTable("scratch-pitr", dataItem(orderPK, orderSK, 1), bad)
	_, err := env.db.UpdateContinuousBackups(env.ctx, &dynamodb.UpdateContinuousBackupsInput{TableName: aws.String("scratch-pitr"),
		PointInTimeRecoverySpecification: &types.PointInTimeRecoverySpecification{PointInTimeRecoveryEnabled: aws.Bool(true)}})
	require.NoError(t, err)
	restore := func(target string) error {
		_, err := env.db.RestoreTableToPointInTime(env.ctx, &dynamodb.RestoreTableToPointInTimeInput{SourceTableName: aws.String("scratch-pitr"),
			TargetTableName: aws.String(target), UseLatestRestorableTime: aws.Bool(true)})
		return err
	}
	err = restore("local-demo-pitr-data")
	requireRestoreRefused(t, err, "ValidationException", "local-demo-pitr-data", 1, "[conventions A2]", `pk="ORDER"`, "want PREFIX#TENANT")
	env.requireNoTable("local-demo-pitr-data")
	require.NoError(t, restore("scratch-pitr-copy"))
}

// TestConventionsRestoreLatest: seed 002's documents (v1, v2 and the
// 'latest' item copying v2), restored into a table that keeps a latest
// item, are accepted: the latest item is created pointing at a version
// the restored table holds and copying it. A backup whose latest item
// copies another content than its version's is refused (L1).
func TestConventionsRestoreLatest(t *testing.T) {
	cfg := &conventions.Config{Tables: []conventions.TableConfig{{Match: "docs-*", Policy: conventions.Policy{Latest: "latest"}}}}
	e, err := emulator.New(emulator.Options{Conventions: cfg})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, e.Close()) })
	env := &convEnv{t: t, ctx: context.Background(), e: e, db: emulatortest.Client(t, e, accessKey)}
	scratch := func(name, latestContent string) *string {
		_, err := env.db.CreateTable(env.ctx, &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
			AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("documentVersion"), AttributeType: types.ScalarAttributeTypeS}},
			KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("documentVersion"), KeyType: types.KeyTypeHash}}})
		require.NoError(t, err)
		for _, it := range []map[string]av{
			{"documentVersion": s("v1"), "content": s("hello")},
			{"documentVersion": s("v2"), "content": s("second")},
			{"documentVersion": s("latest"), "content": s(latestContent), "actualVersion": s("v2")},
		} {
			env.mustPut(name, it, "")
		}
		return env.backupOf(name)
	}
	restore := func(backup *string, target string) error {
		_, err := env.db.RestoreTableFromBackup(env.ctx, &dynamodb.RestoreTableFromBackupInput{BackupArn: backup, TargetTableName: aws.String(target)})
		return err
	}
	require.NoError(t, restore(scratch("scratch-docs", "second"), "docs-restored"))
	got, err := env.db.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("docs-restored"), Key: docKey("latest")})
	require.NoError(t, err)
	require.Equal(t, "v2", got.Item["actualVersion"].(*types.AttributeValueMemberS).Value)

	err = restore(scratch("scratch-docs-stale", "hello"), "docs-stale")
	requireRestoreRefused(t, err, "ValidationException", "docs-stale", 1, "[conventions L1]")
	env.requireNoTable("docs-stale")
}

// TestConventionsRestoreTenant: the tenant guard on a restore, from the
// SDK with the tenant's own key: a restore makes its target, so
// tenant002's key restoring into a table the configuration opts in is
// refused (AccessDeniedException, B10, as CreateTable of it is), a
// backup of tenant001's rows or of its own, and no table is made; a
// cross-tenant key restores tenant001's.
func TestConventionsRestoreTenant(t *testing.T) {
	env := newConvEnv(t)
	env.scratchTable("scratch-t1", chain(2)...)
	own := func(v int) map[string]av {
		it := commandItem("ORDER#tenant002", orderSK, v)
		it["id"], it["tenantCode"] = s(conventions.GenerateID("ORDER#tenant002", orderSK)), s("tenant002")
		return it
	}
	env.scratchTable("scratch-t2", own(1), own(2))
	restore := func(key string, backup *string, target string) error {
		_, err := emulatortest.Client(t, env.e, key).RestoreTableFromBackup(env.ctx,
			&dynamodb.RestoreTableFromBackupInput{BackupArn: backup, TargetTableName: aws.String(target)})
		return err
	}
	t1 := env.backupOf("scratch-t1")
	for backup, target := range map[*string]string{t1: "local-demo-t1-command", env.backupOf("scratch-t2"): "local-demo-t2-command"} {
		err := restore("AKIDTENANT002", backup, target)
		var ae smithy.APIError
		require.ErrorAs(t, err, &ae)
		require.Equal(t, "AccessDeniedException", ae.ErrorCode(), ae.ErrorMessage())
		require.Contains(t, ae.ErrorMessage(), `[conventions B10] caller tenant "tenant002" may not make table "`+target+`" (RestoreTableFromBackup)`)
		env.requireNoTable(target)
	}
	require.NoError(t, restore("AKIDADMIN", t1, "local-demo-t1-command"))
}

// TestConventionsSnapshotRestore: the emulator's snapshot restore (POST
// /dynamoemu/snapshots/<id>/restore) judges the tables it restores as a
// restore from a backup does. A table whose rows were written before
// its tags opted it in (pk ORDER, no tenant) is snapshotted opted in,
// then changed; restoring the snapshot is refused (400,
// ValidationException naming A2 and the row, in the shape of an
// import's refusal) and nothing is rewound: the row written after the
// snapshot is still there. A snapshot of rows the framework writes
// restores.
func TestConventionsSnapshotRestore(t *testing.T) {
	env := newConvEnv(t)
	srv := httptest.NewServer(env.e.Handler())
	t.Cleanup(srv.Close)
	post := func(path string) (int, string) {
		res, err := http.Post(srv.URL+path, "application/json", strings.NewReader("{}"))
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	snapshot := func() string {
		code, body := post("/dynamoemu/snapshots")
		require.Equal(t, http.StatusOK, code, body)
		var out struct{ ID string }
		require.NoError(t, json.Unmarshal([]byte(body), &out))
		return out.ID
	}
	const table = "tagged-later"
	bad := commandItem("ORDER", "X", 1)
	bad["sk"] = s("X")
	env.scratchTable(table, bad)
	d, err := env.db.DescribeTable(env.ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	require.NoError(t, err)
	_, err = env.db.TagResource(env.ctx, &dynamodb.TagResourceInput{ResourceArn: d.Table.TableArn,
		Tags: []types.Tag{{Key: aws.String(conventions.TagRoles), Value: aws.String("command")}}})
	require.NoError(t, err)
	id := snapshot()
	env.mustPut(table, commandItem(orderPK, orderSK, 1), createCnd)

	code, body := post("/dynamoemu/snapshots/" + id + "/restore")
	require.Equal(t, http.StatusBadRequest, code, body)
	require.Contains(t, body, "ValidationException")
	require.Contains(t, body, "Table "+table+" was not restored. The emulator refused 1 item(s); the first: ValidationException: ")
	require.Contains(t, body, `[conventions A2] command partition key \"ORDER\" has no tenant: want PREFIX#TENANT`)
	require.NotNil(t, env.getItem(table, orderPK, orderSK+"@1"), "a refused snapshot restore rewound the table")

	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 1), createCnd)
	good := snapshot()
	env.mustPut(cmdTable, commandItem(orderPK, orderSK, 2), createCnd)
	code, body = post("/dynamoemu/snapshots/" + good + "/restore")
	require.Equal(t, http.StatusOK, code, body)
	require.Nil(t, env.getItem(cmdTable, orderPK, orderSK+"@2"))
	require.NotNil(t, env.getItem(cmdTable, orderPK, orderSK+"@1"))
}
