package throttle

import (
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/faults"
	"github.com/stretchr/testify/require"
)

// TestVectorSearch: a vector index's search limit is a bucket of
// VectorSearchRequestBytes per second holding one second's worth; the
// table's reads and the other vector indexes draw nothing from it.
func TestVectorSearch(t *testing.T) {
	clk := newClock()
	th := New(Options{Clock: clk.Now, PerKey: true})
	require.NoError(t, th.Configure("T", Table{Mode: OnDemand, VectorSearch: map[string]float64{"vx": 2048}}))
	vx := Use{Table: "T", Index: "vx", Vector: true}
	other := Use{Table: "T", Index: "vy", Vector: true}
	const refused = "IndexReadMaxOnDemandThroughputExceeded"
	run(t, th, clk, []step{
		{use: vx, units: 1024},
		{use: vx, units: 1500}, // 2048 - 1024 left: admitted, into debt
		{use: vx, want: refused},
		{use: other, units: 1 << 20}, // not limited
		{use: Use{Table: "T", Partition: "a"}, units: 1},
		{advance: 200 * time.Millisecond, use: vx, want: refused}, // -476 + 409.6 < 0
		{advance: 100 * time.Millisecond, use: vx, units: 1024},
	})
	got, ok := th.Admit(vx)
	require.True(t, ok)
	require.Equal(t, faults.Throttling, got.Kind)
	require.Equal(t, "vx", got.Index)
	require.Equal(t, faults.Throttling.IndexMessage(), got.Message)

	require.Error(t, th.Configure("U", Table{Mode: OnDemand, VectorSearch: map[string]float64{"vx": 0}}))
	// A new configuration keeps what the bucket holds, up to its size.
	require.NoError(t, th.Configure("T", Table{Mode: OnDemand, VectorSearch: map[string]float64{"vx": 1 << 20}}))
	_, ok = th.Admit(vx)
	require.True(t, ok, "the debt is kept across a reconfiguration")
	require.NoError(t, th.Configure("T", Table{Mode: OnDemand}))
	_, ok = th.Admit(vx)
	require.False(t, ok, "an index no longer listed is not limited")
}
