package adminhttp

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
)

// Gate is a lag gate as the lag endpoint moves it (the emulator's
// LagGate).
type Gate interface {
	Hold()
	Release()
	SetDelay(d time.Duration)
}

// lagRequest is POST /dynamoemu/lag's body.
type lagRequest struct {
	Table     string `json:"table"`
	Stream    bool   `json:"stream"`
	Index     string `json:"index"`
	Reads     bool   `json:"reads"`
	Delay     string `json:"delay"`
	Hold      bool   `json:"hold"`
	Release   bool   `json:"release"`
	AccessKey string `json:"accessKey"`
	Region    string `json:"region"`
}

// errLagRequest: a lag request that is not one of the shapes above.
var errLagRequest = errors.New(`want {"table":"T"} with one of "stream":true, "index":"G", "reads":true and one of "delay":"<duration>", "hold":true, "release":true`)

// ServeLag answers POST of the lag path: one view's gate given a delay,
// held or released.
func (a *Admin) ServeLag(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	if err := a.lag(r); err != nil {
		WriteError(w, err)
		return
	}
	Write(w, http.StatusOK, `{"lag":true}`)
}

// lag applies a lag request.
func (a *Admin) lag(r *http.Request) error {
	body, err := ReadBody(r, MaxFileBody)
	if err != nil {
		return err
	}
	var req lagRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return fmt.Errorf("%w: %v", errLagRequest, err)
	}
	n := 0
	for _, set := range []bool{req.Delay != "", req.Hold, req.Release} {
		if set {
			n++
		}
	}
	views := 0
	for _, set := range []bool{req.Stream, req.Index != "", req.Reads} {
		if set {
			views++
		}
	}
	if req.Table == "" || views != 1 || n != 1 {
		return errLagRequest
	}
	ak, region := req.AccessKey, req.Region
	if ak == "" && region == "" {
		if reps := reportstage.Reports(a.Svc); len(reps) == 1 {
			ak, region, _ = strings.Cut(reps[0].Namespace, "/")
		}
	}
	g, err := a.Lag(ak, region, req.Table, req.Index, req.Reads)
	if err != nil {
		return err
	}
	switch {
	case req.Hold:
		g.Hold()
	case req.Release:
		g.Release()
	default:
		d, err := time.ParseDuration(req.Delay)
		if err != nil || d < 0 {
			return fmt.Errorf("%w: delay %q", errLagRequest, req.Delay)
		}
		g.SetDelay(d)
	}
	return nil
}

// lagView is one gate in GET /dynamoemu/lag's answer.
type lagView struct {
	Namespace string `json:"namespace"`
	Table     string `json:"table"`
	Index     string `json:"index,omitempty"`
	Reads     bool   `json:"reads,omitempty"`
	Stream    bool   `json:"stream,omitempty"`
	Delay     string `json:"delay"`
	Hold      bool   `json:"hold"`
	Pending   int    `json:"pending"`
}

// ServeLagGet answers GET of the lag path: {"lags":[...]}, each gate with
// its view, its delay (a Go duration, as POST takes it), whether it is
// held, and what it holds back (the gates as the emulator's Lags lists
// them).
func (a *Admin) ServeLagGet(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	views := []lagView{}
	for _, l := range lag.Lags(a.Svc) {
		views = append(views, lagView{Namespace: l.Namespace, Table: l.Table, Index: l.Index, Reads: l.Reads, Stream: l.Stream,
			Delay: l.Delay.String(), Hold: l.Hold, Pending: l.Pending})
	}
	WriteJSON(w, map[string]any{"lags": views})
}
