package access

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNamesRoundTrip: every access and sort condition is parsed back
// from its name, and the names a design file may not use are refused.
func TestNamesRoundTrip(t *testing.T) {
	for a := Get; a < Count; a++ {
		got, ok := Parse(a.String())
		require.True(t, ok, a.String())
		require.Equal(t, a, got)
	}
	for _, bad := range []string{"", "?", "GET", "batchget"} {
		_, ok := Parse(bad)
		require.False(t, ok, bad)
	}
	for o := SortEQ; o < numSortOps; o++ {
		got, ok := ParseSortOp(o.String())
		require.True(t, ok, o.String())
		require.Equal(t, o, got)
	}
	_, ok := ParseSortOp("")
	require.False(t, ok)
	require.Equal(t, "?", Count.String())
	require.Equal(t, "?", numSortOps.String())
}

// TestIsWrite: the three writes, and nothing else.
func TestIsWrite(t *testing.T) {
	var writes []Access
	for a := None; a < Count; a++ {
		if a.IsWrite() {
			writes = append(writes, a)
		}
	}
	require.Equal(t, []Access{Put, Update, Delete}, writes)
}
