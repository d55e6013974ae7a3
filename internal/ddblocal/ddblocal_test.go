package ddblocal

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/ddblocal/ddblocaltest"
)

func TestParseFileName(t *testing.T) {
	tests := []struct {
		name string
		want Namespace
		ok   bool
	}{
		{"shared-local-instance.db", Namespace{Shared: true}, true},
		{"local_ap-northeast-1.db", Namespace{AccessKey: "local", Region: "ap-northeast-1"}, true},
		{"my_key_us-east-1.db", Namespace{AccessKey: "my_key", Region: "us-east-1"}, true},
		{"_us-east-1.db", Namespace{}, false},
		{"local_.db", Namespace{}, false},
		{"local_US_EAST.db", Namespace{}, false},
		{"local-us-east-1.db", Namespace{}, false},
		{"local_us-east-1.sqlite", Namespace{}, false},
		{"wal-000001.log", Namespace{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseFileName(tc.name)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestTablesAndItems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "local_us-east-1.db")
	ddblocaltest.WriteFile(t, path)
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	f, err := Open(path)
	require.NoError(t, err)
	require.Equal(t, "v2.4.0", f.Version())
	tables, err := f.Tables()
	require.NoError(t, err)
	require.Len(t, tables, 2)

	orders, plain := tables[0], tables[1]
	require.Equal(t, "Orders", orders.Name)
	require.Equal(t, int64(1795569898042), orders.Created.UnixMilli())
	in, err := json.Marshal(orders.CreateTableInput())
	require.NoError(t, err)
	require.JSONEq(t, `{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST","OnDemandThroughput":{"MaxReadRequestUnits":10},
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"B"},{"AttributeName":"l","AttributeType":"S"}],
		"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"LocalSecondaryIndexes":[{"IndexName":"lsi1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
		"GlobalSecondaryIndexes":[{"IndexName":"gsi1","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a"]}}],
		"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}`, string(in))
	require.Equal(t, "ttl", orders.TTLAttribute)

	in, err = json.Marshal(plain.CreateTableInput())
	require.NoError(t, err)
	require.JSONEq(t, `{"TableName":"Plain","BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4},
		"AttributeDefinitions":[{"AttributeName":"id","AttributeType":"B"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],
		"DeletionProtectionEnabled":true}`, string(in))
	require.Empty(t, plain.TTLAttribute)
	require.Empty(t, plain.StreamViewType, "a disabled stream is no stream")

	var items []string
	require.NoError(t, f.Items("Orders", func(item json.RawMessage) error {
		items = append(items, string(item))
		return nil
	}))
	require.Equal(t, []string{ddblocaltest.OrdersItem}, items)
	n, err := f.ItemCount("Plain")
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	require.NoError(t, f.Close())

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, before, after, "Open and reading changed the file")
}

// TestOpenRefuses: what is not a whole DynamoDB Local file is refused,
// with the reason in the message.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	ddblocaltest.WriteFile(t, good)
	whole, err := os.ReadFile(good)
	require.NoError(t, err)

	foreign := filepath.Join(dir, "foreign.db")
	db, err := sql.Open("sqlite", foreign)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello')`)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	// Every page but the first with its b-tree header overwritten: the
	// file's header still counts every page.
	scrambled := append([]byte(nil), whole...)
	for p := 4096; p < len(scrambled); p += 4096 {
		for i := p; i < p+12; i++ {
			scrambled[i] = 0x7f
		}
	}

	tests := []struct {
		name string
		path string
		want error
		msg  string
	}{
		{"empty", write("empty.db", nil), ErrNotSQLite, "does not start with SQLite's header"},
		{"text", write("text.db", []byte("{\"TableName\":\"Orders\"}\n")), ErrNotSQLite, "does not start with SQLite's header"},
		{"header only", write("header.db", whole[:60]), ErrTruncated, "less than SQLite's 100-byte header"},
		{"half", write("half.db", whole[:len(whole)/2/4096*4096]), ErrTruncated, "its header counts"},
		{"cut mid-page", write("cut.db", whole[:len(whole)-100]), ErrTruncated, "its header counts"},
		{"scrambled page", write("scrambled.db", scrambled), ErrDamaged, "SQLite"},
		{"foreign", foreign, ErrNotDynamoDBLocal, "it has no dm table"},
		{"directory", dir, ErrNotSQLite, "it is a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Open(tc.path)
			if f != nil {
				f.Close()
			}
			require.ErrorIs(t, err, tc.want)
			require.ErrorContains(t, err, tc.msg)
			require.ErrorContains(t, err, tc.path, "the message names the file")
		})
	}
}

// FuzzOpen: any bytes are either refused by Open with an error or read
// without a panic.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	good := filepath.Join(dir, "seed.db")
	ddblocaltest.WriteFile(f, good)
	whole, err := os.ReadFile(good)
	require.NoError(f, err)
	f.Add(whole)
	f.Add(whole[:4096])
	f.Add(whole[:len(whole)-1])
	f.Add([]byte(magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "fuzz.db")
		require.NoError(t, os.WriteFile(p, b, 0o644))
		file, err := Open(p)
		if err != nil {
			return
		}
		defer file.Close()
		tables, err := file.Tables()
		if err != nil {
			return
		}
		for _, tb := range tables {
			_ = tb.CreateTableInput()
			_ = file.Items(tb.Name, func(json.RawMessage) error { return nil })
		}
	})
}
