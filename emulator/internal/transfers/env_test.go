package transfers

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/pitr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The features in use in this package's tests, as the emulator uses
// them: this one, and point-in-time recovery, which it reads; and the
// report's stage, which counts a bulk put refused by its condition, with
// the units the capacity stage meters.
var (
	testFeatures = []service.Feature{
		Feature{},
		pitr.Feature{},
	}
	testStages = []service.Stage{reportstage.Stage{}}
)

// clockEnv is a service on a test clock (servicetest.Env) with the
// short names this package's tests use.
type clockEnv struct {
	env   *servicetest.Env
	t     testing.TB
	clock *testkit.Clock
	svc   *service.Service
}

func newClockEnv(t testing.TB, cfg service.Config) *clockEnv {
	env := servicetest.New(t, cfg)
	return &clockEnv{env: env, t: t, clock: env.Clock, svc: env.Svc}
}

func (e *clockEnv) must(op, body string) string {
	e.t.Helper()
	e.env.T = e.t // a fuzz target swaps in each input's t
	return e.env.Must(op, body)
}

// refused sends op and wants a 400 of type wantType.
func (e *clockEnv) refused(op, body, wantType string) string {
	e.t.Helper()
	e.env.T = e.t // a fuzz target swaps in each input's t
	return e.env.Refused(op, body, wantType)
}

// table creates a table with a string partition key pk (billing: mode's
// BillingMode and throughput JSON members).
func (e *clockEnv) table(name, billing string) {
	e.t.Helper()
	e.must("CreateTable", `{"TableName":"`+name+`",`+billing+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
}

const (
	onDemand    = `"BillingMode":"PAY_PER_REQUEST"`
	provisioned = `"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}`
)
