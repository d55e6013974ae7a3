package apierr

import (
	"errors"
	"fmt"
	"net/http"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestClassifyStorageFailures: a change the commit hook refused or could
// not make durable is a 500 InternalServerError; when the disk was full,
// its message says so, and whether the write was made.
func TestClassifyStorageFailures(t *testing.T) {
	cases := []struct {
		name string
		err  error
		msg  string
	}{
		{"refused", fmt.Errorf("%w: %w", storage.ErrHookFailed, syscall.EIO), msgInternal},
		{"not durable", fmt.Errorf("%w: %w", storage.ErrNotDurable, syscall.EIO), msgInternal},
		{"refused, disk full", fmt.Errorf("%w: %w", storage.ErrHookFailed, fmt.Errorf("write: %w", syscall.ENOSPC)),
			"Internal server error: no space left on the device holding the data directory (-dbPath); the write was not made"},
		{"not durable, disk full", fmt.Errorf("%w: %w", storage.ErrNotDurable, syscall.ENOSPC),
			"Internal server error: no space left on the device holding the data directory (-dbPath)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ae, ok := Classify(tc.err)
			require.True(t, ok)
			require.Equal(t, http.StatusInternalServerError, ae.Class.Status)
			require.Equal(t, "InternalServerError", ae.Class.Name)
			require.Equal(t, tc.msg, ae.Msg)
			require.True(t, errors.Is(ae.Cause, tc.err))
		})
	}
}
