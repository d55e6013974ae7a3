package insights

import (
	"strings"
	"testing"
)

func mustTemplate(t *testing.T, s string) Template {
	t.Helper()
	tpl, err := parseTemplate(s)
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

func TestParseTemplate(t *testing.T) {
	tests := []struct {
		in, err string
		lits    []string
		vars    []string
	}{
		{in: "post", lits: []string{"post"}},
		{in: "{id}", lits: []string{"", ""}, vars: []string{"id"}},
		{in: "Post_{created_at}", lits: []string{"Post_", ""}, vars: []string{"created_at"}},
		{in: "T#{tenant}#U#{id}!", lits: []string{"T#", "#U#", "!"}, vars: []string{"tenant", "id"}},
		{in: "", err: "empty"},
		{in: "a{b", err: "{ without }"},
		{in: "a}b", err: "} without {"},
		{in: "{}", err: `variable "" is not a name`},
		{in: "{a-b}", err: `variable "a-b" is not a name`},
		{in: "{a}{b}", err: "two variables without text between them"},
	}
	for _, tc := range tests {
		got, err := parseTemplate(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseTemplate(%q) = %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got.lits, "|") != strings.Join(tc.lits, "|") || strings.Join(got.vars, "|") != strings.Join(tc.vars, "|") {
			t.Errorf("parseTemplate(%q) = %q %q %v, want %q %q", tc.in, got.lits, got.vars, err, tc.lits, tc.vars)
		}
		if got.String() != tc.in {
			t.Errorf("String() = %q, want %q", got.String(), tc.in)
		}
	}
}

func TestTemplateMatch(t *testing.T) {
	tests := []struct {
		tpl, s string
		full   bool // s is a value of the template
		prefix bool // s starts with a value of the template
	}{
		{"post", "post", true, true},
		{"post", "posts", false, true},
		{"post", "pos", false, false},
		{"{id}", "x", true, true},
		{"{id}", "", false, false},
		{"Post_{at}", "Post_2021", true, true},
		{"Post_{at}", "Post_", false, false},
		{"Post_{at}", "Comment_2021", false, false},
		{"T#{t}#U#{id}", "T#acme#U#7", true, true},
		{"T#{t}#U#{id}", "T##U#7", false, false},
		{"T#{t}#U#{id}", "T#a#b#U#7", true, true},
		{"T#{t}#U#{id}", "T#acme#U#", false, false},
		{"{a}!", "x!", true, true},
		{"{a}!", "x!y", false, true},
		{"{a}!", "!", false, false},
	}
	for _, tc := range tests {
		tpl := mustTemplate(t, tc.tpl)
		if got := tpl.match(tc.s, false); got != tc.full {
			t.Errorf("%q.match(%q) = %v, want %v", tc.tpl, tc.s, got, tc.full)
		}
		if got := tpl.match(tc.s, true); got != tc.prefix {
			t.Errorf("%q.match(%q, prefix) = %v, want %v", tc.tpl, tc.s, got, tc.prefix)
		}
	}
}

func TestOverlap(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"post", "post", true},
		{"post", "Post", false},
		{"post", "{post_id}", false}, // a bare variable is not a type tag
		{"POST#1", "POST#{id}", true},
		{"POST#1", "USER#{id}", false},
		{"{id}", "{post_id}", true},
		{"Post_{at}", "Comment_{at}", false},
		{"Post_{at}", "Post_{x}", true},
		{"P{a}", "Po{b}", true},
		{"{a}#x", "{b}#y", false},
	}
	for _, tc := range tests {
		a, b := mustTemplate(t, tc.a), mustTemplate(t, tc.b)
		if got := overlap(a, b); got != tc.want {
			t.Errorf("overlap(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := overlap(b, a); got != tc.want {
			t.Errorf("overlap(%q, %q) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestSpans(t *testing.T) {
	tests := []struct {
		op     SortOp
		a, b   string
		entity string
		want   bool
	}{
		{SortGT, "Post_2021", "", "Post_{at}", true},
		{SortGE, "Q", "", "Post_{at}", false},
		{SortLT, "Q", "", "Post_{at}", true},
		{SortLT, "Comment_", "", "Post_{at}", false},
		{SortBetween, "Post_2021", "Post_2022", "Post_{at}", true},
		{SortBetween, "Post_2021", "Post_2022", "Like_{at}", false},
		{SortBetween, "A", "Z", "Like_{at}", true},
		{SortLE, "b", "", "a", true},
		{SortGT, "b", "", "a", false},
	}
	for _, tc := range tests {
		var b Template
		if tc.b != "" {
			b = mustTemplate(t, tc.b)
		}
		got := condSpan(tc.op, mustTemplate(t, tc.a), b).meets(spanOf(mustTemplate(t, tc.entity)))
		if got != tc.want {
			t.Errorf("sk %s %s %s vs %s: %v, want %v", tc.op, tc.a, tc.b, tc.entity, got, tc.want)
		}
	}
	if s, ok := successor("a\xff\xff"); !ok || s != "b" {
		t.Errorf("successor = %q %v, want b", s, ok)
	}
	if _, ok := successor("\xff"); ok {
		t.Errorf("successor of 0xff exists")
	}
}
