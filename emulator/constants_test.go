package emulator

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// TestConstantsMatchService: the constants this package spells out for
// godoc are the service's (and its libraries').
func TestConstantsMatchService(t *testing.T) {
	require.Equal(t, service.ThrottleTag, ThrottleTag)
	require.Equal(t, int64(idempotency.DefaultBytes), int64(DefaultIdempotencyBytes))
	require.Equal(t, service.DefaultStreamRetention, DefaultStreamRetention)
}
