package wire

import (
	"encoding/base64"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// MaxValueDepth is DynamoDB's nesting limit: an attribute's own value is level
// 1, and a value nested in 32 levels of L or M is rejected.
const MaxValueDepth = 32

// OlderFormDepth is the nesting level past which AWS's single-item
// operations read a request in an older form, which words some member
// errors otherwise (Deferred.OlderForm): a value 63 maps deep is past it,
// one 40 deep is not ("about 62 levels": paritysuite/dynamodb-conformance
// tests/tier3/validation-ordering/deepRequests.test.ts, us-east-1 and
// eu-west-2, 2026-10-09).
const OlderFormDepth = 63

// AttributeValue is one attribute value in DynamoDB's JSON form, such as
// {"S":"a"} or {"L":[{"N":"1"}]}. Decoding validates it the way DynamoDB does
// (exactly one type, non-empty sets without duplicates, valid numbers and
// base64) and stores numbers in canonical form. A JSON null leaves it invalid
// (IsValid() false), so optional parameters can tell "absent" apart.
type AttributeValue struct{ storage.Value }

// UnmarshalJSON decodes and validates one attribute value.
func (a *AttributeValue) UnmarshalJSON(data []byte) error {
	d := decoder{data: data, docOrder: true}
	d.skipSpace()
	if d.consumeLiteral("null") {
		if err := d.end(); err != nil {
			return err
		}
		a.Value = storage.Value{}
		return nil
	}
	v, err := d.attrValue(1)
	if err = d.finish(err); err != nil {
		return err
	}
	a.Value = v
	return nil
}

// MarshalJSON encodes the value in DynamoDB's JSON form.
func (a AttributeValue) MarshalJSON() ([]byte, error) {
	return AppendValue(nil, a.Value), nil
}

// ValuesOf returns avs as storage values: the same array, not a copy (an
// AttributeValue is a storage.Value and nothing more, which the array
// below checks at compile time); nil for none. Values are immutable; do
// not store into either. The copy it replaces was 0.44 times the body of
// a 4 MB Query of 58,254 KeyConditions (5.61 to 5.17 allocated, 5.12 to
// 4.75 peak, medians of 3 interleaved; go test -run XXX -bench
// 'BenchmarkOversizeMemory/KeyConditions$' ./emulator).
func ValuesOf(avs []AttributeValue) []storage.Value {
	if len(avs) == 0 {
		return nil
	}
	return unsafe.Slice(&avs[0].Value, len(avs))
}

// An AttributeValue has a storage.Value's size, so ValuesOf's view of
// one array as the other is exact.
var _ [unsafe.Sizeof(AttributeValue{}) - unsafe.Sizeof(storage.Value{})]struct{} = [0]struct{}{}

// WireItem is an item (or key) in DynamoDB's JSON form: attribute name to
// value. Decoding validates every value; a null value is rejected as DynamoDB
// does. It has storage.Item's underlying type, so converting between the two
// (Item, ItemToWire) copies nothing.
type WireItem map[string]storage.Value

// UnmarshalJSON decodes and validates a whole item.
func (w *WireItem) UnmarshalJSON(data []byte) error {
	d := decoder{data: data}
	d.skipSpace()
	if d.consumeLiteral("null") {
		if err := d.end(); err != nil {
			return err
		}
		*w = nil
		return nil
	}
	it, err := d.item()
	if err = d.finish(err); err != nil {
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
	return AppendItem(nil, w), nil
}

// AppendWireItem appends w as WireItem.MarshalJSON does.
func AppendWireItem(b []byte, w WireItem) []byte {
	if w == nil {
		return append(b, "null"...)
	}
	return AppendItem(b, w)
}

// Item returns the item as storage values: the same map, not a copy. Values
// are immutable; do not add or delete attributes through either.
func (w WireItem) Item() storage.Item { return storage.Item(w) }

// ItemToWire returns it in wire form: the same map, not a copy; nil for nil.
func ItemToWire(it storage.Item) WireItem { return WireItem(it) }

// DecodeHeld decodes an item as a request held it, written back by
// AppendItem (a key parked: the service's limits.go): a value with a
// fault comes back as it was read, the fault reported already.
func DecodeHeld(data []byte) (storage.Item, error) {
	d := decoder{data: data}
	it, err := d.item()
	if err == nil {
		err = d.end()
	}
	return it, err
}

// DecodeItem decodes and validates an item in DynamoDB's JSON form straight
// into storage values, without the WireItem map in between.
func DecodeItem(data []byte) (storage.Item, error) {
	d := decoder{data: data}
	it, err := d.item()
	if err = d.finish(err); err != nil {
		return nil, err
	}
	return it, nil
}

// ItemMap returns an empty item map for about size attributes, from the
// maps given back when size is small; give it back with RecycleItem.
func ItemMap(size int) storage.Item { return valueMap(size) }

// item reads {"name": value, ...}: the attributes of an item or key.
func (d *decoder) item() (storage.Item, error) {
	if d.peek() != '{' {
		if d.peek() == '[' {
			return nil, apierr.Serialization(apierr.MsgSerListStart)
		}
		if d.pos < len(d.data) && d.peek() != 0 {
			return nil, apierr.Serialization(apierr.MsgSerExpectedMap)
		}
		return nil, d.syntax()
	}
	// The item before's size is the hint of this one's map (the items of
	// a batch are alike; BenchmarkPreload).
	text := d.text
	if d.keepBody() {
		d.text = d.body
	}
	m, err := d.members(0, d.hint)
	d.text = text
	d.hint = len(m)
	return m, err
}

// keepBody makes the request's body one string (body) when it is whole
// in the window and at most maxBodyText bytes, and reports whether it is
// one.
func (d *decoder) keepBody() bool {
	if d.body == "" && len(d.data) <= maxBodyText && d.whole() {
		d.body = string(d.data)
	}
	return d.body != ""
}

// keepText is b, a string read outside the body's text, as a string to
// keep. Of a body read over maxBodyText (or of no announced size), a
// short one is copied into the decoder's chunk of short strings
// (small), which they share, so that an item's names, keys and numbers
// are not an allocation each; and a long one's room past its bytes (its
// allocation's size class) is the next chunk, so that they cost no more
// bytes than before either (BenchmarkDecodePair/BatchWriteItem25x40KB/handler:
// 224 -> 99 allocs/op, 1,035,588 -> 1,034,6xx B/op). A chunk's bytes
// once given are never written again. A smaller body's few strings
// outside its text are their own: a chunk would be more bytes than they.
func (d *decoder) keepText(b []byte) string {
	if len(b) == 0 || d.src == nil || uint64(d.src.Size) <= maxBodyText {
		return string(b)
	}
	var buf []byte
	if len(b) > maxSmallText {
		buf = append(buf, b...) // its room: the size class's
		if cap(buf)-len(buf) > cap(d.small)-len(d.small) {
			d.small = buf[len(buf):]
		}
	} else {
		if cap(d.small)-len(d.small) < len(b) { // chunks of 128 bytes, doubling to smallChunk
			d.small = make([]byte, 0, min(max(2*cap(d.small), 128), smallChunk))
		}
		d.small = append(d.small, b...)
		buf = d.small[len(d.small)-len(b):]
	}
	return unsafe.String(&buf[0], len(b))
}

// maxSmallText is the longest string keepText copies into a chunk, and
// smallChunk the most bytes of a chunk it makes.
const (
	maxSmallText = 64
	smallChunk   = 1 << 10
)

// depthOf is the JSON depth of the container a value at level lvl is in
// (an item's attribute is at level 1, in the item at base): the depth a
// skipped value of it is read at.
func (d *decoder) depthOf(lvl int) int { return d.base + 2*lvl - 2 }

// next reads the ',' or the close after a member or element: more says
// another follows.
func (d *decoder) next(close byte) (more bool, err error) {
	switch d.peek() {
	case ',':
		d.pos++
		return true, nil
	case close:
		d.pos++
		return false, nil
	}
	return false, d.syntax()
}

// members reads the entries of an M value, or of an item when lvl is 0;
// size is a hint of their number.
func (d *decoder) members(lvl, size int) (map[string]storage.Value, error) {
	if d.depthOf(lvl)+1 >= maxJSONDepth {
		return nil, d.syntax()
	}
	d.pos++ // '{'
	var m map[string]storage.Value
	rank := rankValue
	if lvl == 0 {
		m, rank = valueMap(size), rankName // an item's or key's map may be reused (wire_recycle.go)
	} else {
		m = make(map[string]storage.Value, size)
	}
	if d.peek() == '}' {
		d.pos++
		return m, nil
	}
	cut := math.MaxInt // past this position, an item Limits cut is read on by cutItem
	if lvl == 0 && d.cut && d.lim != nil && d.lim.ItemBytes > 0 {
		cut = d.pos + d.lim.ItemBytes
	}
	for more := true; more; {
		name, err := d.readString()
		if err != nil {
			return nil, d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return nil, err
		}
		if name == "" {
			d.ranked(apierr.MsgEmptyAttributeName, rank)
		} else if len(name) > expr.MaxAttributeNameBytes {
			d.ranked(expr.MsgAttributeNameTooLarge, rank)
		}
		if d.isNull() {
			d.validation(apierr.MsgNullInList + ": " + name + " is null")
		} else {
			v, err := d.attrValue(lvl + 1)
			if err != nil {
				return nil, err
			}
			m[name] = v
		}
		if more, err = d.next('}'); err != nil {
			return nil, err
		}
		if d.pos > cut && more {
			return m, d.cutItem(m)
		}
	}
	return m, nil
}

// attrValue reads one attribute value object at nesting level lvl (1 for an
// attribute's own value). A value nested past MaxValueDepth is recorded as
// a fault and read on (to maxJSONDepth, where JSON itself stops), so that
// the request's other faults can be ordered against it.
func (d *decoder) attrValue(lvl int) (storage.Value, error) {
	d.decoded++
	if lvl > MaxValueDepth {
		if d.depthOf(lvl) >= maxJSONDepth {
			return storage.Value{}, d.syntax()
		}
		if lvl == MaxValueDepth+1 {
			d.ranked(apierr.MsgNestingExceeded, rankDepth)
		}
		if lvl == OlderFormDepth+1 {
			d.olderForm = true
		}
	}
	if d.peek() != '{' {
		return storage.Value{}, d.containerTypeError('[', apierr.MsgSerListStart, apierr.MsgSerExpectedNull)
	}
	d.pos++
	hadErr := d.verr != nil
	var (
		set uint16 // a bit a type key, to count them
		v   storage.Value
	)
	if d.peek() == '}' {
		d.pos++
		return d.counted(v, 0, hadErr), nil
	}
	for more := true; more; {
		key, err := d.readString()
		if err != nil {
			return storage.Value{}, d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return storage.Value{}, err
		}
		if !d.isNull() { // a null member is as good as absent
			k := kindOfKey(key)
			got, err := d.typed(k, lvl)
			if err != nil {
				return storage.Value{}, err
			}
			if k != storage.KindInvalid {
				set |= 1 << (k - 1)
				v = got
			}
		}
		if more, err = d.next('}'); err != nil {
			return storage.Value{}, err
		}
	}
	return d.counted(v, set, hadErr), nil
}

// counted is the value v read with the type keys set: a value with none
// or several is a fault, reported before those of its contents, and
// one with none a NULL, a stand-in for the value that is none, so that
// what reads the request before the fault is reported sees a valid
// value.
func (d *decoder) counted(v storage.Value, set uint16, hadErr bool) storage.Value {
	var countErr string
	switch {
	case set == 0:
		countErr = apierr.MsgAVEmpty
	case set&(set-1) != 0:
		countErr = apierr.MsgAVMultiple
	}
	if countErr != "" && !hadErr {
		d.verr, d.vrank = apierr.Validation(countErr), rankValue
	}
	if set == 0 {
		return storage.Null()
	}
	return v
}

// typed reads the value of a type key of kind k in a value at level lvl
// (KindInvalid: a member DynamoDB ignores, skipped).
func (d *decoder) typed(k storage.Kind, lvl int) (storage.Value, error) {
	switch k {
	case storage.KindS:
		s, err := d.readString()
		return storage.S(s), err
	case storage.KindN:
		n, err := d.numberValue()
		return storage.N(n), err
	case storage.KindB:
		b, err := d.readBinary()
		return storage.BString(b), err
	case storage.KindBOOL, storage.KindNULL:
		b, err := d.readBool()
		if k == storage.KindBOOL {
			return storage.Bool(b), err
		}
		if err == nil && !b {
			d.validation(apierr.MsgNullNotTrue)
		}
		return storage.Null(), err
	case storage.KindL:
		return d.list(lvl)
	case storage.KindM:
		if d.peek() != '{' {
			return storage.Value{}, d.mapTypeError()
		}
		m, err := d.members(lvl, 0)
		return storage.M(m), err
	case storage.KindSS, storage.KindNS, storage.KindBS:
		return d.set(k, lvl)
	}
	return storage.Value{}, d.skipValue(d.depthOf(lvl) + 1)
}

// numberValue reads an N value's text and parses it; a number that is not
// valid is a fault, and comes back as parseNumber gives it. Outside the
// body's text (d.text) the text is read as a view of the input and the
// number copied once parsed, so that nothing kept views the input.
func (d *decoder) numberValue() (storage.Number, error) {
	read := d.readString
	if d.text == "" {
		read = d.stringView
	}
	s, err := read()
	if err != nil {
		return "", err
	}
	n, nerr := parseNumber(s)
	if nerr == nil {
		if d.text == "" {
			n = storage.Number(d.keepText(bytesOf(string(n)))) // n views the input
		}
		return n, nil
	}
	// The fault keeps the text: a copy (of the body's window, or of its
	// text: either may be a view), parsed again so that its error holds
	// the copy.
	s = strings.Clone(s)
	n, nerr = parseNumber(s)
	d.fault(&apierr.ValueFault{Number: s, NumberErr: nerr})
	return n, nil
}

// readBinary reads a base64 string (padded, as AWS requires) and returns
// the raw bytes.
func (d *decoder) readBinary() (string, error) {
	s, err := d.readString()
	if err != nil {
		return "", err
	}
	return decodeBase64(s)
}

func decodeBase64(s string) (string, error) {
	if len(s)%4 != 0 {
		return "", apierr.Serialization(apierr.MsgSerBase64Length + strconv.Itoa(len(s)))
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", apierr.Serialization(apierr.MsgSerInvalidBase64)
	}
	return string(b), nil
}

// list reads the elements of an L value at level lvl; an attribute's own
// list (lvl 1) keeps what its policy says (overList), and drops the
// others' bytes as it reads them.
func (d *decoder) list(lvl int) (storage.Value, error) {
	if d.peek() != '[' {
		return storage.Value{}, d.listTypeError()
	}
	if d.depthOf(lvl)+1 >= maxJSONDepth {
		return storage.Value{}, d.syntax()
	}
	o := overList{start: d.pos, cuts: lvl == 1 && d.lim != nil && d.lim.ItemBytes > 0}
	d.pos++
	elems := []storage.Value{}
	if d.peek() == ']' {
		d.pos++
		return storage.L(elems), nil
	}
	end := d.pos // after the last element kept, or the '['
	for i, more := 0, true; more; i++ {
		if i == longList && !o.cuts {
			left, _ := d.elementsLeft(d.depthOf(lvl) + 2)
			elems = slices.Grow(elems, left)
		}
		past := o.over
		if d.isNull() {
			d.validation(apierr.MsgNullInList)
		} else {
			v, err := d.attrValue(lvl + 1)
			if err != nil {
				return storage.Value{}, err
			}
			if o.cuts {
				elems = o.add(d, elems, v)
			} else {
				elems = append(elems, v)
			}
		}
		if past {
			d.drop(end)
		}
		end = d.pos
		var err error
		if more, err = d.next(']'); err != nil {
			return storage.Value{}, err
		}
	}
	return storage.L(o.end(elems)), nil
}

// set reads the members of an SS, NS or BS value and validates them.
func (d *decoder) set(k storage.Kind, lvl int) (storage.Value, error) {
	if d.peek() != '[' {
		return storage.Value{}, d.listTypeError()
	}
	if d.depthOf(lvl)+1 >= maxJSONDepth {
		return storage.Value{}, d.syntax()
	}
	d.pos++
	var buf [8]string
	members := buf[:0]
	memberErr := false
	if d.peek() == ']' {
		d.pos++
	} else {
		for more := true; more; {
			if d.isNull() {
				switch k {
				case storage.KindSS:
					d.validation(apierr.MsgSSNullMember)
				case storage.KindNS:
					d.validation(storage.ErrNumberInvalid.Error())
				case storage.KindBS:
					d.validation(apierr.MsgBSNullMember)
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
						d.fault(&apierr.ValueFault{Number: strings.Clone(s), NumberErr: nerr})
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
			var err error
			if more, err = d.next(']'); err != nil {
				return storage.Value{}, err
			}
		}
	}
	// Off the stack buffer, into a variable of its own: assigned back to
	// members, the copy would make buf escape (one more allocation per set).
	set := slices.Clip(slices.Clone(members))
	if memberErr {
		return storage.SetOf(k, set), nil
	}
	if len(set) == 0 {
		switch k {
		case storage.KindSS:
			d.validation(apierr.MsgSSEmpty)
		case storage.KindNS:
			d.validation(apierr.MsgNSEmpty)
		default:
			d.validation(apierr.MsgBSEmpty)
		}
		return storage.SetOf(k, []string{}), nil
	}
	if hasDuplicates(set) {
		members := make([]string, len(set)) // copies: the set's may be views of the body
		for i, m := range set {
			members[i] = strings.Clone(m)
		}
		d.fault(&apierr.ValueFault{SetKind: k, Members: members})
	}
	return storage.SetOf(k, set), nil
}

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
// already canonical and short (most numbers on the wire: "3", "-12.5"),
// and one for text whose canonical form is a part of it ("007", "1.50").
func parseNumber(s string) (storage.Number, error) {
	if isCanonicalShort(s) {
		return storage.Number(s), nil
	}
	if t, ok := trimmedCanonical(s); ok {
		return storage.Number(t), nil
	}
	return storage.ParseNumber(s)
}

// trimmedCanonical is the canonical text of s when it is a part of s:
// s is at most 38 bytes of an optional '-', digits and an optional '.'
// and digits, and without the integer part's leading zeros and the
// fraction's trailing zeros (the '.' too when nothing follows it) it is
// canonical and short, its '-' (if any) not followed by a zero that went.
// storage.ParseNumber allocated two strings for each such number (the
// 262,141 numbers "0000000" ... of an item's list, a 4 MB PutItem, 6 MB:
// BenchmarkOversizeMemory/ItemList; FuzzTrimmedNumber).
func trimmedCanonical(s string) (string, bool) {
	if len(s) == 0 || len(s) > 38 {
		return "", false
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	intStart := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	intEnd := i
	end := intEnd
	if intEnd == intStart {
		return "", false
	}
	if i < len(s) && s[i] == '.' {
		i++
		fracStart := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == fracStart {
			return "", false
		}
		for end = i; end > fracStart && s[end-1] == '0'; end-- {
		}
		if end == fracStart {
			end = intEnd // no fraction left: no '.'
		}
	}
	if i != len(s) {
		return "", false
	}
	start := intStart
	for start < intEnd-1 && s[start] == '0' {
		start++
	}
	if intStart == 1 { // '-'
		if start != intStart {
			return "", false
		}
		start = 0
	}
	t := s[start:end]
	return t, isCanonicalShort(t)
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
