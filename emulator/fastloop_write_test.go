package emulator

import (
	"hash/crc32"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httploop"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestLoopLargeAnswers: answers larger than the loop's write buffer (head
// and body go out in one writev, httploop/apianswer.go) arrive whole and in
// order on a connection with pipelined requests, each with its
// Content-Length and x-amz-crc32, between small answers that go through
// the buffer.
func TestLoopLargeAnswers(t *testing.T) {
	e := newTestEmulator(t, Options{})
	_, addr := startServer(t, e, ServerOptions{})
	req := func(op, body string) string {
		return rawRequest(op, testkit.DefaultAuth, len(body), body)
	}
	create := `{"TableName":"big","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],` +
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`
	var reqs []string
	reqs = append(reqs, req("CreateTable", create))
	sizes := []int{100, httploop.WriteBufferSize - 300, httploop.WriteBufferSize, 3 * httploop.WriteBufferSize, 200_000}
	for i, n := range sizes {
		v := strings.Repeat(string(rune('a'+i)), n)
		key := `{"pk":{"S":"k` + strconv.Itoa(i) + `"}}`
		reqs = append(reqs,
			req("PutItem", `{"TableName":"big","Item":{"pk":{"S":"k`+strconv.Itoa(i)+`"},"v":{"S":"`+v+`"}}}`),
			req("GetItem", `{"TableName":"big","Key":`+key+`}`),
			req("ListTables", `{}`))
	}
	got := exchange(t, addr, reqs)
	if len(got) != len(reqs) {
		t.Fatalf("got %d answers, want %d", len(got), len(reqs))
	}
	for i, a := range got {
		if a.status != 200 {
			t.Fatalf("answer %d: got status %d, want 200: %s", i, a.status, a.body)
		}
		if a.length != strconv.Itoa(len(a.body)) {
			t.Errorf("answer %d: got Content-Length %s, want %d", i, a.length, len(a.body))
		}
		if want := strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(a.body))), 10); a.crc != want {
			t.Errorf("answer %d: got x-amz-crc32 %s, want %s", i, a.crc, want)
		}
	}
	for i, n := range sizes {
		a := got[1+3*i+1]
		if want := strings.Repeat(string(rune('a'+i)), n); !strings.Contains(a.body, `"v":{"S":"`+want+`"}`) {
			t.Errorf("GetItem of a %d-byte value: the answer (%d bytes) does not hold it", n, len(a.body))
		}
	}
}
