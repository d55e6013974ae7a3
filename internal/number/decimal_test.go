package number

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/apd/v3"
)

// The reference: Parse, Add and Sub as they were
// written on github.com/cockroachdb/apd/v3, which stays the reference for
// DynamoDB's decimal arithmetic (decimal.go says why the server no longer
// links it).

func refParseNumber(s string) (Number, error) {
	if !validNumberSyntax(s) {
		return "", invalidNumber(s)
	}
	// The written exponent's rule comes first (TestParseNumber holds it to
	// AWS's answers); apd is the reference for the rest.
	if err, decided := exponentRange(s); decided {
		return "", err
	}
	d, _, err := apd.NewFromString(s)
	if err != nil {
		return "", invalidNumber(s)
	}
	return refFromDecimal(d)
}

func refFromDecimal(d *apd.Decimal) (Number, error) {
	var r apd.Decimal
	r.Reduce(d)
	if r.IsZero() {
		return "0", nil
	}
	digits := r.NumDigits()
	if digits > MaxDigits {
		return "", ErrPrecision
	}
	adjusted := int64(r.Exponent) + digits - 1
	if adjusted > MaxAdjusted {
		return "", ErrOverflow
	}
	if adjusted < MinAdjusted {
		return "", ErrUnderflow
	}
	return Number(refPlainText(&r)), nil
}

func refPlainText(d *apd.Decimal) string {
	coeff := d.Coeff.String()
	exp := int(d.Exponent)
	var b strings.Builder
	if d.Negative {
		b.WriteByte('-')
	}
	switch {
	case exp >= 0:
		b.WriteString(coeff + strings.Repeat("0", exp))
	case -exp < len(coeff):
		point := len(coeff) + exp
		b.WriteString(coeff[:point] + "." + coeff[point:])
	default:
		b.WriteString("0." + strings.Repeat("0", -exp-len(coeff)) + coeff)
	}
	return b.String()
}

func refArithmetic(a, b Number, sub bool) (Number, error) {
	ctx := apd.Context{MaxExponent: apd.MaxExponent, MinExponent: apd.MinExponent, Traps: apd.DefaultTraps, Rounding: apd.RoundHalfEven}
	x, _, _ := apd.NewFromString(string(a))
	y, _, _ := apd.NewFromString(string(b))
	var r apd.Decimal
	var err error
	if sub {
		_, err = ctx.Sub(&r, x, y)
	} else {
		_, err = ctx.Add(&r, x, y)
	}
	if err != nil {
		return "", ErrOverflow
	}
	if !r.IsZero() && int64(r.Exponent)+r.NumDigits()-1 > MaxAdjusted {
		return "", ErrOverflow
	}
	n, err := refFromDecimal(&r)
	if errors.Is(err, ErrPrecision) {
		return "", ErrOverflow // AWS's words for a sum (number.go arithmetic)
	}
	return n, err
}

// randomNumberText draws number text of every shape: signs, leading and
// trailing zeros, long mantissas, exponents near DynamoDB's range and near
// apd's limits, zeros with huge exponents.
func randomNumberText(r *rand.Rand) string {
	var b strings.Builder
	switch r.IntN(3) {
	case 0:
		b.WriteByte('-')
	case 1:
		if r.IntN(4) == 0 {
			b.WriteByte('+')
		}
	}
	digits := func(n int) {
		for range n {
			if r.IntN(3) == 0 {
				b.WriteByte('0')
			} else {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
	}
	intLen := []int{0, 1, 2, 5, 20, 38, 39, 45}[r.IntN(8)]
	digits(intLen)
	if intLen == 0 || r.IntN(2) == 0 {
		b.WriteByte('.')
		fracLen := []int{0, 1, 3, 20, 38, 40, 130, 140}[r.IntN(8)]
		if intLen == 0 && fracLen == 0 {
			fracLen = 1
		}
		digits(fracLen)
	}
	if r.IntN(2) == 0 {
		b.WriteByte("eE"[r.IntN(2)])
		if r.IntN(2) == 0 {
			b.WriteByte("+-"[r.IntN(2)])
		}
		exp := []int{0, 1, 2, 38, 90, 124, 125, 126, 127, 130, 131, 160, 99_990, 99_999, 100_000, 100_001, 100_040, 999_999_999}[r.IntN(18)]
		exp += r.IntN(3) - 1
		b.WriteString(strconv.Itoa(max(exp, 0)))
	}
	return b.String()
}

func sameResult(t *testing.T, what string, got Number, gotErr error, want Number, wantErr error) {
	t.Helper()
	if got != want || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%s: got %q, %v; apd gives %q, %v", what, got, gotErr, want, wantErr)
	}
}

// TestDecimalAgainstAPD holds Parse, Add and Sub to
// the apd implementation on random input.
func TestDecimalAgainstAPD(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 7))
	var valid []Number
	for range 20000 {
		s := randomNumberText(r)
		got, err := Parse(s)
		want, wantErr := refParseNumber(s)
		sameResult(t, "Parse("+s+")", got, err, want, wantErr)
		if err == nil {
			valid = append(valid, got)
		}
	}
	if len(valid) < 2000 {
		t.Fatalf("only %d valid numbers drawn", len(valid))
	}
	// Canonical numbers near each other (and equal) as well as far apart.
	for _, n := range []string{"0", "1", "-1", "1E125", "-1E125", "9.9999999999999999999999999999999999999E125", "1E-130", "-1E-130", "0.5", "12345678901234567890123456789012345678"} {
		valid = append(valid, Must(n))
	}
	for range 20000 {
		a, b := valid[r.IntN(len(valid))], valid[r.IntN(len(valid))]
		if r.IntN(10) == 0 {
			b = a
		}
		got, err := Add(a, b)
		want, wantErr := refArithmetic(a, b, false)
		sameResult(t, string(a)+" + "+string(b), got, err, want, wantErr)
		got, err = Sub(a, b)
		want, wantErr = refArithmetic(a, b, true)
		sameResult(t, string(a)+" - "+string(b), got, err, want, wantErr)
	}
}

// TestIntegerArithmeticAgainstAPD holds arithmetic's integer path (two
// integers of at most 18 digits) to the apd reference, around its bounds:
// 18 and 19 digits, zero, signs, sums that carry into a 19th digit or end
// in zeros; and shows that text it must not read as an integer (leading
// zeros, "-0", fractions) still gets the general path's answer.
func TestIntegerArithmeticAgainstAPD(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 11))
	ints := []string{"0", "1", "-1", "10", "-10", "999999999999999999", "-999999999999999999",
		"1000000000000000000", "-1000000000000000000", "500000000000000000", "123456789012345678"}
	for range 2000 {
		n := strconv.FormatInt(r.Int64N(1_000_000_000_000_000_000), 10)
		n = n[:1+r.IntN(len(n))]
		if r.IntN(2) == 0 && n != "0" {
			n = "-" + n
		}
		ints = append(ints, n)
	}
	for _, a := range ints {
		for range 5 {
			b := ints[r.IntN(len(ints))]
			for _, sub := range []bool{false, true} {
				got, err := arithmetic(Number(a), Number(b), sub)
				want, wantErr := refArithmetic(Number(a), Number(b), sub)
				sameResult(t, fmt.Sprintf("%s %v %s", a, sub, b), got, err, want, wantErr)
			}
		}
	}
	for _, s := range []string{"007", "-0", "1.5", "", "-", "12a"} {
		if _, ok := smallInt(Number(s)); ok {
			t.Errorf("smallInt(%q) read it as an integer", s)
		}
	}
}

func FuzzParseNumberAgainstAPD(f *testing.F) {
	for _, s := range []string{"1", "-0.000", "1e100000", "1e100001", "0e99999999", "00012.3400", ".5", "1.", "+5E-3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		want, wantErr := refParseNumber(s)
		sameResult(t, "Parse("+s+")", got, err, want, wantErr)
	})
}

func BenchmarkParseNumber(b *testing.B) {
	for _, s := range []string{"12", "1234.5", "-0.000123e5", "12345678901234567890123456789012345678"} {
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAddNumbers adds a fraction (the decimal path) and a counter's
// increment (the integer path).
func BenchmarkAddNumbers(b *testing.B) {
	for _, c := range [][2]Number{{"1234.5", "1"}, {"41", "1"}} {
		b.Run(string(c[0])+"+"+string(c[1]), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Add(c[0], c[1]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// testSeed is a random seed, or NUMBER_SEED's to rerun a failure.
func testSeed(t *testing.T) uint64 {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("NUMBER_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (rerun with NUMBER_SEED=%d)", seed, seed)
	return seed
}
