package service

import "testing"

// TestUnimplementedOperationMessage: a DynamoDB operation without a
// handler (none today; the next one AWS adds) is told apart from a name
// DynamoDB does not have.
func TestUnimplementedOperationMessage(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"StartBulkPutItems", "An unknown operation was requested: the emulator does not implement StartBulkPutItems yet."},
		{"DescribeBackups", "An unknown operation was requested."},
	} {
		if got := errOperationNotFound(tc.name).Error(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
