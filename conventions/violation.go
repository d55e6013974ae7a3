package conventions

import "fmt"

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
	// SeverityWarn: reported, never rejected (rules inferred from the
	// framework's behaviour rather than stated by it, and A12).
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
}

// Error returns "[conventions A3] <message>", the text the emulator puts in
// the error it answers.
func (v Violation) Error() string { return "[conventions " + v.Rule + "] " + v.Message }

// Blocks reports whether v rejects the write under mode: an error-severity
// violation in ModeEnforce.
func (v Violation) Blocks(mode Mode) bool { return mode == ModeEnforce && v.Severity == SeverityError }

// Blocking returns the first violation that rejects the write under mode,
// or nil.
func Blocking(mode Mode, vs []Violation) *Violation {
	for i := range vs {
		if vs[i].Blocks(mode) {
			return &vs[i]
		}
	}
	return nil
}

// ruleIDs are the rules this package checks, with their severity.
var ruleIDs = []string{
	"A1", "A2", "A3", "A5", "A6", "A7", "A8", "A9", "A10", "A12",
	"B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "L1",
}

var warnRules = map[string]bool{
	"A12": true, "B5": true, "B6": true, "B7": true, "B8": true, "B9": true,
}

func severityOf(rule string) Severity {
	if warnRules[rule] {
		return SeverityWarn
	}
	return SeverityError
}
