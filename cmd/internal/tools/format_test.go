package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFormat: sprintf, errorf and fprintln write what fmt's writes for
// the verbs the tools use, and errorf's error wraps its %w errors.
func TestFormat(t *testing.T) {
	err := errors.New("refused")
	for _, tc := range []struct {
		format string
		args   []any
	}{
		{"curl: (%d) %s", []any{7, "Failed to connect"}},
		{"%s: %v", []any{"sh", err}},
		{"not an HTTP answer: %.80q", []any{strings.Repeat("é\"x", 40)}},
		{"bad chunk size %.40q", []any{"zz"}},
		{"%q (%v) 100%%", []any{"http://localhost:8000", err}},
		{"%w: %v", []any{fs.ErrNotExist, err}},
		{"an answer over %d bytes", []any{16 << 20}},
		{"%d %v %s", []any{int64(-3), true, []byte("b")}},
	} {
		if !strings.Contains(tc.format, "%w") { // Sprintf has no %w
			require.Equal(t, fmt.Sprintf(tc.format, tc.args...), sprintf(tc.format, tc.args...), tc.format)
		}
		require.Equal(t, fmt.Errorf(tc.format, tc.args...).Error(), errorf(tc.format, tc.args...).Error(), tc.format)
	}
	wrapped := errorf("%w: %v", fs.ErrNotExist, err)
	require.ErrorIs(t, wrapped, fs.ErrNotExist)
	require.NotErrorIs(t, wrapped, err, "%v does not wrap")
	require.ErrorIs(t, errorf("a: %s: %w", "b", err), err)

	var b, want strings.Builder
	fprintln(&b, "wget:", err)
	fmt.Fprintln(&want, "wget:", err)
	require.Equal(t, want.String(), b.String())
}
