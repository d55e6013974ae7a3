package number

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
	numKeyNeg   = 0x01
	numKeyZero  = 0x02
	KeyPositive = 0x03
	adjBias     = 130
)

// AppendKey appends the order-preserving encoding of a canonical number.
func AppendKey(dst []byte, n Number) []byte {
	neg, hi, lo, adj := n.Digits()
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
		dst = append(dst, KeyPositive, e)
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

// DecodeKey reverses AppendKey. ok is false for malformed input.
func DecodeKey(s string) (n Number, ok bool) {
	var buf [192]byte // the longest text: "-0." and 129 zeros before 38 digits
	text, ok := AppendKeyText(buf[:0], s)
	if !ok {
		return "", false
	}
	return Number(text), true
}

// AppendKeyText appends the canonical text of the number whose
// encoding (AppendKey) is s. ok is false for malformed input.
func AppendKeyText(dst []byte, s string) (out []byte, ok bool) {
	if s == "\x02" { // numKeyZero
		return append(dst, '0'), true
	}
	if len(s) < 3 {
		return dst, false
	}
	neg := s[0] == numKeyNeg
	if !neg && s[0] != KeyPositive {
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
	if len(body) == 0 || len(body) > (MaxDigits+1)/2 {
		return dst, false
	}
	var buf [MaxDigits + 1]byte
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
