package partiqlops

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// TestLimitRowsWire: the feature's rows of the decoder's limits are
// checked against their structs when a service is wired with it
// (wire.Add panics on a member the struct lacks or a list of other
// elements), so wiring it is the walk of its rows.
func TestLimitRowsWire(t *testing.T) {
	require.NotPanics(t, func() {
		s, err := service.New(service.Config{Features: []service.Feature{Feature{}}})
		require.NoError(t, err)
		s.Close()
	})
}
