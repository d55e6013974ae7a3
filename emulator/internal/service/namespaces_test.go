package service

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unsafe"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// Namespaces: one per access key and region (or one shared), created by
// their first table only, keeping no part of the request they came from.

func TestNamespaces(t *testing.T) {
	nsOf := func(e *Service, key, region string) string {
		res, body := doService(t, e, "DynamoDB_20120810.TestEcho", testkit.Auth(key, region), `{}`)
		if res.StatusCode != 200 {
			t.Fatalf("status %d: %s", res.StatusCode, body)
		}
		var out echoedNamespace
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatal(err)
		}
		return out.Namespace + " " + out.Region
	}
	e := newTestService(t, Config{})
	tests := []struct{ key, region, want string }{
		{"A", "us-east-1", "A/us-east-1 us-east-1"},
		{"B", "us-east-1", "B/us-east-1 us-east-1"},
		{"A", "eu-west-1", "A/eu-west-1 eu-west-1"},
	}
	for _, tt := range tests {
		if got := nsOf(e, tt.key, tt.region); got != tt.want {
			t.Errorf("%s/%s: got %q, want %q", tt.key, tt.region, got, tt.want)
		}
	}
	if n := e.NamespaceCount(); n != 0 {
		t.Errorf("reads created %d namespaces, want 0", n)
	}
	a1 := e.get(catalog.Key{AccessKey: "A", Region: "us-east-1"})
	if a1 != e.namespaceFor("A", "us-east-1", false) || a1 == e.namespaceFor("B", "us-east-1", false) {
		t.Error("namespaces are not one per access key + region")
	}
	if a1.Region() != "us-east-1" || a1.AccountID() != "000000000000" {
		t.Errorf("got region %q account %q", a1.Region(), a1.AccountID())
	}

	shared := newTestService(t, Config{SharedDB: true})
	if got := nsOf(shared, "A", "us-east-1"); got != "shared us-east-1" {
		t.Errorf("shared: got %q", got)
	}
	if got := nsOf(shared, "B", "eu-west-1"); got != "shared eu-west-1" {
		t.Errorf("shared: got %q", got)
	}
}

// TestReadsCreateNoNamespace: 1000 distinct long access keys used only for
// reads create no namespace; the first table does, and the namespace keeps
// a copy of the key, not the header it came from.
func TestReadsCreateNoNamespace(t *testing.T) {
	e := newTestService(t, Config{})
	reads := []struct{ target, body string }{
		{"ListTables", `{}`},
		{"DescribeTable", `{"TableName":"orders"}`},
		{"GetItem", `{"TableName":"orders","Key":{"pk":{"S":"a"}}}`},
		{"Scan", `{"TableName":"orders"}`},
		{"DeleteTable", `{"TableName":"orders"}`},
		{"ListTagsOfResource", `{"ResourceArn":"arn:aws:dynamodb:us-east-1:000000000000:table/orders"}`},
	}
	for i := range 1000 {
		key := fmt.Sprintf("%0128d", i)
		r := reads[i%len(reads)]
		res, body := doService(t, e, "DynamoDB_20120810."+r.target, testkit.Auth(key, "us-east-1"), r.body)
		if res.StatusCode >= 500 {
			t.Fatalf("%s: %d %s", r.target, res.StatusCode, body)
		}
	}
	if n := e.NamespaceCount(); n != 0 {
		t.Fatalf("reads created %d namespaces, want 0", n)
	}

	auth := testkit.Auth(strings.Repeat("Z", 128), "us-east-1")
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"TableName":"orders","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`))
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.CreateTable")
	req.Header["Authorization"] = []string{auth}
	rec := httptest.NewRecorder()
	serviceHandler(e).ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Fatalf("CreateTable: %d %s", rec.Code, rec.Body)
	}
	if n := e.NamespaceCount(); n != 1 {
		t.Fatalf("got %d namespaces after CreateTable, want 1", n)
	}
	start := uintptr(unsafe.Pointer(unsafe.StringData(auth)))
	for _, ns := range e.dbs.All() {
		p := uintptr(unsafe.Pointer(unsafe.StringData(ns.nk().AccessKey)))
		if p >= start && p < start+uintptr(len(auth)) {
			t.Error("the namespace key points into the Authorization header")
		}
		if got := ns.getTable("orders"); got == nil {
			t.Error("the table is not in the created namespace")
		}
	}
	// The same key now reads its table.
	if res, body := doService(t, e, "DynamoDB_20120810.ListTables", auth, `{}`); res.StatusCode != 200 || body != `{"TableNames":["orders"]}` {
		t.Errorf("ListTables: got %d %s", res.StatusCode, body)
	}
}
