package emulatortest_test

import (
	"context"
	"fmt"
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

// writeSeed writes a seed's files under a temporary directory: a table
// file, items in DynamoDB JSON (orders) and in plain JSON (users).
func writeSeed(t *testing.T, orders int) emulatortest.Seed {
	dir := t.TempDir()
	write := func(name, body string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	write("tables/orders.json", `{"TableName":"orders","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}`)
	write("tables/users.json", `[{"TableName":"users","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}]`)
	var items []string
	for i := range orders {
		items = append(items, fmt.Sprintf(`{"pk":{"S":"ORDER#%d"},"sk":{"S":"v1"},"total":{"N":"%d.50"}}`, i, i))
	}
	write("items/orders.json", "["+strings.Join(items, ",")+"]")
	write("items/users.json", `[{"id":"u1","age":42.0,"admin":true,"tags":["a",1],"address":{"city":"Oslo","zip":null}}]`)
	return emulatortest.Seed{Tables: filepath.Join(dir, "tables"), Items: filepath.Join(dir, "items")}
}

// TestSeededFork: a seed of tables, items in both JSON forms and a script
// is loaded once; each test's fork holds it all and writes alone.
func TestSeededFork(t *testing.T) {
	ctx := context.Background()
	seed := writeSeed(t, 60)
	seed.Script = func(ctx context.Context, c *dynamodb.Client) error {
		_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("users"), Item: avs{"id": str("fromScript")}})
		return err
	}
	e, base := emulatortest.Seeded(t, emulator.Options{}, seed)
	count := func(c *dynamodb.Client, table string) int32 {
		out, err := c.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table), Select: types.SelectCount})
		require.NoError(t, err)
		return out.Count
	}
	for i := range 3 {
		t.Run(fmt.Sprint("test", i), func(t *testing.T) {
			t.Parallel()
			c := emulatortest.Fork(t, e, base)
			require.Equal(t, int32(60), count(c, "orders"))
			require.Equal(t, int32(2), count(c, "users"))
			got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("users"), Key: avs{"id": str("u1")}})
			require.NoError(t, err)
			require.Equal(t, &types.AttributeValueMemberN{Value: "42"}, got.Item["age"]) // 42.0 as DynamoDB keeps it
			require.Equal(t, &types.AttributeValueMemberBOOL{Value: true}, got.Item["admin"])
			require.Equal(t, &types.AttributeValueMemberL{Value: []types.AttributeValue{str("a"), &types.AttributeValueMemberN{Value: "1"}}}, got.Item["tags"])
			require.Equal(t, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"city": str("Oslo"), "zip": &types.AttributeValueMemberNULL{Value: true}}}, got.Item["address"])
			got, err = c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: avs{"pk": str("ORDER#7"), "sk": str("v1")}})
			require.NoError(t, err)
			require.Equal(t, &types.AttributeValueMemberN{Value: "7.5"}, got.Item["total"])
			for j := range 5 {
				_, err := c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str(fmt.Sprint("new", i, j)), "sk": str("v1")}})
				require.NoError(t, err)
			}
			require.Equal(t, int32(65), count(c, "orders"))
		})
	}
	t.Cleanup(func() {
		require.Equal(t, int32(60), count(base, "orders"), "the base is as seeded")
		require.Empty(t, e.Branches().List())
	})
}

// TestLoadSeedErrors: a seed that cannot load says which file and why.
func TestLoadSeedErrors(t *testing.T) {
	ctx := context.Background()
	seed := writeSeed(t, 1)
	c := emulatortest.New(t)
	err := emulatortest.LoadSeed(ctx, c, emulatortest.Seed{Items: seed.Items}) // no tables
	require.ErrorContains(t, err, "seed: items of orders")
	require.ErrorContains(t, err, "ResourceNotFoundException")
	err = emulatortest.LoadSeed(ctx, c, emulatortest.Seed{Tables: filepath.Join(t.TempDir(), "none")})
	require.ErrorContains(t, err, "seed: tables")
	bad := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bad, "orders.json"), []byte(`{"not":"a list"}`), 0o644))
	err = emulatortest.LoadSeed(ctx, c, emulatortest.Seed{Tables: seed.Tables, Items: bad})
	require.ErrorContains(t, err, "want a JSON list of items")
}
