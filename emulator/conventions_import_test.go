package emulator_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/conventions"
	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
)

// dynamoJSON is item as an export's DYNAMODB_JSON line ({"Item":{...}}),
// for the attribute types commandItem uses.
func dynamoJSON(t *testing.T, item map[string]av) string {
	t.Helper()
	var enc func(v av) any
	enc = func(v av) any {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			return map[string]string{"S": v.Value}
		case *types.AttributeValueMemberN:
			return map[string]string{"N": v.Value}
		case *types.AttributeValueMemberBOOL:
			return map[string]bool{"BOOL": v.Value}
		case *types.AttributeValueMemberNULL:
			return map[string]bool{"NULL": true}
		case *types.AttributeValueMemberM:
			m := map[string]any{}
			for k, x := range v.Value {
				m[k] = enc(x)
			}
			return map[string]any{"M": m}
		}
		t.Fatalf("dynamoJSON: %T", v)
		return nil
	}
	m := map[string]any{}
	for k, v := range item {
		m[k] = enc(v)
	}
	b, err := json.Marshal(map[string]any{"Item": m})
	require.NoError(t, err)
	return string(b) + "\n"
}

// TestConventionsImportVersionChain: ImportTable of the rows the
// framework writes, a whole version chain (<sk>@1 to <sk>@11, read in
// key order: @10 and @11 before @2), into a new command table is
// accepted, each row created; a row no framework path writes (pk ORDER,
// no tenant, no version) is refused, and the import's FailureMessage
// names its rule and the row after AWS's words.
func TestConventionsImportVersionChain(t *testing.T) {
	dir := t.TempDir()
	e, err := emulator.New(emulator.Options{Conventions: convConfig(), SharedDB: true, ExportDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, e.Close()) })
	db := emulatortest.Client(t, e, accessKey)
	ctx := context.Background()
	var chain strings.Builder
	for v := 1; v <= 11; v++ {
		chain.WriteString(dynamoJSON(t, commandItem(orderPK, orderSK, v)))
	}
	bad := commandItem("ORDER", "X", 1)
	bad["sk"] = s("X")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bkt"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bkt", "chain.json"), []byte(chain.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bkt", "mixed.json"), []byte(chain.String()+dynamoJSON(t, bad)), 0o644))

	importInto := func(table, object string) *types.ImportTableDescription {
		out, err := db.ImportTable(ctx, &dynamodb.ImportTableInput{InputFormat: types.InputFormatDynamodbJson,
			S3BucketSource: &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String(object)},
			TableCreationParameters: &types.TableCreationParameters{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
					{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
					{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}}})
		require.NoError(t, err)
		d, err := db.DescribeImport(ctx, &dynamodb.DescribeImportInput{ImportArn: out.ImportTableDescription.ImportArn})
		require.NoError(t, err)
		return d.ImportTableDescription
	}

	d := importInto("local-demo-imp6-command", "chain.json")
	require.Equal(t, types.ImportStatusCompleted, d.ImportStatus, aws.ToString(d.FailureMessage))
	require.Equal(t, int64(11), d.ImportedItemCount)
	require.Zero(t, d.ErrorCount)

	d = importInto("local-demo-imp7-command", "mixed.json")
	require.Equal(t, types.ImportStatusFailed, d.ImportStatus)
	require.Equal(t, int64(11), d.ImportedItemCount)
	require.Equal(t, int64(1), d.ErrorCount)
	msg := aws.ToString(d.FailureMessage)
	require.True(t, strings.HasPrefix(msg, "Some of the items failed validation checks and were not imported."), msg)
	require.Contains(t, msg, "[conventions ")
	require.Contains(t, msg, `pk="ORDER"`)
}

// tenantCommandItem is commandItem of tenant's order.
func tenantCommandItem(tenant string, version int) map[string]av {
	pk := "ORDER#" + tenant
	it := commandItem(pk, orderSK, version)
	it["id"], it["tenantCode"] = s(conventions.GenerateID(pk, orderSK)), s(tenant)
	return it
}

// TestConventionsImportTenantBound: what the tenant guard promises an
// import, from the SDK: an ImportTable makes a table, so a caller bound
// to tenant acme (x-tenant-code) is refused an import into a table the
// configuration opts in (a shared table: AccessDeniedException, rule
// B10, naming the table and the operation), its own rows alone
// included, and no table is made; the same file imported by a
// cross-tenant key is imported whole.
func TestConventionsImportTenantBound(t *testing.T) {
	dir := t.TempDir()
	e, err := emulator.New(emulator.Options{Conventions: convConfig(), SharedDB: true, ExportDir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, e.Close()) })
	ctx := context.Background()
	var own, mixed strings.Builder
	for v := 1; v <= 3; v++ {
		own.WriteString(dynamoJSON(t, tenantCommandItem("acme", v)))
	}
	mixed.WriteString(own.String())
	for v := 1; v <= 2; v++ {
		mixed.WriteString(dynamoJSON(t, tenantCommandItem("mbc", v)))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bkt"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bkt", "own.json"), []byte(own.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bkt", "mixed.json"), []byte(mixed.String()), 0o644))

	importInto := func(db *dynamodb.Client, table, object string) (*types.ImportTableDescription, error) {
		out, err := db.ImportTable(ctx, &dynamodb.ImportTableInput{InputFormat: types.InputFormatDynamodbJson,
			S3BucketSource: &types.S3BucketSource{S3Bucket: aws.String("bkt"), S3KeyPrefix: aws.String(object)},
			TableCreationParameters: &types.TableCreationParameters{TableName: aws.String(table), BillingMode: types.BillingModePayPerRequest,
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
					{AttributeName: aws.String("sk"), AttributeType: types.ScalarAttributeTypeS}},
				KeySchema: []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
					{AttributeName: aws.String("sk"), KeyType: types.KeyTypeRange}}}})
		if err != nil {
			return nil, err
		}
		d, err := db.DescribeImport(ctx, &dynamodb.DescribeImportInput{ImportArn: out.ImportTableDescription.ImportArn})
		require.NoError(t, err)
		return d.ImportTableDescription, nil
	}
	admin := emulatortest.Client(t, e, "AKIDADMIN")
	acme := emulatortest.TenantClient(t, e, accessKey, "acme")
	for _, object := range []string{"mixed.json", "own.json"} {
		_, err := importInto(acme, "local-demo-acme1-command", object)
		require.Error(t, err, object)
		require.Contains(t, err.Error(), "AccessDeniedException")
		require.Contains(t, err.Error(), `[conventions B10] caller tenant "acme" may not make table "local-demo-acme1-command" (ImportTable)`)
	}
	_, err = admin.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("local-demo-acme1-command")})
	require.ErrorContains(t, err, "ResourceNotFoundException", "the refused import made no table")

	d, err := importInto(admin, "local-demo-all-command", "mixed.json")
	require.NoError(t, err)
	require.Equal(t, types.ImportStatusCompleted, d.ImportStatus, aws.ToString(d.FailureMessage))
	out, err := admin.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("local-demo-all-command")})
	require.NoError(t, err)
	got := map[string]int{}
	for _, it := range out.Items {
		got[it["tenantCode"].(*types.AttributeValueMemberS).Value]++
	}
	require.Equal(t, map[string]int{"acme": 3, "mbc": 2}, got)
}
