package conventions

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsToNumber is JavaScript's ToNumber applied to a string (ECMAScript
// StringToNumber, what unary + does): surrounding white space and line
// terminators are ignored; the empty result is 0; then one of a decimal
// literal with optional sign, fraction and exponent, "Infinity" with
// optional sign, or an unsigned 0x/0o/0b integer (either letter case);
// anything else is NaN.
func jsToNumber(s string) float64 {
	s = strings.TrimFunc(s, isJSSpace)
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			return radixToFloat(s[2:], 16)
		case 'o', 'O':
			return radixToFloat(s[2:], 8)
		case 'b', 'B':
			return radixToFloat(s[2:], 2)
		}
	}
	body := s
	neg := false
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	if body == "Infinity" {
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	if !isJSDecimal(body) {
		return math.NaN()
	}
	// The syntax is checked, so ParseFloat only rounds; a magnitude past
	// float64's range is ±Inf (its ErrRange), as in JavaScript.
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// isJSDecimal reports whether s is a StrUnsignedDecimalLiteral without
// "Infinity": digits with an optional fraction (at least one digit on one
// side of the point) and an optional exponent.
func isJSDecimal(s string) bool {
	i, intDigits := skipDigits(s, 0)
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		i, fracDigits = skipDigits(s, i+1)
	}
	if intDigits+fracDigits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		var expDigits int
		i, expDigits = skipDigits(s, i)
		if expDigits == 0 {
			return false
		}
	}
	return i == len(s)
}

func skipDigits(s string, i int) (next, n int) {
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i, i - start
}

// radixToFloat converts the digits of a 0x, 0o or 0b literal, rounding to
// the nearest float64 as JavaScript does; NaN when a digit is out of range.
func radixToFloat(digits string, base int) float64 {
	for i := 0; i < len(digits); i++ {
		if digitValue(digits[i]) >= base {
			return math.NaN()
		}
	}
	var n big.Int
	if _, ok := n.SetString(digits, base); !ok {
		return math.NaN()
	}
	f, _ := new(big.Float).SetInt(&n).Float64()
	return f
}

func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// isJSSpace reports whether r is ECMAScript WhiteSpace or LineTerminator:
// TAB, VT, FF, ZWNBSP, any Zs character, LF, CR, LS and PS.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', '\ufeff', '\n', '\r', '\u2028', '\u2029':
		return true
	}
	return r != utf8.RuneError && unicode.Is(unicode.Zs, r)
}

// jsNumberString is JavaScript's Number::toString(10): the shortest digits
// that round-trip, plain between 1e-6 and 1e21, exponent form outside.
func jsNumberString(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0" // and -0
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// e-form: d[.ddd]e±x; digits are d and ddd, n = x+1 as in the spec.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n, k := x+1, len(digits)
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	expSign := "+"
	if n-1 < 0 {
		expSign = "-"
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	return sign + out + "e" + expSign + strconv.Itoa(abs(n-1))
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}
