package throttle

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/faults/throttle"
)

// TestTagRule: the throttle tag sets enforcement either way; the vector
// search tag counts when it is a positive finite number and the throttle
// tag does not turn throttling off.
func TestTagRule(t *testing.T) {
	tag := func(k, v string) service.TagDesc { return service.TagDesc{Key: k, Value: v} }
	tests := []struct {
		name        string
		tags        []service.TagDesc
		enforce     bool
		tagged, on  bool
		searchBytes float64
	}{
		{"no tags", nil, true, false, true, 0},
		{"no tags, not enforced", nil, false, false, false, 0},
		{"on", []service.TagDesc{tag(throttle.Tag, "on")}, false, true, true, 0},
		{"off", []service.TagDesc{tag(throttle.Tag, "off")}, true, true, false, 0},
		{"search", []service.TagDesc{tag(throttle.VectorSearchTag, "1e6")}, false, false, false, 1e6},
		{"search, off", []service.TagDesc{tag(throttle.VectorSearchTag, "1e6"), tag(throttle.Tag, "off")}, true, true, false, 0},
		{"search zero", []service.TagDesc{tag(throttle.VectorSearchTag, "0")}, true, false, true, 0},
		{"search infinite", []service.TagDesc{tag(throttle.VectorSearchTag, "+Inf")}, true, false, true, 0},
		{"search not a number", []service.TagDesc{tag(throttle.VectorSearchTag, "many")}, true, false, true, 0},
		{"other tags", []service.TagDesc{tag("team", "on")}, true, false, true, 0},
	}
	for _, tt := range tests {
		tagged, on, searchBytes := tagRule(tt.tags, tt.enforce)
		require.Equal(t, tt.tagged, tagged, tt.name)
		require.Equal(t, tt.on, on, tt.name)
		require.Equal(t, tt.searchBytes, searchBytes, tt.name)
		require.False(t, math.IsInf(searchBytes, 0), tt.name)
	}
}
