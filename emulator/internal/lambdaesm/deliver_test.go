package lambdaesm

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRetryBackoff: the wait before each retry of a failed batch
// doubles from the first (1 s by default, or the one set) up to 60
// times the first.
func TestRetryBackoff(t *testing.T) {
	var got []time.Duration
	for r := int64(1); r <= 9; r++ {
		got = append(got, backoffFor(0, r))
	}
	s := time.Second
	require.Equal(t, []time.Duration{s, 2 * s, 4 * s, 8 * s, 16 * s, 32 * s, 60 * s, 60 * s, 60 * s}, got)
	require.Equal(t, 60*time.Second, backoffFor(0, 10000))
	require.Equal(t, time.Millisecond, backoffFor(time.Millisecond, 1))
	require.Equal(t, 4*time.Millisecond, backoffFor(time.Millisecond, 3))
	require.Equal(t, 60*time.Millisecond, backoffFor(time.Millisecond, 50))

	m := &Manager{}
	require.Equal(t, 2*time.Second, m.retryWait(2), "the default")
	m.SetRetryBackoff(10 * time.Millisecond)
	require.Equal(t, 20*time.Millisecond, m.retryWait(2))
}
