package wire

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// UnknownMember returns the first member of body, a request decoded into
// a value of type t, that its object's type does not take (nor a
// MemberOwner of it), as an SDK's typed request refuses it: where it is
// (its path, "TransactItems[0].Put.ConditionExpresion") and the members
// that object takes, sorted; ok is false when every member is known. The
// decoder skips such a member, as AWS does; a caller that must not (an
// agent's tool, whose misspelt member would silently do something else)
// asks first. Members are looked at where the body is well formed; a
// value of the wrong JSON type is the decoder's to refuse, not this.
//
// A type the decoder does not support (see codecOf) has no unknown
// members: its requests fail whole.
func UnknownMember(body []byte, t reflect.Type) (path string, known []string, ok bool) {
	return unknownMember(body, t, reflect.Value{})
}

// UnknownMemberOf is UnknownMember for a request decoded into in, a
// pointer to a struct: its own MemberOwner field (one told already whose
// members it takes) says which members it owns.
func UnknownMemberOf(body []byte, in any) (path string, known []string, ok bool) {
	v := reflect.ValueOf(in)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return UnknownMember(body, reflect.TypeOf(in))
	}
	return unknownMember(body, v.Type(), v.Elem())
}

// unknownMember is UnknownMember with top, the request's value (invalid:
// none, a zero one stands for it).
func unknownMember(body []byte, t reflect.Type, top reflect.Value) (path string, known []string, ok bool) {
	if t == nil {
		return "", nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(unsupported); !is {
				panic(r)
			}
			path, known, ok = "", nil, false
		}
	}()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return "", nil, false
	}
	return unknownIn(v, t, top, "")
}

// opaque reports whether t is read whole by a codec of its own: its
// members are not Go fields.
func opaque(t reflect.Type) bool {
	switch t {
	case reflect.TypeFor[WireItem](), reflect.TypeFor[AttributeValue](), reflect.TypeFor[ExpressionNames](), reflect.TypeFor[ExpressionValues]():
		return true
	}
	return reflect.PointerTo(t).Implements(unmarshalerType)
}

// checkedAs is the type a type read by a codec of its own is checked as:
// a legacy filter, Expected or KeyConditions is a map of attribute names
// (no members) to conditions (members).
func checkedAs(t reflect.Type) reflect.Type {
	switch t {
	case reflect.TypeFor[expr.LegacyFilter](), reflect.TypeFor[KeyConditions]():
		return conditionMapType
	case reflect.TypeFor[expr.LegacyExpected]():
		return expectedMapType
	}
	return t
}

func unknownIn(v any, t reflect.Type, val reflect.Value, at string) (string, []string, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	t = checkedAs(t)
	if opaque(t) {
		return "", nil, false
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, isObj := v.(map[string]any)
		if !isObj {
			return "", nil, false
		}
		fields, owner := structFields(t)
		var ownerOf MemberOwner
		if owner >= 0 {
			if !val.IsValid() || val.Type() != t {
				val = reflect.New(t).Elem()
			}
			ownerOf = val.Field(owner).Addr().Interface().(MemberOwner)
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			m, ok := fields[name]
			ft := m.t
			if !ok && ownerOf != nil {
				if p := ownerOf.Member(name); p != nil {
					ft, ok = reflect.TypeOf(p), true
				}
			}
			if !ok {
				return join(at, name), slices.Sorted(maps.Keys(fields)), true
			}
			if p, known, bad := unknownIn(obj[name], ft, reflect.Value{}, join(at, name)); bad {
				return p, known, true
			}
		}
	case reflect.Map:
		obj, isObj := v.(map[string]any)
		if !isObj {
			return "", nil, false
		}
		for _, name := range slices.Sorted(maps.Keys(obj)) {
			if p, known, bad := unknownIn(obj[name], t.Elem(), reflect.Value{}, join(at, name)); bad {
				return p, known, true
			}
		}
	case reflect.Slice, reflect.Array:
		list, isList := v.([]any)
		if !isList {
			return "", nil, false
		}
		for i, e := range list {
			if p, known, bad := unknownIn(e, t.Elem(), reflect.Value{}, at+"["+strconv.Itoa(i)+"]"); bad {
				return p, known, true
			}
		}
	}
	return "", nil, false
}

// join is the path of member name of the object at at (an empty name
// is written "").
func join(at, name string) string {
	if name == "" {
		name = `""`
	}
	if at == "" {
		return name
	}
	return at + "." + name
}
