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
