package emulator

import (
	"time"

	reportstage "github.com/dynamoemu/dynamoemu/emulator/internal/stages/insights"
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
		if err := e.Reports().SetDesign(o.Design); err != nil {
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
