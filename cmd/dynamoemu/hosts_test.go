package main

import (
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunAllowHost: the server refuses a Host of DNS rebinding with 403
// and says how to allow it, in its answer and (once) in its log; the names
// of -allowHost, localhost and IP addresses are answered.
func TestRunAllowHost(t *testing.T) {
	var logs syncBuffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run([]string{"-port", "0", "-allowHost", "dynamodb.test,ddb.example", "-allowHost", "*.corp.example"}, io.Discard, &logs, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(hangBound):
		t.Fatal("server did not start")
	}
	port := addr[strings.LastIndexByte(addr, ':'):]
	for _, tt := range []struct {
		host   string
		status int
	}{
		{"localhost" + port, 200},
		{"127.0.0.1" + port, 200},
		{"dynamodb.test" + port, 200},
		{"ddb.example", 200},
		{"x.corp.example" + port, 200},
		{"attacker.example" + port, 403},
		{"attacker.example" + port, 403},
	} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/", strings.NewReader(`{}`))
		req.Host = tt.host
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tt.status {
			t.Errorf("Host %s: got %d, want %d", tt.host, res.StatusCode, tt.status)
		}
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(hangBound):
		t.Fatal("server did not stop on SIGTERM")
	}
	out := logs.String()
	if n := strings.Count(out, "level=WARN msg=\"refused a request"); n != 1 {
		t.Errorf("got %d warnings for the refused Host, want 1 (the second is at debug level): %s", n, out)
	}
	if !strings.Contains(out, "allowHost=dynamodb.test,ddb.example,*.corp.example") {
		t.Errorf("the start-up log does not list -allowHost: %s", out)
	}
}
