package adminhttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/report"
)

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
// endpoint) and the conventions report (Paths.Conventions).
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

// nothingCounted is the text report while it collects and has counted no
// request: it says where the counts come from.
const nothingCounted = "the access-pattern report is collecting and has counted no request yet: send DynamoDB requests to this endpoint, then read the report again"

// ServeReport answers GET of the report's path: the access-pattern
// report as JSON, or as text with ?format=text.
func (a *Admin) ServeReport(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	reporting, reps := reportstage.Reporting(a.Svc), reportstage.Reports(a.Svc)
	idle := !reporting && !collected(reps)
	if r.URL.Query().Get("format") == "text" {
		var buf bytes.Buffer
		if idle {
			buf.WriteString(notCollecting + "\n")
		} else if err := a.Host.WriteReport(&buf); err != nil {
			WriteError(w, err)
			return
		}
		if buf.Len() == 0 {
			// Collecting with nothing to show yet: say so, not an empty page.
			buf.WriteString(nothingCounted + "\n")
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(buf.Bytes())
		return
	}
	conv := a.Host.ConventionsReport()
	checked := len(conv.Checked)
	body := reportBody{Reporting: reporting, Design: reportstage.Design(a.Svc) != nil, Namespaces: reps,
		Reports: reportsState{
			AccessPatterns: reportState{Collecting: reporting, Path: a.Paths.Report},
			Conventions:    reportState{Collecting: checked > 0 || len(conv.Config) > 0, Path: a.Paths.Conventions, Tables: &checked},
		}}
	if idle {
		body.Note, body.Namespaces = notCollecting, []reportstage.NamespaceReport{}
	}
	WriteJSON(w, body)
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

// ServeReportReset answers DELETE of the report's path: the counts
// forgotten.
func (a *Admin) ServeReportReset(w http.ResponseWriter, r *http.Request) {
	a.act(w, r, a.Host.ResetReport, `{"reset":true}`)
}

// ServeReportStart answers POST of the report's start: it collects.
func (a *Admin) ServeReportStart(w http.ResponseWriter, r *http.Request) {
	a.act(w, r, func() { a.Host.SetReporting(true) }, `{"reporting":true}`)
}

// ServeReportStop answers POST of the report's stop: it stops collecting.
func (a *Admin) ServeReportStop(w http.ResponseWriter, r *http.Request) {
	a.act(w, r, func() { a.Host.SetReporting(false) }, `{"reporting":false}`)
}

// errDesignRequest: a design request that is not {"design": "..."}.
var errDesignRequest = errors.New(`want {"design":"<design file text>"}`)

// ServeDesign answers PUT of the design's path: the design file the
// report matches requests against ("" removes it).
func (a *Admin) ServeDesign(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	body, err := ReadBody(r, MaxFileBody)
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
			err = a.Host.SetDesign([]byte(*req.Design))
		}
	}
	if err != nil {
		WriteError(w, err)
		return
	}
	Write(w, http.StatusOK, `{"design":true}`)
}

// ServeContributors answers GET of the contributors' path: Contributor
// Insights' top keys of a table or index.
func (a *Admin) ServeContributors(w http.ResponseWriter, r *http.Request) {
	a.CORS.Apply(w, r)
	q := r.URL.Query()
	n := 10
	if s := q.Get("n"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			WriteError(w, fmt.Errorf("n %q is not a positive number", s))
			return
		}
		n = v
	}
	if q.Get("table") == "" {
		WriteError(w, errors.New("table is required"))
		return
	}
	if !a.tableIn(q.Get("namespace"), q.Get("table")) { // as DescribeContributorInsights answers a missing table
		writeClass(w, &apierr.Error{Class: apierr.ErrResourceNotFound, Msg: "Requested resource not found"}, http.StatusBadRequest)
		return
	}
	rules := contributorsJSON(reportstage.Contributors(a.Svc, q.Get("namespace"), q.Get("table"), q.Get("index"), n))
	Write(w, http.StatusOK, `{"rules":`+string(rules)+`}`)
}

// tableIn reports whether namespace nsID ("": any) has a table called name.
func (a *Admin) tableIn(nsID, name string) bool {
	for _, sp := range a.Svc.Spaces() {
		if _, ok := sp.Table(name); ok && (nsID == "" || sp.ID() == nsID) {
			return true
		}
	}
	return false
}

// contributorsJSON is rules as GET /dynamoemu/contributors writes them:
// the members of report.ContributorRule and report.Contributor under
// lower-case names, a rule with no contributors as [] and no rules as
// []. (encoding/json's form of the same values, with the Go names, is
// the Go API's.)
func contributorsJSON(rules []report.ContributorRule) []byte {
	b := []byte{'['}
	for i, r := range rules {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"rule":`...)
		b = appendJSON(b, r.Rule)
		b = append(b, `,"contributors":[`...)
		for j, c := range r.Contributors {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"keys":`...)
			b = appendJSON(b, c.Keys)
			b = append(b, `,"value":`...)
			b = appendJSON(b, c.Value)
			b = append(b, '}')
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}

// appendJSON appends encoding/json's form of v, a string, []string or
// float64 (which it cannot fail on, NaN and infinities aside: a counter
// is neither).
func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, j...)
}
