package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/gorilla/mux"
)

// The admin endpoints, which no AWS service has: control of the emulator's
// clock (clock.go) and of the TTL sweeper (ttl_control.go) over HTTP, for tests
// that run the emulator as a separate process.
//
//	GET  /dynamoemu/clock             {"now":"2026-11-22T11:00:00Z"}
//	POST /dynamoemu/clock             {"advance":"1h30m"} or {"set":"2030-01-01T00:00:00Z"}
//	POST /dynamoemu/ttl/sweep         {"deleted":3}
//	GET  /dynamoemu/health            {"status":"ok"} (health.go)
//	DELETE /dynamoemu/conventions     {"reset":true} (empties the conventions report)
//	GET  /dynamoemu/namespaces        the namespaces that hold tables (namespaces_admin.go)
//	POST /dynamoemu/streams/drain     {"drained":true} once the stream handlers caught up (stream_handlers.go)
//	GET  /dynamoemu/streams/mappings  the event source mappings and their progress (stream_handlers.go)
//
// Durations are Go's (time.ParseDuration), times RFC 3339. A bad request,
// or a clock moved more than about 292 years from the real time (the most
// its offset holds, clock.go), is answered 400 with a ValidationException
// body ({"__type":...,"message":"..."}). The endpoints need no signature,
// but refuse what a web page could send them cross-site (httpedge/adminguard.go):
// a POST needs Content-Type application/json, and a request with an
// Origin that -cors does not allow gets 403.

// Admin endpoint paths.
const (
	AdminClockPath = "/dynamoemu/clock"
	AdminSweepPath = "/dynamoemu/ttl/sweep"
)

// maxAdminBody bounds an admin request body.
const maxAdminBody = 4 << 10

// errClockRequest: an admin clock request that is not {"advance":...} or {"set":...}.
var errClockRequest = errors.New(`want {"advance":"<duration>"} or {"set":"<RFC 3339 time>"}`)

// clockRequest is the body of POST /dynamoemu/clock.
type clockRequest struct {
	Advance *string `json:"advance"`
	Set     *string `json:"set"`
}

// clockChange is a decoded clock request: move by advance, or go to set.
type clockChange struct {
	advance time.Duration
	set     time.Time
	isSet   bool
}

// parseClockRequest decodes a POST /dynamoemu/clock body.
func parseClockRequest(body []byte) (clockChange, error) {
	var req clockRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return clockChange{}, fmt.Errorf("%w: %v", errClockRequest, err)
	}
	switch {
	case (req.Advance == nil) == (req.Set == nil):
		return clockChange{}, errClockRequest
	case req.Advance != nil:
		d, err := time.ParseDuration(*req.Advance)
		if err != nil {
			return clockChange{}, fmt.Errorf("%w: %v", errClockRequest, err)
		}
		return clockChange{advance: d}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, *req.Set)
	if err != nil {
		return clockChange{}, fmt.Errorf("%w: %v", errClockRequest, err)
	}
	return clockChange{set: t, isSet: true}, nil
}

func (e *Emulator) adminRoutes(r *mux.Router) {
	r.Methods(http.MethodGet).Path(AdminClockPath).HandlerFunc(e.serveClock)
	r.Methods(http.MethodPost).Path(AdminClockPath).HandlerFunc(e.serveClock)
	r.Methods(http.MethodPost).Path(AdminSweepPath).HandlerFunc(e.serveSweep)
	r.Methods(http.MethodGet).Path(AdminHealthPath).HandlerFunc(e.serveHealthAdmin) // health.go
	r.Methods(http.MethodDelete).Path(ConventionsPath).HandlerFunc(e.serveConventionsReset)
	r.Methods(http.MethodGet).Path(AdminNamespacesPath).HandlerFunc(e.serveNamespaces)           // namespaces_admin.go
	r.Methods(http.MethodGet).Path(AdminTablesPath).HandlerFunc(e.serveTables)                   // namespaces_admin.go
	r.Methods(http.MethodPost).Path(AdminStreamsDrainPath).HandlerFunc(e.serveStreamsDrain)      // stream_handlers.go
	r.Methods(http.MethodGet).Path(AdminStreamsMappingsPath).HandlerFunc(e.serveStreamsMappings) // stream_handlers.go
	e.snapshotRoutes(r)
	r.Methods(http.MethodGet, http.MethodDelete).Path(AdminConsistencyPath).HandlerFunc(e.serveConsistency) // consistency.go
	e.branchRoutes(r)
	e.faultRoutes(r)                                                                     // faults_admin.go
	r.Methods(http.MethodGet, http.MethodPut).Path(AdminIAMPath).HandlerFunc(e.serveIAM) // iam.go
}

// serveConventionsReset answers DELETE ConventionsPath: the conventions
// report is emptied (GET ConventionsPath reads it).
func (e *Emulator) serveConventionsReset(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	e.ResetConventionsReport()
	writeAdmin(w, http.StatusOK, `{"reset":true}`)
}

func (e *Emulator) serveClock(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	if r.Method == http.MethodPost {
		body, err := readAdminBody(r)
		if err == nil {
			var ch clockChange
			if ch, err = parseClockRequest(body); err == nil {
				if ch.isSet {
					_, err = e.SetNow(ch.set)
				} else {
					_, err = e.Advance(ch.advance)
				}
			}
		}
		if err != nil {
			writeAdminError(w, err)
			return
		}
	}
	writeAdmin(w, http.StatusOK, `{"now":"`+e.Now().UTC().Format(time.RFC3339Nano)+`"}`)
}

func (e *Emulator) serveSweep(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	writeAdmin(w, http.StatusOK, `{"deleted":`+strconv.Itoa(e.SweepTTL())+`}`)
}

func readAdminBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxAdminBody+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errClockRequest, err)
	}
	if len(body) > maxAdminBody {
		return nil, fmt.Errorf("%w: body over %d bytes", errClockRequest, maxAdminBody)
	}
	return body, nil
}

func writeAdmin(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// writeAdminError answers a bad admin request (a malformed body, a clock
// out of range) with 400 and a ValidationException body, as the API
// answers bad input.
func writeAdminError(w http.ResponseWriter, err error) {
	ae := &apierr.Error{Class: apierr.ErrValidation, Msg: err.Error(), Cause: err}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ae.Class.Status)
	_, _ = w.Write(wire.AppendErrorBody(nil, ae))
}
