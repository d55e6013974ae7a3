package wire

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestAppendErrorBodyLong: a message in pieces (apierr.Error.Long) is
// the body its pieces joined get, escapes and all, and its room is
// made once.
func TestAppendErrorBodyLong(t *testing.T) {
	cases := []struct {
		name   string
		pieces []string
	}{
		{"plain", []string{"1 validation error detected: ", "Value '[a, b]'", " at 'x'"}},
		{"escapes", []string{`a "quoted" name`, "a\nnew line\t\x01", `back\slash`, "é ü \u2028", "bad \xff byte"}},
		{"empty pieces", []string{"", "x", ""}},
		{"large", slices.Repeat([]string{"WriteRequest(putRequest=null), "}, 20000)}, // a piece at a time
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, class := range []*apierr.Class{apierr.ErrValidation, apierr.ErrTransactionCanceled} {
				whole := &apierr.Error{Class: class, Msg: strings.Join(tc.pieces, "")}
				long := &apierr.Error{Class: class, Long: slices.Values(tc.pieces)}
				want := AppendErrorBody(nil, whole)
				got := AppendErrorBody(nil, long)
				require.Equal(t, string(want), string(got))
			}
		})
	}
	// Grown a piece at a time, the large one allocated 5.2 times its
	// bytes. (The race detector's build allocates slices.Grow's room
	// twice.)
	if testkit.RaceEnabled {
		return
	}
	large := &apierr.Error{Class: apierr.ErrValidation, Long: slices.Values(cases[3].pieces)}
	size := len(AppendErrorBody(nil, large))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		AppendErrorBody(nil, large)
	}
	runtime.ReadMemStats(&after)
	perBody := float64(after.TotalAlloc-before.TotalAlloc) / 10 / float64(size)
	require.Less(t, perBody, 1.1, "the body's room made once: %.2f times its bytes allocated", perBody)
}
