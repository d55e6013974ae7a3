package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// The edge's tests send requests with testkit.Do to an Emulator
// (newTestEmulator, do) whose service has two test-only operations in
// front of it (testOps): TestEcho and TestBlock.

// echoInput/echoOutput belong to the test-only operation "TestEcho".
type echoInput struct {
	TableName string
	Item      wire.WireItem
	Limit     *int32
	Panic     bool
	Fail      string
}

type echoOutput struct {
	TableName string        `json:",omitempty"`
	Item      wire.WireItem `json:",omitempty"`
	Region    string
	Namespace string
}

// testGate holds the requests of the test-only operation "TestBlock"
// that name it until the test opens it.
type testGate struct {
	ch   chan struct{}
	body string // a TestBlock request body naming the gate
}

var (
	testGatesMu sync.Mutex
	testGates   = map[string]*testGate{}
)

func newTestGate() *testGate {
	testGatesMu.Lock()
	defer testGatesMu.Unlock()
	name := strconv.Itoa(len(testGates))
	g := &testGate{ch: make(chan struct{}), body: `{"Gate":"` + name + `"}`}
	testGates[name] = g
	return g
}

func (g *testGate) open() { close(g.ch) }

type blockInput struct{ Gate string }

// testOps is the service with the test-only operations TestEcho and
// TestBlock added in front of it, as the edge's tests call it: TestEcho
// answers with what it was sent and the namespace it would act on, or
// with the error or panic it is asked for; TestBlock waits for its gate.
type testOps struct{ apiserve.Backend }

func (b testOps) Lookup(target string) (service.Operation, error) {
	if name, ok := strings.CutPrefix(target, service.TargetPrefix); ok && (name == "TestEcho" || name == "TestBlock") {
		return service.Operation{Name: name}, nil
	}
	return b.Backend.Lookup(target)
}

func (b testOps) Serve(op service.Operation, req *service.Request) ([]byte, error) {
	switch op.Name {
	case "TestBlock":
		var in blockInput
		if err := wire.DecodeRequest(req.Body, &in); err != nil {
			return nil, err
		}
		testGatesMu.Lock()
		g := testGates[in.Gate]
		testGatesMu.Unlock()
		<-g.ch
		return append(req.Out, "{}"...), nil
	case "TestEcho":
		var in echoInput
		if err := wire.DecodeRequest(req.Body, &in); err != nil {
			return nil, err
		}
		if req.TableName != nil {
			*req.TableName = in.TableName
		}
		if in.Panic {
			panic("test panic")
		}
		switch in.Fail {
		case "validation":
			return nil, apierr.Validation("bad input")
		case "condition":
			return nil, apierr.ConditionalCheckFailed(in.Item.Item())
		case "plain":
			return nil, io.ErrUnexpectedEOF
		}
		return json.Marshal(&echoOutput{TableName: in.TableName, Item: in.Item, Region: req.Region, Namespace: req.AccessKey + "/" + req.Region})
	}
	return b.Backend.Serve(op, req)
}

func newTestEmulator(t testing.TB, opts Options) *Emulator {
	t.Helper()
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	e.serve.API = testOps{e.svc}
	return e
}

// do sends one request to e's handler (testkit.Do) and returns the
// response and its body.
func do(t testing.TB, e *Emulator, target, auth, body string) (*http.Response, string) {
	t.Helper()
	return testkit.Do(t, overServer(t, e), target, auth, body)
}

// newRecordedEmulator is newTestEmulator with the commit hooks of rec on
// its namespaces' DBs: its service is replaced by one made with the same
// configuration and rec's hooks (the facade has no option for hooks yet).
func newRecordedEmulator(t testing.TB, opts Options, rec *testkit.Recorder) *Emulator {
	t.Helper()
	e := newTestEmulator(t, opts)
	e.svc.Close()
	cfg := e.serviceConfig()
	cfg.Hooks = rec.Hook
	svc, err := service.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	e.svc, e.serve.Svc, e.serve.API = svc, svc, testOps{svc}
	return e
}
