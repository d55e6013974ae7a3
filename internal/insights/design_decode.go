package insights

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/jsonkind"
)

// Reading one level of a JSON design into a Go struct with encoding/json:
// a format's object is a struct whose members are its fields (json
// tags), and a member that is an object or array of its own, whose
// errors must name their path, is a json.RawMessage (or an ordered
// list of them) decoded the same way one level down. Each level is first
// read by members, which finds what encoding/json does not: a member
// that appears twice, text after the object. Where the format's members
// are closed (its documentation gives a fixed set), an unknown member is
// an error naming it; where they are open, unknown members are skipped.

// membersClosed and membersOpen say whether a level's members are a fixed
// set (an unknown one is an error) or open (an unknown one is skipped).
const (
	membersClosed = true
	membersOpen   = false
)

// decodeMembers decodes raw, one JSON object of format at path, into the
// struct v. closed: see membersClosed. An error is a *DesignError naming
// the member at fault as the untyped reader did: "want a string, found a
// number", "unknown member (known here: ...)".
func decodeMembers(raw []byte, format, path string, closed bool, v any) error {
	o, err := members(raw, format, path)
	if err != nil {
		return err
	}
	// encoding/json matches a member to a field ignoring case ("sortkey"
	// would fill SortKey): a member is a field only by its exact name.
	known := jsonNames(v)
	if closed {
		if err := o.only(known...); err != nil {
			return err
		}
	} else if raw = exactMembers(o, known); raw == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if closed {
		dec.DisallowUnknownFields()
	}
	err = dec.Decode(v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return o.errf(te.Field, "want %s, found %s", jsonWant(te.Type), jsonFound(te.Value))
	}
	// encoding/json's only error for an unknown member: `json: unknown field "NAME"`
	if name, ok := strings.CutPrefix(err.Error(), `json: unknown field "`); ok {
		return o.errf(strings.TrimSuffix(name, `"`), "unknown member (known here: %s)", strings.Join(known, ", "))
	}
	return o.errf("", "%v", err)
}

// exactMembers is o with only the members named in known, as JSON (nil
// when it has none of them).
func exactMembers(o *object, known []string) []byte {
	var b bytes.Buffer
	for i, n := range o.names {
		if !slices.Contains(known, n) {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(n)
		b.Write(name)
		b.WriteByte(':')
		b.Write(o.values[i])
	}
	if b.Len() == 0 {
		return nil
	}
	b.WriteByte('}')
	return b.Bytes()
}

// jsonWant names what a Go type reads, for errors.
func jsonWant(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.String {
			return "an array of strings"
		}
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a number"
}

// jsonFound names what encoding/json found (UnmarshalTypeError.Value:
// "string", "number", "number 1.5", "bool", "array", "object").
func jsonFound(v string) string {
	switch {
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "bool":
		return "a boolean"
	case v == "array", v == "object":
		return "an " + v
	}
	return "a " + v
}

// jsonNames is the member names of struct v (a pointer), in its order.
func jsonNames(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}

// namedRaw is one member of an object whose member names are the
// format's data (index names, entity names), in the file's order.
type namedRaw struct {
	Name  string
	Value json.RawMessage
}

// orderedMembers is an object whose names are data: its members in the
// file's order (a Go map would lose it, and the reports follow it).
type orderedMembers []namedRaw

// UnmarshalJSON reads the object's members in order; one that is not an
// object is a type error naming its member, as a struct's would be.
func (m *orderedMembers) UnmarshalJSON(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		return nil // null: no members
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		found := strings.TrimPrefix(strings.TrimPrefix(jsonkind.Of(raw), "an "), "a ")
		return &json.UnmarshalTypeError{Value: found, Type: reflect.TypeFor[map[string]json.RawMessage]()}
	}
	*m = (*m)[:0]
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*m = append(*m, namedRaw{tok.(string), v}) // a member's name: the decoder checked it
	}
	return nil
}

// twice returns a name that appears twice in m, or "".
func (m orderedMembers) twice() string {
	seen := make(map[string]bool, len(m))
	for _, nv := range m {
		if seen[nv.Name] {
			return nv.Name
		}
		seen[nv.Name] = true
	}
	return ""
}
