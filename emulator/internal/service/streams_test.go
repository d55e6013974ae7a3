package service

import (
	"net/http"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamrec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestStreamARNNotReused: a table deleted and created again within the
// same millisecond (a frozen clock here) gets a stream of its own, not its
// predecessor's ARN, whether the stream comes with CreateTable or with
// UpdateTable; the old stream stays DISABLED and the new one is ENABLED.
// TestLockOrder found two tables sharing one ARN.
func TestStreamARNNotReused(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	e := newTestService(t, Config{Clock: func() time.Time { return now }})
	call := func(target, body string) map[string]any {
		t.Helper()
		res, out := doService(t, e, target, testkit.DefaultAuth, body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: status %d, %s", target, body, res.StatusCode, out)
		}
		var v map[string]any
		testkit.MustUnmarshal(t, out, &v)
		return v
	}
	latestARN := func() string {
		d := call("DynamoDB_20120810.DescribeTable", `{"TableName":"lbl"}`)
		arn, _ := d["Table"].(map[string]any)["LatestStreamArn"].(string)
		return arn
	}
	status := func(arn string) string {
		d := call("DynamoDBStreams_20120810.DescribeStream", `{"StreamArn":"`+arn+`"}`)
		return d["StreamDescription"].(map[string]any)["StreamStatus"].(string)
	}
	const spec = `"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}`
	create := func(withStream bool) {
		body := `{"TableName":"lbl","BillingMode":"PAY_PER_REQUEST",
			"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
			"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]`
		if withStream {
			body += "," + spec
		}
		call("DynamoDB_20120810.CreateTable", body+"}")
	}

	var arns []string
	for i, how := range []string{"CreateTable", "UpdateTable", "CreateTable"} {
		if i > 0 {
			call("DynamoDB_20120810.DeleteTable", `{"TableName":"lbl"}`)
		}
		create(how == "CreateTable")
		if how == "UpdateTable" {
			call("DynamoDB_20120810.UpdateTable", `{"TableName":"lbl",`+spec+`}`)
		}
		arns = append(arns, latestARN())
	}
	for i, arn := range arns {
		for _, prev := range arns[:i] {
			if arn == prev {
				t.Fatalf("stream ARNs %q: one reused", arns)
			}
		}
		want := streamrec.Disabled
		if i == len(arns)-1 {
			want = Enabled
		}
		if got := status(arn); got != want {
			t.Errorf("stream %d (%s): got %s, want %s", i, arn, got, want)
		}
	}
}
