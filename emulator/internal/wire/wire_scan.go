package wire

import (
	"encoding/json"
	"unicode/utf8"
	"unsafe"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// decoder is a small JSON scanner specialised for attribute values. It
// checks the JSON syntax itself (it may be fed any bytes), stops at the first
// serialization error, and remembers the first validation error (verr) while
// it keeps scanning, because DynamoDB reports serialization errors first.
// It reads its input once, front to back: data is the window of it read so
// far (all of it, or with src a body it reads more of as it needs it:
// body.go), pos where the next value starts.
type decoder struct {
	data []byte
	pos  int
	src  *Body   // nil: data is the whole input
	lim  *Limits // how members far over their limits are read (limits.go; nil: whole)
	verr error
	// vrank is verr's rank (faultRank): a later fault of a lower rank in
	// the same value replaces it.
	vrank faultRank
	// text, while an item or the values of a request of at most
	// maxBodyText bytes are decoded, is the whole request as one string
	// (body): readString returns its strings as substrings of it, one
	// allocation a request instead of one a string (the items of a
	// BatchWriteItem: BenchmarkPreload). Keeping any of them keeps the
	// body's text alive; storage copies what it stores.
	text string
	body string
	// hint is the number of attributes of the item decoded last: the
	// size hint of the next one's map.
	hint int
	// base is the JSON depth of the item or value being decoded
	// (depthOf), for the nesting limit JSON itself has.
	base int
	// olderForm: a value is nested past OlderFormDepth (Deferred.OlderForm).
	olderForm bool
	// docOrder: a standalone value (not an item) is decoded, whose first
	// fault in document order wins, the nesting limit included (see
	// ranked).
	docOrder bool
	// decoded counts the attribute values decoded (TestDecodeOnce).
	decoded int
	// small is the chunk short strings read outside text are copied
	// into (keepText).
	small []byte
	// cut: the item being read is cut past the item size limit
	// (Limits.CutItem, overitem.go).
	cut bool
	// place, while a strict request is read, counts its lines and
	// columns over the bytes drop takes out (wire_strict.go); nil else.
	place *place
}

// maxBodyText is the largest request whose items share one string of the
// whole body: a larger one copies each string on its own, so that a small
// key of a large request neither copies nor keeps the rest of it.
const maxBodyText = 64 << 10

func (d *decoder) skipSpace() {
	for {
		for d.pos < len(d.data) {
			switch d.data[d.pos] {
			case ' ', '\t', '\n', '\r':
				d.pos++
			default:
				return
			}
		}
		if !d.more() {
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end of input.
// Written to be inlined (gcassert below): the space to skip, or the
// window's end, is peekSpace's, which reads the body on.
//
//gcassert:inline
func (d *decoder) peek() (c byte) {
	if d.pos < len(d.data) {
		c = d.data[d.pos]
	}
	if c > ' ' {
		return c // no space to skip: the common case
	}
	return d.peekSpace()
}

// peekSpace is peek past space or the window's end.
//
//go:noinline
func (d *decoder) peekSpace() byte {
	d.skipSpace()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *decoder) syntax() error { return apierr.Serialization("") }

func (d *decoder) validation(msg string) {
	if d.verr == nil {
		d.verr, d.vrank = apierr.Validation(msg), rankValue
	}
}

// fault records a malformed value (the first validation error wins), in
// the older layer's wording; apierr.Relayer words it for the operation.
func (d *decoder) fault(f *apierr.ValueFault) {
	if d.verr == nil {
		d.verr, d.vrank = f.Err(), rankValue
	}
}

// faultRank orders the faults of one item or value: AWS checks an item's
// own attribute names first, then the document's nesting depth, then
// every value in it (paritysuite/dynamodb-conformance
// tests/tier3/validation-ordering/deepRequests.test.ts, captured against
// AWS: a top-level empty attribute name is answered before a value nested
// too deep, and a value nested too deep before an empty name inside a
// map, whichever comes first in the item).
type faultRank uint8

const (
	rankName  faultRank = iota // an item's own attribute name: empty, too long
	rankDepth                  // a value nested past MaxValueDepth
	rankValue                  // anything else in a value
)

// ranked records the validation error msg of rank r: the first of the
// lowest rank wins. In a standalone value (docOrder: a PartiQL parameter,
// a legacy condition's value) the first fault in document order wins: an
// unconvertible number in a map ahead of a member nested too deep is
// answered, and one below the limit is not reached (AWS's answers as
// recorded by paritysuite/dynamodb-conformance, tests/tier3/
// error-messages/partiqlParameterNumbers.test.ts, October 2026).
func (d *decoder) ranked(msg string, r faultRank) {
	if d.verr == nil || (r < d.vrank && !d.docOrder) {
		d.verr, d.vrank = apierr.Validation(msg), r
	}
}

// end checks that only white space follows.
func (d *decoder) end() error {
	d.skipSpace()
	if d.pos != len(d.data) {
		return d.syntax()
	}
	return nil
}

// finish is how decoding a whole input ends after its value was read with
// err: that error, else a syntax error if more than white space follows, else
// the first validation error.
func (d *decoder) finish(err error) error {
	if err == nil {
		err = d.end()
	}
	if err == nil {
		err = d.verr
	}
	return err
}

func (d *decoder) consumeLiteral(lit string) bool {
	for len(d.data)-d.pos < len(lit) && d.more() {
	}
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		return true
	}
	return false
}

// expect consumes byte c after optional space.
func (d *decoder) expect(c byte) error {
	if d.peek() != c {
		return d.syntax()
	}
	d.pos++
	return nil
}

// typeError is the SerializationException for a JSON value of the wrong type
// where a scalar of type want ("String", "Boolean") was expected.
func (d *decoder) typeError(want string) error {
	switch d.peek() {
	case '[':
		return apierr.Serialization(apierr.MsgSerListStart)
	case '{':
		return apierr.Serialization(apierr.MsgSerMapStart)
	case '"':
		return apierr.Serialization(apierr.MsgStringCannotConvert + want)
	case 't':
		return apierr.Serialization(apierr.MsgTrueCannotConvert + want)
	case 'f':
		return apierr.Serialization(apierr.MsgFalseCannotConvert + want)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return apierr.Serialization(apierr.MsgNumberCannotConvert + want)
	}
	return d.syntax()
}

// mapTypeError is the SerializationException for a JSON value of the wrong
// type where a map (JSON object) was expected.
func (d *decoder) mapTypeError() error {
	return d.containerTypeError('[', apierr.MsgSerListStart, apierr.MsgSerExpectedMap)
}

// listTypeError is the SerializationException for a JSON value of the wrong
// type where a list (JSON array) was expected.
func (d *decoder) listTypeError() error {
	return d.containerTypeError('{', apierr.MsgSerMapStart, apierr.MsgSerExpectedList)
}

// containerTypeError is the SerializationException for a JSON value of the
// wrong type where a container was expected: the other kind of container
// (starting with other) is refused at its start with otherMsg; any other
// value is skipped and refused with msg.
func (d *decoder) containerTypeError(other byte, otherMsg, msg string) error {
	switch d.peek() {
	case other:
		return apierr.Serialization(otherMsg)
	case 0:
		return d.syntax()
	}
	if err := d.skipValue(0); err != nil {
		return err
	}
	return apierr.Serialization(msg)
}

// stringEnd finds the end of the JSON string whose text starts at
// start (after its opening quote), reading the body up to it: where its
// closing quote is, and whether its text is plain (no escape, no byte
// past ASCII); a control byte or the input's end is a syntax error.
//
// It finds each byte that needs care a word at a time (nextSpecial, eight
// bytes at once), and steps byte by byte only through the window's last
// seven bytes: the strings of a BatchWriteItem of 25 items take 21% less
// time than when it walked byte by byte from the first word that held
// one (BenchmarkStringEnd, 5.42 -> 4.30 µs).
func (d *decoder) stringEnd(start int) (end int, plain bool, err error) {
	plain = true
	for i := start; ; {
		for i = nextSpecial(d.data, i); i < len(d.data); i = nextSpecial(d.data, i) {
			switch c := d.data[i]; {
			case c == '"':
				return i, plain, nil
			case c < 0x20:
				return 0, false, d.syntax()
			case c == '\\':
				plain = false
				i += 2 // the escaped byte: checked by the caller
			case c >= utf8.RuneSelf:
				plain = false
				i++
			default: // a plain byte of the window's last seven
				i++
			}
		}
		if !d.more() {
			return 0, false, d.syntax()
		}
	}
}

// readString reads a JSON string. A plain one is its bytes as they are;
// strings with escapes or non-ASCII bytes go through encoding/json,
// after a check that they are Unicode: invalid UTF-8 and lone surrogate
// escapes are a SerializationException (wire_text.go), never replaced.
func (d *decoder) readString() (string, error) {
	if d.peek() != '"' {
		return "", d.typeError("String")
	}
	start := d.pos + 1
	i, plain, err := d.stringEnd(start)
	if err != nil {
		return "", err
	}
	d.pos = i + 1
	if plain {
		if d.text != "" && i <= len(d.text) {
			return d.text[start:i], nil
		}
		return d.keepText(d.data[start:i]), nil
	}
	if !ValidJSONText(d.data[start:i]) {
		return "", d.syntax() // see wire_text.go
	}
	var s string
	if err := json.Unmarshal(d.data[start-1:i+1], &s); err != nil {
		return "", d.syntax()
	}
	return s, nil
}

// skipString skips a JSON string, checking it as readString does,
// without building it: one with escapes or non-ASCII bytes is checked
// for what encoding/json would refuse in it (validEscapes).
func (d *decoder) skipString() error {
	if d.peek() != '"' {
		return d.typeError("String")
	}
	start := d.pos + 1
	i, plain, err := d.stringEnd(start)
	if err != nil {
		return err
	}
	d.pos = i + 1
	if !plain && (!ValidJSONText(d.data[start:i]) || !validEscapes(d.data[start:i])) {
		return d.syntax()
	}
	return nil
}

// validEscapes reports whether every escape of raw, the bytes between
// the quotes of a JSON string, is one JSON has: \", \\, \/, \b, \f, \n,
// \r, \t, or \u and four hex digits. With ValidJSONText and no control
// byte outside an escape, it is what encoding/json accepts.
func validEscapes(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if i+1 >= len(raw) {
			return false
		}
		switch raw[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if _, ok := hex4(raw, i+2); !ok {
				return false
			}
			i += 5
		default:
			return false
		}
	}
	return true
}

// skipValue skips any JSON value (for members DynamoDB ignores) whose
// container is at JSON depth depth: one nested deeper than JSON allows
// (maxJSONDepth) is a syntax error, as encoding/json's.
func (d *decoder) skipValue(depth int) error {
	_, err := d.skipCount(depth)
	return err
}

// skipCount is skipValue that returns the number of the value's members
// when it is an object, of its elements when it is an array (0
// otherwise).
func (d *decoder) skipCount(depth int) (int, error) {
	switch d.peek() {
	case '"':
		return 0, d.skipString()
	case '{', '[':
		if depth >= maxJSONDepth {
			return 0, d.syntax()
		}
		closing := byte('}')
		if d.data[d.pos] == '[' {
			closing = ']'
		}
		d.pos++
		if d.peek() == closing {
			d.pos++
			return 0, nil
		}
		if closing == '}' {
			return d.skipMembers(depth + 1)
		}
		return d.skipElements(depth + 1)
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

// skipMembers skips the rest of an object at depth, from the start of
// one of its members' keys past its '}', and returns how many members
// that was.
func (d *decoder) skipMembers(depth int) (int, error) {
	for n := 1; ; n++ {
		if err := d.skipString(); err != nil {
			return 0, d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return 0, err
		}
		if _, err := d.skipCount(depth); err != nil {
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
}

// skipElements skips the rest of an array at depth, from the start of
// one of its elements past its ']', and returns how many elements that
// was.
func (d *decoder) skipElements(depth int) (int, error) {
	for n := 1; ; n++ {
		if _, err := d.skipCount(depth); err != nil {
			return 0, err
		}
		switch d.peek() {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return n, nil
		default:
			return 0, d.syntax()
		}
	}
}

// longList is the length past which a list being decoded counts the
// elements it has left (elementsLeft) and grows once to hold them all.
// Grown by append, a slice doubles only up to 256 elements, then by a
// quarter: a list of n values allocated about 5n values' room in all,
// and held 2.25n at once while it grew (an item's list of 300,000 numbers
// in a 4 MB PutItem: 42 MB allocated, 9.6 MB counted first,
// BenchmarkOversizeMemory). The count skips the rest of the list without
// decoding it (the body then holds it: its bytes are kept anyway).
const longList = 256

// elementsLeft is the number of elements of the array at depth d is in,
// from the one at d.pos to its end, and where it ends; 0 when the rest is
// not well formed (the decoding that follows reports it).
func (d *decoder) elementsLeft(depth int) (n, end int) {
	at := d.pos
	n, err := d.skipElements(depth)
	end, d.pos = d.pos, at
	if err != nil {
		return 0, 0
	}
	return n, end
}

// membersLeft is the number of members of the object at depth d is in,
// from the start of one of its members' keys to its end; 0 when the
// object is malformed (decoding it finds the error).
func (d *decoder) membersLeft(depth int) int {
	at := d.pos
	n, err := d.skipMembers(depth)
	d.pos = at
	if err != nil {
		return 0
	}
	return n
}

func (d *decoder) literal(lit string) error {
	if !d.consumeLiteral(lit) {
		return d.syntax()
	}
	return nil
}

// number skips a JSON number, checking its syntax.
func (d *decoder) number() error {
	i := d.pos
	if d.at(i) == '-' {
		i++
	}
	switch c := d.at(i); {
	case c == '0':
		i++
	case c >= '1' && c <= '9':
		i = d.digits(i)
	default:
		return d.syntax()
	}
	if d.at(i) == '.' {
		n := d.digits(i + 1)
		if n == i+1 {
			return d.syntax()
		}
		i = n
	}
	if c := d.at(i); c == 'e' || c == 'E' {
		i++
		if c := d.at(i); c == '+' || c == '-' {
			i++
		}
		n := d.digits(i)
		if n == i {
			return d.syntax()
		}
		i = n
	}
	d.pos = i
	return nil
}

// digits returns where the run of decimal digits from i ends.
func (d *decoder) digits(i int) int {
	for c := d.at(i); c >= '0' && c <= '9'; c = d.at(i) {
		i++
	}
	return i
}

// isNull consumes a null literal if one comes next.
func (d *decoder) isNull() bool {
	return d.peek() == 'n' && d.consumeLiteral("null")
}

func (d *decoder) readBool() (bool, error) {
	switch d.peek() {
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	}
	return false, d.typeError("Boolean")
}

// maxJSONDepth is encoding/json's nesting limit; deeper input is a syntax error.
const maxJSONDepth = 10000

// stringView reads a JSON string as readString does, except that one
// without escapes or non-ASCII bytes comes back as a view of the input,
// without a copy: for measuring and comparing while the input lives, never
// to keep (witnesses copy what they keep). The measuring passes over maps
// of millions of entries allocate nothing per entry this way: a copy of
// each key took a 4 MB Query of ExpressionAttributeValues from 2.12 to
// 2.84 allocated and 1.84 to 2.36 peak over its body (go test -run '^$'
// -bench 'BenchmarkOversizeMemory/ExpressionAttributeValues$' ./emulator).
func (d *decoder) stringView() (string, error) {
	if d.peek() == '"' {
		start := d.pos + 1
		i, plain, err := d.stringEnd(start)
		if err != nil {
			return "", err
		}
		if plain {
			d.pos = i + 1
			if i == start {
				return "", nil
			}
			return unsafe.String(&d.data[start], i-start), nil
		}
	}
	return d.readString()
}

// bodyText is the whole input as a string, a view: for the passes that
// compare or keep offsets while the input lives (decodeCompactValues,
// decodeNameList), never to keep past the request.
func (d *decoder) bodyText() string {
	if len(d.data) == 0 {
		return ""
	}
	return unsafe.String(&d.data[0], len(d.data))
}
