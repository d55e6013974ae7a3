package wire

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// decoder is a small JSON scanner specialised for attribute values. It
// checks the JSON syntax itself (it may be fed any bytes), stops at the first
// serialization error, and remembers the first validation error (verr) while
// it keeps scanning, because DynamoDB reports serialization errors first.
type decoder struct {
	data []byte
	pos  int
	verr error
	// vrank is verr's rank (faultRank): a later fault of a lower rank in
	// the same value replaces it.
	vrank faultRank
	// text, while an item is decoded, is that item's JSON as one string
	// (data[textOff:textOff+len(text)]): readString returns its names and
	// values as substrings of it, one allocation per item instead of one
	// per string. Keeping any of them keeps the item's text alive; storage
	// copies what it stores.
	text    string
	textOff int
	// body, once an item of a request of at most maxBodyText bytes is
	// decoded, is the whole request as one string: the items of a
	// BatchWriteItem then share one allocation instead of one each
	// (wire_decode.go item; BenchmarkPreload).
	body string
	// hint is the number of attributes of the item decoded last: the
	// size hint of the next one's map once body is made.
	hint int
	// olderForm: a value is nested past OlderFormDepth (Deferred.OlderForm).
	olderForm bool
	// docOrder: a standalone value (not an item) is decoded, whose first
	// fault in document order wins, the nesting limit included (see
	// ranked).
	docOrder bool
	// written: an item to write is decoded, whose lists over the item
	// size limit are cut (wire_itemcut.go); probing: d is listOver's
	// probe, which cuts nothing; drop > 0: the values being read are
	// hashed and thrown away (a list cut). In both, a number need not be
	// copied out of the body.
	written, probing bool
	drop             int
	// cutValues: UpdateItem's ExpressionAttributeValues are decoded,
	// whose lists over the item size limit are cut as an item's are
	// (wire_valuecut.go).
	cutValues bool
}

// maxBodyText is the largest request whose items share one string of the
// whole body: a larger one copies each item's text on its own, so that a
// small key of a large request neither copies nor keeps the rest of it.
const maxBodyText = 64 << 10

// maxItemText is the largest item (of a request larger than maxBodyText)
// whose text is copied to be its strings: a larger item's strings are
// each their own, for its text is mostly what is not kept (the JSON
// around its values, the text of a number not written canonically). An
// item's list of 262,141 numbers (a 4 MB PutItem) allocated 6.0 times
// its body with its text copied (BenchmarkOversizeMemory).
const maxItemText = 64 << 10

func (d *decoder) skipSpace() {
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
func (d *decoder) peek() byte {
	if d.pos < len(d.data) && d.data[d.pos] > ' ' {
		return d.data[d.pos] // no space to skip: the common case
	}
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

// readString reads a JSON string. The fast path returns the bytes as they
// are; strings with escapes or non-ASCII bytes go through encoding/json,
// after a check that they are Unicode: invalid UTF-8 and lone surrogate
// escapes are a SerializationException (wire_text.go), never replaced.
func (d *decoder) readString() (string, error) {
	if d.peek() != '"' {
		return "", d.typeError("String")
	}
	start := d.pos + 1
	i := plainWords(d.data, start) // eight plain bytes at a time (wire_plain.go)
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
// for what encoding/json would refuse in it (validEscapes). Building
// each to check it cost most where the oversize prescans scan PartiQL
// statements, which name their table in quotes: BenchmarkOversizeMemory
// -benchtime 3x, alloc/body, BatchExecuteStatement 20.4 built -> 15.6
// checked in place; the ExecuteTransaction prescan's scan built 5.3 MB
// of a 4 MB body (-memprofile).
func (d *decoder) skipString() error {
	if d.peek() != '"' {
		return d.typeError("String")
	}
	start := d.pos + 1
	plain := true
	i := plainWords(d.data, start)
	for ; i < len(d.data); i++ {
		c := d.data[i]
		if c == '"' {
			break
		}
		if c < 0x20 {
			return d.syntax()
		}
		if c == '\\' {
			plain = false
			i++ // the escaped byte: validEscapes checks it
			continue
		}
		if c >= utf8.RuneSelf {
			plain = false
		}
	}
	if i >= len(d.data) {
		return d.syntax()
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

// skipValue skips any JSON value (for members DynamoDB ignores), bounded in depth.
func (d *decoder) skipValue(depth int) error {
	_, err := d.skipCount(depth)
	return err
}

// skipCount skips any JSON value, bounded in depth, and returns the number
// of its members when it is an object, of its elements when it is an
// array (0 otherwise).
func (d *decoder) skipCount(depth int) (int, error) {
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
		return d.skipMembers(depth)
	case '[':
		d.pos++
		if d.peek() == ']' {
			d.pos++
			return 0, nil
		}
		return d.skipElements(depth)
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

// skipMembers skips the rest of an object of depth, from the start of one
// of its members' keys past its '}', and returns how many members that was.
func (d *decoder) skipMembers(depth int) (int, error) {
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
}

// skipElements skips the rest of an array of depth, from the start of
// one of its elements past its ']', and returns how many elements that was.
func (d *decoder) skipElements(depth int) (int, error) {
	for n := 1; ; n++ {
		if _, err := d.skipCount(depth + 1); err != nil {
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
// BenchmarkOversizeMemory).
const longList = 256

// elementsLeft is the number of elements of the array d is in, from the
// one at d.pos to its end, counted by a scan that keeps nothing; 0 when
// the rest is not well formed (the decoding that follows reports it).
func (d *decoder) elementsLeft(depth int) int {
	probe := decoder{data: d.data, pos: d.pos}
	n, err := probe.skipElements(depth)
	if err != nil {
		return 0
	}
	return n
}

// membersLeft is the number of members of the object d is in, from the
// start of one of its members' keys to its end; 0 when the object is
// malformed (decoding it finds the error).
func (d *decoder) membersLeft(depth int) int {
	probe := decoder{data: d.data, pos: d.pos}
	n, err := probe.skipMembers(depth)
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
