package globaltables

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tagging"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/ttl"
)

// The features in use in this package's tests, as the emulator uses
// them: this one, and those whose operations the tests send to the
// replicas (tags, Time to Live, the Streams API).
var testFeatures = []service.Feature{
	tagging.Feature{},
	ttl.Feature{},
	streamsapi.Feature{},
	Feature{},
}

// Config is the service's configuration.
type Config = service.Config

// testService is a service with the feature's controls, as the
// emulator's facade reaches them.
type testService struct {
	*service.Service
	env *servicetest.Env
}

// DrainReplication applies every replicated write on its way (Drain).
func (s testService) DrainReplication() int { return Drain(s.Service) }

// SetReplicationDelay sets the replication delay (SetDelay).
func (s testService) SetReplicationDelay(d time.Duration) { SetDelay(s.Service, d) }

// StampCount is how many per-key write stamps the service keeps.
func (s testService) StampCount() int { return replicators.For(s.Service).stampsHeld() }

// clockEnv is a service on a test clock (servicetest.Env) with the
// short names this package's tests use; auth is the credential of the
// next request.
type clockEnv struct {
	t     testing.TB
	env   *servicetest.Env
	svc   testService
	clock *testkit.Clock
	auth  string
}

func newClockEnv(t testing.TB, cfg Config) *clockEnv {
	if cfg.Features == nil {
		cfg.Features = testFeatures
	}
	env := servicetest.New(t, cfg)
	return &clockEnv{t: t, env: env, svc: testService{env.Svc, env}, clock: env.Clock, auth: testkit.DefaultAuth}
}

func (e *clockEnv) must(op, body string) string {
	e.t.Helper()
	e.env.Auth = e.auth
	return e.env.Must(op, body)
}

// refused sends op and wants a 400 of type wantType.
func (e *clockEnv) refused(op, body, wantType string) string {
	e.t.Helper()
	e.env.Auth = e.auth
	return e.env.Refused(op, body, wantType)
}

// table creates a table with a string partition key pk (billing: mode's
// BillingMode and throughput JSON members).
func (e *clockEnv) table(name, billing string) {
	e.t.Helper()
	e.must("CreateTable", `{"TableName":"`+name+`",`+billing+`,
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
}

// A CreateTable's billing: on demand, or provisioned throughput.
const (
	onDemand    = `"BillingMode":"PAY_PER_REQUEST"`
	provisioned = `"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}`
)

// doService sends a request to s with the credential auth, as a client
// would, safe from several goroutines at once.
func doService(t testing.TB, s testService, target, auth, body string) (*http.Response, string) {
	t.Helper()
	return testkit.Do(t, s.env.Handler(), target, auth, body)
}

// scanItems returns a table's items as canonical JSON, sorted.
func scanItems(t *testing.T, e *clockEnv, table string) []string {
	t.Helper()
	var out struct{ Items []map[string]any }
	testkit.MustUnmarshal(t, e.must("Scan", `{"TableName":"`+table+`"}`), &out)
	var s []string
	for _, it := range out.Items {
		b, _ := json.Marshal(it)
		s = append(s, string(b))
	}
	slices.Sort(s)
	return s
}
