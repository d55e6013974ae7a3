package expr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLegacyNames: a projection of AttributesToGet gives its names back
// in the request's order, whichever compile made it; others give none.
func TestLegacyNames(t *testing.T) {
	owned := []string{"zz", "b", "a", "m"}
	p, err := AttributesToGetOwned(owned)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "b", "m", "zz"}, owned, "sorted in place")
	require.Equal(t, []string{"zz", "b", "a", "m"}, p.LegacyNames())
	q, err := AttributesToGet([]string{"y", "x"})
	require.NoError(t, err)
	require.Equal(t, []string{"y", "x"}, q.LegacyNames())
	var none *Projection
	require.Nil(t, none.LegacyNames())
	c := NewCompiler(nil, nil)
	defer c.Release()
	pe, err := c.Projection("x, y")
	require.NoError(t, err)
	require.Nil(t, pe.LegacyNames())
}
