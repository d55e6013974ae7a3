package storage

// Order-preserving key encoding.
//
// Sort keys are kept in the B-trees as byte strings whose plain byte order
// (Go string comparison) is DynamoDB's order, so comparisons never parse
// decimals. S and B values are their own encoding (UTF-8 bytes and raw bytes
// already compare as DynamoDB compares them). N values are encoded as:
//
//	zero:     0x02
//	positive: 0x03, adj+130, pairs...
//	negative: 0x01, 255-(adj+130), 255-pair..., 0xFF
//
// where adj is the power of ten of the leading significant digit (DynamoDB
// bounds it to [-130, 125], so adj+130 fits a byte) and each pair is two
// significant digits d1 d2 (a missing last digit is 0) stored as d1*10+d2+1,
// in 1..100. For positives a longer mantissa with the same prefix is larger,
// which the shorter string's end gives for free; for negatives everything is
// complemented and a 0xFF terminator, above every complemented pair, makes
// the shorter magnitude sort after.

const (
	numKeyNeg  = 0x01
	numKeyZero = 0x02
	numKeyPos  = 0x03
	adjBias    = 130
)

// appendNumberKey appends the order-preserving encoding of a canonical number.
func appendNumberKey(dst []byte, n Number) []byte {
	neg, hi, lo, adj := n.digits()
	count := len(hi) + len(lo)
	if count == 0 {
		return append(dst, numKeyZero)
	}
	digit := func(i int) int {
		if i < len(hi) {
			return int(hi[i] - '0')
		}
		return int(lo[i-len(hi)] - '0')
	}
	e := byte(adj + adjBias)
	if neg {
		dst = append(dst, numKeyNeg, 255-e)
	} else {
		dst = append(dst, numKeyPos, e)
	}
	for i := 0; i < count; i += 2 {
		p := digit(i) * 10
		if i+1 < count {
			p += digit(i + 1)
		}
		b := byte(p + 1)
		if neg {
			b = 255 - b
		}
		dst = append(dst, b)
	}
	if neg {
		dst = append(dst, 0xFF)
	}
	return dst
}

// decodeNumberKey reverses appendNumberKey. ok is false for malformed input.
func decodeNumberKey(s string) (n Number, ok bool) {
	var buf [192]byte // the longest text: "-0." and 129 zeros before 38 digits
	text, ok := appendNumberKeyText(buf[:0], s)
	if !ok {
		return "", false
	}
	return Number(text), true
}

// appendNumberKeyText appends the canonical text of the number whose
// encoding (appendNumberKey) is s. ok is false for malformed input.
func appendNumberKeyText(dst []byte, s string) (out []byte, ok bool) {
	if s == "\x02" { // numKeyZero
		return append(dst, '0'), true
	}
	if len(s) < 3 {
		return dst, false
	}
	neg := s[0] == numKeyNeg
	if !neg && s[0] != numKeyPos {
		return dst, false
	}
	e := s[1]
	body := s[2:]
	if neg {
		if body[len(body)-1] != 0xFF {
			return dst, false
		}
		e = 255 - e
		body = body[:len(body)-1]
	}
	if len(body) == 0 || len(body) > (maxSignificantDigits+1)/2 {
		return dst, false
	}
	var buf [maxSignificantDigits + 1]byte
	digits := buf[:0]
	for i := 0; i < len(body); i++ {
		b := body[i]
		if neg {
			b = 255 - b
		}
		if b < 1 || b > 100 {
			return dst, false
		}
		p := b - 1
		digits = append(digits, '0'+p/10, '0'+p%10)
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 || digits[0] == '0' {
		return dst, false
	}
	return appendDigits(dst, neg, digits, int(e)-adjBias), true
}

// appendDigits appends significant digits with the leading digit at 10^adj
// as canonical plain decimal text.
func appendDigits(dst []byte, neg bool, digits []byte, adj int) []byte {
	if neg {
		dst = append(dst, '-')
	}
	point := adj + 1 // digits before the decimal point
	switch {
	case point >= len(digits):
		dst = append(dst, digits...)
		for i := len(digits); i < point; i++ {
			dst = append(dst, '0')
		}
	case point > 0:
		dst = append(dst, digits[:point]...)
		dst = append(dst, '.')
		dst = append(dst, digits[point:]...)
	default:
		dst = append(dst, "0."...)
		for i := point; i < 0; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	}
	return dst
}

// sortKeyBytes returns the order-preserving encoding of a sort key value.
// A number's is built on the stack (38 digits take 2 + 19 + 1 bytes), so
// that it costs one allocation, the string, not two: every write of a
// table with a numeric sort key makes it twice (BenchmarkPreload).
func sortKeyBytes(v Value) string {
	if v.kind == KindN {
		var buf [24]byte
		return string(appendNumberKey(buf[:0], Number(v.str)))
	}
	return v.str
}

// sortKeyValue rebuilds a sort key Value of kind k from its encoding.
func sortKeyValue(k Kind, enc string) Value {
	if k == KindN {
		n, ok := decodeNumberKey(enc)
		if !ok {
			panic("storage: corrupt number key") // only ever built by appendNumberKey
		}
		return N(n)
	}
	return Value{kind: k, str: enc}
}

// partitionHash places a partition key in the scan order: FNV-1a over the
// key's bytes (canonical text for N) followed by a final avalanche so the top
// bits, which pick the parallel scan segment, depend on every input byte. It
// is fixed, so scan order is the same in every process.
func partitionHash[T ~string | ~[]byte](pk T) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(pk); i++ {
		h ^= uint32(pk[i])
		h *= 16777619
	}
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
