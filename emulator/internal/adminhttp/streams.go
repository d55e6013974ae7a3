package adminhttp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// The stream handlers' drain and their mappings, and the consistency
// report:
//
//	POST   /dynamoemu/streams/drain     {"timeout":"30s"} -> {"drained":true}, or 504 DrainTimeoutException naming the stuck mappings
//	GET    /dynamoemu/streams/mappings  every mapping's configuration and progress
//	GET    /dynamoemu/consistency       {"mode","seed","staleReads":[...],"dropped"}
//	DELETE /dynamoemu/consistency       forget the stale reads seen so far

// drainRequest is the drain's body.
type drainRequest struct {
	Timeout string `json:"timeout"`
}

// ServeStreamsDrain answers POST of the drain path: once every stream
// handler has caught up, or 504 DrainTimeoutException (apierr's
// ErrDrainTimeout) naming the mappings still behind when the timeout
// (DrainTimeout when the body names none) ends first. A body that is
// not {"timeout": a positive duration} is 400 ValidationException.
func (a *Admin) ServeStreamsDrain(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	body, err := ReadBody(r, MaxBody)
	timeout := a.DrainTimeout
	if err == nil && len(strings.TrimSpace(string(body))) > 0 {
		var req drainRequest
		if err = json.Unmarshal(body, &req); err == nil && req.Timeout != "" {
			timeout, err = time.ParseDuration(req.Timeout)
			if err == nil && timeout <= 0 {
				err = errors.New("timeout must be positive")
			}
		}
	}
	if err != nil {
		WriteError(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	if err := a.Host.DrainStreams(ctx); err != nil {
		writeClass(w, &apierr.Error{Class: apierr.ErrDrainTimeout, Msg: err.Error(), Cause: err}, apierr.ErrDrainTimeout.Status)
		return
	}
	Write(w, http.StatusOK, `{"drained":true}`)
}

// ServeStreamsMappings answers GET of the mappings path.
func (a *Admin) ServeStreamsMappings(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	WriteJSON(w, map[string]any{"mappings": a.Answers.Mappings()})
}

// ServeConsistency answers GET (the report) and DELETE (forget the
// stale reads) of the consistency path.
func (a *Admin) ServeConsistency(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	if r.Method == http.MethodDelete {
		a.Host.ResetConsistencyReport()
		Write(w, http.StatusOK, `{"reset":true}`)
		return
	}
	WriteJSON(w, a.Answers.Consistency())
}
