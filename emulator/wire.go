package emulator

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/storage"
)

// maxValueDepth is DynamoDB's nesting limit: an attribute's own value is level
// 1, and a value nested in 32 levels of L or M is rejected.
const maxValueDepth = 32

// AttributeValue is one attribute value in DynamoDB's JSON form, such as
// {"S":"a"} or {"L":[{"N":"1"}]}. Decoding validates it the way DynamoDB does
// (exactly one type, non-empty sets without duplicates, valid numbers and
// base64) and stores numbers in canonical form. A JSON null leaves it invalid
// (IsValid() false), so optional parameters can tell "absent" apart.
type AttributeValue struct{ storage.Value }

// UnmarshalJSON decodes and validates one attribute value.
func (a *AttributeValue) UnmarshalJSON(data []byte) error {
	d := wireDecoder{data: data}
	d.skipSpace()
	if d.consumeLiteral("null") {
		if err := d.end(); err != nil {
			return err
		}
		a.Value = storage.Value{}
		return nil
	}
	v, err := d.attrValue(1)
	if err == nil {
		err = d.end()
	}
	if err == nil {
		err = d.verr
	}
	if err != nil {
		return err
	}
	a.Value = v
	return nil
}

// MarshalJSON encodes the value in DynamoDB's JSON form.
func (a AttributeValue) MarshalJSON() ([]byte, error) {
	return appendValue(nil, a.Value), nil
}

// WireItem is an item (or key) in DynamoDB's JSON form: attribute name to
// value. Decoding validates every value; a null value is rejected as DynamoDB
// does. It has storage.Item's underlying type, so converting between the two
// (Item, ItemToWire) copies nothing.
type WireItem map[string]storage.Value

// UnmarshalJSON decodes and validates a whole item.
func (w *WireItem) UnmarshalJSON(data []byte) error {
	d := wireDecoder{data: data}
	d.skipSpace()
	if d.consumeLiteral("null") {
		if err := d.end(); err != nil {
			return err
		}
		*w = nil
		return nil
	}
	it, err := d.item()
	if err == nil {
		err = d.end()
	}
	if err == nil {
		err = d.verr
	}
	if err != nil {
		return err
	}
	*w = WireItem(it)
	return nil
}

// MarshalJSON encodes the item with its attribute names in sorted order.
func (w WireItem) MarshalJSON() ([]byte, error) {
	if w == nil {
		return []byte("null"), nil
	}
	return appendItem(nil, w), nil
}

// Item returns the item as storage values: the same map, not a copy. Values
// are immutable; do not add or delete attributes through either.
func (w WireItem) Item() storage.Item { return storage.Item(w) }

// ItemToWire returns it in wire form: the same map, not a copy; nil for nil.
func ItemToWire(it storage.Item) WireItem { return WireItem(it) }

// DecodeItem decodes and validates an item in DynamoDB's JSON form straight
// into storage values, without the WireItem map in between.
func DecodeItem(data []byte) (storage.Item, error) {
	d := wireDecoder{data: data}
	it, err := d.item()
	if err == nil {
		err = d.end()
	}
	if err == nil {
		err = d.verr
	}
	if err != nil {
		return nil, err
	}
	return it, nil
}

// AppendItem appends the JSON form of an item (names sorted) to b.
func AppendItem(b []byte, it storage.Item) []byte { return appendItem(b, it) }

// AppendValue appends the JSON form of one attribute value to b.
func AppendValue(b []byte, v storage.Value) []byte { return appendValue(b, v) }

// ---- decoding ----

// Messages of the attribute value checks, AWS's wording (checked against
// DynamoDB Local). "An string set  may not be empty" has AWS's double space.
const (
	msgAVEmpty            = "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	msgAVMultiple         = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
	msgSSEmpty            = "One or more parameter values were invalid: An string set  may not be empty"
	msgNSEmpty            = "One or more parameter values were invalid: An number set  may not be empty"
	msgBSEmpty            = "One or more parameter values were invalid: Binary sets should not be empty"
	msgSSNullMember       = "One or more parameter values were invalid: An string set may not have a null string as a member"
	msgNSDuplicates       = "Input collection contains duplicates"
	msgBSDuplicates       = "One or more parameter values were invalid: Input collection of type BS contains duplicates."
	msgNullNotTrue        = "One or more parameter values were invalid: Null attribute value types must have the value of true"
	msgEmptyAttributeName = "Empty attribute name" // in an item, a key or a nested map (DynamoDB Local's wording)
	msgNestingExceeded    = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
	msgNullInList         = "The supplied Item contains a null AttributeValue"
	msgSerListStart       = "Start of list found where not expected"
	msgSerMapStart        = "Start of structure or map found where not expected"
	msgSerExpectedList    = "Expected list or null"
	msgSerExpectedMap     = "Expected map or null"
	msgSerExpectedNull    = "Expected null"
	msgSerInvalidBase64   = "Base64 encoded string is invalid"
)

// wireDecoder is a small JSON scanner specialised for attribute values. It
// checks the JSON syntax itself (it may be fed any bytes), stops at the first
// serialization error, and remembers the first validation error (verr) while
// it keeps scanning, because DynamoDB reports serialization errors first.
type wireDecoder struct {
	data []byte
	pos  int
	verr error
	// text, while an item is decoded, is that item's JSON as one string
	// (data[textOff:textOff+len(text)]): readString returns its names and
	// values as substrings of it, one allocation per item instead of one
	// per string. Keeping any of them keeps the item's text alive; storage
	// copies what it stores.
	text    string
	textOff int
}

func (d *wireDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end of input.
func (d *wireDecoder) peek() byte {
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *wireDecoder) syntax() error { return errSerialization("") }

func (d *wireDecoder) validation(msg string) {
	if d.verr == nil {
		d.verr = errValidation(msg)
	}
}

// end checks that only white space follows.
func (d *wireDecoder) end() error {
	d.skipSpace()
	if d.pos != len(d.data) {
		return d.syntax()
	}
	return nil
}

func (d *wireDecoder) consumeLiteral(lit string) bool {
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		return true
	}
	return false
}

// expect consumes byte c after optional space.
func (d *wireDecoder) expect(c byte) error {
	if d.peek() != c {
		return d.syntax()
	}
	d.pos++
	return nil
}

// typeError is the SerializationException for a JSON value of the wrong type
// where a scalar of type want ("String", "Boolean") was expected.
func (d *wireDecoder) typeError(want string) error {
	switch d.peek() {
	case '[':
		return errSerialization(msgSerListStart)
	case '{':
		return errSerialization(msgSerMapStart)
	case '"':
		return errSerialization("STRING_VALUE cannot be converted to " + want)
	case 't':
		return errSerialization("TRUE_VALUE cannot be converted to " + want)
	case 'f':
		return errSerialization("FALSE_VALUE cannot be converted to " + want)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return errSerialization("NUMBER_VALUE cannot be converted to " + want)
	}
	return d.syntax()
}

// readString reads a JSON string. The fast path returns the bytes as they
// are; strings with escapes or non-ASCII bytes go through encoding/json, which
// also replaces invalid UTF-8 the standard way.
func (d *wireDecoder) readString() (string, error) {
	if d.peek() != '"' {
		return "", d.typeError("String")
	}
	start := d.pos + 1
	i := start
	simple := true
	for ; i < len(d.data); i++ {
		c := d.data[i]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return "", d.syntax()
		}
		if c == '\\' {
			simple = false
			i++ // skip the escaped byte; encoding/json validates the escape
			continue
		}
		if c >= utf8.RuneSelf {
			simple = false
		}
	}
	if i >= len(d.data) {
		return "", d.syntax()
	}
	d.pos = i + 1
	if simple {
		if off := start - d.textOff; d.text != "" && off >= 0 && i-d.textOff <= len(d.text) {
			return d.text[off : i-d.textOff], nil
		}
		return string(d.data[start:i]), nil
	}
	var s string
	if err := json.Unmarshal(d.data[start-1:i+1], &s); err != nil {
		return "", d.syntax()
	}
	return s, nil
}

// skipString skips a JSON string, checking it as readString does; only a
// string with escapes or non-ASCII bytes is built (to check it).
func (d *wireDecoder) skipString() error {
	if d.peek() != '"' {
		return d.typeError("String")
	}
	for i := d.pos + 1; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			d.pos = i + 1
			return nil
		case c < 0x20:
			return d.syntax()
		case c == '\\' || c >= utf8.RuneSelf:
			_, err := d.readString()
			return err
		}
	}
	return d.syntax()
}

// skipValue skips any JSON value (for members DynamoDB ignores), bounded in depth.
func (d *wireDecoder) skipValue(depth int) error {
	_, err := d.skipCount(depth)
	return err
}

// skipCount skips any JSON value, bounded in depth, and returns the number
// of its members when it is an object (0 otherwise).
func (d *wireDecoder) skipCount(depth int) (int, error) {
	if depth > 10000 {
		return 0, d.syntax()
	}
	switch d.peek() {
	case '"':
		return 0, d.skipString()
	case '{':
		d.pos++
		if d.peek() == '}' {
			d.pos++
			return 0, nil
		}
		for n := 1; ; n++ {
			if err := d.skipString(); err != nil {
				return 0, d.syntax()
			}
			if err := d.expect(':'); err != nil {
				return 0, err
			}
			if _, err := d.skipCount(depth + 1); err != nil {
				return 0, err
			}
			switch d.peek() {
			case ',':
				d.pos++
			case '}':
				d.pos++
				return n, nil
			default:
				return 0, d.syntax()
			}
		}
	case '[':
		d.pos++
		if d.peek() == ']' {
			d.pos++
			return 0, nil
		}
		for {
			if _, err := d.skipCount(depth + 1); err != nil {
				return 0, err
			}
			switch d.peek() {
			case ',':
				d.pos++
			case ']':
				d.pos++
				return 0, nil
			default:
				return 0, d.syntax()
			}
		}
	case 't':
		return 0, d.literal("true")
	case 'f':
		return 0, d.literal("false")
	case 'n':
		return 0, d.literal("null")
	default:
		return 0, d.number()
	}
}

func (d *wireDecoder) literal(lit string) error {
	if !d.consumeLiteral(lit) {
		return d.syntax()
	}
	return nil
}

// number skips a JSON number, checking its syntax.
func (d *wireDecoder) number() error {
	s := d.data
	i := d.pos
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return d.syntax()
	}
	if i < len(s) && s[i] == '.' {
		i++
		n := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == n {
			return d.syntax()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		n := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == n {
			return d.syntax()
		}
	}
	d.pos = i
	return nil
}

// isNull consumes a null literal if one comes next.
func (d *wireDecoder) isNull() bool {
	return d.peek() == 'n' && d.consumeLiteral("null")
}

// item reads {"name": value, ...}: the attributes of an item or key.
func (d *wireDecoder) item() (storage.Item, error) {
	if d.peek() != '{' {
		if d.peek() == '[' {
			return nil, errSerialization(msgSerListStart)
		}
		if d.pos < len(d.data) && d.peek() != 0 {
			return nil, errSerialization(msgSerExpectedMap)
		}
		return nil, d.syntax()
	}
	// Scan the item once to size its map and make its text one string
	// (see text); a malformed item is left to members to report.
	probe := wireDecoder{data: d.data, pos: d.pos}
	n, err := probe.skipCount(0)
	if err != nil {
		return d.members(0, 0)
	}
	d.text, d.textOff = string(d.data[d.pos:probe.pos]), d.pos
	m, err := d.members(0, n)
	d.text, d.textOff = "", 0
	return m, err
}

// members reads the entries of an M value, or of an item when lvl is 0;
// size is a hint of their number.
func (d *wireDecoder) members(lvl, size int) (map[string]storage.Value, error) {
	d.pos++ // '{'
	m := make(map[string]storage.Value, size)
	if d.peek() == '}' {
		d.pos++
		return m, nil
	}
	for {
		name, err := d.readString()
		if err != nil {
			return nil, d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return nil, err
		}
		if name == "" {
			d.validation(msgEmptyAttributeName)
		}
		if d.isNull() {
			d.validation(msgNullInList + ": " + name + " is null")
		} else {
			v, err := d.attrValue(lvl + 1)
			if err != nil {
				return nil, err
			}
			m[name] = v
		}
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return m, nil
		default:
			return nil, d.syntax()
		}
	}
}

// attrValue reads one attribute value object at nesting level lvl (1 for an
// attribute's own value).
func (d *wireDecoder) attrValue(lvl int) (storage.Value, error) {
	if lvl > maxValueDepth {
		return storage.Value{}, errValidation(msgNestingExceeded)
	}
	switch d.peek() {
	case '{':
	case '[':
		return storage.Value{}, errSerialization(msgSerListStart)
	case 0:
		return storage.Value{}, d.syntax()
	default:
		if err := d.skipValue(0); err != nil {
			return storage.Value{}, err
		}
		return storage.Value{}, errSerialization(msgSerExpectedNull)
	}
	d.pos++
	hadErr := d.verr != nil
	var (
		set uint16
		v   storage.Value
	)
	if d.peek() == '}' {
		d.pos++
	} else {
		for {
			key, err := d.readString()
			if err != nil {
				return storage.Value{}, d.syntax()
			}
			if err := d.expect(':'); err != nil {
				return storage.Value{}, err
			}
			if d.isNull() {
				// A null member is as good as absent.
			} else {
				k := kindOfKey(key)
				var got storage.Value
				switch k {
				case storage.KindS:
					s, err := d.readString()
					if err != nil {
						return storage.Value{}, err
					}
					got = storage.S(s)
				case storage.KindN:
					s, err := d.readString()
					if err != nil {
						return storage.Value{}, err
					}
					n, nerr := parseNumber(s)
					if nerr != nil {
						d.validation(nerr.Error())
					}
					got = storage.N(n)
				case storage.KindB:
					b, err := d.readBinary()
					if err != nil {
						return storage.Value{}, err
					}
					got = storage.BString(b)
				case storage.KindBOOL, storage.KindNULL:
					b, err := d.readBool()
					if err != nil {
						return storage.Value{}, err
					}
					if k == storage.KindBOOL {
						got = storage.Bool(b)
					} else {
						if !b {
							d.validation(msgNullNotTrue)
						}
						got = storage.Null()
					}
				case storage.KindL:
					got, err = d.list(lvl)
					if err != nil {
						return storage.Value{}, err
					}
				case storage.KindM:
					if d.peek() != '{' {
						return storage.Value{}, d.mapTypeError()
					}
					m, err := d.members(lvl, 0)
					if err != nil {
						return storage.Value{}, err
					}
					got = storage.M(m)
				case storage.KindSS, storage.KindNS, storage.KindBS:
					got, err = d.set(k)
					if err != nil {
						return storage.Value{}, err
					}
				default:
					// DynamoDB ignores members it does not know.
					if err := d.skipValue(0); err != nil {
						return storage.Value{}, err
					}
				}
				if k != storage.KindInvalid {
					set |= 1 << (k - 1) // one bit per type key, to count them
					v = got
				}
			}
			switch d.peek() {
			case ',':
				d.pos++
				continue
			case '}':
				d.pos++
			default:
				return storage.Value{}, d.syntax()
			}
			break
		}
	}
	var countErr string
	switch {
	case set == 0:
		countErr = msgAVEmpty
	case set&(set-1) != 0:
		countErr = msgAVMultiple
	}
	if countErr != "" && !hadErr {
		// The value's own check comes before those of its contents.
		d.verr = errValidation(countErr)
	}
	return v, nil
}

func (d *wireDecoder) mapTypeError() error {
	switch d.peek() {
	case '[':
		return errSerialization(msgSerListStart)
	case 0:
		return d.syntax()
	}
	if err := d.skipValue(0); err != nil {
		return err
	}
	return errSerialization(msgSerExpectedMap)
}

func (d *wireDecoder) listTypeError() error {
	switch d.peek() {
	case '{':
		return errSerialization(msgSerMapStart)
	case 0:
		return d.syntax()
	}
	if err := d.skipValue(0); err != nil {
		return err
	}
	return errSerialization(msgSerExpectedList)
}

func (d *wireDecoder) readBool() (bool, error) {
	switch d.peek() {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	}
	return false, d.typeError("Boolean")
}

// readBinary reads a base64 string (padding optional) and returns the raw bytes.
func (d *wireDecoder) readBinary() (string, error) {
	s, err := d.readString()
	if err != nil {
		return "", err
	}
	return decodeBase64(s)
}

func decodeBase64(s string) (string, error) {
	enc := base64.StdEncoding
	if len(s)%4 != 0 {
		enc = base64.RawStdEncoding
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		return "", errSerialization(msgSerInvalidBase64)
	}
	return string(b), nil
}

// list reads the elements of an L value at level lvl.
func (d *wireDecoder) list(lvl int) (storage.Value, error) {
	if d.peek() != '[' {
		return storage.Value{}, d.listTypeError()
	}
	d.pos++
	elems := []storage.Value{}
	if d.peek() == ']' {
		d.pos++
		return storage.L(elems), nil
	}
	for {
		if d.isNull() {
			d.validation(msgNullInList)
		} else {
			v, err := d.attrValue(lvl + 1)
			if err != nil {
				return storage.Value{}, err
			}
			elems = append(elems, v)
		}
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return storage.L(elems), nil
		default:
			return storage.Value{}, d.syntax()
		}
	}
}

// set reads the members of an SS, NS or BS value and validates them.
func (d *wireDecoder) set(k storage.Kind) (storage.Value, error) {
	if d.peek() != '[' {
		return storage.Value{}, d.listTypeError()
	}
	d.pos++
	var buf [8]string
	members := buf[:0]
	memberErr := false
	if d.peek() == ']' {
		d.pos++
	} else {
		for {
			if d.isNull() {
				switch k {
				case storage.KindSS:
					d.validation(msgSSNullMember)
				case storage.KindNS:
					d.validation(storage.ErrNumberInvalid.Error())
				case storage.KindBS:
					d.validation(msgBSNullMember)
				}
				memberErr = true
			} else {
				s, err := d.readString()
				if err != nil {
					return storage.Value{}, err
				}
				switch k {
				case storage.KindSS:
					members = append(members, s)
				case storage.KindNS:
					n, nerr := parseNumber(s)
					if nerr != nil {
						d.validation(nerr.Error())
						memberErr = true
					}
					members = append(members, string(n))
				case storage.KindBS:
					b, err := decodeBase64(s)
					if err != nil {
						return storage.Value{}, err
					}
					members = append(members, b)
				}
			}
			switch d.peek() {
			case ',':
				d.pos++
				continue
			case ']':
				d.pos++
			default:
				return storage.Value{}, d.syntax()
			}
			break
		}
	}
	members = slices.Clip(slices.Clone(members)) // off the stack buffer
	if memberErr {
		return storage.SetOf(k, members), nil
	}
	if len(members) == 0 {
		switch k {
		case storage.KindSS:
			d.validation(msgSSEmpty)
		case storage.KindNS:
			d.validation(msgNSEmpty)
		default:
			d.validation(msgBSEmpty)
		}
		return storage.SetOf(k, []string{}), nil
	}
	if hasDuplicates(members) {
		switch k {
		case storage.KindSS:
			d.validation("One or more parameter values were invalid: Input collection [" +
				strings.Join(members, ", ") + "] contains duplicates")
		case storage.KindNS:
			d.validation(msgNSDuplicates)
		default:
			d.validation(msgBSDuplicates)
		}
	}
	return storage.SetOf(k, members), nil
}

// msgBSNullMember is not confirmed: DynamoDB Local fails with an internal error
// on a null BS member. It follows the wording of the SS case.
const msgBSNullMember = "One or more parameter values were invalid: A binary set may not have a null binary as a member"

// kindOfKey maps a type key of an attribute value to its kind.
func kindOfKey(key string) storage.Kind {
	switch key {
	case "S":
		return storage.KindS
	case "N":
		return storage.KindN
	case "B":
		return storage.KindB
	case "BOOL":
		return storage.KindBOOL
	case "NULL":
		return storage.KindNULL
	case "L":
		return storage.KindL
	case "M":
		return storage.KindM
	case "SS":
		return storage.KindSS
	case "NS":
		return storage.KindNS
	case "BS":
		return storage.KindBS
	}
	return storage.KindInvalid
}

// parseNumber is storage.ParseNumber with a fast path for text that is
// already canonical and short (most numbers on the wire: "3", "-12.5").
func parseNumber(s string) (storage.Number, error) {
	if isCanonicalShort(s) {
		return storage.Number(s), nil
	}
	return storage.ParseNumber(s)
}

// isCanonicalShort reports whether s is at most 38 bytes (so within precision
// and range) of canonical decimal text: an optional '-', an integer part with
// no leading zero (or "0" when a fraction follows, or "0" alone), and an
// optional fraction that does not end in '0'. "-0" is not canonical.
func isCanonicalShort(s string) bool {
	if len(s) == 0 || len(s) > 38 {
		return false
	}
	i := 0
	neg := s[0] == '-'
	if neg {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intPart := s[start:i]
	if len(intPart) == 0 || len(intPart) > 1 && intPart[0] == '0' {
		return false
	}
	if i == len(s) {
		return !(neg && intPart == "0")
	}
	if s[i] != '.' {
		return false
	}
	i++
	fracStart := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != len(s) || i == fracStart || s[i-1] == '0' {
		return false
	}
	return true
}

func hasDuplicates(ms []string) bool {
	if len(ms) <= 16 {
		for i := 1; i < len(ms); i++ {
			if slices.Contains(ms[:i], ms[i]) {
				return true
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(ms))
	for _, m := range ms {
		if _, ok := seen[m]; ok {
			return true
		}
		seen[m] = struct{}{}
	}
	return false
}

// ---- encoding ----

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD, as
// encoding/json does.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendBase64(b []byte, raw string) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, []byte(raw))
	return append(b, '"')
}

// appendValue appends the JSON form of v; an invalid Value encodes as null.
func appendValue(b []byte, v storage.Value) []byte {
	switch v.Kind() {
	case storage.KindS:
		b = append(b, `{"S":`...)
		b = appendString(b, v.Str())
	case storage.KindN:
		b = append(b, `{"N":"`...)
		b = append(b, v.Str()...) // canonical number text needs no escaping
		b = append(b, '"')
	case storage.KindB:
		b = append(b, `{"B":`...)
		b = appendBase64(b, v.Str())
	case storage.KindBOOL:
		if v.Bool() {
			b = append(b, `{"BOOL":true`...)
		} else {
			b = append(b, `{"BOOL":false`...)
		}
	case storage.KindNULL:
		b = append(b, `{"NULL":true`...)
	case storage.KindL:
		b = append(b, `{"L":[`...)
		for i, e := range v.List() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e)
		}
		b = append(b, ']')
	case storage.KindM:
		b = append(b, `{"M":`...)
		b = appendItem(b, v.Map())
	case storage.KindSS, storage.KindNS, storage.KindBS:
		b = append(b, '{', '"')
		b = append(b, v.Kind().String()...)
		b = append(b, `":[`...)
		for i, m := range v.Members() {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendSetMember(b, v.Kind(), m)
		}
		b = append(b, ']')
	default:
		return append(b, "null"...)
	}
	return append(b, '}')
}

// appendSetMember appends one member of a set of kind k: SS text, NS
// canonical text (which needs no escaping) or BS raw bytes.
func appendSetMember(b []byte, k storage.Kind, m string) []byte {
	switch k {
	case storage.KindSS:
		return appendString(b, m)
	case storage.KindNS:
		b = append(b, '"')
		b = append(b, m...)
		return append(b, '"')
	}
	return appendBase64(b, m)
}

// appendItem appends {"name":value,...} with names in sorted order, so equal
// items always encode to equal bytes.
func appendItem(b []byte, it map[string]storage.Value) []byte {
	var buf [16]string
	names := buf[:0]
	for k := range it {
		names = append(names, k)
	}
	slices.Sort(names)
	b = append(b, '{')
	for i, k := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendValue(b, it[k])
	}
	return append(b, '}')
}

// ExpressionValues is the ExpressionAttributeValues parameter: placeholder
// (":v") to value. Its decoder words value errors as DynamoDB does for this
// parameter: "ExpressionAttributeValues contains invalid value: <reason> for key :v".
type ExpressionValues map[string]AttributeValue

// UnmarshalJSON decodes and validates the placeholders' values.
func (x *ExpressionValues) UnmarshalJSON(data []byte) error {
	d := wireDecoder{data: data}
	if d.peek() == 'n' && d.consumeLiteral("null") {
		*x = nil
		return d.end()
	}
	if d.peek() != '{' {
		return d.mapTypeError()
	}
	d.pos++
	out := make(ExpressionValues)
	if d.peek() == '}' {
		d.pos++
	} else {
		for {
			name, err := d.readString()
			if err != nil {
				return d.syntax()
			}
			if err := d.expect(':'); err != nil {
				return err
			}
			if d.isNull() {
				d.validation("ExpressionAttributeValues contains invalid value: " + msgNullInList + " for key " + name)
			} else {
				had := d.verr != nil
				v, err := d.attrValue(1)
				if err != nil {
					if errors.Is(err, ErrValidation) && !had {
						err = errValidation("ExpressionAttributeValues contains invalid value: " + err.Error() + " for key " + name)
					}
					return err
				}
				if !had && d.verr != nil {
					d.verr = errValidation("ExpressionAttributeValues contains invalid value: " + d.verr.Error() + " for key " + name)
				}
				out[name] = AttributeValue{v}
			}
			switch d.peek() {
			case ',':
				d.pos++
				continue
			case '}':
				d.pos++
			default:
				return d.syntax()
			}
			break
		}
	}
	if err := d.end(); err != nil {
		return err
	}
	if d.verr != nil {
		return d.verr
	}
	*x = out
	return nil
}

// Values returns the placeholders' values as storage values (a new map).
func (x ExpressionValues) Values() map[string]storage.Value {
	if x == nil {
		return nil
	}
	m := make(map[string]storage.Value, len(x))
	for k, v := range x {
		m[k] = v.Value
	}
	return m
}
