package service

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// The service's tests send requests as clients do, through an
// http.Handler (testkit.Do), but without the edge: serviceHandler reads
// the access key and region with testkit.Credential, resolves
// X-Amz-Target, hands the body to the service and writes its answer or
// its error as the edge does (apierr.Classify, wire.AppendErrorBody). The
// edge's own work (credentials, limits, compression, hosts, CORS) is
// tested with the edge.

// newTestService returns a service configured by cfg, closed when the
// test ends.
func newTestService(t testing.TB, cfg Config) *Service {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// serviceHandler serves the DynamoDB API from s, for tests.
func serviceHandler(s *Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, region := testkit.Credential(r.Header.Get("Authorization"))
		body, _ := io.ReadAll(r.Body)
		out, err := serveForTest(s, r, key, region, body)
		status := http.StatusOK
		if err != nil {
			ae, _ := apierr.Classify(err)
			status, out = ae.Class.Status, wire.AppendErrorBody(nil, ae)
		}
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(status)
		_, _ = io.Copy(w, bytes.NewReader(out))
	})
}

func serveForTest(s *Service, r *http.Request, key, region string, body []byte) ([]byte, error) {
	op, err := s.Lookup(r.Header.Get("X-Amz-Target"))
	if err != nil {
		return nil, err
	}
	return s.Serve(op, &Request{
		Ctx: r.Context(), AccessKey: key, Region: region, Tenant: r.Header.Get("X-Tenant-Code"),
		RequestID: "test", Host: r.Host, Body: body,
	})
}

// doService sends one request to s (testkit.Do on serviceHandler).
func doService(t testing.TB, s *Service, target, auth, body string) (*http.Response, string) {
	t.Helper()
	return testkit.Do(t, serviceHandler(s), target, auth, body)
}

// echoedNamespace is the answer of the service's test-only operation
// TestEcho: the region and the namespace a request acts on.
type echoedNamespace struct {
	Region    string
	Namespace string
}

func init() {
	register("TestEcho", func(c *call, in *struct{}) (*echoedNamespace, error) {
		return &echoedNamespace{Region: c.region, Namespace: c.ns.key}, nil
	})
}
