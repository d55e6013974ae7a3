package conventions

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRuleTableDocumented: doc.go's rule list and docs/conventions.md's rule table
// name exactly the rules of ruleTable, docs/conventions.md with each rule's default
// severity, so that neither can forget a rule (A11 once was missing from
// the list of rule names and could not be disabled).
func TestRuleTableDocumented(t *testing.T) {
	var ids []string
	for _, r := range ruleTable {
		ids = append(ids, r.ID)
	}

	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	// doc.go's list: "//\tA1  error  table  pk (S, HASH) ..."
	docRow := regexp.MustCompile(`(?m)^//\t([A-Z][0-9]+) +(error|warn) +([a-z+]+) +\S`)
	var docIDs []string
	for _, m := range docRow.FindAllStringSubmatch(string(doc), -1) {
		docIDs = append(docIDs, m[1])
		r, ok := LookupRule(m[1])
		if !ok {
			continue
		}
		if m[2] != r.Severity.String() || m[3] != r.Checkpoint.String() {
			t.Errorf("doc.go lists %s as %s at %s, want %s at %s", m[1], m[2], m[3], r.Severity, r.Checkpoint)
		}
	}
	if !slices.Equal(docIDs, ids) {
		t.Errorf("doc.go lists rules %v, want %v", docIDs, ids)
	}

	readme, err := os.ReadFile("../docs/conventions.md")
	if err != nil {
		t.Fatal(err)
	}
	// docs/conventions.md's table: "| A1 | error | table | ... | ... |"
	readmeRow := regexp.MustCompile(`(?m)^\| ([A-Z][0-9]+) \| (error|warn) \| ([a-z+]+) \|`)
	var readmeIDs []string
	for _, m := range readmeRow.FindAllStringSubmatch(string(readme), -1) {
		readmeIDs = append(readmeIDs, m[1])
		if r, ok := LookupRule(m[1]); ok && (m[2] != r.Severity.String() || m[3] != r.Checkpoint.String()) {
			t.Errorf("docs/conventions.md lists %s as %s at %s, want %s at %s", m[1], m[2], m[3], r.Severity, r.Checkpoint)
		}
	}
	if !slices.Equal(readmeIDs, ids) {
		t.Errorf("docs/conventions.md lists rules %v, want %v", readmeIDs, ids)
	}
}

// TestRuleTableWellFormed: ids are unique, each rule says what and why,
// and every rule can be disabled and made strict (the table is the list
// Policy.Validate reads).
func TestRuleTableWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range RuleTable() {
		if seen[r.ID] {
			t.Errorf("rule %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || r.Why == "" || r.Checkpoint == 0 {
			t.Errorf("rule %s: summary, why and checkpoint are required: %+v", r.ID, r)
		}
		if strings.Contains(r.Summary, "|") || strings.Contains(r.Why, "|") {
			t.Errorf("rule %s: '|' would break docs/conventions.md's table", r.ID)
		}
		p := Policy{Roles: RoleCommand, Disabled: []string{r.ID}, Strict: []string{r.ID}}
		if err := p.Validate(); err != nil {
			t.Errorf("rule %s cannot be disabled or made strict: %v", r.ID, err)
		}
		if p.severity(r.ID) != SeverityError || p.enabled(r.ID) {
			t.Errorf("rule %s: strict or disabled not honoured", r.ID)
		}
	}
	if got := (AtWrite | AtDelete).String(); got != "write+delete" {
		t.Errorf("Checkpoint.String: got %q", got)
	}
}
