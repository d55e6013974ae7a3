package number

import (
	"strconv"
	"strings"
)

// exponentRange decides the numbers whose written exponent puts them out
// of DynamoDB's range before their digits are looked at, as AWS does (its
// answers as recorded in paritysuite/dynamodb-conformance,
// tests/tier3/limits/numberExponent.test.ts, eu-west-2): the exponent is
// read in full as a 64-bit integer (past one the text cannot be
// converted); a magnitude above the range overflows and one below it
// underflows, however far out the exponent is; and zero is range-checked
// by the exponent it is written with (0e126 overflows, 0e-131 underflows,
// 0e125 is 0). decided is false for the numbers Parse's usual path
// handles (no exponent, or in range). s has valid syntax.
func exponentRange(s string) (err error, decided bool) {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return nil, false
	}
	e, perr := strconv.ParseInt(s[i+1:], 10, 64)
	if perr != nil {
		return invalidNumber(s), true
	}
	// lead: the position of the mantissa's leading digit (0 for zero).
	mant := strings.TrimLeft(s[:i], "+-")
	intPart, frac, _ := strings.Cut(mant, ".")
	lead := int64(0)
	zero := false
	if t := strings.TrimLeft(intPart, "0"); t != "" {
		lead = int64(len(t) - 1)
	} else if t := strings.TrimLeft(frac, "0"); t != "" {
		lead = -int64(len(frac)-len(t)) - 1
	} else {
		zero = true
	}
	const far = 1 << 40 // beyond any mantissa's length
	e = max(min(e, far), -far)
	switch adj := e + lead; {
	case adj > MaxAdjusted:
		return ErrOverflow, true
	case adj < MinAdjusted:
		return ErrUnderflow, true
	case zero:
		return nil, false
	}
	return nil, false
}
