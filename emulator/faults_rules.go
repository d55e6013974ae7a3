package emulator

import (
	"time"

	"github.com/dynamoemu/dynamoemu/internal/faults"
)

// FaultKind is what an injected fault does to the call it hits: one of
// the Fault constants.
type FaultKind string

// The faults a FaultRule may inject.
const (
	// FaultTransactionConflict: inside TransactWriteItems or
	// TransactGetItems, the matching action is cancelled with
	// CancellationReason code TransactionConflict (the others None); on a
	// single-item call, TransactionConflictException.
	FaultTransactionConflict FaultKind = "TransactionConflict"
	// FaultTransactionInProgress: TransactionInProgressException, which
	// AWS answers a TransactWriteItems whose ClientRequestToken is still
	// being processed.
	FaultTransactionInProgress FaultKind = "TransactionInProgress"
	// FaultConditionalCheckFailed: ConditionalCheckFailedException; inside
	// a transaction, the action's reason ConditionalCheckFailed.
	FaultConditionalCheckFailed FaultKind = "ConditionalCheckFailed"
	// FaultInternalServerError: HTTP 500 InternalServerError.
	FaultInternalServerError FaultKind = "InternalServerError"
	// FaultRequestLimitExceeded: the account's throughput quota.
	FaultRequestLimitExceeded FaultKind = "RequestLimitExceeded"
	// FaultThrottling: ThrottlingException, as an on-demand table's hot
	// key gets it; inside a transaction, the action's reason
	// ThrottlingError.
	FaultThrottling FaultKind = "Throttling"
	// FaultProvisionedThroughputExceeded:
	// ProvisionedThroughputExceededException; inside a transaction, the
	// action's reason ProvisionedThroughputExceeded.
	FaultProvisionedThroughputExceeded FaultKind = "ProvisionedThroughputExceeded"
	// FaultDelay: the call is held for the rule's Delay, then runs
	// normally.
	FaultDelay FaultKind = "Delay"
)

// FaultRule is one fault-injection rule: which calls it matches, when it
// fires on them, and the fault it injects. The zero value of every match
// field matches anything; the zero value of every trigger field leaves
// the trigger out, so a rule with none fires on every call it matches.
type FaultRule struct {
	// Name names the rule in logs and counts; SetRules names an unnamed
	// rule "rule-<i>" (its index, from 1).
	Name string

	// Table matches the call's table name and Index the name of the
	// index it reads (a call on the table itself names none); "" matches
	// any.
	Table, Index string
	// Operations matches the call's operation (AWS's name: "PutItem",
	// "TransactWriteItems", ...); empty matches every operation.
	Operations []string
	// PartitionKey and SortKey match the key's values exactly,
	// PartitionKeyPrefix and SortKeyPrefix their beginnings. A value is
	// compared as text: an S value's string, an N value's canonical
	// number text, a B value's bytes. A key field set in the rule never
	// matches a call that has no such key (a Scan, or a Query for the
	// sort key).
	PartitionKey, PartitionKeyPrefix string
	// SortKey and SortKeyPrefix: see PartitionKey.
	SortKey, SortKeyPrefix string

	// Probability fires the rule on a matching call with this
	// probability (0 < p <= 1), drawn from the rule's own generator
	// seeded by the seed and the rule's index, so one sequence of calls
	// always fires the same way.
	Probability float64
	// Every fires the rule on every Nth matching call (N, 2N, ...).
	Every int
	// Count fires the rule at most this many times; with no other
	// trigger, on the first Count matching calls.
	Count int

	// Fault is the fault to inject. FaultDelay is a hold alone; any
	// other kind with a Delay is a hold, then the error.
	Fault FaultKind
	// Delay is how long the call is held (at most five minutes).
	Delay time.Duration
	// Message replaces the fault's message (AWS's, by default).
	Message string
}

// internal returns the injector's form of r (an unknown Fault is the
// injector's None, which its validation refuses).
func (r FaultRule) internal() faults.Rule {
	k, _ := faults.KindOf(string(r.Fault))
	return faults.Rule{Name: r.Name, Table: r.Table, Index: r.Index, Operations: r.Operations,
		PartitionKey: r.PartitionKey, PartitionKeyPrefix: r.PartitionKeyPrefix, SortKey: r.SortKey, SortKeyPrefix: r.SortKeyPrefix,
		Probability: r.Probability, Every: r.Every, Count: r.Count, Fault: k, Delay: r.Delay, Message: r.Message}
}

// faultRuleOf is r in this package's form.
func faultRuleOf(r faults.Rule) FaultRule {
	var k FaultKind
	if r.Fault != faults.None {
		k = FaultKind(r.Fault.String())
	}
	return FaultRule{Name: r.Name, Table: r.Table, Index: r.Index, Operations: r.Operations,
		PartitionKey: r.PartitionKey, PartitionKeyPrefix: r.PartitionKeyPrefix, SortKey: r.SortKey, SortKeyPrefix: r.SortKeyPrefix,
		Probability: r.Probability, Every: r.Every, Count: r.Count, Fault: k, Delay: r.Delay, Message: r.Message}
}

// internalRules converts a rule list for the injector.
func internalRules(rules []FaultRule) []faults.Rule {
	if rules == nil {
		return nil
	}
	out := make([]faults.Rule, len(rules))
	for i, r := range rules {
		out[i] = r.internal()
	}
	return out
}

// ParseFaultRules parses a fault rules file (cmd/dynamoemu's -faults
// format, what GET /dynamoemu/faults answers): {"seed": N, "rules":
// [...]}, each rule's fields in camelCase, "fault" a FaultKind and
// "delay" a Go duration.
func ParseFaultRules(src []byte) (seed uint64, rules []FaultRule, err error) {
	c, err := faults.ParseConfig(src)
	if err != nil {
		return 0, nil, err
	}
	for _, r := range c.Rules {
		rules = append(rules, faultRuleOf(r))
	}
	return c.Seed, rules, nil
}

// Faults is the emulator's fault injector: the rules that decide which
// calls fail (or wait), and the account of what they injected. The
// zero Faults is not usable: Emulator.Faults returns one.
type Faults struct {
	in *faults.Injector
}

// SetRules replaces the rules, their probabilities drawn from seed. A
// rule that is not valid changes nothing and is an error naming it.
func (f Faults) SetRules(seed uint64, rules []FaultRule) error {
	return f.in.SetRules(seed, internalRules(rules))
}

// Rules returns the seed and the rules in force (names filled in).
func (f Faults) Rules() (seed uint64, rules []FaultRule) {
	seed, rs := f.in.Rules()
	for _, r := range rs {
		rules = append(rules, faultRuleOf(r))
	}
	return seed, rules
}

// Clear removes every rule.
func (f Faults) Clear() { f.in.Clear() }

// Active reports whether any rule is in force.
func (f Faults) Active() bool { return f.in.Active() }

// ResetStats empties the log of injected faults and the totals per
// kind (the current rules' own counts go on: they drive Every and Count).
func (f Faults) ResetStats() { f.in.ResetStats() }

// Stats returns what the injector injected: per rule, per kind, and the
// newest injected faults.
func (f Faults) Stats() FaultStats {
	s := f.in.Stats()
	out := FaultStats{Injected: s.Injected, Dropped: s.Dropped}
	for _, r := range s.Rules {
		out.Rules = append(out.Rules, FaultRuleStats{Name: r.Name, Fault: FaultKind(r.Fault), Matched: r.Matched, Fired: r.Fired})
	}
	for _, e := range s.Events {
		out.Events = append(out.Events, FaultEvent{Time: e.Time, Rule: e.Rule, Fault: FaultKind(e.Fault), Delay: e.Delay,
			Operation: e.Op, Table: e.Table, Index: e.Index, PartitionKey: e.PartitionKey, SortKey: e.SortKey})
	}
	return out
}

// FaultStats is the injector's account of what it injected.
type FaultStats struct {
	// Rules are the current rules' counts, in rule order.
	Rules []FaultRuleStats
	// Injected counts faults per kind since the emulator started or
	// ResetStats, across rule lists.
	Injected map[string]int64
	// Events are the newest injected faults, oldest first.
	Events []FaultEvent
	// Dropped counts the injected faults the bounded log no longer holds.
	Dropped int64
}

// FaultRuleStats counts what one rule of the current list has seen.
type FaultRuleStats struct {
	// Name is the rule's name and Fault its kind.
	Name  string
	Fault FaultKind
	// Matched counts the calls the rule matched (up to the rule that
	// fired), Fired those it injected its fault into.
	Matched, Fired int64
}

// FaultEvent is one injected fault, as the log keeps it.
type FaultEvent struct {
	// Time is when it was injected, on the emulator's clock.
	Time time.Time
	// Rule names the rule that fired; Fault is its kind and Delay its
	// hold.
	Rule  string
	Fault FaultKind
	Delay time.Duration
	// Operation, Table and Index are the call's.
	Operation, Table, Index string
	// PartitionKey and SortKey are the call's key as text (B values in
	// base64); "" when it had none.
	PartitionKey, SortKey string
}
