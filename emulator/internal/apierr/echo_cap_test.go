package apierr

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCapEcho: an echo of at most MaxEcho bytes is whole; a longer one
// is its first MaxEcho bytes (fewer at a character's start) and the
// mark, and the pieces past the cut are not asked for.
func TestCapEcho(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces []string
		want   string
	}{
		{"empty", nil, ""},
		{"at the cap", []string{strings.Repeat("a", MaxEcho-1), "b"}, strings.Repeat("a", MaxEcho-1) + "b"},
		{"one past", []string{strings.Repeat("a", MaxEcho), "b"}, strings.Repeat("a", MaxEcho) + EchoElided},
		{"cut inside a piece", []string{"xy", strings.Repeat("a", MaxEcho)}, "xy" + strings.Repeat("a", MaxEcho-2) + EchoElided},
		{"cut inside a character", []string{strings.Repeat("a", MaxEcho-1), "é"}, strings.Repeat("a", MaxEcho-1) + EchoElided},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := func(yield func(string) bool) {
				for _, p := range tc.pieces {
					if !yield(p) {
						return
					}
				}
			}
			got := join(CapEcho(src))
			require.Equal(t, tc.want, got)
			require.LessOrEqual(t, len(got), MaxEcho+len(EchoElided))
		})
	}
	// Pieces past the cut are never rendered.
	asked := 0
	endless := func(yield func(string) bool) {
		for {
			asked++
			if !yield(strings.Repeat("z", 1000)) {
				return
			}
		}
	}
	got := join(CapEcho(endless))
	require.Len(t, got, MaxEcho+len(EchoElided))
	require.Equal(t, MaxEcho/1000+1, asked)
	require.Equal(t, "abc", join(CapEcho(slices.Values([]string{"a", "b", "c"}))))
}
