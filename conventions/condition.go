package conventions

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
