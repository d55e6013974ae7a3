package emulator

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

func TestDebugRequestLog(t *testing.T) {
	var logs bytes.Buffer
	e := newTestEmulator(t, Options{Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	do(t, e, "DynamoDB_20120810.GetItem", testkit.DefaultAuth, `{"TableName":"nope","Key":{"k":{"S":"a"}}}`)
	do(t, e, echo, testkit.DefaultAuth, `{"TableName":"fine"}`)
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("got %d log lines, want 2: %s", len(lines), logs.String())
	}
	for i, wants := range [][]string{
		{`"msg":"request"`, `"op":"GetItem"`, `"table":"nope"`, `"status":400`,
			`"error":"ResourceNotFoundException"`, `"message":"Requested resource not found"`, `"duration":`, `"request_id":`},
		{`"msg":"request"`, `"op":"TestEcho"`, `"table":"fine"`, `"status":200`, `"duration":`},
	} {
		for _, want := range wants {
			if !strings.Contains(lines[i], want) {
				t.Errorf("line %d lacks %s: %s", i, want, lines[i])
			}
		}
	}
}

// TestInfoLogsEvery500: at the default level only 500s are logged, each with
// its request id; other answers log nothing.
func TestInfoLogsEvery500(t *testing.T) {
	var logs bytes.Buffer
	e := newTestEmulator(t, Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	do(t, e, "DynamoDB_20120810.GetItem", testkit.DefaultAuth, `{"TableName":"nope","Key":{"k":{"S":"a"}}}`)
	if logs.Len() != 0 {
		t.Fatalf("a 400 was logged at info: %s", logs.String())
	}
	status, _ := doEncoded(t, e, []byte("not gzip"), "gzip")
	if status != 500 {
		t.Fatalf("got status %d, want 500", status)
	}
	out := logs.String()
	for _, want := range []string{`"level":"WARN"`, `"msg":"answered 500"`, `"request_id":`, `"error":"InternalServerError"`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s: %s", want, out)
		}
	}
}
