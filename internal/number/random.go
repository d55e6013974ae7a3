package number

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Random returns a random canonical number, for tests, biased to share digits
// and exponents so that near-equal numbers are common.
func Random(r *rand.Rand) Number {
	for {
		var b strings.Builder
		if r.IntN(2) == 0 {
			b.WriteByte('-')
		}
		digits := 1 + r.IntN(38)
		if r.IntN(2) == 0 {
			digits = 1 + r.IntN(4)
		}
		for i := 0; i < digits; i++ {
			b.WriteByte("0123456789"[r.IntN(10)])
			if i == 0 {
				b.WriteByte('.')
			}
		}
		exp := r.IntN(256) - 130
		if r.IntN(2) == 0 {
			exp = r.IntN(7) - 3
		}
		fmt.Fprintf(&b, "E%d", exp)
		if n, err := Parse(b.String()); err == nil {
			return n
		}
	}
}
