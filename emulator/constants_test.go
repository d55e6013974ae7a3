package emulator

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/idempotency"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
)

// TestConstantsMatchService: the constants this package spells out for
// godoc are the service's (and its libraries').
func TestConstantsMatchService(t *testing.T) {
	require.Equal(t, "dynamoemu:throttle", throttle.Tag, "the tag Throttle's doc names")
	require.Equal(t, int64(idempotency.DefaultBytes), int64(defaultIdempotencyBytes))
	require.Equal(t, service.DefaultStreamRetention, defaultStreamRetention)
}
