package number

import (
	"errors"
	"strconv"
	"strings"
)

// Number is a DynamoDB number in canonical text form: plain decimal notation
// (no exponent), no leading zeros, no trailing fractional zeros, no '+', and
// "0" for zero. Two equal numbers have the same text, so Number values can be
// compared with == for equality. Build one with Parse or arithmetic.
type Number string

// Number errors, each with AWS's message text.
var (
	// ErrInvalid: the text is not a decimal number. Parse
	// returns it wrapped in an error whose text names the offending input,
	// as AWS does ("The parameter cannot be converted to a numeric value: x";
	// DynamoDB Local says "A value provided cannot be converted into a number").
	//lint:ignore ST1005 AWS's message text, verbatim
	ErrInvalid = errors.New("The parameter cannot be converted to a numeric value")
	// ErrPrecision: more than 38 significant digits (AWS's wording;
	// DynamoDB Local says "DynamoDB only supports precision up to 38 digits").
	//lint:ignore ST1005 AWS's message text, verbatim
	ErrPrecision = errors.New("Attempting to store more than 38 significant digits in a Number")
	// ErrOverflow: magnitude at or above 1E126.
	ErrOverflow = errors.New("Number overflow. Attempting to store a number with magnitude larger than supported range")
	// ErrUnderflow: non-zero magnitude below 1E-130.
	ErrUnderflow = errors.New("Number underflow. Attempting to store a number with magnitude smaller than supported range")
)

const (
	MaxDigits = 38
	// A number's adjusted exponent (exponent of its leading digit) must lie in
	// [MinAdjusted, MaxAdjusted].
	MaxAdjusted = 125
	MinAdjusted = -130
)

// Parse validates DynamoDB number text and returns it in canonical form.
func Parse(s string) (Number, error) {
	if !validNumberSyntax(s) {
		return "", invalidNumber(s)
	}
	if err, decided := exponentRange(s); decided {
		return "", err
	}
	d, ok := parseDecimalText(s)
	if !ok {
		return "", invalidNumber(s)
	}
	return d.canonical()
}

// Must is Parse for literals in tests and code; it panics on error.
func Must(s string) Number {
	n, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return n
}

// invalidNumberError is ErrInvalid naming the rejected text.
type invalidNumberError struct{ text string }

func (e *invalidNumberError) Error() string {
	if e.text == "" {
		return ErrInvalid.Error()
	}
	return ErrInvalid.Error() + ": " + e.text
}

func (e *invalidNumberError) Unwrap() error { return ErrInvalid }

func invalidNumber(text string) error { return &invalidNumberError{text: text} }

// validNumberSyntax accepts [+-]digits[.digits][(e|E)[+-]digits] with at
// least one digit in the mantissa, as DynamoDB does ("1.", ".5" are fine),
// and any number of exponent digits (exponentRange decides what they mean).
func validNumberSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// Sign returns -1, 0 or +1.
func (n Number) Sign() int {
	switch {
	case n == "0" || n == "":
		return 0
	case n[0] == '-':
		return -1
	}
	return 1
}

// Compare orders two canonical numbers numerically.
func Compare(a, b Number) int {
	if a == b {
		return 0
	}
	sa, sb := a.Sign(), b.Sign()
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	// Same sign: compare magnitudes textually where possible.
	c := compareMagnitude(strings.TrimPrefix(string(a), "-"), strings.TrimPrefix(string(b), "-"))
	if sa < 0 {
		return -c
	}
	return c
}

// compareMagnitude compares two non-negative canonical plain decimals.
func compareMagnitude(a, b string) int {
	ai, af, _ := strings.Cut(a, ".")
	bi, bf, _ := strings.Cut(b, ".")
	// Canonical integer parts have no leading zeros (except a lone "0").
	if len(ai) != len(bi) {
		if len(ai) < len(bi) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ai, bi); c != 0 {
		return c
	}
	return strings.Compare(af, bf)
}

// Add returns a+b computed exactly; the result must fit DynamoDB's
// precision and range.
func Add(a, b Number) (Number, error) {
	return arithmetic(a, b, false)
}

// Sub returns a-b computed exactly; the result must fit DynamoDB's
// precision and range.
func Sub(a, b Number) (Number, error) {
	return arithmetic(a, b, true)
}

func arithmetic(a, b Number, sub bool) (Number, error) {
	if x, ok := smallInt(a); ok {
		if y, ok := smallInt(b); ok {
			// Counters: two integers of at most 18 digits add exactly in an
			// int64, and the result's canonical text is its decimal form.
			if sub {
				y = -y
			}
			return Number(strconv.FormatInt(x+y, 10)), nil
		}
	}
	y := numberDecimal(b)
	if sub {
		y.neg = !y.neg
	}
	r := addDecimals(numberDecimal(a), y)
	// A sum past the range is an overflow even when it also has more than
	// 38 significant digits: AWS answers ErrOverflow, so the range is
	// checked before the precision here (DynamoDB Local answers "DynamoDB
	// only supports precision up to 38 digits").
	if len(r.coeff) > 0 && r.adjusted() > MaxAdjusted {
		return "", ErrOverflow
	}
	n, err := r.canonical()
	if errors.Is(err, ErrPrecision) {
		// A sum inside the range that needs more than 38 digits (1e50 +
		// 1) is also worded as an overflow by AWS: ScyllaDB's
		// AWS-verified test_number.py, test_update_expression_plus_imprecise
		// ("Number overflow. Attempting to store a number with magnitude
		// larger than supported range"). A number written as it is keeps
		// ErrPrecision.
		return "", ErrOverflow
	}
	return n, err
}

// smallInt reads canonical integer text of at most 18 digits ("0", "42",
// "-7"); ok is false for anything else, which arithmetic's general path
// handles.
func smallInt(n Number) (v int64, ok bool) {
	s := string(n)
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 18 || s[0] == '0' && (len(s) > 1 || neg) {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// digits splits canonical number text into its sign, its significant digits
// (the concatenation hi+lo, no leading or trailing zeros; empty for zero) and
// the adjusted exponent (the power of ten of the leading digit). It reads the
// text without allocating and never panics, even on non-canonical text.
func (n Number) Digits() (neg bool, hi, lo string, adj int) {
	s := string(n)
	if s == "" || s == "0" {
		return false, "", "", 0
	}
	if s[0] == '-' {
		neg, s = true, s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart != "0" && intPart != "" {
		adj = len(intPart) - 1
		if frac == "" {
			return neg, strings.TrimRight(intPart, "0"), "", adj
		}
		return neg, intPart, strings.TrimRight(frac, "0"), adj
	}
	hi = strings.TrimLeft(frac, "0")
	adj = -(len(frac) - len(hi)) - 1
	return neg, strings.TrimRight(hi, "0"), "", adj
}
