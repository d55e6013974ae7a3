package adminhttp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

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

// ServeClock answers GET and POST of the clock's path: the emulator's
// time, after a POST's move.
func (a *Admin) ServeClock(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	if r.Method == http.MethodPost {
		body, err := ReadBody(r, MaxBody)
		if err != nil {
			err = fmt.Errorf("%w: %v", errClockRequest, err)
		} else {
			var ch clockChange
			if ch, err = parseClockRequest(body); err == nil {
				if ch.isSet {
					_, err = a.Host.SetNow(ch.set)
				} else {
					_, err = a.Host.Advance(ch.advance)
				}
			}
		}
		if err != nil {
			WriteError(w, err)
			return
		}
	}
	Write(w, http.StatusOK, `{"now":"`+a.Host.Now().UTC().Format(time.RFC3339Nano)+`"}`)
}

// ServeSweep answers POST of the TTL sweep's path: one sweep, and how
// many items it deleted.
func (a *Admin) ServeSweep(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	Write(w, http.StatusOK, `{"deleted":`+strconv.Itoa(a.Host.SweepTTL())+`}`)
}

// ServeConventionsReset answers DELETE of the conventions report's path:
// the report is emptied.
func (a *Admin) ServeConventionsReset(w http.ResponseWriter, r *http.Request) {
	a.act(w, r, a.Host.ResetConventionsReport, `{"reset":true}`)
}

// ServeConventions answers GET of the conventions report's path with the
// report as JSON (500 in plain text if it cannot be encoded).
func (a *Admin) ServeConventions(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	body, err := json.Marshal(a.Host.ConventionsReport())
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
