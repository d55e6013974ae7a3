package apierr

import (
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAddLong: a violation given in pieces gets the message it gets
// given whole, wherever it stands among the others, past the cap, and a
// second one too. TransactItemsLimit's echo in pieces is the one built
// whole.
func TestAddLong(t *testing.T) {
	long := []string{"Value '[", "a, b", "]' at 'x' failed to satisfy constraint: ", LenLE(1)}
	short := func(i int) string { return Violation(QuoteInt(int64(i)), "y", LenGE(3)) }
	cases := []struct {
		name          string
		before, after int
		longs         int
	}{
		{"alone", 0, 0, 1},
		{"first", 0, 2, 1},
		{"between", 1, 1, 1},
		{"last", 3, 0, 1},
		{"the tenth", 9, 3, 1},
		{"past the cap", 10, 0, 1},
		{"two", 1, 1, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got, want Constraints
			for i := range tc.before {
				got.AddViolation(short(i))
				want.AddViolation(short(i))
			}
			for range tc.longs {
				got.AddLong(slices.Values(long))
				want.AddViolation(strings.Join(long, ""))
			}
			for i := range tc.after {
				got.AddViolation(short(100 + i))
				want.AddViolation(short(100 + i))
			}
			got.AddLong(nil) // none
			require.Equal(t, want.Err().Error(), got.Err().Error())
			ae := got.Err().(*Error)
			require.Equal(t, ErrValidation, ae.Class)
			if tc.before < MaxConstraintErrors {
				require.NotNil(t, ae.Long, "the message in pieces")
				require.Empty(t, ae.Msg)
			}
		})
	}
	for _, n := range []int{100, 101, 2345} {
		want := "" // the echo as it was built whole: each position's hash of class and its digits
		if n > 100 {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = "com.amazonaws.dynamodb.v20120810.TransactGetItem@" +
					strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte("TransactGetItem"+strconv.Itoa(i)))), 16)
			}
			echo := "[" + strings.Join(ids, ", ") + "]"
			if len(echo) > MaxEcho { // 2345 positions: cut (echo_cap.go)
				echo = echo[:MaxEcho] + EchoElided
			}
			want = "Value '" + echo + "' at 'transactItems' failed to satisfy constraint: " + LenLE(100)
		}
		require.Equal(t, want, TransactItemsLimit(n, 100, "TransactGetItem"), "n %d", n)
		require.Equal(t, n > 100, TransactItemsLimitPieces(n, 100, "TransactGetItem") != nil, "n %d", n)
	}
}
