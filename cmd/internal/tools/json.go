package tools

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON for awslocal: option values and --cli-input-json read, the
// request written, the answer printed as the AWS CLI prints it (indented
// by four, members in the order received). encoding/json would add 0.37
// MB of reflection-driven code to the binary for these few shapes.
//
// A value is nil, bool, string, jsonNumber, int64, []any or jsonObject.

// jsonObject is an object, its members in order.
type jsonObject []jsonMember

// jsonMember is one member of an object.
type jsonMember struct {
	key string
	val any
}

// jsonNumber is a number as written.
type jsonNumber string

// get returns the value of the member key.
func (o jsonObject) get(key string) (any, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// set gives key the value v, in place if the object has it, else last.
func (o *jsonObject) set(key string, v any) {
	for i := range *o {
		if (*o)[i].key == key {
			(*o)[i].val = v
			return
		}
	}
	*o = append(*o, jsonMember{key, v})
}

// errJSON is text that is not one JSON value.
var errJSON = errors.New("not JSON")

// maxJSONDepth bounds nesting.
const maxJSONDepth = 512

// parseJSON reads s, one JSON value with white space around it.
func parseJSON(s string) (any, error) {
	p := jsonParser{src: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.pos != len(p.src) {
		return nil, p.errorf("more after the value")
	}
	return v, nil
}

type jsonParser struct {
	src string
	pos int
}

func (p *jsonParser) errorf(format string, a ...any) error {
	return errorf("%w: at %d: %s", errJSON, p.pos, sprintf(format, a...))
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *jsonParser) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, p.errorf("nested deeper than %d", maxJSONDepth)
	}
	p.skipSpace()
	if p.pos == len(p.src) {
		return nil, p.errorf("a value is missing")
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		n := numberLen(p.src[p.pos:])
		if n == 0 {
			return nil, p.errorf("a bad number")
		}
		p.pos += n
		return jsonNumber(p.src[p.pos-n : p.pos]), nil
	}
	for _, lit := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if strings.HasPrefix(p.src[p.pos:], lit.text) {
			p.pos += len(lit.text)
			return lit.v, nil
		}
	}
	return nil, p.errorf("unexpected %q", p.src[p.pos])
}

// object reads an object at p.pos (its opening brace), depth deep.
func (p *jsonParser) object(depth int) (any, error) {
	p.pos++
	obj := jsonObject{}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return obj, nil
	}
	for {
		p.skipSpace()
		if p.pos == len(p.src) || p.src[p.pos] != '"' {
			return nil, p.errorf("want a member's name")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if p.skipSpace(); p.pos == len(p.src) || p.src[p.pos] != ':' {
			return nil, p.errorf("want :")
		}
		p.pos++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		obj.set(key, v) // the last of repeated names wins, as in encoding/json
		if p.skipSpace(); p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return obj, nil
		}
		return nil, p.errorf("want , or }")
	}
}

// array reads an array at p.pos (its opening bracket), depth deep.
func (p *jsonParser) array(depth int) (any, error) {
	p.pos++
	list := []any{}
	p.skipSpace()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return list, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		if p.skipSpace(); p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			return list, nil
		}
		return nil, p.errorf("want , or ]")
	}
}

// str reads a string at p.pos (its opening quote).
func (p *jsonParser) str() (string, error) {
	p.pos++ // "
	var b strings.Builder
	for {
		if p.pos == len(p.src) {
			return "", p.errorf("an unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.errorf("a control character in a string")
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 == len(p.src) {
			return "", p.errorf("an unterminated string")
		}
		esc := p.src[p.pos+1]
		p.pos += 2
		if i := strings.IndexByte(`"\/bfnrt`, esc); i >= 0 {
			b.WriteByte("\"\\/\b\f\n\r\t"[i])
			continue
		}
		if esc != 'u' {
			return "", p.errorf("a bad escape \\%c", esc)
		}
		r, ok := p.hex4()
		if !ok {
			return "", p.errorf("a bad \\u escape")
		}
		if utf16.IsSurrogate(r) { // a pair, or U+FFFD as encoding/json reads a lone half
			save := p.pos
			if strings.HasPrefix(p.src[p.pos:], `\u`) {
				p.pos += 2
				if r2, ok := p.hex4(); ok && utf16.DecodeRune(r, r2) != utf8.RuneError {
					b.WriteRune(utf16.DecodeRune(r, r2))
					continue
				}
			}
			p.pos = save
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
}

// hex4 reads four hex digits.
func (p *jsonParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(p.src[p.pos : p.pos+4]) {
		i := strings.IndexByte("0123456789abcdef", c|0x20)
		if i < 0 || c < '0' {
			return 0, false
		}
		r = r<<4 | rune(i)
	}
	p.pos += 4
	return r, true
}

// numberLen is the length of the JSON number at the start of s (0: none):
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberLen(s string) int {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return 0
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return 0
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0
		}
	}
	return i
}

// appendJSON appends v as JSON: compact when indent is "", else with
// each member and element on a line of its own, indented by indent per
// level (depth: the level v is at).
func appendJSON(b []byte, v any, indent string, depth int) []byte {
	newline := func(b []byte, d int) []byte {
		if indent == "" {
			return b
		}
		return append(append(b, '\n'), strings.Repeat(indent, d)...)
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case int64:
		return strconv.AppendInt(b, v, 10)
	case jsonNumber:
		return append(b, v...)
	case string:
		return appendJSONString(b, v)
	case []any:
		if len(v) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(newline(b, depth+1), e, indent, depth+1)
		}
		return append(newline(b, depth), ']')
	case jsonObject:
		if len(v) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i, m := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(newline(b, depth+1), m.key)
			b = append(b, ':')
			if indent != "" {
				b = append(b, ' ')
			}
			b = appendJSON(b, m.val, indent, depth+1)
		}
		return append(newline(b, depth), '}')
	}
	panic("tools: not a JSON value") // only the types above are made
}

// appendJSONString appends s quoted, invalid UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s { // a bad byte reads as utf8.RuneError
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}
