package backups

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accountops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/partiqlops"
	"github.com/dynamoemu/dynamoemu/emulator/internal/pitr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/vectorsearch"
)

// The features in use in this package's tests, as the emulator uses
// them: this one, point-in-time recovery, which it reads, and
// SearchVectors, which the vector tests search a restored table with,
// and PartiQL, which the tests of a table still CREATING send.
var testFeatures = []service.Feature{
	accountops.Feature{}, // ListTables, which CompareNamespaces sends
	Feature{},
	pitr.Feature{},
	vectorsearch.Feature{},
	partiqlops.Feature{},
}

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

func (e *clockEnv) send(op, body string) (int, string) {
	e.t.Helper()
	e.env.T = e.t
	return e.env.Send(op, body)
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
