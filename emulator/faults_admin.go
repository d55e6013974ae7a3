package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"

	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// The admin endpoints of fault injection and the access-pattern report
// (behind the admin guard, as the others: httpedge/adminguard.go):
//
//	GET    /dynamoemu/faults          the rules: {"seed":..,"rules":[...]} (faults.Config's JSON)
//	PUT    /dynamoemu/faults          replace the rules (same JSON; an error says line and column)
//	DELETE /dynamoemu/faults          remove every rule
//	GET    /dynamoemu/faults/stats    per rule and per kind counts, the event log
//	GET    /dynamoemu/report          {"reporting":..,"reports":{..},"namespaces":[{"namespace","report"}]}; ?format=text prints it
//	                                  ("reports" says which of the emulator's reports collect: the access
//	                                  patterns', here, and the conventions', GET /dynamoemu/conventions;
//	                                  one that never collected answers "note" and no namespaces, not zeros)
//	DELETE /dynamoemu/report          forget the counts
//	PUT    /dynamoemu/report/design   {"design":"<design file text>"} ("" removes it)
//	POST   /dynamoemu/report/start    start collecting ({} body)
//	POST   /dynamoemu/report/stop     stop collecting
//	GET    /dynamoemu/contributors?table=T&index=I&n=10   Contributor Insights' top keys
//	GET    /dynamoemu/lag             the gates: {"lags":[{"namespace","table","index"|"reads"|"stream","delay","hold","pending"}]}
//	POST   /dynamoemu/lag             {"table":"T","stream":true,"delay":"250ms"} or "hold":true or "release":true;
//	                                  "index":"G" for a GSI, "reads":true for eventually consistent reads, in place of "stream"
//	                                  (optional "accessKey" and "region": the namespace; default the shared one,
//	                                  or the only one there is)
const (
	AdminLagPath          = "/dynamoemu/lag"
	AdminFaultsPath       = "/dynamoemu/faults"
	AdminFaultStatsPath   = "/dynamoemu/faults/stats"
	AdminReportPath       = "/dynamoemu/report"
	AdminDesignPath       = "/dynamoemu/report/design"
	AdminContributorsPath = "/dynamoemu/contributors"
)

// maxFaultsBody bounds a rules or design body (a design file is at most 1 MB).
const maxFaultsBody = 2 << 20

func (e *Emulator) faultRoutes(r *mux.Router) {
	r.Methods(http.MethodGet).Path(AdminFaultsPath).HandlerFunc(e.serveFaultsGet)
	r.Methods(http.MethodPut).Path(AdminFaultsPath).HandlerFunc(e.serveFaultsPut)
	r.Methods(http.MethodDelete).Path(AdminFaultsPath).HandlerFunc(e.serveFaultsDelete)
	r.Methods(http.MethodGet).Path(AdminFaultStatsPath).HandlerFunc(e.serveFaultStats)
	r.Methods(http.MethodGet).Path(AdminReportPath).HandlerFunc(e.serveReport)
	r.Methods(http.MethodDelete).Path(AdminReportPath).HandlerFunc(e.serveReportReset)
	r.Methods(http.MethodPut).Path(AdminDesignPath).HandlerFunc(e.serveDesign)
	r.Methods(http.MethodPost).Path(AdminReportPath + "/start").HandlerFunc(e.serveReportStart)
	r.Methods(http.MethodPost).Path(AdminReportPath + "/stop").HandlerFunc(e.serveReportStop)
	r.Methods(http.MethodGet).Path(AdminContributorsPath).HandlerFunc(e.serveContributors)
	r.Methods(http.MethodPost).Path(AdminLagPath).HandlerFunc(e.serveLag)
	r.Methods(http.MethodGet).Path(AdminLagPath).HandlerFunc(e.serveLagGet) // faults_lag_list.go
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

func (e *Emulator) serveLag(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	err := func() error {
		body, err := readFaultsBody(r)
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
			if reps := reportstage.Reports(e.svc); len(reps) == 1 {
				ak, region, _ = strings.Cut(reps[0].Namespace, "/")
			}
		}
		var g LagGate
		switch {
		case req.Index != "":
			g, err = e.IndexLag(ak, region, req.Table, req.Index)
		case req.Reads:
			g, err = e.TableReadLag(ak, region, req.Table)
		default:
			g, err = e.StreamLag(ak, region, req.Table)
		}
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
	}()
	if err != nil {
		writeAdminError(w, err)
		return
	}
	writeAdmin(w, http.StatusOK, `{"lag":true}`)
}

// writeAdminJSON answers v as JSON.
func writeAdminJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeAdminError(w, err)
		return
	}
	writeAdmin(w, http.StatusOK, string(b))
}

// readFaultsBody reads a body of at most maxFaultsBody bytes.
func readFaultsBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxFaultsBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxFaultsBody {
		return nil, fmt.Errorf("body over %d bytes", maxFaultsBody)
	}
	return body, nil
}

func (e *Emulator) serveFaultsGet(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	seed, rules := e.inj.Rules()
	b, err := faults.MarshalConfig(faults.Config{Seed: seed, Rules: rules})
	if err != nil {
		writeAdminError(w, err)
		return
	}
	writeAdmin(w, http.StatusOK, string(b))
}

func (e *Emulator) serveFaultsPut(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	body, err := readFaultsBody(r)
	if err == nil {
		var c faults.Config
		if c, err = faults.ParseConfig(body); err == nil {
			err = e.inj.SetRules(c.Seed, c.Rules)
		}
	}
	if err != nil {
		writeAdminError(w, err)
		return
	}
	e.serveFaultsGet(w, r)
}

func (e *Emulator) serveFaultsDelete(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	e.inj.Clear()
	writeAdmin(w, http.StatusOK, `{"cleared":true}`)
}

func (e *Emulator) serveFaultStats(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	writeAdminJSON(w, e.inj.Stats())
}

// reportBody is GET /dynamoemu/report's answer.
type reportBody struct {
	Reporting bool `json:"reporting"`
	Design    bool `json:"design"`
	// Reports says which of the emulator's reports collect.
	Reports reportsState `json:"reports"`
	// Note says why there are no namespaces: the report is not
	// collecting and has collected nothing.
	Note       string                        `json:"note,omitempty"`
	Namespaces []reportstage.NamespaceReport `json:"namespaces"`
}

// reportsState is each report's state: the access-pattern report (this
// endpoint) and the conventions report (ConventionsPath).
type reportsState struct {
	AccessPatterns reportState `json:"accessPatterns"`
	Conventions    reportState `json:"conventions"`
}

// reportState is one report's: whether it collects, where it is read,
// and for the conventions report how many tables it checks.
type reportState struct {
	Collecting bool   `json:"collecting"`
	Path       string `json:"path"`
	Tables     *int   `json:"tables,omitempty"`
}

// notCollecting is what the access-pattern report says when it is not
// collecting and has nothing: no table's zeros.
const notCollecting = "the access-pattern report is not collecting: start dynamoemu with -report, or POST /dynamoemu/report/start"

func (e *Emulator) serveReport(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	reporting, reps := reportstage.Reporting(e.svc), reportstage.Reports(e.svc)
	idle := !reporting && !collected(reps)
	if r.URL.Query().Get("format") == "text" {
		var buf bytes.Buffer
		if idle {
			buf.WriteString(notCollecting + "\n")
		} else if err := e.WriteReport(&buf); err != nil {
			writeAdminError(w, err)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(buf.Bytes())
		return
	}
	conv := e.ConventionsReport()
	checked := len(conv.Checked)
	body := reportBody{Reporting: reporting, Design: reportstage.Design(e.svc) != nil, Namespaces: reps,
		Reports: reportsState{
			AccessPatterns: reportState{Collecting: reporting, Path: AdminReportPath},
			Conventions:    reportState{Collecting: checked > 0 || len(conv.Config) > 0, Path: ConventionsPath, Tables: &checked},
		}}
	if idle {
		body.Note, body.Namespaces = notCollecting, []reportstage.NamespaceReport{}
	}
	writeAdminJSON(w, body)
}

// collected reports whether any namespace's report has counted a request.
func collected(reps []reportstage.NamespaceReport) bool {
	for _, r := range reps {
		if r.Report == nil {
			continue
		}
		if len(r.Report.Costliest) > 0 {
			return true
		}
		for _, t := range r.Report.Tables {
			for _, res := range t.Resources {
				if res.Requests > 0 {
					return true
				}
			}
		}
	}
	return false
}

func (e *Emulator) serveReportReset(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	e.ResetReport()
	writeAdmin(w, http.StatusOK, `{"reset":true}`)
}

func (e *Emulator) serveReportStart(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	e.SetReporting(true)
	writeAdmin(w, http.StatusOK, `{"reporting":true}`)
}

func (e *Emulator) serveReportStop(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	e.SetReporting(false)
	writeAdmin(w, http.StatusOK, `{"reporting":false}`)
}

// errDesignRequest: a design request that is not {"design": "..."}.
var errDesignRequest = errors.New(`want {"design":"<design file text>"}`)

func (e *Emulator) serveDesign(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	body, err := readFaultsBody(r)
	if err == nil {
		var req struct {
			Design *string `json:"design"`
		}
		if err = json.Unmarshal(body, &req); err == nil && req.Design == nil {
			err = errDesignRequest
		} else if err != nil {
			err = fmt.Errorf("%w: %v", errDesignRequest, err)
		}
		if err == nil {
			err = e.SetDesign([]byte(*req.Design))
		}
	}
	if err != nil {
		writeAdminError(w, err)
		return
	}
	writeAdmin(w, http.StatusOK, `{"design":true}`)
}

func (e *Emulator) serveContributors(w http.ResponseWriter, r *http.Request) {
	e.cors.Apply(w, r)
	q := r.URL.Query()
	n := 10
	if s := q.Get("n"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			writeAdminError(w, fmt.Errorf("n %q is not a positive number", s))
			return
		}
		n = v
	}
	if q.Get("table") == "" {
		writeAdminError(w, errors.New("table is required"))
		return
	}
	rules := insights.AdminJSON(reportstage.Contributors(e.svc, q.Get("namespace"), q.Get("table"), q.Get("index"), n))
	writeAdmin(w, http.StatusOK, `{"rules":`+string(rules)+`}`)
}
