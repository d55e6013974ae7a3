package wire

import (
	"encoding/json"
	"net"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// typeSpec reads a Go type out of fuzz bytes: a struct of a few fields,
// each a scalar, a pointer, list or map of one, a struct of its own, or
// one of the exported pieces of embedded_test.go embedded (as a value or
// a pointer, promoted or tagged with a name of its own), or a type the
// decoder does not support.
type typeSpec struct {
	b         []byte
	supported bool     // no unsupported type was drawn
	names     []string // every member name the type takes, for the case check
}

func (s *typeSpec) next() int {
	if len(s.b) == 0 {
		return 0
	}
	c := int(s.b[0])
	s.b = s.b[1:]
	return c
}

var (
	specNames  = []string{"A", "B", "C", "E", "X", "Dict", "Named", "Shadow", "Both"}
	specLeaves = []reflect.Type{
		reflect.TypeFor[string](), reflect.TypeFor[*string](), reflect.TypeFor[int](), reflect.TypeFor[int64](),
		reflect.TypeFor[uint8](), reflect.TypeFor[float64](), reflect.TypeFor[bool](), reflect.TypeFor[*bool](),
		reflect.TypeFor[[]string](), reflect.TypeFor[map[string]int](), reflect.TypeFor[map[string]*string](),
	}
	specPieces      = []reflect.Type{reflect.TypeFor[EmbPaging](), reflect.TypeFor[EmbNamed]()}
	specUnsupported = []reflect.Type{
		reflect.TypeFor[chan int](), reflect.TypeFor[func()](), reflect.TypeFor[complex128](), reflect.TypeFor[[]byte](),
		reflect.TypeFor[map[int]string](), reflect.TypeFor[error](), reflect.TypeFor[[2]int](), reflect.TypeFor[net.IP](),
		reflect.TypeFor[uintptr](),
	}
)

// typ is the next type of the spec (depth: of structs within structs).
func (s *typeSpec) typ(depth int) reflect.Type {
	c := s.next()
	switch {
	case c < 150 || depth > 2:
		return specLeaves[c%len(specLeaves)]
	case c < 200:
		return s.structType(depth + 1)
	case c < 215:
		return reflect.SliceOf(s.structType(depth + 1))
	case c < 230:
		return reflect.PointerTo(s.structType(depth + 1))
	default:
		s.supported = false
		return specUnsupported[c%len(specUnsupported)]
	}
}

// structType is a struct of up to four fields.
func (s *typeSpec) structType(depth int) reflect.Type {
	n := s.next() % 5
	var fields []reflect.StructField
	used := map[string]bool{}
	for range n {
		c := s.next()
		if c%4 == 0 { // an embedded piece
			p := specPieces[(c/4)%len(specPieces)]
			if used[p.Name()] {
				continue
			}
			used[p.Name()] = true
			f := reflect.StructField{Name: p.Name(), Type: p, Anonymous: true}
			if c&8 != 0 {
				f.Type = reflect.PointerTo(p)
			}
			if c&16 != 0 {
				f.Tag = `json:"Named"`
				s.names = append(s.names, "Named")
			}
			for i := range p.NumField() {
				s.names = append(s.names, cmpOr(strings.Split(p.Field(i).Tag.Get("json"), ",")[0], p.Field(i).Name))
			}
			fields = append(fields, f)
			continue
		}
		name := specNames[(c/4)%len(specNames)]
		if used[name] {
			continue
		}
		used[name] = true
		f := reflect.StructField{Name: name, Type: s.typ(depth)}
		switch t := s.next(); {
		case t < 60:
			tag := specNames[t%len(specNames)]
			f.Tag = reflect.StructTag(`json:"` + tag + `"`)
			s.names = append(s.names, tag)
		case t < 70:
			f.Tag = `json:"-"`
		case t < 80:
			f.Tag = `json:",omitempty"`
			s.names = append(s.names, name)
		case t < 85:
			f.Tag = `json:",string"` // an option the decoder does not take
			s.supported = false
			s.names = append(s.names, name)
		default:
			s.names = append(s.names, name)
		}
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// caseVariant reports whether the JSON body has a member whose name
// matches one of names only ignoring case: encoding/json takes it, AWS
// and the decoder do not.
func caseVariant(body []byte, names []string) bool {
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				for _, n := range names {
					if k != n && strings.EqualFold(k, n) {
						return true
					}
				}
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range v {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return true
	}
	return walk(v)
}

// FuzzDecodeAnyType: whatever Go type the decoder is given (built from
// the fuzz bytes, embedded structs among its fields) and whatever the
// body, it does not panic; a type it does not support gets an error; a
// type it does decodes what encoding/json decodes as encoding/json
// does, member names matched exactly (it also takes an integer in a
// string, as DynamoDB Local does: quotedInteger).
func FuzzDecodeAnyType(f *testing.F) {
	for _, c := range []struct{ spec, body string }{
		{"\xc8\x04\x00\x00\x08\x01\x10", `{"A":"a","B":2,"C":["c"],"Dict":{"k":"v"},"X":"x"}`},
		{"\x04\x04\x0c\x18", `{"C":["c"],"Dict":{"k":"v"},"X":"x","Named":{"X":"y"}}`},
		{"\x03\x04\xf0\x01", `{"B":1}`},
		{"\x02\x08\x00\x55\x04", `{"A":"1","B":"2"}`},
		{"\x04\x00\x00\x00\x04\x05\x00\x08\x09\x00", `{"A":null,"B":true,"C":[1],"E":{"z":1}}`},
		{"\x01\x14\xd2\x02\x00\x00\x00", `{"E":[{"A":"a"},null]}`},
		{"", `{}`}, {"\x01\x00\x00", `{"a":"a"}`}, {"\x01\x00\x00", `[`},
	} {
		f.Add([]byte(c.spec), []byte(c.body))
	}
	f.Fuzz(func(t *testing.T, spec, body []byte) {
		s := &typeSpec{b: spec, supported: true}
		typ := s.structType(0)
		got := reflect.New(typ)
		err := DecodeRequest(body, got.Interface())
		UnknownMember(body, typ) // never panics either
		if !s.supported {
			if len(body) > 0 {
				require.Error(t, err, "%s: a type the decoder does not support", typ)
			}
			return
		}
		want := reflect.New(typ)
		jerr := json.Unmarshal(body, want.Interface())
		if len(body) == 0 || !ValidJSONText(body) || caseVariant(body, s.names) {
			return
		}
		if jerr != nil {
			return // the decoder may take more: an integer in a string, as DynamoDB Local does
		}
		require.NoError(t, err, "%s %q", typ, body)
		require.Equal(t, want.Interface(), got.Interface(), "%s %q", typ, body)
	})
}

// TestDecodeNoPanic: an input that is not a pointer, a nil pointer, and
// types the decoder does not support get errors, never a panic.
func TestDecodeNoPanic(t *testing.T) {
	var p *embFlat
	for _, in := range []any{nil, embFlat{}, p, new(chan int), new(struct{ A func() }), new(struct {
		A int `json:",string"`
	}), new(struct{ *embKeys }), new([]complex64)} {
		require.NotPanics(t, func() {
			require.Error(t, DecodeRequest([]byte(`{"A":1}`), in), "%T", in)
		})
		if in != nil {
			require.NotPanics(t, func() { UnknownMember([]byte(`{"A":1,"Z":2}`), reflect.TypeOf(in)) })
		}
	}
	require.NotPanics(t, func() { UnknownMember([]byte(`{}`), nil) })
}
