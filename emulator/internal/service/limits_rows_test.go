package service

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCoreLimitRows walks the core's rows of the request decoder's
// limits: each is checked against its struct's members and element type
// as it is added (wire.Add panics on a member the struct lacks), and the
// set is asserted whole, so a row that goes missing is seen too. The
// features' rows are checked the same way wherever a service is wired
// with them (every test of the emulator and of partiqlops).
func TestCoreLimitRows(t *testing.T) {
	require.Equal(t, []string{
		"BatchWriteItemInput.RequestItems",
		"KeysAndAttributes.AttributesToGet",
		"KeysAndAttributes.Keys",
		"TransactGetItemsInput.TransactItems",
		"TransactWriteItemsInput.TransactItems",
	}, coreLimits().Rows())
}
