package apierr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUnimplementedOperationMessage: a DynamoDB operation without a
// handler (none today; the next one AWS adds) is told apart from a name
// DynamoDB does not have.
func TestUnimplementedOperationMessage(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"StartBulkPutItems", "An unknown operation was requested: the emulator does not implement StartBulkPutItems yet."},
		{"DescribeBackups", "An unknown operation was requested."},
	} {
		err := OperationNotFound(tc.name)
		require.ErrorIs(t, err, ErrUnknownOperation, tc.name)
		require.Equal(t, tc.want, err.Error(), tc.name)
	}
}
