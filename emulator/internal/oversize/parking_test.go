package oversize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParkingPutsBack: runs taken out of a body one after another, each
// where the last left off, go back to their places, the body whole
// again; a parking let go, or emptied, parks again from nothing.
func TestParkingPutsBack(t *testing.T) {
	var names []string
	for i := range 20_000 {
		names = append(names, fmt.Sprintf(`"name%07d"`, i))
	}
	whole := `{"AttributesToGet":[` + strings.Join(names, ",") + `],"Keys":[]}`
	var p parking
	for round := range 3 {
		b := []byte(whole)
		at := strings.Index(whole, `"name0001000"`) + len(`"name0001000"`)
		for b[at] != ']' { // runs of about 32 KB from there on
			end := min(at+32<<10, strings.Index(string(b), "]"))
			p.park(at, b[at:end])
			b = append(b[:at], b[end:]...)
		}
		require.False(t, p.empty())
		require.Less(t, len(b), len(whole)/10, "round %d", round)
		if round == 1 {
			p.letGo()
			require.True(t, p.empty())
			continue
		}
		got, n := p.unpark(b)
		require.Equal(t, whole, string(got), "round %d", round)
		require.Equal(t, len(whole)-len(b), n)
		require.True(t, p.empty())
	}
}
