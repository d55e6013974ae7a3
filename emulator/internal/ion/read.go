package ion

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// Reading Ion text (write.go has the mapping). AWS's import docs
// show two forms, both read: a line per item, each "$ion_1_0 {Item:{...}}"
// as exports write it, and one top-level list of {Item:{...}} structs.
// The reader takes the text subset of Ion those use and what a writer of
// the same data may add: comments, whitespace and newlines anywhere,
// quoted symbols ('a b') and strings as field names, long strings
// ('''...'''), ints in hex or binary, underscores between digits, floats
// (1.5e3), typed nulls (null.string: NULL), clobs (as B), annotations
// (only the three set annotations mean anything; others are ignored),
// $ion_symbol_table structs at the top (skipped). Ion binary is not
// read. A value DynamoDB has no type for (a symbol, a timestamp, an
// s-expression, nan or an infinity) makes its item an error.

// Record is one item read from Ion text, or one error.
type Record struct {
	// Item is the item in DynamoDB JSON ({"name":{"S":"v"},...}), for
	// wire.DecodeItem to check as any item; nil with Err.
	Item []byte
	// Raw is the text the item (or the error) was read from.
	Raw []byte
	// Err says why Raw is not an item.
	Err error
}

// ionMaxDepth bounds the nesting the reader follows (DynamoDB's items
// nest 32 deep at most; DecodeItem says so with AWS's message).
const ionMaxDepth = 64

// ReadItems reads the Ion text data and calls fn for each item, and
// for each piece that is not an item (its error), in order, until fn
// returns false. After a syntax error it goes on at the next line.
func ReadItems(data []byte, fn func(Record) bool) {
	if bytes.HasPrefix(data, []byte{0xE0, 0x01, 0x00, 0xEA}) {
		fn(Record{Raw: data[:4], Err: errors.New("binary Ion is not read: DynamoDB's Ion exports and imports are Ion text")})
		return
	}
	p := &ionParser{s: data}
	for {
		p.space()
		if p.err != nil {
			if !fn(Record{Raw: p.s[p.i:min(p.i+80, len(p.s))], Err: p.err}) {
				return
			}
			p.resync()
			continue
		}
		if p.i >= len(p.s) {
			return
		}
		start := p.i
		v := p.value(0)
		if p.err != nil {
			if !fn(Record{Raw: p.s[start:min(p.i, len(p.s))], Err: p.err}) {
				return
			}
			p.resync()
			continue
		}
		raw := p.s[start:p.i]
		switch {
		case v.kind == ionSymbol && len(v.annots) == 0 && strings.HasPrefix(v.text, "$ion_"):
			// a version marker
		case v.kind == ionStruct && len(v.annots) > 0 && v.annots[0] == "$ion_symbol_table":
			// a local symbol table: names are read as text here
		case v.kind == ionList && len(v.annots) == 0:
			for i := range v.elems {
				if !fn(ionItemRecord(&v.elems[i], p.s[v.elems[i].start:v.elems[i].end])) {
					return
				}
			}
		default:
			if !fn(ionItemRecord(&v, raw)) {
				return
			}
		}
	}
}

// ionItemRecord is the record of v, a {Item:{...}} struct.
func ionItemRecord(v *ionValue, raw []byte) Record {
	if v.kind != ionStruct {
		return Record{Raw: raw, Err: fmt.Errorf("an Ion %s is not an item: want a struct {Item:{...}}", v.kind)}
	}
	var item *ionValue
	for i := range v.fields {
		if v.fields[i].name == "Item" {
			item = &v.fields[i].v
		}
	}
	if item == nil || item.kind != ionStruct {
		return Record{Raw: raw, Err: errors.New("the Ion struct has no Item struct")}
	}
	b, err := item.appendMap(nil)
	if err != nil {
		return Record{Raw: raw, Err: err}
	}
	return Record{Item: b, Raw: raw}
}

// ionKind is the type of a parsed Ion value.
type ionKind uint8

const (
	ionNull ionKind = iota
	ionBool
	ionNumber // int, decimal or float: text is DynamoDB number text
	ionSpecialFloat
	ionTimestamp
	ionString
	ionSymbol
	ionBlob // blob or clob: text is the bytes
	ionList
	ionSexp
	ionStruct
)

func (k ionKind) String() string {
	return [...]string{"null", "bool", "number", "float", "timestamp", "string", "symbol", "blob", "list", "s-expression", "struct"}[k]
}

// ionValue is one parsed Ion value.
type ionValue struct {
	kind       ionKind
	start, end int // where it is in the text, annotations included
	annots     []string
	text       string
	b          bool
	elems      []ionValue
	fields     []ionField
}

type ionField struct {
	name string
	v    ionValue
}

// appendMap appends a struct's fields as a DynamoDB JSON item (or M).
func (v *ionValue) appendMap(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i := range v.fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = wire.AppendString(b, v.fields[i].name)
		b = append(b, ':')
		var err error
		if b, err = v.fields[i].v.appendAttr(b); err != nil {
			return nil, fmt.Errorf("%s: %w", v.fields[i].name, err)
		}
	}
	return append(b, '}'), nil
}

// appendAttr appends v as a DynamoDB JSON attribute value.
func (v *ionValue) appendAttr(b []byte) ([]byte, error) {
	set := ""
	for _, a := range v.annots {
		if a == ionAnnotSS || a == ionAnnotNS || a == ionAnnotBS {
			set = a
			break
		}
	}
	if set != "" {
		if v.kind != ionList {
			return nil, fmt.Errorf("%s annotates an Ion %s, not a list", set, v.kind)
		}
		want, key := ionString, `{"SS":[`
		switch set {
		case ionAnnotNS:
			want, key = ionNumber, `{"NS":[`
		case ionAnnotBS:
			want, key = ionBlob, `{"BS":[`
		}
		b = append(b, key...)
		for i := range v.elems {
			e := &v.elems[i]
			if e.kind != want {
				return nil, fmt.Errorf("a %s member is an Ion %s", set, e.kind)
			}
			if i > 0 {
				b = append(b, ',')
			}
			b = e.appendScalar(b)
		}
		return append(b, "]}"...), nil
	}
	switch v.kind {
	case ionNull:
		return append(b, `{"NULL":true}`...), nil
	case ionBool:
		if v.b {
			return append(b, `{"BOOL":true}`...), nil
		}
		return append(b, `{"BOOL":false}`...), nil
	case ionNumber:
		b = append(b, `{"N":`...)
	case ionString:
		b = append(b, `{"S":`...)
	case ionBlob:
		b = append(b, `{"B":`...)
	case ionList:
		b = append(b, `{"L":[`...)
		for i := range v.elems {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = v.elems[i].appendAttr(b); err != nil {
				return nil, err
			}
		}
		return append(b, "]}"...), nil
	case ionStruct:
		b = append(b, `{"M":`...)
		b, err := v.appendMap(b)
		if err != nil {
			return nil, err
		}
		return append(b, '}'), nil
	default:
		return nil, fmt.Errorf("an Ion %s has no DynamoDB type", v.kind)
	}
	return append(v.appendScalar(b), '}'), nil
}

// appendScalar appends a number, string or blob as its JSON string.
func (v *ionValue) appendScalar(b []byte) []byte {
	if v.kind == ionBlob {
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, []byte(v.text))
		return append(b, '"')
	}
	return wire.AppendString(b, v.text)
}

// ionParser parses Ion text from s.
type ionParser struct {
	s   []byte
	i   int
	err error
}

func (p *ionParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("not Ion text at offset %d: %s", p.i, fmt.Sprintf(format, args...))
	}
}

// resync clears the error and moves past the line it was found on.
func (p *ionParser) resync() {
	p.err = nil
	if j := bytes.IndexByte(p.s[min(p.i, len(p.s)):], '\n'); j >= 0 {
		p.i += j + 1
	} else {
		p.i = len(p.s)
	}
}

// space skips whitespace and comments.
func (p *ionParser) space() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			p.i++
		case c == '/' && p.i+1 < len(p.s) && p.s[p.i+1] == '/':
			if j := bytes.IndexByte(p.s[p.i:], '\n'); j >= 0 {
				p.i += j + 1
			} else {
				p.i = len(p.s)
			}
		case c == '/' && p.i+1 < len(p.s) && p.s[p.i+1] == '*':
			j := bytes.Index(p.s[p.i+2:], []byte("*/"))
			if j < 0 {
				p.fail("a comment is not closed")
				p.i = len(p.s)
				return
			}
			p.i += j + 4
		default:
			return
		}
	}
}

func (p *ionParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *ionParser) at(lit string) bool { return bytes.HasPrefix(p.s[p.i:], []byte(lit)) }

// value parses one value with its annotations.
func (p *ionParser) value(depth int) ionValue {
	if depth > ionMaxDepth {
		p.fail("nested more than %d deep", ionMaxDepth)
		return ionValue{}
	}
	var annots []string
	p.space()
	start := p.i
	for {
		p.space()
		if p.err != nil {
			return ionValue{}
		}
		v := p.bare(depth)
		if p.err != nil {
			return ionValue{}
		}
		if v.kind != ionSymbol || v.b { // v.b: an operator, not a symbol name
			v.annots, v.start, v.end = annots, start, p.i
			return v
		}
		end := p.i
		p.space()
		if !p.at("::") {
			v.annots, v.start, v.end = annots, start, end
			return v
		}
		p.i += 2
		annots = append(annots, v.text)
	}
}

// bare parses a value without annotations (a symbol that may be one).
func (p *ionParser) bare(depth int) ionValue {
	if p.i >= len(p.s) {
		p.fail("the text ends where a value should be")
		return ionValue{}
	}
	c := p.s[p.i]
	switch {
	case c == '{' && p.at("{{"):
		return p.lob()
	case c == '{':
		return p.strct(depth)
	case c == '[':
		p.i++
		return ionValue{kind: ionList, elems: p.seq(']', depth)}
	case c == '(':
		p.i++
		return ionValue{kind: ionSexp, elems: p.seq(')', depth)}
	case c == '"':
		return ionValue{kind: ionString, text: p.shortText('"')}
	case c == '\'' && p.at("'''"):
		return ionValue{kind: ionString, text: p.longText()}
	case c == '\'':
		return ionValue{kind: ionSymbol, text: p.shortText('\'')}
	case c >= '0' && c <= '9' || c == '-' && p.i+1 < len(p.s) && p.s[p.i+1] >= '0' && p.s[p.i+1] <= '9':
		return p.number()
	case c == '+' && p.at("+inf") || c == '-' && p.at("-inf"):
		p.i += 4
		return ionValue{kind: ionSpecialFloat, text: string(p.s[p.i-4 : p.i])}
	case identStart(c):
		return p.word()
	case strings.IndexByte("!#%&*+-./;<=>?@^`|~", c) >= 0:
		j := p.i
		for j < len(p.s) && strings.IndexByte("!#%&*+-./;<=>?@^`|~", p.s[j]) >= 0 {
			j++
		}
		v := ionValue{kind: ionSymbol, text: string(p.s[p.i:j]), b: true}
		p.i = j
		return v
	}
	p.fail("unexpected character %q", c)
	return ionValue{}
}

func identStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func identPart(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// word parses an identifier: a keyword or a symbol.
func (p *ionParser) word() ionValue {
	j := p.i
	for j < len(p.s) && identPart(p.s[j]) {
		j++
	}
	w := string(p.s[p.i:j])
	p.i = j
	switch w {
	case "true", "false":
		return ionValue{kind: ionBool, b: w == "true"}
	case "nan":
		return ionValue{kind: ionSpecialFloat, text: w}
	case "null":
		if p.peek() == '.' {
			k := p.i + 1
			for k < len(p.s) && identPart(p.s[k]) {
				k++
			}
			switch string(p.s[p.i+1 : k]) {
			case "null", "bool", "int", "float", "decimal", "timestamp", "string", "symbol", "blob", "clob", "struct", "list", "sexp":
				p.i = k
			default:
				p.fail("unknown typed null %q", p.s[p.i-4:k])
			}
		}
		return ionValue{kind: ionNull}
	}
	return ionValue{kind: ionSymbol, text: w}
}

// seq parses the values of a list or s-expression up to close.
func (p *ionParser) seq(close byte, depth int) []ionValue {
	var out []ionValue
	for {
		p.space()
		if p.err != nil {
			return nil
		}
		if p.peek() == close {
			p.i++
			return out
		}
		if len(out) > 0 && close == ']' {
			if p.peek() != ',' {
				p.fail("want ',' or ']' in a list")
				return nil
			}
			p.i++
			p.space()
			if p.peek() == close { // a trailing comma
				p.i++
				return out
			}
		}
		v := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		out = append(out, v)
	}
}

// strct parses a struct.
func (p *ionParser) strct(depth int) ionValue {
	p.i++
	v := ionValue{kind: ionStruct}
	for {
		p.space()
		if p.err != nil {
			return v
		}
		if p.peek() == '}' {
			p.i++
			return v
		}
		if len(v.fields) > 0 {
			if p.peek() != ',' {
				p.fail("want ',' or '}' in a struct")
				return v
			}
			p.i++
			p.space()
			if p.peek() == '}' {
				p.i++
				return v
			}
		}
		var name string
		switch c := p.peek(); {
		case c == '"':
			name = p.shortText('"')
		case c == '\'' && p.at("'''"):
			name = p.longText()
		case c == '\'':
			name = p.shortText('\'')
		case identStart(c):
			j := p.i
			for j < len(p.s) && identPart(p.s[j]) {
				j++
			}
			name = string(p.s[p.i:j])
			p.i = j
		default:
			p.fail("want a field name in a struct")
		}
		p.space()
		if p.err != nil {
			return v
		}
		if p.peek() != ':' || p.at("::") {
			p.fail("want ':' after the field name %q", name)
			return v
		}
		p.i++
		f := p.value(depth + 1)
		if p.err != nil {
			return v
		}
		v.fields = append(v.fields, ionField{name: name, v: f})
	}
}

// shortText parses a string or quoted symbol closed by quote.
func (p *ionParser) shortText(quote byte) string {
	p.i++
	// Most text has no escape: one copy.
	for j := p.i; j < len(p.s); j++ {
		if c := p.s[j]; c == quote {
			text := string(p.s[p.i:j])
			p.i = j + 1
			return p.checkUTF8(text)
		} else if c == '\\' || c == '\n' || c == '\r' {
			break
		}
	}
	var sb strings.Builder
	for {
		if p.i >= len(p.s) {
			p.fail("a string is not closed")
			return ""
		}
		c := p.s[p.i]
		switch {
		case c == quote:
			p.i++
			return p.checkUTF8(sb.String())
		case c == '\n' || c == '\r':
			p.fail("a newline inside a short string")
			return ""
		case c == '\\':
			p.escape(&sb)
			if p.err != nil {
				return ""
			}
		default:
			sb.WriteByte(c)
			p.i++
		}
	}
}

// longText parses one or more adjacent long strings (”'...”').
func (p *ionParser) longText() string {
	var sb strings.Builder
	for p.at("'''") {
		p.i += 3
		for {
			if p.i >= len(p.s) {
				p.fail("a long string is not closed")
				return ""
			}
			if p.at("'''") {
				p.i += 3
				break
			}
			if c := p.s[p.i]; c == '\\' {
				p.escape(&sb)
				if p.err != nil {
					return ""
				}
			} else if c == '\r' {
				sb.WriteByte('\n') // Ion normalizes newlines in long strings
				p.i++
				if p.peek() == '\n' {
					p.i++
				}
			} else {
				sb.WriteByte(c)
				p.i++
			}
		}
		save := p.i
		p.space()
		if p.err != nil || !p.at("'''") {
			p.err, p.i = nil, save
			break
		}
	}
	return p.checkUTF8(sb.String())
}

// escape parses one escape at p.i ('\\') into sb.
func (p *ionParser) escape(sb *strings.Builder) {
	p.i++
	if p.i >= len(p.s) {
		p.fail("the text ends inside an escape")
		return
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'a':
		sb.WriteByte('\a')
	case 'b':
		sb.WriteByte('\b')
	case 't':
		sb.WriteByte('\t')
	case 'n':
		sb.WriteByte('\n')
	case 'f':
		sb.WriteByte('\f')
	case 'r':
		sb.WriteByte('\r')
	case 'v':
		sb.WriteByte('\v')
	case '0':
		sb.WriteByte(0)
	case '?', '\'', '"', '/', '\\':
		sb.WriteByte(c)
	case '\n': // a line continued
	case '\r':
		if p.peek() == '\n' {
			p.i++
		}
	case 'x', 'u', 'U':
		n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
		r, ok := p.hex(n)
		if ok && r >= 0xD800 && r <= 0xDBFF && c == 'u' && p.at("\\u") {
			p.i += 2
			lo, ok2 := p.hex(4)
			if ok2 && lo >= 0xDC00 && lo <= 0xDFFF {
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
			} else {
				ok = false
			}
		}
		if !ok || r > utf8.MaxRune || r >= 0xD800 && r <= 0xDFFF {
			p.fail("a bad \\%c escape", c)
			return
		}
		sb.WriteRune(r)
	default:
		p.fail("an unknown escape \\%c", c)
	}
}

// hex reads n (at most 8) hex digits.
func (p *ionParser) hex(n int) (rune, bool) {
	if p.i+n > len(p.s) {
		return 0, false
	}
	r, err := strconv.ParseUint(string(p.s[p.i:p.i+n]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += n
	return rune(r), true
}

// checkUTF8 checks that s is UTF-8 (Ion text is).
func (p *ionParser) checkUTF8(s string) string {
	if !utf8.ValidString(s) {
		p.fail("a string is not UTF-8")
	}
	return s
}

// lob parses a blob {{base64}} or a clob {{"text"}}.
func (p *ionParser) lob() ionValue {
	p.i += 2
	p.space()
	if p.err != nil {
		return ionValue{}
	}
	if c := p.peek(); c == '"' || c == '\'' && p.at("'''") {
		var text string
		if c == '"' {
			text = p.shortText('"')
		} else {
			text = p.longText()
		}
		p.space()
		if p.err == nil && !p.at("}}") {
			p.fail("a clob is not closed")
		}
		p.i += 2
		return ionValue{kind: ionBlob, text: text}
	}
	end := bytes.Index(p.s[p.i:], []byte("}}"))
	if end < 0 {
		p.fail("a blob is not closed")
		return ionValue{}
	}
	b64 := bytes.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' {
			return -1
		}
		return r
	}, p.s[p.i:p.i+end])
	raw, err := base64.StdEncoding.DecodeString(string(b64))
	if err != nil {
		p.fail("a blob is not base64")
		return ionValue{}
	}
	p.i += end + 2
	return ionValue{kind: ionBlob, text: string(raw)}
}

// number parses an int, decimal, float or timestamp token into
// DynamoDB number text.
func (p *ionParser) number() ionValue {
	j := p.i
	for j < len(p.s) && (identPart(p.s[j]) || strings.IndexByte(".+-:", p.s[j]) >= 0) {
		j++
	}
	tok := string(p.s[p.i:j])
	p.i = j
	digits := strings.TrimPrefix(tok, "-")
	if len(digits) >= 5 && digits[4] == '-' || len(digits) == 5 && digits[4] == 'T' {
		return ionValue{kind: ionTimestamp, text: tok}
	}
	neg := tok[0] == '-'
	if len(digits) > 2 && digits[0] == '0' && strings.IndexByte("xXbB", digits[1]) >= 0 {
		return p.radixInt(tok, digits, neg)
	}
	return p.decimal(tok, digits, neg)
}

// radixInt parses a hexadecimal (0x) or binary (0b) int token tok,
// digits without its sign.
func (p *ionParser) radixInt(tok, digits string, neg bool) ionValue {
	base := 16
	if digits[1] == 'b' || digits[1] == 'B' {
		base = 2
	}
	body, ok := ionUnderscores(digits[2:], base)
	var n big.Int
	if !ok || body == "" {
		p.fail("a bad int %q", tok)
		return ionValue{}
	}
	if _, ok := n.SetString(body, base); !ok {
		p.fail("a bad int %q", tok)
		return ionValue{}
	}
	if neg {
		n.Neg(&n)
	}
	return ionValue{kind: ionNumber, text: n.String()}
}

// decimal parses a decimal int, decimal or float token tok, digits
// without its sign: [int][.frac][(d|e)[+-]exp].
func (p *ionParser) decimal(tok, digits string, neg bool) ionValue {
	k := 0
	for k < len(digits) && (digits[k] >= '0' && digits[k] <= '9' || digits[k] == '_') {
		k++
	}
	intPart, rest := digits[:k], digits[k:]
	frac, exp, expMark := "", "", byte(0)
	if strings.HasPrefix(rest, ".") {
		m := 1
		for m < len(rest) && (rest[m] >= '0' && rest[m] <= '9' || rest[m] == '_') {
			m++
		}
		frac, rest = rest[1:m], rest[m:]
	}
	if rest != "" && strings.IndexByte("dDeE", rest[0]) >= 0 {
		expMark, exp, rest = rest[0], rest[1:], ""
		e := strings.TrimLeft(exp, "+-")
		if len(exp)-len(e) > 1 || e == "" || strings.Trim(e, "0123456789") != "" {
			p.fail("a bad number %q", tok)
			return ionValue{}
		}
	}
	in, ok1 := ionUnderscores(intPart, 10)
	fr, ok2 := ionUnderscores(frac, 10)
	if rest != "" || !ok1 || !ok2 || in == "" || len(in) > 1 && in[0] == '0' {
		p.fail("a bad number %q", tok)
		return ionValue{}
	}
	text := in
	if neg {
		text = "-" + in
	}
	if fr != "" {
		text += "." + fr
	}
	if expMark != 0 {
		text += "E" + exp
	}
	return ionValue{kind: ionNumber, text: text}
}

// ionUnderscores removes the underscores of a digit run, which Ion allows
// only between digits.
func ionUnderscores(s string, base int) (string, bool) {
	if s == "" {
		return "", true
	}
	if s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return "", false
	}
	s = strings.ReplaceAll(s, "_", "")
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= '0' && c <= '9' && (base != 2 || c <= '1') || base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		if !ok {
			return "", false
		}
	}
	return s, true
}
