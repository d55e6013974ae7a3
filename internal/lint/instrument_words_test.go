package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// instrumentWords are the instruments' names, as parts of a word: fault
// injection, throttling, the index, stream and read lag, the
// access-pattern report with Contributor Insights, and the conventions
// check. Each is a stage (emulator/internal/stages/...), installed
// through the stage seam, so the core speaks of "a stage" and never of
// one by name, in its code or its comments. A word matches when one of
// its parts (camelCase split, lower-cased) is listed here exactly, or
// begins with a stem of instrumentStems: "default" and "flag" are words
// of their own and match nothing. The core's own validation errors are
// called errors, not faults, so the rule has no exception.
var instrumentWords = map[string]bool{
	"fault": true, "faults": true, "faulted": true, "faulty": true,
	"lag": true, "lags": true, "lagged": true, "lagging": true,
}

// instrumentStems begin the parts of a word that name an instrument.
var instrumentStems = []string{"insight", "throttl", "convention", "injector"}

// wordParts splits s into its words' parts, lower-cased: runs of letters,
// cut where a lower-case letter meets an upper-case one and before the
// last capital of a run of capitals that a lower-case letter follows
// ("ErrThrottling": err, throttling; "HTTPLag": http, lag).
func wordParts(s string) []string {
	var parts []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(r):
			flush(i)
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return parts
}

// namesInstrument reports whether part is, or begins with, an
// instrument's name.
func namesInstrument(part string) bool {
	if instrumentWords[part] {
		return true
	}
	for _, stem := range instrumentStems {
		if strings.HasPrefix(part, stem) {
			return true
		}
	}
	return false
}

// TestCoreSpeaksNoInstrument: no line of the core's non-test files, code
// or comment, names an instrument (instrumentWords): the core knows the
// installed stages only through the stage seam
// (emulator/internal/service/stage.go), and an error an instrument
// answers with carries its own AWS codes (apierr.CancellationCode,
// apierr.Unprocessable).
func TestCoreSpeaksNoInstrument(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root(t), corePkg, "*.go"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(string(src), "\n") {
			for _, part := range wordParts(line) {
				if namesInstrument(part) {
					t.Errorf("%s:%d: the core names an instrument (%q): speak of a stage: %s",
						filepath.Base(f), i+1, part, strings.TrimSpace(line))
					break
				}
			}
		}
	}
}

// TestWordParts: how a line is cut into the parts the rule matches.
func TestWordParts(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"ErrThrottling", []string{"err", "throttling"}},
		{"applyIndexLagSetting(x)", []string{"apply", "index", "lag", "setting", "x"}},
		{"HTTPLag", []string{"http", "lag"}},
		{"// a default flag", []string{"a", "default", "flag"}},
		{"faults/WIRING.md", []string{"faults", "wiring", "md"}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, wordParts(c.in), "wordParts(%q)", c.in)
	}
	for _, w := range []string{"default", "flag", "flags", "defaults"} {
		require.False(t, namesInstrument(w), "got %q names an instrument, want not", w)
	}
	for _, w := range []string{"fault", "lags", "throttler", "insights", "conventions", "injector"} {
		require.True(t, namesInstrument(w), "got %q names no instrument, want it named", w)
	}
}
