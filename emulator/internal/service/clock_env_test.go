package service

import (
	"net/http"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// clockEnv is a service on a fixed clock, for the tests of the
// table-feature seam (a feature's own tests use servicetest).
type clockEnv struct {
	t     testing.TB
	svc   *Service
	clock *testkit.Clock
	auth  string
}

func newClockEnv(t testing.TB, cfg Config) *clockEnv {
	clock := testkit.NewClock(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	cfg.Clock = clock.Now
	return &clockEnv{t: t, svc: newTestService(t, cfg), clock: clock, auth: testkit.DefaultAuth}
}

func (e *clockEnv) send(op, body string) (int, string) {
	e.t.Helper()
	res, out := doService(e.t, e.svc, "DynamoDB_20120810."+op, e.auth, body)
	return res.StatusCode, out
}

func (e *clockEnv) must(op, body string) string {
	e.t.Helper()
	status, out := e.send(op, body)
	if status != http.StatusOK {
		e.t.Fatalf("%s: %d %s", op, status, out)
	}
	return out
}

// refused sends op and wants a 400 of type wantType.
func (e *clockEnv) refused(op, body, wantType string) string {
	e.t.Helper()
	status, out := e.send(op, body)
	if got := testkit.ErrorType(out); status != http.StatusBadRequest || got != wantType {
		e.t.Errorf("%s %s: got %d %s, want 400 %s", op, body, status, out, wantType)
	}
	return out
}

// table creates a table with a string partition key pk (billing: mode's
// BillingMode and throughput JSON members).
func (e *clockEnv) table(name, billing string) {
	e.t.Helper()
	e.must("CreateTable", `{"TableName":"`+name+`",`+billing+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
}

// provisioned is a CreateTable's provisioned throughput.
const provisioned = `"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}`
