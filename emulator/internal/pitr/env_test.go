package pitr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
)

// The feature in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{Feature{}}

// clockEnv is a service on a test clock (servicetest.Env) with the
// short names this package's tests use.
type clockEnv struct {
	env *servicetest.Env
	t   testing.TB
}

func newEnv(t testing.TB) *clockEnv {
	return &clockEnv{env: servicetest.New(t, service.Config{Features: testFeatures}), t: t}
}

func (e *clockEnv) send(op, body string) (int, string) {
	e.t.Helper()
	return e.env.Send(op, body)
}

func (e *clockEnv) must(op, body string) string {
	e.t.Helper()
	return e.env.Must(op, body)
}
