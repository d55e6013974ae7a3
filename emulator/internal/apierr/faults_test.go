package apierr

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRefusalCodes: what a batch and a transaction make of a refused
// item, for each class a stage or a write answers with, wrapped or not.
func TestRefusalCodes(t *testing.T) {
	cases := []struct {
		class         *Class
		unprocessable bool
		code          string
	}{
		{ErrTransactionConflict, false, "TransactionConflict"},
		{ErrConditionalCheckFailed, false, "ConditionalCheckFailed"},
		{ErrProvisionedThroughputExceeded, true, "ProvisionedThroughputExceeded"},
		{ErrThrottling, true, "ThrottlingError"},
		{ErrRequestLimitExceeded, true, ""},
		{ErrInternalServer, true, ""},
		{ErrTransactionInProgress, false, ""},
		{ErrValidation, false, ""},
	}
	for _, c := range cases {
		t.Run(c.class.Name, func(t *testing.T) {
			for _, err := range []error{New(c.class, "m"), fmt.Errorf("wrapped: %w", New(c.class, "m"))} {
				require.Equal(t, c.unprocessable, Unprocessable(err), "got Unprocessable, want %v", c.unprocessable)
				require.Equal(t, c.code, CancellationCode(err), "got CancellationCode, want %q", c.code)
			}
		})
	}
	require.False(t, Unprocessable(nil))
	require.Empty(t, CancellationCode(nil))
}
