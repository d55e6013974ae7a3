package wire

import (
	"encoding/binary"
	"math/bits"
)

// plainPrefix returns how many leading bytes of s a JSON string holds as
// they are: ASCII, not a control character, not '"' or '\\'. It tests
// eight bytes at a time (the "has a zero byte" and "has a byte less than
// n" tricks of Sean Eron Anderson's Bit Twiddling Hacks, exact for
// whether any byte qualifies), so the long plain strings items are mostly
// made of are copied, not walked byte by byte; AppendString walks only
// from the first eight bytes that need care.
func plainPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if !plainWord(w) {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return i
		}
	}
	return i
}

// plainWord reports whether all eight bytes of w (a little-endian load) are
// plain in plainPrefix's sense.
func plainWord(w uint64) bool { return specialBytes(w) == 0 }

// specialBytes marks the bytes of w (a little-endian load) that are not
// plain in plainPrefix's sense with their high bit; zero when there is
// none. A byte past the first marked one may be marked wrongly (a
// borrow carries into it), but the first marked byte is always one that
// is not plain: its index is bits.TrailingZeros64(specialBytes(w))/8.
func specialBytes(w uint64) uint64 {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	quote, slash := w^(ones*'"'), w^(ones*'\\')
	special := (w-ones*0x20)&^w | // a byte below 0x20
		(quote-ones)&^quote | // a '"'
		(slash-ones)&^slash | // a '\\'
		w // a byte of 0x80 or more
	return special & highs
}

// nextSpecial returns the index of the first byte of b from i on that
// is not plain, eight bytes at a time while there are eight: len(b)
// rounded down to a whole word past i when the words hold none, from
// which the caller walks byte by byte.
func nextSpecial(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := specialBytes(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
		i += 8
	}
	return i
}
