package conventions

import "strings"

// IsNotExistsCondition reports whether a ConditionExpression is the
// framework's create guard, attribute_not_exists(pk) AND
// attribute_not_exists(sk), with names resolved through
// ExpressionAttributeNames (#k). Spacing, the case of AND, redundant
// parentheses and the order of the two calls do not matter; either call
// alone is accepted too, as it means the same for a key attribute (an item
// exists exactly when its key attributes do). Anything else is false.
func IsNotExistsCondition(expr string, names map[string]string) bool {
	p := condParser{src: expr, names: names}
	p.next()
	if !p.disjunct() || p.tok != "" {
		return false
	}
	return len(p.seen) > 0 && len(p.seen) <= 2
}

// condParser recognises: expr = term {AND term}; term = "(" expr ")" |
// attribute_not_exists "(" name ")", where name is pk or sk once each.
type condParser struct {
	src   string
	pos   int
	tok   string // "" at the end
	names map[string]string
	seen  map[string]bool
	depth int
}

// next scans one token: a word ([A-Za-z0-9_#]+), "(" or ")"; any other
// character becomes a one-character token that matches nothing.
func (p *condParser) next() {
	for p.pos < len(p.src) && isSpaceByte(p.src[p.pos]) {
		p.pos++
	}
	start := p.pos
	if p.pos >= len(p.src) {
		p.tok = ""
		return
	}
	for p.pos < len(p.src) && isWordByte(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		p.pos++
	}
	p.tok = p.src[start:p.pos]
}

func (p *condParser) disjunct() bool {
	if !p.term() {
		return false
	}
	for isAnd(p.tok) {
		p.next()
		if !p.term() {
			return false
		}
	}
	return true
}

func (p *condParser) term() bool {
	if p.tok == "(" {
		if p.depth++; p.depth > 8 {
			return false
		}
		p.next()
		if !p.disjunct() || p.tok != ")" {
			return false
		}
		p.depth--
		p.next()
		return true
	}
	if p.tok != "attribute_not_exists" {
		return false
	}
	p.next()
	if p.tok != "(" {
		return false
	}
	p.next()
	name := p.tok
	if len(name) > 1 && name[0] == '#' {
		resolved, ok := p.names[name]
		if !ok {
			return false
		}
		name = resolved
	}
	if (name != "pk" && name != "sk") || p.seen[name] {
		return false
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[name] = true
	p.next()
	if p.tok != ")" {
		return false
	}
	p.next()
	return true
}

func isAnd(tok string) bool {
	return len(tok) == 3 && (tok[0]|0x20) == 'a' && (tok[1]|0x20) == 'n' && (tok[2]|0x20) == 'd'
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isWordByte(c byte) bool {
	return c == '_' || c == '#' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// pinsLatest reports whether a ConditionExpression makes a write of the
// latest item fail when the latest item has moved since the writer read
// it: one of its top-level AND terms is <pointer> = :value (the pointer as
// the writer saw it), or, for a latest item not yet written,
// attribute_not_exists(<pointer>) or attribute_not_exists of a key
// attribute. names resolves #placeholders. A condition whose top level is
// an OR guarantees nothing and is false.
func pinsLatest(expr string, names map[string]string, pointer string, keys Key) bool {
	resolve := func(name string) string {
		if len(name) > 1 && name[0] == '#' {
			return names[name]
		}
		return name
	}
	for _, term := range conjuncts(condTokens(expr)) {
		switch {
		case len(term) == 3 && term[1] == "=":
			a, b := term[0], term[2]
			if strings.HasPrefix(a, ":") {
				a, b = b, a
			}
			if strings.HasPrefix(b, ":") && resolve(a) == pointer {
				return true
			}
		case len(term) == 4 && strings.EqualFold(term[0], "attribute_not_exists") && term[1] == "(" && term[3] == ")":
			if name := resolve(term[2]); name != "" && (name == pointer || name == keys.PK || (keys.SK != "" && name == keys.SK)) {
				return true
			}
		}
	}
	return false
}

// condTokens splits a condition expression into tokens: words (names,
// #placeholders, :values, paths with '.' and [n]), parentheses,
// comparison operators and commas.
func condTokens(expr string) []string {
	var toks []string
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case isSpaceByte(c):
			i++
		case isWordByte(c) || c == ':' || c == '.' || c == '[' || c == ']':
			j := i
			for j < len(expr) && (isWordByte(expr[j]) || expr[j] == ':' || expr[j] == '.' || expr[j] == '[' || expr[j] == ']') {
				j++
			}
			toks = append(toks, expr[i:j])
			i = j
		case (c == '<' || c == '>') && i+1 < len(expr) && (expr[i+1] == '=' || expr[i+1] == '>'):
			toks = append(toks, expr[i:i+2])
			i += 2
		default:
			toks = append(toks, expr[i:i+1])
			i++
		}
	}
	return toks
}

// conjuncts returns the top-level AND terms of a tokenized condition,
// nested ANDs in parentheses flattened: "a = :a AND (b = :b AND c = :c)"
// gives three. An OR at the top level makes the whole one opaque term
// (none of its parts holds for sure); BETWEEN's AND joins no terms.
func conjuncts(toks []string) [][]string {
	for len(toks) >= 2 && toks[0] == "(" && closing(toks, 0) == len(toks)-1 {
		toks = toks[1 : len(toks)-1]
	}
	var parts [][]string
	depth, start, between := 0, 0, false
	for i, t := range toks {
		switch {
		case t == "(":
			depth++
		case t == ")":
			depth--
		case depth != 0:
		case strings.EqualFold(t, "OR"):
			return [][]string{toks}
		case strings.EqualFold(t, "BETWEEN"):
			between = true
		case strings.EqualFold(t, "AND") && between:
			between = false
		case strings.EqualFold(t, "AND"):
			parts = append(parts, toks[start:i])
			start = i + 1
		}
	}
	if parts == nil {
		return [][]string{toks}
	}
	parts = append(parts, toks[start:])
	var out [][]string
	for _, p := range parts {
		out = append(out, conjuncts(p)...)
	}
	return out
}

// closing returns the index of the ")" that closes toks[open], or -1.
func closing(toks []string, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
