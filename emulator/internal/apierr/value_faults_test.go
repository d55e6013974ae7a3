package apierr

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestValueFaultRender(t *testing.T) {
	num := func(text string, err error) *ValueFault { return &ValueFault{Number: text, NumberErr: err} }
	set := func(k storage.Kind, m ...string) *ValueFault { return &ValueFault{SetKind: k, Members: m} }
	tests := []struct {
		name                    string
		f                       *ValueFault
		older, current, envelop string
	}{
		{"not a number", num("abc", storage.ErrNumberInvalid),
			"The parameter cannot be converted to a numeric value: abc", "The parameter cannot be converted to a numeric value: abc",
			"1 validation error detected: The parameter cannot be converted to a numeric value: abc"},
		{"empty number", num("", storage.ErrNumberInvalid),
			"The parameter cannot be converted to a numeric value", "The parameter cannot be converted to a numeric value: ",
			"1 validation error detected: The parameter cannot be converted to a numeric value: "},
		{"overflow near 32 bits wraps in the older layer", num("1e2147483647", storage.ErrNumberOverflow),
			storage.ErrNumberUnderflow.Error(), storage.ErrNumberOverflow.Error(), "1 validation error detected: " + storage.ErrNumberOverflow.Error()},
		{"overflow past 32 bits does not convert in the older layer", num("1e99999999999", storage.ErrNumberOverflow),
			"The parameter cannot be converted to a numeric value: 1e99999999999", storage.ErrNumberOverflow.Error(), "1 validation error detected: " + storage.ErrNumberOverflow.Error()},
		{"underflow", num("1e-131", storage.ErrNumberUnderflow),
			storage.ErrNumberUnderflow.Error(), storage.ErrNumberUnderflow.Error(), "1 validation error detected: " + storage.ErrNumberUnderflow.Error()},
		{"zero overflows", num("0e126", storage.ErrNumberOverflow),
			storage.ErrNumberOverflow.Error(), storage.ErrNumberOverflow.Error(), "1 validation error detected: " + storage.ErrNumberOverflow.Error()},
		{"string set", set(storage.KindSS, "b", "a", "b"),
			"One or more parameter values were invalid: Input collection [b, a, b] contains duplicates.",
			`One or more parameter values were invalid: Input collection ["a", "b", "b"] contains duplicates.`,
			`1 validation error detected: One or more parameter values were invalid: Input collection ["a", "b", "b"] contains duplicates.`},
		{"string set, rest after the repeat as sent", set(storage.KindSS, "c", "a", "c", "b", "a"),
			"One or more parameter values were invalid: Input collection [c, a, c, b, a] contains duplicates.",
			`One or more parameter values were invalid: Input collection ["a", "c", "c", "b", "a"] contains duplicates.`,
			`1 validation error detected: One or more parameter values were invalid: Input collection ["a", "c", "c", "b", "a"] contains duplicates.`},
		{"binary set", set(storage.KindBS, "\xff", "\x00", "\x00"),
			"One or more parameter values were invalid: Input collection [/w==, AA==, AA==]of type BS contains duplicates.",
			`One or more parameter values were invalid: Input collection ["AA==","/w==","AA=="]of type BS contains duplicates.`,
			`1 validation error detected: One or more parameter values were invalid: Input collection ["AA==","/w==","AA=="]of type BS contains duplicates.`},
		{"number set", set(storage.KindNS, "2", "1", "2"),
			"Input collection contains duplicates",
			"One or more parameter values were invalid: Input collection contains duplicates.",
			"1 validation error detected: One or more parameter values were invalid: Input collection contains duplicates."},
		{"in an expression value", num("x", storage.ErrNumberInvalid).InExprValue(":v"),
			"ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric value: x for key :v",
			"The parameter cannot be converted to a numeric value: x",
			"1 validation error detected: The parameter cannot be converted to a numeric value: x"},
	}
	for _, tt := range tests {
		for layer, want := range map[Layer]string{LayerOlder: tt.older, LayerCurrent: tt.current, LayerEnveloped: tt.envelop} {
			if got := tt.f.Render(layer); got != want {
				t.Errorf("%s, layer %d: got %q, want %q", tt.name, layer, got, want)
			}
		}
		if got := Relayer(tt.f.Err(), LayerEnveloped).Error(); got != tt.envelop {
			t.Errorf("%s: Relayer got %q, want %q", tt.name, got, tt.envelop)
		}
	}
}
