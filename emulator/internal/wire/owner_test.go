package wire

import (
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/stretchr/testify/require"
)

// ownedElem is the element type of the owned member in these tests: a
// struct with every kind the decoder reads.
type ownedElem struct {
	X *string           `json:"X"`
	Y *int64            `json:"Y"`
	Z []bool            `json:"Z"`
	M map[string]string `json:"M"`
	W AttributeValue    `json:"W"`
}

// plainInput names member B itself.
type plainInput struct {
	A     *string     `json:"A"`
	B     []ownedElem `json:"B"`
	N     *int64      `json:"N"`
	Other *ownedElem  `json:"Other"`
}

// ownedInput leaves member B to its owner.
type ownedInput struct {
	A     *string    `json:"A"`
	N     *int64     `json:"N"`
	Owned testOwner  `json:"-"`
	Other *ownedElem `json:"Other"`
}

// testOwner owns member B (and nothing else), as a feature owns a member
// of a core operation's request.
type testOwner struct {
	b     *[]ownedElem
	asked int
}

func (o *testOwner) Member(name string) any {
	if name != "B" {
		return nil
	}
	o.asked++
	if o.b == nil {
		o.b = new([]ownedElem)
	}
	return o.b
}

// decodeBoth decodes body into a plainInput and an ownedInput.
func decodeBoth(body []byte) (plainInput, error, ownedInput, error) {
	var p plainInput
	var o ownedInput
	perr := DecodeRequest(body, &p)
	oerr := DecodeRequest(body, &o)
	return p, perr, o, oerr
}

// sameErr reports whether two decoding errors are the same answer.
func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	ae, aok := apierr.Classify(a)
	be, bok := apierr.Classify(b)
	return aok == bok && ae.Class == be.Class && ae.Msg == be.Msg
}

// TestMemberOwner: a member an owner field owns decodes as a field of its
// type would, errors in their place in the body included.
func TestMemberOwner(t *testing.T) {
	tests := []struct {
		name, body string
		wantErr    string // "" : none
	}{
		{"owned member", `{"A":"a","B":[{"X":"x","Y":3,"Z":[true],"M":{"k":"v"},"W":{"S":"s"}}],"N":1}`, ""},
		{"absent", `{"A":"a"}`, ""},
		{"null", `{"B":null,"A":"a"}`, ""},
		{"given twice", `{"B":[{"X":"1"},{"X":"2"}],"B":[{"Y":5}]}`, ""},
		{"unknown member skipped", `{"C":[1,2,{"x":null}],"B":[]}`, ""},
		{"wrong type in the owned member", `{"B":[{"X":5}]}`, "NUMBER_VALUE cannot be converted to String"},
		{"an earlier wrong type wins", `{"A":5,"B":[{"X":5}]}`, "NUMBER_VALUE cannot be converted to String"},
		{"the owned member's wrong type first", `{"B":[{"Y":"no"}],"A":true}`, "STRING_VALUE cannot be converted to Long"},
		{"a syntax error later wins", `{"B":[{"X":5}],"A":`, ""},
		{"a bad attribute value", `{"B":[{"W":{"S":"a","N":"1"}}]}`, "Supplied AttributeValue has more than one datatypes set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, perr, o, oerr := decodeBoth([]byte(tt.body))
			require.True(t, sameErr(perr, oerr), "plain %v, owned %v", perr, oerr)
			if tt.wantErr != "" {
				require.Error(t, oerr)
				require.Contains(t, oerr.Error(), tt.wantErr)
			}
			if perr != nil {
				return
			}
			require.Equal(t, p.A, o.A)
			require.Equal(t, p.N, o.N)
			require.Equal(t, p.Other, o.Other)
			var got []ownedElem
			if o.Owned.b != nil {
				got = *o.Owned.b
			}
			require.Equal(t, p.B, got)
		})
	}
	_, _, o, err := decodeBoth([]byte(`{"B":[],"B":[{"X":"x"}]}`))
	require.NoError(t, err)
	require.Equal(t, 2, o.Owned.asked, "asked once per occurrence")
	_, _, o, err = decodeBoth([]byte(`{"Other":{"B":[{"X":"x"}]}}`))
	require.NoError(t, err)
	require.Nil(t, o.Owned.b, "a member of a nested struct is not the owner's")
}

// FuzzMemberOwner: whatever the body, an owned member decodes to the
// same values and the same error as a field naming it.
func FuzzMemberOwner(f *testing.F) {
	for _, s := range []string{
		`{"A":"a","B":[{"X":"x","Y":3,"Z":[true],"M":{"k":"v"},"W":{"S":"s"}}],"N":1}`,
		`{"B":null}`, `{"B":[{"X":5}],"A":5}`, `{"A":5,"B":[{"X":5}]}`, `{"B":[{"Y":"7"}]}`, `{"B":"x"}`,
		`{"B":[{"W":{"S":"a","N":"1"}}],"N":"x"}`, `{"B":[{"M":{"a":1}}]}`, `{"B":[],"B":[{"X":"y"}]}`, `{"B":[`,
		"{\"B\":[{\"X\":\"\xff\"}]}", `{"B":[{"X":"\ud800"}]}`, `{"Other":{"B":[{"X":5}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, perr, o, oerr := decodeBoth(body)
		if !sameErr(perr, oerr) {
			t.Fatalf("%q: plain %v, owned %v", body, perr, oerr)
		}
		if perr != nil {
			return
		}
		var got []ownedElem
		if o.Owned.b != nil {
			got = *o.Owned.b
		}
		require.Equal(t, p.B, got, "%q", body)
		require.Equal(t, p.A, o.A, "%q", body)
		require.Equal(t, p.N, o.N, "%q", body)
		require.Equal(t, p.Other, o.Other, "%q", body)
	})
}
