package wire

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// The request decoder's plans: a codec per Go type, built once from the
// type's fields and json tags and the Limits it is read with (builder),
// published in codecsOf's cache by codecOf (decode.go); the codecs of the
// types that are decoded their own way are named in build.

// builder builds the codecs of one table of Limits (codecMu held): a
// recursive type finds its own codec, while it is being built, as a
// placeholder that calls the real one.
type builder struct {
	lim      *Limits
	building map[reflect.Type]codec
}

// unsupported is what building a codec panics with for a type the
// decoder does not support; codecOf and UnknownMember recover it.
type unsupported string

// asError is the error a request decoded into such a type gets.
func (u unsupported) asError() error {
	return fmt.Errorf("%w (%s)", apierr.Internal(), string(u))
}

// codec returns the codec of t: a published one, or one built now.
func (b *builder) codec(t reflect.Type) codec {
	if c, ok := codecsOf(b.lim).Load(t); ok {
		return c.(codec)
	}
	if c, ok := b.building[t]; ok {
		return c
	}
	var real codec
	b.building[t] = func(d *reqDecoder, v reflect.Value, depth int) error { return real(d, v, depth) }
	real = b.build(t)
	b.building[t] = real
	return real
}

var (
	valueKeeperType     = reflect.TypeFor[ValueKeeper]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func (b *builder) build(t reflect.Type) codec {
	switch t {
	case reflect.TypeFor[WireItem]():
		return decodeWireItem
	case reflect.TypeFor[AttributeValue]():
		return decodeAttributeValue
	case reflect.TypeFor[Params]():
		return decodeParams
	case reflect.TypeFor[ExpressionNames]():
		return decodeExpressionNames
	case reflect.TypeFor[ExpressionValues]():
		return decodeExpressionValues
	case reflect.TypeFor[expr.NameList]():
		return decodeNameList
	case reflect.TypeFor[KeyConditions]():
		return decodeKeyConditions
	case reflect.TypeFor[expr.LegacyFilter]():
		return decodeLegacyFilter
	case reflect.TypeFor[expr.LegacyExpected]():
		return decodeLegacyExpected
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(valueKeeperType) {
		return decodeValueKeeper
	}
	if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshalerType) {
		return decodeUnmarshaler
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		panic(unsupported(fmt.Sprintf("emulator: request decoder does not support TextUnmarshaler %s", t)))
	}
	switch t.Kind() {
	case reflect.Pointer:
		return b.pointer(t)
	case reflect.Struct:
		if c := b.strictOf(t); c != nil {
			return c
		}
		return b.structOf(t)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		return b.mapOf(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			break // []byte is base64 in encoding/json; no input has one
		}
		return sliceOf(t, b.codec(t.Elem()))
	case reflect.String:
		return decodeString
	case reflect.Bool:
		return decodeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return decodeNumber
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return decodeInterface
		}
	}
	panic(unsupported(fmt.Sprintf("emulator: request decoder does not support %s", t)))
}

// MemberOwner is a field of an input struct that owns members its
// struct does not name: the members someone other than the struct's
// author decodes (a feature of the service, which registers them). Tag
// the field json:"-", so that encoding/json leaves it alone. Member
// returns where the member called name is decoded (a pointer, to a
// value of any type the decoder supports) or nil: nobody owns it, and
// it is skipped as any unknown member is. Asked twice for one name
// (a member given twice), it returns the same place.
//
// An owned member is decoded as a field of its type would be, in its
// place in the body: a value of the wrong JSON type in it is remembered
// and the first such value wins, a syntax error anywhere wins over it.
type MemberOwner interface {
	Member(name string) any
}

var memberOwnerType = reflect.TypeFor[MemberOwner]()

// structMembers finds the fields of struct t (embedded at path, depth)
// by member name, as encoding/json does: the fields of an embedded
// struct without a name of its own in its tag are promoted, a field
// nearer the top hides a deeper one of the same name, and of two at one
// depth a tagged one wins, else neither is kept. It returns the index
// of t's MemberOwner field (-1: none; only the outer struct's counts).
func structMembers(t reflect.Type, path []int, depth int, found map[string][]member) (owner int) {
	owner = -1
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		tagName, opts, _ := CutComma(tag)
		if hasTag && tagName == "-" && opts == "" {
			if depth == 0 && reflect.PointerTo(f.Type).Implements(memberOwnerType) {
				if owner >= 0 {
					panic(unsupported(fmt.Sprintf("emulator: request decoder does not support two MemberOwner fields in %s", t)))
				}
				owner = i
			}
			continue
		}
		if opts != "" && opts != "omitempty" && opts != "omitzero" {
			panic(unsupported(fmt.Sprintf("emulator: request decoder does not support tag %q in %s", tag, t)))
		}
		ft := f.Type
		if f.Anonymous && tagName == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if ft.Kind() == reflect.Pointer && !f.IsExported() {
					panic(unsupported(fmt.Sprintf("emulator: request decoder cannot make embedded %s in %s (unexported)", ft, t)))
				}
				structMembers(et, append(slices.Clip(path), i), depth+1, found)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tagName != "" {
			name = tagName
		}
		found[name] = append(found[name], member{f: field{index: i, path: slices.Clip(path)}, depth: depth, tagged: tagName != "", t: ft})
	}
	return owner
}

// dominant is the field the member name is decoded into of those found
// (ok false: none, two at one depth hiding each other).
func dominant(ms []member) (member, bool) {
	best := slices.MinFunc(ms, func(a, b member) int { return a.depth - b.depth })
	var top []member
	for _, m := range ms {
		if m.depth == best.depth {
			top = append(top, m)
		}
	}
	if len(top) == 1 {
		return top[0], true
	}
	var tagged []member
	for _, m := range top {
		if m.tagged {
			tagged = append(tagged, m)
		}
	}
	if len(tagged) == 1 {
		return tagged[0], true
	}
	return member{}, false
}

// structFields are the fields of struct t by member name, each the one
// a member of that name decodes into (dominant), and the index of its
// MemberOwner field (-1: none).
func structFields(t reflect.Type) (fields map[string]member, owner int) {
	found := map[string][]member{}
	owner = structMembers(t, nil, 0, found)
	fields = make(map[string]member, len(found))
	for name, ms := range found {
		if m, ok := dominant(ms); ok {
			fields[name] = m
		}
	}
	return fields, owner
}

func (b *builder) structOf(t reflect.Type) codec {
	members, owner := structFields(t)
	fields := make(map[string]field, len(members))
	for name, m := range members {
		m.f.dec = b.codec(m.t)
		if m.t == reflect.TypeFor[WireItem]() {
			m.f.dec = itemField()
			if b.lim.cutsItem(t, name) {
				m.f.dec = cutItemField()
			}
		}
		if m.f.lim = b.lim.list(t, name); m.f.lim != nil {
			et := m.t.Elem() // a list's element, or a map's list
			if et.Kind() == reflect.Slice {
				et = et.Elem()
			}
			m.f.elem = b.codec(et)
		}
		fields[name] = m.f
	}
	return func(d *reqDecoder, v reflect.Value, depth int) error {
		if done, err := d.openObject(v.Type(), depth); done || err != nil {
			return err
		}
		d.pos++
		if d.peek() == '}' {
			d.pos++
			return nil
		}
		for {
			key, err := d.readKey()
			if err != nil {
				return err
			}
			if err := d.expect(':'); err != nil {
				return err
			}
			if f, ok := fields[string(key)]; ok && f.lim != nil {
				if err := d.limited(f, v, depth+1); err != nil {
					return err
				}
			} else if ok {
				if err := f.dec(d, f.at(v), depth+1); err != nil {
					return err
				}
			} else if p := ownedMember(v, owner, key); p.IsValid() {
				if err := codecOf(p.Type(), d.lim)(d, p, depth+1); err != nil {
					return err
				}
			} else if err := d.skipValue(depth + 1); err != nil {
				return err
			}
			switch d.peek() {
			case ',':
				d.pos++
			case '}':
				d.pos++
				return nil
			default:
				return d.syntax()
			}
		}
	}
}

// ownedMember returns where the owner field owner of struct v (-1:
// none) decodes the member key, or the zero Value: nobody owns it.
func ownedMember(v reflect.Value, owner int, key []byte) reflect.Value {
	if owner < 0 {
		return reflect.Value{}
	}
	p := v.Field(owner).Addr().Interface().(MemberOwner).Member(string(key))
	if p == nil {
		return reflect.Value{}
	}
	return reflect.ValueOf(p).Elem()
}

// CutComma is strings.Cut(s, ","), for a json tag.
func CutComma(s string) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func (b *builder) pointer(t reflect.Type) codec {
	elem := b.codec(t.Elem())
	return func(d *reqDecoder, v reflect.Value, depth int) error {
		if d.peek() == 'n' {
			return d.setNull(v)
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return elem(d, v.Elem(), depth)
	}
}

func (b *builder) mapOf(t reflect.Type) codec {
	elem := b.codec(t.Elem())
	return func(d *reqDecoder, v reflect.Value, depth int) error {
		var e reflect.Value // made at the first member
		return d.readObject(v, t, depth, func() {
			if v.IsNil() {
				v.Set(reflect.MakeMap(t))
			}
		}, func(i, left int) {
			// Made again for all its members at once: a map grown by
			// inserts allocates about twice its final tables (a 4 MB
			// Expected's conditions: BenchmarkOversizeMemory).
			m := reflect.MakeMapWithSize(t, i+left)
			for it := v.MapRange(); it.Next(); {
				m.SetMapIndex(it.Key(), it.Value())
			}
			v.Set(m)
		}, func(key string) error {
			if !e.IsValid() {
				e = reflect.New(t.Elem()).Elem()
			}
			e.SetZero()
			if err := elem(d, e, depth+1); err != nil {
				return err
			}
			k := reflect.New(t.Key()).Elem()
			k.SetString(key)
			v.SetMapIndex(k, e)
			return nil
		})
	}
}

// sliceOf is the codec of slice type t whose elements elem decodes.
func sliceOf(t reflect.Type, elem codec) codec {
	return func(d *reqDecoder, v reflect.Value, depth int) error {
		if ok, err := d.listStart(v, t, depth); !ok {
			return err
		}
		n, err := d.readList(depth, true, func(i, left int) error {
			return elem(d, elemAt(v, i, left), depth+1)
		})
		if err != nil {
			return err
		}
		endSlice(v, n)
		return nil
	}
}

// openObject checks that an object of type t starts at the decoder's
// byte, at depth, without reading its '{'. done reports that the value
// needs no more reading: a null, read whole, or anything else, t's
// mismatch (which may only note its fault). An object past maxJSONDepth
// is a syntax error.
func (d *reqDecoder) openObject(t reflect.Type, depth int) (done bool, err error) {
	switch d.peek() {
	case '{':
	case 'n':
		return true, d.literal("null")
	default:
		return true, d.mismatch(t, depth)
	}
	if depth >= maxJSONDepth {
		return false, d.syntax()
	}
	return false, nil
}
