package conventions

import (
	"fmt"
	"strings"
)

// Key is an item's primary key as text: the partition and sort key values
// of a table whose keys are strings (SK is "" for a table without a sort
// key).
type Key struct {
	PK string `json:"pk"`
	SK string `json:"sk"`
}

// String returns pk="..." sk="...".
func (k Key) String() string { return fmt.Sprintf("pk=%q sk=%q", k.PK, k.SK) }

// Severity is how serious a violation is.
type Severity uint8

// The severities.
const (
	// SeverityError: in ModeEnforce the write is rejected.
	SeverityError Severity = iota
	// SeverityWarn: reported, never rejected (A11 and A12 by default; see
	// RuleTable for why).
	SeverityWarn
)

// String returns "error" or "warn".
func (s Severity) String() string {
	if s == SeverityWarn {
		return "warn"
	}
	return "error"
}

// MarshalText gives the severity as String does, for JSON reports.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Violation is one broken rule on one write or table.
type Violation struct {
	Rule     string   `json:"rule"` // "A3"
	Table    string   `json:"table"`
	Key      Key      `json:"key"` // zero for table-level rules (A1)
	Severity Severity `json:"severity"`
	Message  string   `json:"message"` // the detail, without the rule prefix
	// Position is where the item is in its request, for a batch or a
	// transaction: "TransactItems[2]", "RequestItems[\"t\"][0]"; "" for
	// a request of one item. The emulator sets it.
	Position string `json:"position,omitempty"`
	// RequestID is the request's x-amzn-RequestId, which the emulator
	// sets; "" outside the emulator.
	RequestID string `json:"requestId,omitempty"`
	// Refused is set by Refuse on the violations that refused their write.
	Refused bool `json:"refused"`
}

// Reason is why the rule is what it is: its RuleInfo.Why.
func (v Violation) Reason() string {
	r, _ := LookupRule(v.Rule)
	return r.Why
}

// Explain is Error with the item the violation is about and the rule's
// reason: "[conventions A3] <message> (item TransactItems[1] pk=\"A#t\"
// sk=\"X\"; why: <reason>)". A refusal answers with it.
func (v Violation) Explain() string {
	var b strings.Builder
	b.WriteString(v.Error())
	b.WriteString(" (")
	if v.Position != "" || v.Key != (Key{}) {
		b.WriteString("item ")
		if v.Position != "" {
			b.WriteString(v.Position)
			if v.Key != (Key{}) {
				b.WriteByte(' ')
			}
		}
		switch {
		case v.Key.SK != "":
			b.WriteString(v.Key.String())
		case v.Key.PK != "":
			fmt.Fprintf(&b, "pk=%q", v.Key.PK) // a table without a sort key
		}
		b.WriteString("; ")
	}
	b.WriteString("why: ")
	b.WriteString(v.Reason())
	b.WriteByte(')')
	return b.String()
}

// Error returns "[conventions A3] <message>", the text the emulator puts in
// the error it answers.
func (v Violation) Error() string { return "[conventions " + v.Rule + "] " + v.Message }

// Blocks reports whether v rejects the write under mode: an error-severity
// violation in ModeEnforce.
func (v Violation) Blocks(mode Mode) bool { return mode == ModeEnforce && v.Severity == SeverityError }

// Refusal is the error of a write the rules refuse: every violation that
// blocks it, in the order the rules found them.
type Refusal struct {
	Violations []Violation
}

// Error names every blocking violation, each with its item and reason
// (Violation.Explain): one violation's, or "3 conventions violations:
// [conventions A2] ... (...); [conventions A3] ... (...)". A refused
// batch or transaction so names every item that broke a rule.
func (r *Refusal) Error() string {
	if len(r.Violations) == 1 {
		return r.Violations[0].Explain()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d conventions violations: ", len(r.Violations))
	for i, v := range r.Violations {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(v.Explain())
	}
	return b.String()
}

// Refuse decides a write: it marks each violation that blocks under its
// table's mode (Violation.Refused) and returns the Refusal naming them
// all, or nil when none blocks. mode gives a table's mode.
func Refuse(vs []Violation, mode func(table string) Mode) *Refusal {
	var r *Refusal
	for i := range vs {
		if vs[i].Blocks(mode(vs[i].Table)) {
			vs[i].Refused = true
			if r == nil {
				r = &Refusal{}
			}
			r.Violations = append(r.Violations, vs[i])
		}
	}
	return r
}
