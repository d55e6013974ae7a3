package emulator

import (
	"bytes"
	"fmt"
	"io"

	"github.com/dynamoemu/dynamoemu/conventions"
	convstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/conventions"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// Reports are what the emulator reports of the traffic it serves:
//
//   - the access-pattern report (off until SetReporting or
//     FaultOptions.Report): each table's and index's gets, queries,
//     scans and writes, items read and returned, capacity units, hot
//     keys, unused indexes and the costliest requests, checked against a
//     declared design when SetDesign (or FaultOptions.Design) gives one;
//     and Contributor Insights' top keys;
//   - the conventions report: the violations of the mbc-cqrs-serverless
//     conventions by the tables that follow them (Options.Conventions);
//   - the stale-read report of consistency fuzzing
//     (Options.Consistency).
//
// Their types are package report's (the conventions report's, package
// conventions'). The zero Reports is not usable: Emulator.Reports
// returns one.
type Reports struct{ e *Emulator }

// Reports returns the emulator's reports.
func (e *Emulator) Reports() Reports { return Reports{e} }

// SetReporting starts or stops the access-pattern report in every
// namespace.
func (r Reports) SetReporting(on bool) { reportstage.SetReporting(r.e.svc, on) }

// Reporting reports whether the access-pattern report is collecting.
func (r Reports) Reporting() bool { return reportstage.Reporting(r.e.svc) }

// Access returns the access-pattern report of every namespace.
func (r Reports) Access() []report.NamespaceReport { return reportstage.Reports(r.e.svc) }

// ResetAccess forgets the access-pattern report's counts (the design,
// reporting and Contributor Insights' states stay).
func (r Reports) ResetAccess() { reportstage.ResetReport(r.e.svc) }

// WriteAccess prints every namespace's access-pattern report as text
// (cmd/dynamoemu prints it at shutdown with -report). With one
// namespace, its report alone.
func (r Reports) WriteAccess(w io.Writer) error {
	reps := r.Access()
	for i, rep := range reps {
		if len(reps) > 1 {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "Namespace %s\n", rep.Namespace)
		}
		if err := rep.Report.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}

// SetDesign parses a design and checks the traffic against it from now
// on (nil or empty: no design). The design is a design file, a NoSQL
// Workbench data model, a OneTable schema, ElectroDB entities, a
// Dynamoose schema, a DynamoDB Toolbox table, AWS's DynamoDB MCP data
// model, or a CloudFormation, SAM, CDK or serverless
// template (docs/faults.md). A bad design is an error with its line and
// column, or the path of the JSON member at fault; nothing changes then.
func (r Reports) SetDesign(src []byte) error {
	e := r.e
	if len(src) == 0 {
		e.designMu.Lock()
		defer e.designMu.Unlock()
		reportstage.SetDesign(e.svc, nil)
		e.designSrc = nil
		return nil
	}
	d, err := insights.ParseDesign(src)
	if err != nil {
		return err
	}
	e.designMu.Lock()
	defer e.designMu.Unlock()
	reportstage.SetDesign(e.svc, d)
	e.designSrc = bytes.Clone(src)
	return nil
}

// Design returns the design SetDesign (or FaultOptions.Design, or PUT
// /dynamoemu/report/design) last set, as it was given; nil without one.
func (r Reports) Design() []byte {
	r.e.designMu.Lock()
	defer r.e.designMu.Unlock()
	return bytes.Clone(r.e.designSrc)
}

// Contributors returns the top n contributors of each rule of a table's
// or GSI's (index; "" for the table) Contributor Insights in the
// namespace an access key and region select (nil when it is not
// collecting). Values are totals since the counters were last reset,
// where CloudWatch graphs the maximum per minute.
func (r Reports) Contributors(accessKey, region, table, index string, n int) []report.ContributorRule {
	return reportstage.Recorder(r.e.svc, accessKey, region).Contributors(table, index, n)
}

// Conventions returns the conventions violations seen since the
// emulator started or the report was last reset: totals, and per table
// (in name order) the counts by rule and one entry per distinct
// violation, most recently seen first.
func (r Reports) Conventions() conventions.Snapshot { return convstage.Report(r.e.svc) }

// ResetConventions empties the conventions report, so that a test can
// assert that what it does next makes no violation.
func (r Reports) ResetConventions() { convstage.ResetReport(r.e.svc) }

// Consistency returns the stale reads consistency fuzzing has seen
// (Mode "strong" and none without Options.Consistency). DELETE
// /dynamoemu/consistency forgets them.
func (r Reports) Consistency() report.ConsistencyReport {
	f := r.e.fuzzer
	if f == nil {
		return report.ConsistencyReport{Mode: "strong", StaleReads: []report.StaleRead{}}
	}
	stale, dropped := f.Report()
	return report.ConsistencyReport{Mode: "fuzz", Seed: f.Seed(), StaleReads: staleReads(stale), Dropped: dropped}
}

// CollectStaleReads starts collecting the stale reads consistency
// fuzzing sees from now on, in every namespace, apart from the report
// (which it neither reads nor forgets), and returns the function that
// stops collecting and returns them, oldest first, with how many more
// were seen past the ten thousand kept. So tests that run at once each
// collect their own without resetting the others' (emulatortest.StaleReads
// keeps a test's by the Namespace of its branches). Without fuzzing it
// collects none.
func (r Reports) CollectStaleReads() (stop func() (stale []report.StaleRead, dropped int)) {
	f := r.e.fuzzer
	if f == nil {
		return func() ([]report.StaleRead, int) { return []report.StaleRead{}, 0 }
	}
	w := f.Watch()
	return func() ([]report.StaleRead, int) {
		stale, dropped := f.Unwatch(w)
		return staleReads(stale), dropped
	}
}
