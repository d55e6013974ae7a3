package number

import (
	"errors"
	"strings"
	"testing"
)

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in   string
		want Number
		err  error
	}{
		{"1.0", "1", nil},
		{"1E2", "100", nil},
		{"0.10", "0.1", nil},
		{"-0", "0", nil},
		{"1e-5", "0.00001", nil},
		{"00012.3400", "12.34", nil},
		{"+5", "5", nil},
		{"1.", "1", nil},
		{".5", "0.5", nil},
		{"0.000", "0", nil},
		{"12345678901234567890123456789012345678000", "12345678901234567890123456789012345678000", nil},
		{"9.9999999999999999999999999999999999999E+125", "999999999999999999999999999999999999990000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", nil},
		{"1E-130", "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001", nil},
		{"1.23456789012345678901234567890123456789", "", ErrPrecision},
		{"1E126", "", ErrOverflow},
		{"1E-131", "", ErrUnderflow},
		{"abc", "", ErrInvalid},
		{"", "", ErrInvalid},
		{" 1", "", ErrInvalid},
		{"0x10", "", ErrInvalid},
		{"1e", "", ErrInvalid},
		{"Infinity", "", ErrInvalid},
		{"NaN", "", ErrInvalid},
		{"1_000", "", ErrInvalid},
		// A written exponent, read in full (AWS's answers as recorded in
		// paritysuite/dynamodb-conformance, numberExponent.test.ts).
		{"1e9999999999", "", ErrOverflow},
		{"1e99999999999", "", ErrOverflow},
		{"-1e99999999999", "", ErrOverflow},
		{"1e-99999999999", "", ErrUnderflow},
		{"1e2147483648", "", ErrOverflow},
		{"1e2147483647", "", ErrOverflow},
		{"1e-2147483648", "", ErrUnderflow},
		{"1e9223372036854775807", "", ErrOverflow},
		{"1e9223372036854775808", "", ErrInvalid},
		{"1e-9223372036854775809", "", ErrInvalid},
		{"0e126", "", ErrOverflow},
		{"0e-131", "", ErrUnderflow},
		{"0e125", "0", nil},
		{"0.000e-130", "0", nil},
		{"0.01e127", "100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", nil},
		{"0.01e128", "", ErrOverflow},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Parse(%q) error = %v, want %v", tt.in, err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("Parse(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestCompareNumbers(t *testing.T) {
	ordered := []string{"-1000", "-99.5", "-1", "-0.5", "-0.0001", "0", "0.0001", "0.5", "0.51", "1", "9", "10", "99.99", "100", "1E100"}
	for i := range ordered {
		for j := range ordered {
			a, b := Must(ordered[i]), Must(ordered[j])
			got := Compare(a, b)
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func TestArithmetic(t *testing.T) {
	got, err := Add(Must("0.1"), Must("0.2"))
	if err != nil || got != "0.3" {
		t.Fatalf("0.1+0.2 = %q, %v", got, err)
	}
	got, err = Sub(Must("1"), Must("1.5"))
	if err != nil || got != "-0.5" {
		t.Fatalf("1-1.5 = %q, %v", got, err)
	}
	_, err = Add(Must("9E125"), Must("9E125"))
	if !errors.Is(err, ErrOverflow) {
		t.Fatalf("overflow: got %v", err)
	}
	_, err = Add(Must("1E30"), Must("0.000000001"))
	if !errors.Is(err, ErrOverflow) {
		t.Fatalf("precision, worded as an overflow: got %v", err)
	}
}

// TestArithmeticOverflowBeforePrecision: a result past the range is an
// overflow even when its exact digits are also more than 38, and so is
// one inside the range that needs more than 38 digits (AWS's words).
func TestArithmeticOverflowBeforePrecision(t *testing.T) {
	max38 := strings.Repeat("9", 38) + "E88" // 9.99...9E125, the largest number
	tests := []struct {
		name string
		op   func(a, b Number) (Number, error)
		a, b string
		want error
	}{
		{"max + 9E100", Add, max38, "9E100", ErrOverflow},
		{"max + 1 (below 1E126)", Add, max38, "1", ErrOverflow},
		{"-max - 9E100", Sub, "-" + max38, "9E100", ErrOverflow},
		{"max + max", Add, max38, max38, ErrOverflow},
		{"max - 1", Sub, max38, "1", ErrOverflow},
		{"1E125 + 1", Add, "1E125", "1", ErrOverflow},
		{"1E50 + 1", Add, "1E50", "1", ErrOverflow},
		{"1E50 - 1", Sub, "1E50", "1", ErrOverflow},
		{"max + 0", Add, max38, "0", nil},
	}
	for _, tt := range tests {
		_, err := tt.op(Must(tt.a), Must(tt.b))
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
}
