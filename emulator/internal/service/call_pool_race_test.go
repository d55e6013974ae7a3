//go:build race

package service

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReleasedCallPanics: under the race detector (lease's checked mode)
// a call used after Serve gave it back, or given back twice, panics.
func TestReleasedCallPanics(t *testing.T) {
	c := calls.Get()
	putCall(c)
	require.Panics(t, func() { c.newUse() }, "a fault use of a call given back")
	require.Panics(t, func() { putCall(c) }, "a call given back twice")
}
