// Package servicetest starts a service for the tests of a feature
// package (emulator/internal/resources, ...): a Service on a test clock,
// requests sent as the edge sends them, answers read as a client reads
// them. It is for tests only.
package servicetest

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Start is the test clock's first reading: 2026-11-22 12:00 UTC.
var Start = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// Env is a service on a test clock, with the credential its requests
// carry (Auth: testkit.DefaultAuth unless changed).
type Env struct {
	T     testing.TB
	Svc   *service.Service
	Clock *testkit.Clock
	Auth  string
}

// New starts a service with cfg on a clock at Start; the service is
// closed when the test ends.
func New(t testing.TB, cfg service.Config) *Env {
	t.Helper()
	clock := testkit.NewClock(Start)
	cfg.Clock = clock.Now
	s, err := service.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &Env{T: t, Svc: s, Clock: clock, Auth: testkit.DefaultAuth}
}

// Handler serves the DynamoDB API from the service, as the edge does
// but without its checks: the credential is read, never verified.
func (e *Env) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, region := testkit.Credential(r.Header.Get("Authorization"))
		body, _ := io.ReadAll(r.Body)
		out, err := e.serve(r, key, region, body)
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

func (e *Env) serve(r *http.Request, key, region string, body []byte) ([]byte, error) {
	op, err := e.Svc.Lookup(r.Header.Get("X-Amz-Target"))
	if err != nil {
		return nil, err
	}
	return e.Svc.Serve(op, &service.Request{
		Ctx: r.Context(), AccessKey: key, Region: region, Tenant: r.Header.Get("X-Tenant-Code"),
		RequestID: "test", Host: r.Host, Body: body,
	})
}

// Send sends the DynamoDB operation op with body and returns the
// answer's status and body.
func (e *Env) Send(op, body string) (int, string) {
	e.T.Helper()
	res, out := testkit.Do(e.T, e.Handler(), "DynamoDB_20120810."+op, e.Auth, body)
	return res.StatusCode, out
}

// Must sends op and fails the test unless it answers 200; it returns
// the answer's body.
func (e *Env) Must(op, body string) string {
	e.T.Helper()
	status, out := e.Send(op, body)
	if status != http.StatusOK {
		e.T.Fatalf("%s: %d %s", op, status, out)
	}
	return out
}

// Refused sends op and wants a 400 of type wantType; it returns the
// answer's body.
func (e *Env) Refused(op, body, wantType string) string {
	e.T.Helper()
	status, out := e.Send(op, body)
	if got := testkit.ErrorType(out); status != http.StatusBadRequest || got != wantType {
		e.T.Errorf("%s %s: got %d %s, want 400 %s", op, body, status, out, wantType)
	}
	return out
}

// Recorded starts a service as New does whose namespaces' records are
// kept by the returned recorder, for Replay.
func Recorded(t testing.TB, cfg service.Config) (*Env, *testkit.Recorder) {
	t.Helper()
	rec := &testkit.Recorder{}
	cfg.Hooks = rec.Hook
	return New(t, cfg), rec
}

// Replay rebuilds every namespace rec recorded in a new service with
// cfg, record by record, as persistence replays a log, on a clock at
// now (the recording service's, so both read alike).
func Replay(t testing.TB, rec *testkit.Recorder, cfg service.Config, now time.Time) *Env {
	t.Helper()
	e := New(t, cfg)
	e.Clock.Advance(now.Sub(e.Clock.Now()))
	for _, id := range rec.Namespaces() {
		ns := e.Svc.Namespace(id)
		for i, b := range rec.Records(id) {
			r, err := storage.ParseRecord(b)
			if err != nil {
				t.Fatalf("namespace %q record %d: %v", id, i, err)
			}
			if err := ns.Apply(r); err != nil {
				t.Fatalf("namespace %q record %d (%s): %v", id, i, r.Kind, err)
			}
		}
	}
	return e
}
