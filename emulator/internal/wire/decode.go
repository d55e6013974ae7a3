package wire

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The request decoder: JSON bodies into the operations' input structs,
// driven by a plan built once per Go type and run on decoder's scanner.
//
// It gives the results encoding/json gave, with two differences that are
// AWS's behaviour: member names match case-sensitively (encoding/json also
// accepts "tablename" for TableName; AWS ignores such a member), and the
// wire types (WireItem, AttributeValue) are decoded in place instead of
// being scanned twice. Everything else follows encoding/json.Unmarshal:
//
//   - a syntax error anywhere wins over every other error;
//   - an error of a wire type (a json.Unmarshaler) ends decoding and is
//     returned as it is;
//   - a JSON value of the wrong type is remembered (the first one) and
//     decoding goes on; it is returned if nothing above happened, worded as
//     AWS words SerializationException;
//   - null leaves strings, numbers, booleans and structs alone and sets
//     pointers, maps, slices and interfaces to nil;
//   - a member given twice is decoded twice into the same place (maps and
//     structs merge, slices are overwritten element by element);
//   - unknown members are skipped.

// DecodeRequest decodes a request body into in (a pointer to an input
// struct). Syntax errors and JSON values of the wrong type become
// SerializationException with AWS's wording; errors from the wire types
// (ValidationException, ...) pass through unchanged.
func DecodeRequest(body []byte, in any) error {
	deferred, err := DecodeRequestDeferred(body, in)
	if err == nil && deferred != nil {
		err = deferred.Err
	}
	return err
}

// run decodes the whole body into v with dec and returns the error that
// wins: a syntax error anywhere, text that is not Unicode, an error that
// ended decoding, then the first JSON value of the wrong type. A body is
// read once: on an error the rest of it is read into the window, which
// is JSON exactly when the body is (an element a list dropped went with
// its comma: limits.go), and checked whole.
func (d *reqDecoder) run(dec codec, v reflect.Value) error {
	lease.Check(d)
	err := dec(d, v, 0)
	if err == nil {
		err = d.end()
	}
	if err != nil {
		d.rest()
		// A syntax error later in the body wins over what stopped us, and
		// so does text that is not Unicode (wire_text.go).
		if !json.Valid(d.data) || !ValidJSONText(d.data) {
			return apierr.Serialization("")
		}
		if _, ok := apierr.Classify(err); ok {
			return err
		}
		return apierr.Serialization("")
	}
	return d.saved
}

// reqDecoder is the scanner plus the first type mismatch and the first
// value fault seen.
type reqDecoder struct {
	lease.Owned // lent by reqDecoders for one request
	decoder
	saved    error     // first JSON value of the wrong type, as SerializationException
	deferred *Deferred // first fault of an attribute value (wire_deferred.go)
	top      int       // index in the top-level list member being decoded, or -1
	in       any       // the input decoded into (At.In of the limits' policies)
	read     Body      // DecodeBody's copy of its caller's Body, the decoder's src
}

// mismatch records a JSON value of the wrong type for t (the first one
// wins) and skips it (at depth, as its codec's).
func (d *reqDecoder) mismatch(t reflect.Type, depth int) error {
	tok := d.peek()
	if err := d.skipValue(depth); err != nil {
		return err
	}
	if d.saved == nil {
		d.saved = apierr.Serialization(mismatchMessage(tok, t))
	}
	return nil
}

// setNull reads a null into v: pointers, maps and slices become nil, as
// encoding/json sets them.
func (d *reqDecoder) setNull(v reflect.Value) error {
	if err := d.literal("null"); err != nil {
		return err
	}
	v.SetZero()
	return nil
}

// mismatchMessage words a JSON value starting with tok where a value of
// type t was expected, as AWS's request layer does ("NUMBER_VALUE cannot be
// converted to String").
func mismatchMessage(tok byte, t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var token string
	switch tok {
	case '[':
		return apierr.MsgSerListStart
	case '{':
		return apierr.MsgSerMapStart
	case '"':
		token = "STRING_VALUE"
	case 't':
		token = "TRUE_VALUE"
	case 'f':
		token = "FALSE_VALUE"
	default:
		token = "NUMBER_VALUE"
	}
	switch t.Kind() {
	case reflect.String:
		return token + " cannot be converted to String"
	case reflect.Bool:
		return token + " cannot be converted to Boolean"
	case reflect.Int, reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return token + " cannot be converted to Integer"
	case reflect.Int64, reflect.Uint64:
		return token + " cannot be converted to Long"
	case reflect.Float32, reflect.Float64:
		return token + " cannot be converted to Double"
	case reflect.Slice, reflect.Array:
		return apierr.MsgSerExpectedList
	case reflect.Map:
		return apierr.MsgSerExpectedMap
	}
	return apierr.MsgSerExpectedNull
}

// readKey reads a member name. Names without escapes or non-ASCII bytes
// come back as a view of the input (no copy: use it for lookups only);
// others are unescaped as encoding/json does.
func (d *reqDecoder) readKey() ([]byte, error) {
	if d.peek() != '"' {
		return nil, d.syntax()
	}
	start := d.pos + 1
	i, plain, err := d.stringEnd(start) // member names are long ("ExpressionAttributeValues")
	if err != nil {
		return nil, d.syntax()
	}
	if plain {
		d.pos = i + 1
		return d.data[start:i], nil
	}
	s, err := d.readString()
	if err != nil {
		return nil, d.syntax()
	}
	return []byte(s), nil
}

// codec decodes the next JSON value into v (settable); depth is the
// nesting of v in the body. It returns syntax errors and errors of wire
// types; type mismatches are saved in the decoder.
type codec func(d *reqDecoder, v reflect.Value, depth int) error

var (
	codecs  sync.Map   // reflect.Type -> codec of no Limits, complete codecs only
	codecMu sync.Mutex // serializes building codecs
)

// codecsOf are the codecs read with lim: its own (Limits.codecs, which
// go with it: a service's with its service), or those of no Limits.
func codecsOf(lim *Limits) *sync.Map {
	if lim == nil {
		return &codecs
	}
	return &lim.codecs
}

// codecOf returns the codec of t read with lim, building it on first
// use. For a type the decoder does not support (a bug in an input type:
// a channel, a func, an option of a json tag it does not know) the codec
// answers every body with an InternalServerError that names it, and is
// built again each time: the decoder never panics on a Go type. Codecs
// are built under codecMu and published only when complete, so a
// request that needs a codec another is still building waits for it.
func codecOf(t reflect.Type, lim *Limits) (c codec) {
	if c, ok := codecsOf(lim).Load(t); ok {
		return c.(codec)
	}
	codecMu.Lock()
	defer codecMu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			msg, ok := r.(unsupported)
			if !ok {
				panic(r)
			}
			err := msg.asError()
			c = func(*reqDecoder, reflect.Value, int) error { return err }
		}
	}()
	b := &builder{lim: lim, building: map[reflect.Type]codec{}}
	c = b.codec(t)
	for bt, bc := range b.building {
		codecsOf(lim).Store(bt, bc)
	}
	return c
}

// field is one member of a struct plan.
type field struct {
	index int   // of the field in its struct
	path  []int // through embedded structs to it (nil: a field of the struct itself)
	dec   codec
	lim   *list // its policy (limits.go; nil: none), and its lists' elements' codec
	elem  codec
}

// at returns where f of struct v is decoded, making the embedded
// structs on its way that are nil pointers.
func (f field) at(v reflect.Value) reflect.Value {
	for _, i := range f.path {
		v = v.Field(i)
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
	}
	return v.Field(f.index)
}

// member is a field found for a member's name, at a depth of embedding.
type member struct {
	f      field
	depth  int
	tagged bool // named by its json tag
	t      reflect.Type
}

// readObject reads the JSON object at d as a map of type t is read into
// v: null sets v to nil (setNull) and any other value but an object is
// t's mismatch. open runs once the object's '{' is read; member reads
// each member's value after its key and colon. At the longList-th member
// grow is told how many were read and how many are left (with it), so a
// long object's room is made once, not grown by doubling.
func (d *reqDecoder) readObject(v reflect.Value, t reflect.Type, depth int, open func(), grow func(read, left int), member func(key string) error) error {
	switch d.peek() {
	case '{':
	case 'n':
		return d.setNull(v)
	default:
		return d.mismatch(t, depth)
	}
	if depth >= maxJSONDepth {
		return d.syntax()
	}
	d.pos++
	open()
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	for i := 0; ; i++ {
		if i == longList {
			grow(i, d.membersLeft(depth+1))
		}
		key, err := d.readString()
		if err != nil {
			return d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		if err := member(key); err != nil {
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

// elemAt is the slice v's i-th element to decode into, as encoding/json
// does: the existing one, if any (v made longer if not; left, when not
// -1, says how many elements are left from i, to size v once).
func elemAt(v reflect.Value, i, left int) reflect.Value {
	if left >= 0 {
		v.Grow(max(0, i+left-v.Len()))
	}
	if i >= v.Cap() {
		v.Grow(1)
	}
	if i >= v.Len() {
		v.SetLen(i + 1)
	}
	return v.Index(i)
}

// endSlice ends the slice v at the n elements a list gave (empty, not
// nil, for none).
func endSlice(v reflect.Value, n int) {
	if n < v.Len() {
		v.SetLen(n)
	}
	if n == 0 {
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	}
}

// listStart reports whether d is at a JSON array's '['; if not, it
// reads a null into v (the list of type t) or records a value of
// another type (mismatch), as a list codec does.
func (d *reqDecoder) listStart(v reflect.Value, t reflect.Type, depth int) (bool, error) {
	switch d.peek() {
	case '[':
		return true, nil
	case 'n':
		return false, d.setNull(v)
	}
	return false, d.mismatch(t, depth)
}

// readList reads a JSON array (d at its '[') for a list codec: elem
// reads the i-th element, d at it, told at the longList-th how many
// elements are left from there when the list is sized (else left is
// -1), so a long list is sized once. It returns how many elements were
// read.
func (d *reqDecoder) readList(depth int, sized bool, elem func(i, left int) error) (int, error) {
	if depth >= maxJSONDepth {
		return 0, d.syntax()
	}
	d.pos++
	i := 0
	if d.peek() != ']' {
		for {
			left := -1
			if sized && i == longList {
				left, _ = d.elementsLeft(depth + 1)
			}
			if depth == 1 {
				d.top = i
			}
			if err := elem(i, left); err != nil {
				return i, err
			}
			i++
			if d.peek() == ',' {
				d.pos++
				continue
			}
			break
		}
	}
	if d.peek() != ']' {
		return i, d.syntax()
	}
	d.pos++
	if depth == 1 {
		d.top = -1
	}
	return i, nil
}

func decodeString(d *reqDecoder, v reflect.Value, depth int) error {
	switch d.peek() {
	case '"':
		s, err := d.readString()
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case 'n':
		return d.literal("null")
	}
	return d.mismatch(v.Type(), depth)
}

func decodeBool(d *reqDecoder, v reflect.Value, depth int) error {
	switch d.peek() {
	case 't':
		if err := d.literal("true"); err != nil {
			return err
		}
		v.SetBool(true)
		return nil
	case 'f':
		if err := d.literal("false"); err != nil {
			return err
		}
		v.SetBool(false)
		return nil
	case 'n':
		return d.literal("null")
	}
	return d.mismatch(v.Type(), depth)
}

// numberText reads a JSON number if one comes next; ok is false (and
// nothing is read) when the next value is something else.
func (d *reqDecoder) numberText() (text string, ok bool, err error) {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		return "", false, nil
	}
	start := d.pos
	if err := d.number(); err != nil {
		return "", true, err
	}
	return string(d.data[start:d.pos]), true, nil
}

// numberFor reads the JSON number for a field of numeric type t. ok is false
// when there is none: a null was read, or a value of another JSON type was
// handled by mismatch, as for any other field; err is what either returned.
func (d *reqDecoder) numberFor(t reflect.Type, depth int) (text string, ok bool, err error) {
	text, ok, err = d.numberText()
	if ok || err != nil {
		return text, ok, err
	}
	switch d.peek() {
	case 'n':
		return "", false, d.literal("null")
	case '"':
		if t.Kind() != reflect.Float32 && t.Kind() != reflect.Float64 {
			return d.quotedInteger(t)
		}
	}
	return "", false, d.mismatch(t, depth)
}

// quotedInteger reads a JSON string where an integer member is expected.
// DynamoDB Local (AWS's own local DynamoDB) accepts a string that holds an
// integer there ({"Limit":"10"}, {"ReadCapacityUnits":"5"}), and clients
// such as dynamodb-admin depend on it; any other string is the
// SerializationException of a value of the wrong type.
func (d *reqDecoder) quotedInteger(t reflect.Type) (text string, ok bool, err error) {
	s, err := d.readString()
	if err != nil {
		return "", false, err
	}
	if n, valid := integerText(s); valid {
		return n, true, nil
	}
	if d.saved == nil {
		d.saved = apierr.Serialization(mismatchMessage('"', t))
	}
	return "", false, nil
}

// integerText reports whether s, without surrounding spaces, is an optional
// sign and decimal digits (as DynamoDB Local reads " 7", "+7" and "007"),
// and returns that text for strconv.
func integerText(s string) (string, bool) {
	s = strings.TrimSpace(s)
	digits := strings.TrimLeft(s, "+-")
	if len(digits) == 0 || len(s)-len(digits) > 1 {
		return "", false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "", false
		}
	}
	return s, true
}

func (d *reqDecoder) numberMismatch(t reflect.Type) {
	if d.saved == nil {
		d.saved = apierr.Serialization(mismatchMessage('0', t))
	}
}

// decodeNumber decodes a JSON number into an int, uint or float field
// as encoding/json does: a number its type cannot hold is a value of the
// wrong type.
func decodeNumber(d *reqDecoder, v reflect.Value, depth int) error {
	s, ok, err := d.numberFor(v.Type(), depth)
	if !ok || err != nil {
		return err
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if n, err := strconv.ParseFloat(s, v.Type().Bits()); err == nil && !v.OverflowFloat(n) {
			v.SetFloat(n)
			return nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, err := strconv.ParseUint(s, 10, 64); err == nil && !v.OverflowUint(n) {
			v.SetUint(n)
			return nil
		}
	default:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && !v.OverflowInt(n) {
			v.SetInt(n)
			return nil
		}
	}
	d.numberMismatch(v.Type())
	return nil
}

// decodeInterface decodes into an empty interface as encoding/json does:
// map[string]any, []any, string, float64, bool or nil.
func decodeInterface(d *reqDecoder, v reflect.Value, depth int) error {
	x, err := d.anyValue(depth)
	if err != nil {
		return err
	}
	if x == nil {
		v.SetZero()
	} else {
		v.Set(reflect.ValueOf(x))
	}
	return nil
}

func (d *reqDecoder) anyValue(depth int) (any, error) {
	c := d.peek()
	if (c == '{' || c == '[') && depth >= maxJSONDepth {
		return nil, d.syntax()
	}
	switch c {
	case '{':
		d.pos++
		m := map[string]any{}
		if d.peek() == '}' {
			d.pos++
			return m, nil
		}
		for {
			key, err := d.readString()
			if err != nil {
				return nil, d.syntax()
			}
			if err := d.expect(':'); err != nil {
				return nil, err
			}
			if m[key], err = d.anyValue(depth + 1); err != nil {
				return nil, err
			}
			if more, err := d.next('}'); !more {
				return m, err
			}
		}
	case '[':
		d.pos++
		a := []any{}
		if d.peek() == ']' {
			d.pos++
			return a, nil
		}
		for {
			x, err := d.anyValue(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, x)
			if more, err := d.next(']'); !more {
				return a, err
			}
		}
	case '"':
		return d.readString()
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	}
	s, ok, err := d.numberText()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, d.syntax()
	}
	f, perr := strconv.ParseFloat(s, 64)
	if perr != nil {
		d.numberMismatch(reflect.TypeFor[float64]())
		return nil, nil
	}
	return f, nil
}

// decodeUnmarshaler hands the raw value to the type's UnmarshalJSON, as
// encoding/json does (also for null).
func decodeUnmarshaler(d *reqDecoder, v reflect.Value, depth int) error {
	d.skipSpace()
	start := d.pos
	if err := d.skipValue(depth); err != nil {
		return err
	}
	err := v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(d.data[start:d.pos])
	if err != nil && d.deferUnmarshaler(err) {
		return nil
	}
	return err
}

// decodeWireItem is WireItem.UnmarshalJSON on the request's own scanner.
func decodeWireItem(d *reqDecoder, v reflect.Value, depth int) error {
	return decodeItemHinted(d, v, depth, nil)
}

// itemField is the codec of a struct's WireItem field: its items' maps
// are sized as its item before was, in this request or one before (a
// PutItem's Item, a transaction's Put, a batch's writes are alike), so
// the first item of a request is not grown from a small map
// (BenchmarkDecodePair/TransactWrite2/handler: 9,996 -> 9,6xx B/op).
func itemField() codec {
	var hint atomic.Int32
	return func(d *reqDecoder, v reflect.Value, depth int) error {
		return decodeItemHinted(d, v, depth, &hint)
	}
}

// cutItemField is itemField of a member its Limits cut past the item
// size limit (Limits.CutItem, overitem.go).
func cutItemField() codec {
	var hint atomic.Int32
	return func(d *reqDecoder, v reflect.Value, depth int) error {
		d.cut = true
		err := decodeItemHinted(d, v, depth, &hint)
		d.cut = false
		return err
	}
}

// decodeItemHinted is decodeWireItem with the map size hint of its
// field (nil: the request's item before's).
func decodeItemHinted(d *reqDecoder, v reflect.Value, depth int, hint *atomic.Int32) error {
	w := v.Addr().Interface().(*WireItem)
	if d.peek() == 'n' && d.consumeLiteral("null") {
		*w = nil
		return nil
	}
	d.verr, d.base = nil, depth+1
	if hint != nil {
		d.hint = int(hint.Load())
	}
	it, err := d.item()
	if n := int32(min(len(it), itemRecycleMax)); hint != nil && hint.Load() != n {
		hint.Store(n)
	}
	if err != nil {
		return err
	}
	if d.verr != nil {
		d.deferValue(d.verr)
		d.verr = nil
	}
	*w = WireItem(it)
	return nil
}

// A ValueKeeper is an attribute value of a request that keeps its own
// validation fault, which then fails only its part of the request (a
// BatchExecuteStatement's parameter fails its statement): the request
// decoder reads it on its own scanner, once, as it reads an
// AttributeValue, and hands it the value and the fault (nil for none; a
// JSON null is the invalid value with none).
type ValueKeeper interface {
	KeepValue(v storage.Value, verr error)
}

// decodeValueKeeper reads a ValueKeeper.
func decodeValueKeeper(d *reqDecoder, v reflect.Value, depth int) error {
	k := v.Addr().Interface().(ValueKeeper)
	if d.peek() == 'n' && d.consumeLiteral("null") {
		k.KeepValue(storage.Value{}, nil)
		return nil
	}
	val, verr, err := d.valueAt(depth)
	if err != nil {
		return err
	}
	if verr != nil {
		val = storage.Value{}
	}
	k.KeepValue(val, verr)
	return nil
}

// valueAt decodes one AttributeValue whole, in document order, at
// nesting depth depth, and returns it with its fault (verr: the value
// is invalid, the request goes on) or the error that stops the request.
func (d *reqDecoder) valueAt(depth int) (val storage.Value, verr, err error) {
	d.verr, d.docOrder, d.base = nil, true, depth
	val, err = d.attrValue(1)
	d.docOrder = false
	if err != nil {
		return val, nil, err
	}
	verr, d.verr = d.verr, nil
	return val, verr, nil
}

// decodeAttributeValue is AttributeValue.UnmarshalJSON on the request's own scanner.
func decodeAttributeValue(d *reqDecoder, v reflect.Value, depth int) error {
	a := v.Addr().Interface().(*AttributeValue)
	if d.peek() == 'n' && d.consumeLiteral("null") {
		a.Value = storage.Value{}
		return nil
	}
	val, verr, err := d.valueAt(depth)
	if err != nil {
		return err
	}
	if verr != nil {
		d.deferValue(verr)
	}
	a.Value = val
	return nil
}
