package service

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/persist"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// openPersisted returns a service over a persist.Store of dir, with its
// namespaces loaded as the edge loads them, and the store.
func openPersisted(t *testing.T, dir string, cfg Config, po persist.Options) (*Service, *persist.Store) {
	t.Helper()
	st, err := persist.Open(dir, po)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg.DBs = func(id string) (*storage.DB, error) {
		key, region, _ := strings.Cut(id, "/")
		return st.DB(persist.NamespaceName(key, region))
	}
	s := newTestService(t, cfg)
	names, err := st.Namespaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		key, region, _, _ := persist.ParseNamespaceName(name)
		if _, err := s.Namespace(key + "/" + region).RebuildCatalog(); err != nil {
			t.Fatal(err)
		}
	}
	return s, st
}

// TestPersistReconcileIndexes: a process killed between UpdateTable's
// two records (the definition with a GSI added or dropped, then the
// storage index) comes back with the storage indexes its definitions
// say, built or dropped at load.
func TestPersistReconcileIndexes(t *testing.T) {
	dir := t.TempDir()
	e, st := openPersisted(t, dir, Config{}, persist.Options{})
	for _, b := range []struct{ op, body string }{
		{"CreateTable", `{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST",
			"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`},
		{"PutItem", `{"TableName":"tbl1","Item":{"pk":{"S":"a"},"g":{"S":"x"}}}`},
	} {
		if res, out := doService(t, e, "DynamoDB_20120810."+b.op, testkit.DefaultAuth, b.body); res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", b.op, out)
		}
	}
	// As if killed after the definition's record: storage lost byG and
	// has an index the definition does not.
	tb := e.namespaceFor("AKID", "us-east-1", false).getTable("tbl1")
	if tb == nil {
		tb = e.dbs.All()[0].getTable("tbl1")
	}
	if err := tb.data.DropIndex("byG"); err != nil {
		t.Fatal(err)
	}
	extra := (&tablespec.IndexDef{Name: "stale", Schema: tb.schema, PartAttrs: []storage.KeyAttr{tb.schema.Partition}, Projection: tablespec.IndexProjection{Type: "ALL"}}).StorageDef()
	if err := tb.data.AddIndex(extra); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	e2, _ := openPersisted(t, dir, Config{}, persist.Options{})
	t2 := e2.dbs.All()[0].getTable("tbl1")
	if got, want := t2.data.IndexNames(), []string{"byG"}; !slices.Equal(got, want) {
		t.Errorf("storage indexes after the restart: got %v, want %v", got, want)
	}
	res, out := doService(t, e2, "DynamoDB_20120810.Query", testkit.DefaultAuth, `{"TableName":"tbl1","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}`)
	if res.StatusCode != http.StatusOK || !strings.Contains(out, `"Count":1`) {
		t.Errorf("Query of the rebuilt index: got %d %s, want 1 item", res.StatusCode, out)
	}
}
