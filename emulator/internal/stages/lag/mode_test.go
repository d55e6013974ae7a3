package lag

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseMode(t *testing.T) {
	tests := []struct {
		in      string
		seed    uint64
		fuzz    bool
		wantErr bool
	}{
		{"", 0, false, false},
		{"strong", 0, false, false},
		{"fuzz:0", 0, true, false},
		{"fuzz:42", 42, true, false},
		{"fuzz:18446744073709551615", 1<<64 - 1, true, false},
		{"fuzz:18446744073709551616", 0, false, true},
		{"fuzz:", 0, false, true},
		{"fuzz:-1", 0, false, true},
		{"fuzz:+1", 0, false, true},
		{"fuzz:0x10", 0, false, true},
		{"fuzz:1 ", 0, false, true},
		{"Fuzz:1", 0, false, true},
		{"eventual", 0, false, true},
	}
	for _, tc := range tests {
		seed, fuzz, err := ParseMode(tc.in)
		if tc.wantErr {
			require.ErrorIs(t, err, ErrMode, "ParseMode(%q)", tc.in)
			continue
		}
		require.NoError(t, err, "ParseMode(%q)", tc.in)
		require.Equal(t, tc.seed, seed, "ParseMode(%q): seed", tc.in)
		require.Equal(t, tc.fuzz, fuzz, "ParseMode(%q): fuzz", tc.in)
	}
}

// FuzzParseMode: any string parses or is ErrMode, never a panic; a
// fuzz mode's seed prints to a mode that parses to the same seed.
func FuzzParseMode(f *testing.F) {
	for _, s := range []string{"", "strong", "fuzz:0", "fuzz:42", "fuzz:18446744073709551615", "fuzz:", "fuzz:-1", "fuzz:+1", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seed, fuzz, err := ParseMode(s)
		if err != nil {
			require.ErrorIs(t, err, ErrMode)
			require.False(t, fuzz)
			return
		}
		if fuzz {
			again, fuzz, err := ParseMode("fuzz:" + strconv.FormatUint(seed, 10))
			require.NoError(t, err)
			require.True(t, fuzz)
			require.Equal(t, seed, again)
		} else {
			require.Contains(t, []string{"", "strong"}, s)
		}
	})
}
