package service

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// manyTags is a Tags member of n distinct tags.
func manyTags(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`{"Key":"k%02d","Value":"v"}`, i)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func TestCreateTableTags(t *testing.T) {
	cases := []struct{ name, tags, msg string }{
		{"51 tags", manyTags(51), apierr.MsgTagLimit},
		{"aws prefix", `[{"Key":"aws:x","Value":"y"}]`, "Tag Key cannot be prefixed with aws:, Key: aws:x"},
		{"key 129", `[{"Key":"` + strings.Repeat("k", 129) + `","Value":"y"}]`, "The Tag Key provided is invalid, Key: " + strings.Repeat("k", 129)},
		{"value missing", `[{"Key":"x"}]`, "The Tag Value provided is invalid, Value: null"},
		{"duplicate", `[{"Key":"x","Value":"1"},{"Key":"x","Value":"2"}]`, "Duplicate Tag Keys provided as input: Duplicate Tag Key found x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newTablesEmulator(t)
			r := tablesDo(t, e, "CreateTable", `{"TableName":"tagtab",`+hashOnly+`,`+ppr+`,"Tags":`+tc.tags+`}`)
			if r.typ != "ValidationException" || r.msg != tc.msg {
				t.Fatalf("got %s %q, want ValidationException %q", r.typ, r.msg, tc.msg)
			}
			if r := tablesDo(t, e, "DescribeTable", `{"TableName":"tagtab"}`); r.typ != "ResourceNotFoundException" {
				t.Fatalf("table created despite bad tags: %d %s", r.status, r.typ)
			}
		})
	}
	e := newTablesEmulator(t)
	mustTables(t, e, "CreateTable", `{"TableName":"tagtab",`+hashOnly+`,`+ppr+`,"Tags":[]}`)
}

// TestDescribeEndpointsHost: the address is the Host the client used, so
// endpoint discovery stays on the emulator.
func TestDescribeEndpointsHost(t *testing.T) {
	e := newTablesEmulator(t)
	for _, host := range []string{"localhost:8000", "127.0.0.1:4566", "dynamodb.local", "[::1]:8000"} {
		req := httptest.NewRequest(http.MethodPost, "http://"+host+"/", bytes.NewBufferString(`{}`))
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.DescribeEndpoints")
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", testkit.DefaultAuth)
		rec := httptest.NewRecorder()
		serviceHandler(e).ServeHTTP(rec, req)
		body, _ := io.ReadAll(rec.Result().Body)
		want := `{"Endpoints":[{"Address":"` + host + `","CachePeriodInMinutes":1440}]}`
		if rec.Code != 200 || string(body) != want {
			t.Errorf("Host %s: got %d %s, want %s", host, rec.Code, body, want)
		}
	}
}
