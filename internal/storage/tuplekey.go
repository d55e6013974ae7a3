package storage

import "github.com/dynamoemu/dynamoemu/internal/number"

// Order-preserving tuple keys, for secondary indexes.
//
// An index orders its entries by a tuple of key values (one to four
// partition key attributes, then up to four sort key attributes), so each
// component is encoded to be self-delimiting: the concatenation of the
// components compares, byte by byte, exactly as the tuples compare
// component by component. S and B are their bytes with 0x00 escaped as
// 0x00 0xFF, then the terminator 0x00 0x01 (below every escaped byte and
// every continuation, so a string sorts before its extensions). N is
// number.AppendKey's encoding, which is self-delimiting for zero (one byte)
// and negatives (0xFF ends them, above every complemented pair); a
// positive gets a 0x00 terminator, below every digit pair, so a shorter
// mantissa sorts first as it does in number.AppendKey.

// appendTupleComponent appends the self-delimiting encoding of key value v.
func appendTupleComponent(dst []byte, v Value) []byte {
	if v.kind == KindN {
		start := len(dst)
		dst = number.AppendKey(dst, Number(v.str))
		if dst[start] == number.KeyPositive {
			dst = append(dst, 0x00)
		}
		return dst
	}
	dst = appendEscaped(dst, v.str)
	return append(dst, 0x00, 0x01)
}

// appendEscaped appends s with each 0x00 byte escaped as 0x00 0xFF: the
// prefix of the encoding of every string that starts with s (begins_with).
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			dst = append(dst, 0x00, 0xFF)
			continue
		}
		dst = append(dst, s[i])
	}
	return dst
}
