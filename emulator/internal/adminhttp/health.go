package adminhttp

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/persist"
)

// The health endpoint says whether the emulator can take writes: with a
// data directory, what stops them (a full disk, until a write goes
// through again; a log stopped by a failed fsync, until a restart) and
// what will (compactions that keep failing: the log grows). It answers
// 200 with {"status":"ok"}, or "warning" and the problems, or 503 with
// "degraded" when writes fail:
//
//	{"status":"degraded","dataDir":"/data","problems":[{"namespace":"key_us-east-1",
//	  "writesFail":true,"error":"persist: no space left on the device holding the data directory (...)",
//	  "since":"2026-11-25T03:00:00Z"}]}
//
// A write that fails so is answered 500 InternalServerError naming the
// cause (apierr), and the log says it once.

// healthAnswer is the health endpoint's body.
type healthAnswer struct {
	Status   string          `json:"status"`
	DataDir  string          `json:"dataDir,omitempty"`
	Problems []healthProblem `json:"problems,omitempty"`
}

type healthProblem struct {
	Namespace  string     `json:"namespace"`
	WritesFail bool       `json:"writesFail"`
	Error      string     `json:"error"`
	Since      *time.Time `json:"since,omitempty"`
}

// ServeHealth answers GET of the health endpoint.
func (a *Admin) ServeHealth(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	var probs []persist.Problem
	if a.Problems != nil {
		probs = a.Problems()
	}
	status, ans := healthOf(a.DataDir, probs)
	body, _ := json.Marshal(ans)
	Write(w, status, string(body))
}

// healthOf is the health endpoint's status and body for the data
// directory dataDir and its store's problems.
func healthOf(dataDir string, probs []persist.Problem) (int, healthAnswer) {
	ans := healthAnswer{Status: "ok", DataDir: dataDir}
	status := http.StatusOK
	for _, p := range probs {
		hp := healthProblem{Namespace: p.Namespace, WritesFail: p.WritesFail, Error: p.Err}
		if !p.Since.IsZero() {
			since := p.Since.UTC()
			hp.Since = &since
		}
		ans.Problems = append(ans.Problems, hp)
		if p.WritesFail {
			ans.Status, status = "degraded", http.StatusServiceUnavailable
		} else if ans.Status == "ok" {
			ans.Status = "warning"
		}
	}
	return status, ans
}
