package service

import (
	"net/http"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// api27Env is a service on a fixed clock with a transient delay, for the
// tests of issue 27's operations (policies, Kinesis destinations, replica
// auto scaling, exports and imports, global tables).
type api27Env struct {
	t     testing.TB
	svc   *Service
	clock *testkit.Clock
	auth  string
}

func newAPI27Env(t testing.TB, cfg Config) *api27Env {
	clock := testkit.NewClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	cfg.Clock = clock.Now
	return &api27Env{t: t, svc: newTestService(t, cfg), clock: clock, auth: testkit.DefaultAuth}
}

func (e *api27Env) send(op, body string) (int, string) {
	e.t.Helper()
	res, out := doService(e.t, e.svc, "DynamoDB_20120810."+op, e.auth, body)
	return res.StatusCode, out
}

func (e *api27Env) must(op, body string) string {
	e.t.Helper()
	status, out := e.send(op, body)
	if status != http.StatusOK {
		e.t.Fatalf("%s: %d %s", op, status, out)
	}
	return out
}

// refused sends op and wants a 400 of type wantType.
func (e *api27Env) refused(op, body, wantType string) string {
	e.t.Helper()
	status, out := e.send(op, body)
	if got := testkit.ErrorType(out); status != http.StatusBadRequest || got != wantType {
		e.t.Errorf("%s %s: got %d %s, want 400 %s", op, body, status, out, wantType)
	}
	return out
}

// table creates a table with a string partition key pk (billing: mode's
// BillingMode and throughput JSON members).
func (e *api27Env) table(name, billing string) {
	e.t.Helper()
	e.must("CreateTable", `{"TableName":"`+name+`",`+billing+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
}

const (
	onDemand    = `"BillingMode":"PAY_PER_REQUEST"`
	provisioned = `"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}`
)
