package emulator

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// TestConstantsMatchService: the constants this package spells out for
// godoc are the service's.
func TestConstantsMatchService(t *testing.T) {
	require.Equal(t, service.ThrottleTag, ThrottleTag)
	require.Equal(t, int64(service.DefaultIdempotencyBytes), int64(DefaultIdempotencyBytes))
	require.Equal(t, service.DefaultStreamRetention, DefaultStreamRetention)
}
