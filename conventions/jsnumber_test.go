package conventions

import (
	"math"
	"testing"
)

// The wants are String(+s) and String(n) as Node 20 prints them.
func TestJSToNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "0"}, {" ", "0"}, {"\n", "0"}, {"+5", "5"}, {"-5", "-5"}, {"-0", "0"},
		{".5", "0.5"}, {"5.", "5"}, {".", "NaN"}, {"1e", "NaN"}, {"1e+2", "100"},
		{"0X1F", "31"}, {"0b101", "5"}, {"0o17", "15"}, {"0b2", "NaN"}, {"-0x10", "NaN"},
		{"+0x10", "NaN"}, {"1_000", "NaN"}, {"infinity", "NaN"}, {"-Infinity", "-Infinity"},
		{"+Infinity", "Infinity"}, {"Infinityx", "NaN"}, {"1e1000", "Infinity"}, {"1e-400", "0"},
		{"0x", "NaN"}, {"00", "0"}, {"\u00a03\u00a0", "3"}, {"\ufeff7", "7"}, {"\u200b1", "NaN"},
		{"0.1e1", "1"}, {"1.e1", "10"}, {"0xFFFFFFFFFFFFFFFFF", "295147905179352830000"},
		{"nan", "NaN"}, {"NaN", "NaN"}, {"3 4", "NaN"},
		{"\t\v\f\r\n 12 \u2028\u2029\u3000", "12"}, {"1E3", "1000"}, {"-.5e-1", "-0.05"},
		{"+-1", "NaN"}, {"0x1p3", "NaN"}, {"0.0000001", "1e-7"}, {"08", "8"}, {"1e+", "NaN"},
		{"--1", "NaN"}, {"\xff", "NaN"},
	}
	for _, tt := range tests {
		if got := jsNumberString(jsToNumber(tt.in)); got != tt.want {
			t.Errorf("+%q: got %s, want %s", tt.in, got, tt.want)
		}
	}
	if got := jsToNumber("-0"); !math.Signbit(got) {
		t.Errorf("+\"-0\": got %v, want -0", got)
	}
}

func TestJSNumberString(t *testing.T) {
	tenth, fifth := 0.1, 0.2 // variables: constant arithmetic would be exact
	tests := []struct {
		in   float64
		want string
	}{
		{1, "1"}, {-1, "-1"}, {1.5, "1.5"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
		{0.000001, "0.000001"}, {1e-7, "1e-7"}, {123e-20, "1.23e-18"}, {math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"}, {math.Copysign(0, -1), "0"},
		{tenth + fifth, "0.30000000000000004"}, {1 << 53, "9007199254740992"}, {1.5e300, "1.5e+300"},
		{-2.5e-8, "-2.5e-8"}, {123456789012345680000, "123456789012345680000"}, {5e-324, "5e-324"},
	}
	for _, tt := range tests {
		if got := jsNumberString(tt.in); got != tt.want {
			t.Errorf("String(%v): got %s, want %s", tt.in, got, tt.want)
		}
	}
}
