package wire

import "encoding/binary"

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
func plainWord(w uint64) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	quote, slash := w^(ones*'"'), w^(ones*'\\')
	special := (w-ones*0x20)&^w | // a byte below 0x20
		(quote-ones)&^quote | // a '"'
		(slash-ones)&^slash | // a '\\'
		w // a byte of 0x80 or more
	return special&highs == 0
}

// plainWords returns where, from i, the run of whole plain eight-byte
// words of b ends: the decoder's string scans start their byte-by-byte
// walk there.
func plainWords(b []byte, i int) int {
	for i+8 <= len(b) && plainWord(binary.LittleEndian.Uint64(b[i:])) {
		i += 8
	}
	return i
}
