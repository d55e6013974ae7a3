package faults

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// MaxDelay bounds a rule's delay: a fault is for tests, and a longer hold
// is more likely a mistake (milliseconds taken for seconds) than a wish.
const MaxDelay = 5 * time.Minute

// Rule is one fault-injection rule: which calls it matches, when it fires
// on them, and the fault it injects. The zero value of every match field
// matches anything; the zero value of every trigger field leaves the
// trigger out, so a rule with none fires on every call it matches.
type Rule struct {
	// Name names the rule in logs and counts; Injector.SetRules names an
	// unnamed rule "rule-<i>" (its index, from 1).
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
	// number text (storage.Number), a B value's bytes. A key field set in
	// the rule never matches a call that has no such key (a Scan, or a
	// Query for the sort key).
	PartitionKey, PartitionKeyPrefix string
	SortKey, SortKeyPrefix           string

	// Probability fires the rule on a matching call with this probability
	// (0 < p <= 1), drawn from the rule's own generator seeded by the
	// injector's seed and the rule's index, so one sequence of calls
	// always fires the same way.
	Probability float64
	// Every fires the rule on every Nth matching call (N, 2N, ...).
	Every int
	// Count fires the rule at most this many times; with no other
	// trigger, on the first Count matching calls.
	Count int

	// Fault is the fault to inject. Delay is a hold alone; any other kind
	// with a Delay is a hold, then the error.
	Fault Kind
	Delay time.Duration
	// Message replaces the fault's message (AWS's, by default).
	Message string
}

// Rule errors.
var (
	// ErrRule: a rule is invalid; the error says which field and why.
	ErrRule = errors.New("faults: invalid rule")
)

// Validate checks the rule's fields: a known fault, known operation
// names, a probability in (0, 1], non-negative counts and a delay in
// [0, MaxDelay] (and a delay for Delay).
func (r *Rule) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrRule, r.Name, fmt.Sprintf(format, args...))
	}
	if r.Fault == None || r.Fault >= numKinds {
		return bad("fault must be one of %s", kindNames())
	}
	for _, op := range r.Operations {
		if !knownOperation(op) {
			return bad("unknown operation %q", op)
		}
	}
	if r.Probability != 0 && !(r.Probability > 0 && r.Probability <= 1) || math.IsNaN(r.Probability) {
		return bad("probability %v is not in (0, 1]", r.Probability)
	}
	if r.Every < 0 {
		return bad("every %d is negative", r.Every)
	}
	if r.Count < 0 {
		return bad("count %d is negative", r.Count)
	}
	if r.Delay < 0 || r.Delay > MaxDelay {
		return bad("delay %v is not in [0, %v]", r.Delay, MaxDelay)
	}
	if r.Fault == Delay && r.Delay == 0 {
		return bad("fault Delay needs a delay")
	}
	return nil
}

// kindNames lists the kinds a rule may name, for messages.
func kindNames() string {
	s := ""
	for k := Kind(1); k < numKinds; k++ {
		if s != "" {
			s += ", "
		}
		s += k.String()
	}
	return s
}
