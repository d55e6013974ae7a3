package number

import (
	"strings"
)

// Exact decimal arithmetic on digit strings, for Parse, Add
// and Sub. DynamoDB numbers have at most 38 significant digits and
// an adjusted exponent in [-130, 125], so every sum or difference of two
// of them is exact in a few hundred digits; nothing here rounds.
//
// This replaces github.com/cockroachdb/apd/v3 on the server's path: apd's
// package initialisation builds tables of big powers of ten (half a
// megabyte, 2400 allocations), the largest share of the server's start-up
// (cmd/dynamoemu BenchmarkStartup). apd stays the reference: the tests
// hold these functions to it (decimal_test.go), including its limits on
// exponents, which decide what "cannot be converted to a numeric value".

// decimal is (-1)^neg × coeff × 10^exp, coeff decimal digits without
// leading zeros (empty for zero).
type decimal struct {
	neg   bool
	coeff []byte
	exp   int
}

// apdExponentLimit is the largest exponent apd accepts when it parses
// (apd.MaxExponent): a number whose written exponent, fraction length,
// exponent or adjusted exponent is beyond it is not a number at all, where
// DynamoDB might say overflow or underflow; the emulator has always
// answered so.
const apdExponentLimit = 100000

// parseDecimalText parses s, which passed validNumberSyntax; ok is false
// where apd would refuse it (see apdExponentLimit).
func parseDecimalText(s string) (d decimal, ok bool) {
	if s[0] == '-' || s[0] == '+' {
		d.neg = s[0] == '-'
		s = s[1:]
	}
	mant, expText := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText = s[:i], s[i+1:]
	}
	e := 0
	if expText != "" {
		neg := expText[0] == '-'
		if expText[0] == '-' || expText[0] == '+' {
			expText = expText[1:]
		}
		for i := 0; i < len(expText); i++ { // at most 9 digits (validNumberSyntax)
			e = e*10 + int(expText[i]-'0')
		}
		if neg {
			e = -e
		}
		if e > apdExponentLimit || e < -apdExponentLimit {
			return decimal{}, false
		}
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if len(frac) > apdExponentLimit {
		return decimal{}, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	d.coeff = []byte(digits)
	d.exp = e - len(frac)
	if d.exp > apdExponentLimit || d.exp < -apdExponentLimit {
		return decimal{}, false
	}
	nd := max(len(digits), 1) // apd counts zero as one digit
	if adj := d.exp + nd - 1; adj > apdExponentLimit || adj < -apdExponentLimit {
		return decimal{}, false
	}
	return d, true
}

// reduce strips the coefficient's trailing zeros into the exponent.
func (d *decimal) reduce() {
	n := len(d.coeff)
	for n > 0 && d.coeff[n-1] == '0' {
		n--
	}
	d.exp += len(d.coeff) - n
	d.coeff = d.coeff[:n]
}

// adjusted is the exponent of the leading digit; d must not be zero.
func (d *decimal) adjusted() int { return d.exp + len(d.coeff) - 1 }

// canonical checks DynamoDB's precision and range and renders canonical
// text: fromDecimal's rules.
func (d decimal) canonical() (Number, error) {
	d.reduce()
	if len(d.coeff) == 0 {
		return "0", nil
	}
	if len(d.coeff) > MaxDigits {
		return "", ErrPrecision
	}
	if adj := d.adjusted(); adj > MaxAdjusted {
		return "", ErrOverflow
	} else if adj < MinAdjusted {
		return "", ErrUnderflow
	}
	return Number(d.text()), nil
}

// text renders a reduced, non-zero decimal without an exponent.
func (d decimal) text() string {
	coeff := string(d.coeff)
	var b strings.Builder
	b.Grow(len(coeff) + 4)
	if d.neg {
		b.WriteByte('-')
	}
	switch exp := d.exp; {
	case exp >= 0:
		b.WriteString(coeff)
		for range exp {
			b.WriteByte('0')
		}
	case -exp < len(coeff):
		point := len(coeff) + exp
		b.WriteString(coeff[:point])
		b.WriteByte('.')
		b.WriteString(coeff[point:])
	default:
		b.WriteString("0.")
		for range -exp - len(coeff) {
			b.WriteByte('0')
		}
		b.WriteString(coeff)
	}
	return b.String()
}

// numberDecimal returns canonical n as a decimal.
func numberDecimal(n Number) decimal {
	neg, hi, lo, adj := n.Digits()
	coeff := []byte(hi + lo)
	return decimal{neg: neg, coeff: coeff, exp: adj - len(coeff) + 1}
}

// addDecimals returns a+b exactly.
func addDecimals(a, b decimal) decimal {
	if len(a.coeff) == 0 {
		return b
	}
	if len(b.coeff) == 0 {
		return a
	}
	exp := min(a.exp, b.exp)
	x, y := a.aligned(exp), b.aligned(exp)
	if a.neg == b.neg {
		return decimal{neg: a.neg, coeff: addDigits(x, y), exp: exp}
	}
	// Different signs: the larger magnitude minus the smaller.
	switch c := compareDigits(x, y); {
	case c == 0:
		return decimal{}
	case c > 0:
		return decimal{neg: a.neg, coeff: subDigits(x, y), exp: exp}
	default:
		return decimal{neg: b.neg, coeff: subDigits(y, x), exp: exp}
	}
}

// aligned returns d's coefficient scaled to exponent exp <= d.exp.
func (d decimal) aligned(exp int) []byte {
	out := make([]byte, len(d.coeff), len(d.coeff)+d.exp-exp)
	copy(out, d.coeff)
	for range d.exp - exp {
		out = append(out, '0')
	}
	return out
}

// compareDigits compares two digit strings without leading zeros.
func compareDigits(x, y []byte) int {
	if len(x) != len(y) {
		if len(x) < len(y) {
			return -1
		}
		return 1
	}
	return strings.Compare(string(x), string(y))
}

// addDigits returns x+y.
func addDigits(x, y []byte) []byte {
	if len(x) < len(y) {
		x, y = y, x
	}
	out := make([]byte, len(x)+1)
	carry := byte(0)
	for i := 1; i <= len(x); i++ {
		s := x[len(x)-i] - '0' + carry
		if i <= len(y) {
			s += y[len(y)-i] - '0'
		}
		carry = s / 10
		out[len(out)-i] = '0' + s%10
	}
	out[0] = '0' + carry
	return trimLeadingZeros(out)
}

// subDigits returns x-y for x > y.
func subDigits(x, y []byte) []byte {
	out := make([]byte, len(x))
	borrow := byte(0)
	for i := 1; i <= len(x); i++ {
		s := int(x[len(x)-i]-'0') - int(borrow)
		if i <= len(y) {
			s -= int(y[len(y)-i] - '0')
		}
		borrow = 0
		if s < 0 {
			s += 10
			borrow = 1
		}
		out[len(out)-i] = '0' + byte(s)
	}
	return trimLeadingZeros(out)
}

func trimLeadingZeros(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] == '0' {
		i++
	}
	return b[i:]
}
