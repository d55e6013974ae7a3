package emulatortest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Fault injection and the access-pattern report in tests.

// Inject sets e's fault rules (seed 1) for the rest of t: they are
// removed when t ends. A rule that is not valid fails t.
func Inject(t testing.TB, e *emulator.Emulator, rules ...emulator.FaultRule) {
	t.Helper()
	if err := e.Faults().SetRules(1, rules); err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	t.Cleanup(e.Faults().Clear)
}

// RetryingClient returns a client for e that signs with accessKey and
// retries as aws-sdk-go-v2's standard retryer does in production (its
// retryable errors: throttling, 500s, TransactionInProgress), up to
// maxAttempts attempts, without back-off sleeps or the retry token
// bucket, so that a test of an injected fault runs at once.
func RetryingClient(t testing.TB, e *emulator.Emulator, accessKey string, maxAttempts int) *dynamodb.Client {
	t.Helper()
	c := Client(t, e, accessKey)
	return dynamodb.New(c.Options(), func(o *dynamodb.Options) {
		o.Retryer = retry.NewStandard(func(so *retry.StandardOptions) {
			so.MaxAttempts = maxAttempts
			so.RateLimiter = ratelimit.None
			so.Backoff = noBackoff{}
		})
	})
}

// noBackoff retries at once.
type noBackoff struct{}

func (noBackoff) BackoffDelay(int, error) (time.Duration, error) { return 0, nil }

// AccessKeyOf returns the access key a client signs with (the namespace
// it uses, without SharedDB).
func AccessKeyOf(t testing.TB, c *dynamodb.Client) string {
	t.Helper()
	creds, err := c.Options().Credentials.Retrieve(context.Background())
	if err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	return creds.AccessKeyID
}

// Report turns on e's access-pattern report with design (nil: none) for
// the rest of t; when t ends the report is written to t's log (go test
// -v shows it). Reports.Access returns it meanwhile.
func Report(t testing.TB, e *emulator.Emulator, design []byte) {
	t.Helper()
	if err := e.Reports().SetDesign(design); err != nil {
		t.Fatalf("emulatortest: design: %v", err)
	}
	e.Reports().SetReporting(true)
	t.Cleanup(func() {
		var b strings.Builder
		if err := e.Reports().WriteAccess(&b); err == nil {
			t.Log("\n" + b.String())
		}
		e.Reports().SetReporting(false)
	})
}
