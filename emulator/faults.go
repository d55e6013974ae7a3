package emulator

import (
	"bytes"
	"fmt"
	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
	"io"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/stages/lag"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// Fault injection, capacity throttling and the access-pattern report:
// what production hits, on demand, and whether the traffic fits its
// design. faults/WIRING.md is the design; the service hangs the
// hooks off each operation (emulator/internal/service/fx*.go).

// FaultOptions configure fault injection, throttling and the report.
type FaultOptions struct {
	// Rules are the fault rules at start (cmd/dynamoemu's -faults file,
	// parsed with ParseFaultRules).
	Rules []FaultRule
	// Seed is the seed of the rules' probabilities.
	Seed uint64
	// Throttle enforces capacity (cmd/dynamoemu's -throttle).
	Throttle Throttle
	// Report collects the access-pattern report from the start
	// (cmd/dynamoemu's -report).
	Report bool
	// Design is a design file (SetDesign's format;
	// cmd/dynamoemu's -design) the traffic is checked against.
	Design []byte
	// Lags lag tables' GSIs, eventually consistent reads or streams
	// from their creation (cmd/dynamoemu's -lag; faults_lag.go).
	Lags []LagSetting
}

// Throttle says which tables' capacity is enforced. A table tagged
// dynamoemu:throttle=on is throttled (its provisioned capacity) whatever
// these say, one tagged dynamoemu:throttle=off never is.
type Throttle struct {
	// Provisioned enforces PROVISIONED tables' read and write capacity
	// and their GSIs', with token buckets that keep Burst of unused
	// capacity: ProvisionedThroughputExceededException, and
	// UnprocessedItems/UnprocessedKeys in batches.
	Provisioned bool
	// HotKeys enforces the per-partition-key limits (3,000 RCU and 1,000
	// WCU per second): ThrottlingException on an on-demand table,
	// ProvisionedThroughputExceededException (reason
	// TableWriteKeyRangeThroughputExceeded, ...) on a provisioned one,
	// whether or not Provisioned enforces its capacity.
	HotKeys bool
	// Burst is the unused capacity kept; 0 means AWS's 300 seconds.
	Burst time.Duration
}

// ThrottleTag is the tag that turns throttling on or off for one table.
const ThrottleTag = "dynamoemu:throttle"

// initFaults applies the fault options to a new emulator's service.
func (e *Emulator) initFaults() error {
	o := e.opts.Faults
	if len(o.Rules) > 0 {
		if err := e.inj.SetRules(o.Seed, internalRules(o.Rules)); err != nil {
			return err
		}
	} else if err := e.loadFaults(); err != nil { // faults_persist.go
		return err
	}
	if len(o.Design) > 0 {
		if err := e.SetDesign(o.Design); err != nil {
			return err
		}
	}
	if o.Report {
		reportstage.SetReporting(e.svc, true)
	}
	return nil
}

// Faults returns the fault injector: SetRules, Clear, Stats.
func (e *Emulator) Faults() Faults { return Faults{in: e.inj} }

// SetReporting starts or stops the access-pattern report in every
// namespace.
func (e *Emulator) SetReporting(on bool) { reportstage.SetReporting(e.svc, on) }

// Reporting reports whether the access-pattern report is collecting.
func (e *Emulator) Reporting() bool { return reportstage.Reporting(e.svc) }

// SetDesign parses a design and checks the traffic against it from now
// on (nil or empty: no design). The design is a design file, a NoSQL
// Workbench data model, a OneTable schema, ElectroDB entities, a
// Dynamoose schema, a DynamoDB Toolbox table, AWS's DynamoDB MCP data
// model, or a CloudFormation, SAM, CDK or serverless
// template (docs/faults.md). A bad design is an error with its line and
// column, or the path of the JSON member at fault; nothing changes then.
func (e *Emulator) SetDesign(src []byte) error {
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

// DesignSource returns the design SetDesign (or FaultOptions.Design, or
// PUT /dynamoemu/report/design) last set, as it was given; nil without
// one.
func (e *Emulator) DesignSource() []byte {
	e.designMu.Lock()
	defer e.designMu.Unlock()
	return bytes.Clone(e.designSrc)
}

// Report returns the access-pattern report of every namespace.
func (e *Emulator) Report() []NamespaceReport { return reportstage.Reports(e.svc) }

// ResetReport forgets the report's counts (the design, reporting and
// Contributor Insights' states stay).
func (e *Emulator) ResetReport() { reportstage.ResetReport(e.svc) }

// WriteReport prints every namespace's report as text (cmd/dynamoemu
// prints it at shutdown with -report). With one namespace, its report
// alone.
func (e *Emulator) WriteReport(w io.Writer) error {
	reps := e.Report()
	for i, r := range reps {
		if len(reps) > 1 {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "Namespace %s\n", r.Namespace)
		}
		if err := r.Report.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}

// StreamLag returns the gate that delays the records of a table's enabled
// stream (in the namespace an access key and region select): SetDelay(d)
// delivers each record d after its write on the emulator's clock
// (Advance moves it), Hold keeps them until Release. GetRecords stops at
// the first record not shown yet; its iterator does not move past it.
// IndexLag and TableReadLag (faults_lag.go) delay GSIs and eventually
// consistent reads.
func (e *Emulator) StreamLag(accessKey, region, table string) (LagGate, error) {
	return lagGate(lag.StreamLag(e.svc, accessKey, region, table))
}
