package iac

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// decode reads v, a value of the template with its intrinsic functions
// resolved, found at at, into dst, a pointer to a typed structure,
// through encoding/json. The value's shape is checked against dst's type
// first (checkShape), so that what does not fit is named by its place in
// the template, and exactly: encoding/json would match member names
// whatever their case, CloudFormation does not.
func decode(v any, at string, dst any) error {
	if err := checkShape(v, reflect.TypeOf(dst).Elem(), at); err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %v", at, err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("%s: %v", at, err)
	}
	return nil
}

var intType = reflect.TypeFor[Int]()

// checkShape reports the first place, in the order of the members'
// names, where v does not fit type t: a member t has no field for (a
// property the emulator cannot take), or a value of another kind. A
// null fits anything (the member's zero value); a map or an interface
// in t takes whatever is there (what is not read, or read apart).
func checkShape(v any, t reflect.Type, at string) error {
	if v == nil {
		return nil
	}
	if t == intType {
		if _, err := toInt(v); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return checkShape(v, t.Elem(), at)
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: not a mapping", at)
		}
		for _, k := range sortedKeys(m) {
			f, ok := fieldNamed(t, k)
			if !ok {
				return unknownProp(at, k)
			}
			if err := checkShape(m[k], f.Type, at+"."+k); err != nil {
				return err
			}
			if b, ok := boolText(m[k]); ok && isBool(f.Type) {
				m[k] = b
			}
		}
	case reflect.Map:
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("%s: not a mapping", at)
		}
	case reflect.Slice:
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: not a list", at)
		}
		for i, e := range l {
			if err := checkShape(e, t.Elem(), at+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: not a string", at)
		}
	case reflect.Int64:
		if !wholeNumber(v) {
			return fmt.Errorf("%s: %v: not a whole number", at, v)
		}
	case reflect.Bool:
		if _, ok := v.(bool); ok {
			return nil
		}
		if _, ok := boolText(v); !ok {
			return fmt.Errorf("%s: not true or false", at)
		}
	}
	return nil
}

// boolText reads the text "true" or "false", in any case, as the boolean
// it names. CloudFormation takes a Boolean property written as text (a
// quoted 'true' in YAML, a String parameter given by Ref, a serverless
// variable), as it takes an Integer written as text.
func boolText(v any) (bool, bool) {
	s, ok := v.(string)
	switch {
	case !ok:
		return false, false
	case strings.EqualFold(s, "true"):
		return true, true
	case strings.EqualFold(s, "false"):
		return false, true
	}
	return false, false
}

// isBool reports whether t is a boolean or a pointer to one.
func isBool(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Bool
}

// wholeNumber reports whether v is a number without a fraction.
func wholeNumber(v any) bool {
	switch x := v.(type) {
	case int, int64, uint64:
		return true
	case float64:
		return x == math.Trunc(x) && !math.IsInf(x, 0)
	}
	return false
}

// fieldNamed is the field of struct type t whose JSON name is name,
// exactly; an embedded struct's fields are promoted, a field of t's own
// of the same name shadowing them, as encoding/json has it.
func fieldNamed(t reflect.Type, name string) (reflect.StructField, bool) {
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && n == "" && f.Type.Kind() == reflect.Struct:
			embedded = append(embedded, f.Type)
		case !f.IsExported():
		case n == name || n == "" && f.Name == name:
			return f, true
		}
	}
	for _, e := range embedded {
		if f, ok := fieldNamed(e, name); ok {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
