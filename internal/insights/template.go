package insights

import (
	"fmt"
	"strings"
)

// Template is a key value as a design writes it: literal text with
// {variables}, as "Post_{created_at}" or "post". A variable stands for
// any non-empty text.
type Template struct {
	text string
	lits []string // the literal runs around the variables: len(vars)+1
	vars []string
}

// parseTemplate parses s. Braces are template syntax only; names are
// letters, digits and underscores.
func parseTemplate(s string) (Template, error) {
	if s == "" {
		return Template{}, fmt.Errorf("an empty key template")
	}
	t := Template{text: s}
	lit := strings.Builder{}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			j := strings.IndexByte(s[i+1:], '}')
			if j < 0 {
				return Template{}, fmt.Errorf("template %q: { without }", s)
			}
			name := s[i+1 : i+1+j]
			if !isName(name) {
				return Template{}, fmt.Errorf("template %q: variable %q is not a name (letters, digits, _)", s, name)
			}
			t.lits = append(t.lits, lit.String())
			t.vars = append(t.vars, name)
			lit.Reset()
			i += j + 1
		case '}':
			return Template{}, fmt.Errorf("template %q: } without {", s)
		default:
			lit.WriteByte(c)
		}
	}
	t.lits = append(t.lits, lit.String())
	for i := 1; i+1 < len(t.lits); i++ {
		if t.lits[i] == "" {
			return Template{}, fmt.Errorf("template %q: two variables without text between them", s)
		}
	}
	return t, nil
}

// isName reports whether s is letters, digits and underscores.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// String returns the template as written.
func (t Template) String() string { return t.text }

// Literal reports whether the template has no variable: a constant.
func (t Template) Literal() bool { return t.literal() }

// literal reports whether the template has no variable.
func (t Template) literal() bool { return len(t.vars) == 0 }

// bareVar reports whether the template is one variable alone ("{id}").
func (t Template) bareVar() bool { return len(t.vars) == 1 && t.lits[0] == "" && t.lits[1] == "" }

// lead is the literal text every value of the template starts with.
func (t Template) lead() string { return t.lits[0] }

// tail is the literal text every value of the template ends with.
func (t Template) tail() string { return t.lits[len(t.lits)-1] }

// weight is the number of literal bytes: how specific the template is.
func (t Template) weight() int {
	n := 0
	for _, l := range t.lits {
		n += len(l)
	}
	return n
}

// match reports whether s is a value of the template (prefix: whether s
// starts with one). Variables match non-empty text; placing each literal
// run at its leftmost possible place decides it.
func (t Template) match(s string, prefix bool) bool {
	if !strings.HasPrefix(s, t.lits[0]) {
		return false
	}
	pos := len(t.lits[0])
	n := len(t.vars)
	if n == 0 {
		return prefix || pos == len(s)
	}
	for i := 1; i < n; i++ {
		if pos+1 > len(s) {
			return false
		}
		j := strings.Index(s[pos+1:], t.lits[i])
		if j < 0 {
			return false
		}
		pos += 1 + j + len(t.lits[i])
	}
	last := t.lits[n]
	if pos+1 > len(s) {
		return false
	}
	if prefix {
		return strings.Contains(s[pos+1:], last)
	}
	return strings.HasSuffix(s, last) && len(s)-len(last) >= pos+1
}

// overlap reports whether templates a and b may produce the same value:
// two literals when equal; a literal and a template when the template
// produces the literal, except that a bare variable ("{id}") is taken
// never to equal a literal of another entity (an id is not a type tag
// such as "post": the assumption a design that tells entities apart by
// constants makes); two templates unless their leading or trailing
// literal text rules it out.
func overlap(a, b Template) bool {
	switch {
	case a.literal() && b.literal():
		return a.text == b.text
	case a.literal():
		return !b.bareVar() && b.match(a.text, false)
	case b.literal():
		return !a.bareVar() && a.match(b.text, false)
	}
	return compatible(a.lead(), b.lead(), strings.HasPrefix) && compatible(a.tail(), b.tail(), strings.HasSuffix)
}

// compatible reports whether one of x and y extends the other.
func compatible(x, y string, extends func(s, part string) bool) bool {
	return extends(x, y) || extends(y, x)
}

// span is the range of strings a template or a condition allows, for
// telling ranges apart: [lo, hi], hi open-ended when inf.
type span struct {
	lo, hi string
	inf    bool
}

// spanOf is the span of a template's values: the literal itself, or the
// strings starting with its leading literal.
func spanOf(t Template) span {
	if t.literal() {
		return span{lo: t.text, hi: t.text}
	}
	hi, ok := successor(t.lead())
	return span{lo: t.lead(), hi: hi, inf: !ok}
}

// successor returns the least string greater than every string starting
// with p, or false when there is none (p empty or all 0xff bytes).
func successor(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

// meets reports whether two spans may share a string (touching counts).
func (s span) meets(o span) bool {
	return (s.inf || o.lo <= s.hi) && (o.inf || s.lo <= o.hi)
}
