package insights

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// The design file, line by line ('#' starts a comment; a token is a word
// or a "quoted string" with \" and \\ escapes, and may mix both):
//
//	table NAME
//	key PARTITION_ATTR [SORT_ATTR]
//	index NAME PARTITION_ATTR [SORT_ATTR]
//	entity NAME ATTR=TEMPLATE ...
//	pattern NAME ACCESS ENTITY[,ENTITY...] [on INDEX] [where COND [and COND]] [asc|desc] ["description"]
//
//	ACCESS: get | query | scan | put | update | delete
//	COND:   pk = TEMPLATE
//	      | sk (= | < | <= | > | >=) TEMPLATE
//	      | sk begins_with TEMPLATE
//	      | sk between TEMPLATE and TEMPLATE
//
// key, index, entity and pattern lines belong to the table above them.
// An entity gives a template for the table's key attributes and for the
// key attributes of each index it appears in (an index holds the
// entities that have all its key attributes: a sparse index); a template
// is text with {variables}. A pattern's pk and sk are the key attributes
// of the index it names (the table's without "on").

// ErrDesign: a design file is not valid; the error is a *DesignError.
var ErrDesign = errors.New("insights: invalid design")

// DesignError is a design file's error and where it is: a line and
// column in a design file, a member's path in a JSON one
// ("DataModel[0].TableFacets[1].FacetName").
type DesignError struct {
	Line, Col int // from 1; Col 0 when the error is the whole line's
	// Format and Field: for a JSON file, its format ("workbench",
	// "onetable") and the path of the member at fault.
	Format, Field string
	Msg           string
}

func (e *DesignError) Error() string {
	if e.Format != "" {
		if e.Field == "" {
			return fmt.Sprintf("%s: %s", e.Format, e.Msg)
		}
		return fmt.Sprintf("%s: %s: %s", e.Format, e.Field, e.Msg)
	}
	if e.Col > 0 {
		return fmt.Sprintf("design:%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("design:%d: %s", e.Line, e.Msg)
}

func (e *DesignError) Unwrap() error { return ErrDesign }

// maxDesignBytes bounds a design file.
const maxDesignBytes = 1 << 20

// maxName bounds a name in a design (DynamoDB's table and index names go
// to 255).
const maxName = 255

// token is one token of a line.
type token struct {
	text   string // unquoted
	col    int    // from 1
	quoted bool   // some of it was quoted: never a keyword
	eq     int    // index in text of the first unquoted '=', -1 if none
}

// tokenize splits one line into tokens, stopping at a comment.
func tokenize(line string, n int) ([]token, error) {
	var toks []token
	for i := 0; i < len(line); {
		c := line[i]
		if c == ' ' || c == '\t' || c == '\r' {
			i++
			continue
		}
		if c == '#' {
			break
		}
		t := token{col: i + 1, eq: -1}
		var b strings.Builder
		for i < len(line) && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' {
			switch c := line[i]; c {
			case '"':
				t.quoted = true
				i++
				closed := false
				for i < len(line) {
					c := line[i]
					if c == '"' {
						closed = true
						i++
						break
					}
					if c == '\\' && i+1 < len(line) {
						i++
						c = line[i]
					}
					b.WriteByte(c)
					i++
				}
				if !closed {
					return nil, &DesignError{Line: n, Col: t.col, Msg: "a quoted string without its closing quote"}
				}
			case '=':
				if t.eq < 0 {
					t.eq = b.Len()
				}
				b.WriteByte(c)
				i++
			default:
				b.WriteByte(c)
				i++
			}
		}
		t.text = b.String()
		toks = append(toks, t)
	}
	return toks, nil
}

// is reports whether the token is the keyword kw.
func (t token) is(kw string) bool { return !t.quoted && t.text == kw }

// parser holds the state of one ParseDesign.
type parser struct {
	d     *Design
	table *DesignTable
	line  int
}

func (p *parser) errf(col int, format string, args ...any) error {
	return &DesignError{Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// Design file formats (Design.Format).
const (
	FormatText      = "design"    // the design file of this package
	FormatWorkbench = "workbench" // a NoSQL Workbench data model (design_workbench.go)
	FormatOneTable  = "onetable"  // a OneTable schema (design_onetable.go)
)

// ParseDesign parses and checks a design: a design file, a NoSQL
// Workbench data model or a OneTable schema (JSON, told apart by their
// members: DataModel, models). Errors are *DesignError (errors.Is
// ErrDesign): with a line and column in a design file, with the path of
// the member at fault in a JSON one.
func ParseDesign(src []byte) (*Design, error) {
	if len(src) > maxDesignBytes {
		return nil, &DesignError{Line: 1, Msg: fmt.Sprintf("the design is %d bytes, more than %d", len(src), maxDesignBytes)}
	}
	if isTemplate(src) {
		return parseTemplateDesign(src)
	}
	if isJSON(src) {
		return parseJSONDesign(src)
	}
	return parseTextDesign(src)
}

// parseTextDesign parses a design file.
func parseTextDesign(src []byte) (*Design, error) {
	p := &parser{d: &Design{Format: FormatText}}
	for n, line := range strings.Split(string(src), "\n") {
		p.line = n + 1
		toks, err := tokenize(line, p.line)
		if err != nil {
			return nil, err
		}
		if len(toks) == 0 {
			continue
		}
		if err := p.directive(toks); err != nil {
			return nil, err
		}
	}
	if len(p.d.Tables) == 0 {
		return nil, &DesignError{Line: 1, Msg: "the design declares no table"}
	}
	for _, t := range p.d.Tables {
		if err := t.resolve(FormatText); err != nil {
			return nil, err
		}
	}
	return p.d, nil
}

// directive parses one line.
func (p *parser) directive(toks []token) error {
	kw := toks[0]
	if kw.quoted {
		return p.errf(kw.col, "a line starts with table, key, index, entity or pattern, not a quoted string")
	}
	if kw.text != "table" && p.table == nil {
		return p.errf(kw.col, "%q before any table line", kw.text)
	}
	args := toks[1:]
	switch kw.text {
	case "table":
		if len(args) != 1 {
			return p.errf(kw.col, "table takes one name")
		}
		if err := p.name(args[0], "table"); err != nil {
			return err
		}
		if p.d.table(args[0].text) != nil {
			return p.errf(args[0].col, "table %q twice", args[0].text)
		}
		p.table = &DesignTable{Name: args[0].text, Line: p.line}
		p.d.Tables = append(p.d.Tables, p.table)
	case "key":
		if p.table.Key.Partition != "" {
			return p.errf(kw.col, "table %q has a key line already", p.table.Name)
		}
		k, err := p.keyDef(kw, args)
		if err != nil {
			return err
		}
		p.table.Key = k
	case "index":
		if len(args) < 2 {
			return p.errf(kw.col, "index takes a name, a partition key attribute and an optional sort key attribute")
		}
		if err := p.name(args[0], "index"); err != nil {
			return err
		}
		if p.table.index(args[0].text) != nil {
			return p.errf(args[0].col, "index %q twice", args[0].text)
		}
		k, err := p.keyDef(kw, args[1:])
		if err != nil {
			return err
		}
		p.table.Indexes = append(p.table.Indexes, &IndexDef{Name: args[0].text, Key: k, Line: p.line})
	case "entity":
		return p.entity(kw, args)
	case "pattern":
		return p.pattern(kw, args)
	default:
		return p.errf(kw.col, "unknown line %q: a line is table, key, index, entity or pattern", kw.text)
	}
	return nil
}

// name checks a name token.
func (p *parser) name(t token, what string) error {
	if t.text == "" || len(t.text) > maxName || strings.ContainsAny(t.text, ",=") {
		return p.errf(t.col, "%s name %q: 1 to %d characters, no ',' or '='", what, t.text, maxName)
	}
	return nil
}

// keyDef parses "PARTITION [SORT]".
func (p *parser) keyDef(kw token, args []token) (KeyDef, error) {
	if len(args) < 1 || len(args) > 2 {
		return KeyDef{}, p.errf(kw.col, "a key is a partition key attribute and an optional sort key attribute")
	}
	var k KeyDef
	for i, a := range args {
		if err := p.name(a, "attribute"); err != nil {
			return KeyDef{}, err
		}
		if i == 0 {
			k.Partition = a.text
		} else if a.text == k.Partition {
			return KeyDef{}, p.errf(a.col, "the sort key attribute is the partition key attribute %q", a.text)
		} else {
			k.Sort = a.text
		}
	}
	return k, nil
}

// entity parses "entity NAME ATTR=TEMPLATE ...".
func (p *parser) entity(kw token, args []token) error {
	if len(args) < 2 {
		return p.errf(kw.col, "entity takes a name and ATTR=TEMPLATE for each key attribute")
	}
	if err := p.name(args[0], "entity"); err != nil {
		return err
	}
	if p.table.entity(args[0].text) != nil {
		return p.errf(args[0].col, "entity %q twice", args[0].text)
	}
	e := &Entity{Name: args[0].text, Attrs: map[string]Template{}, Line: p.line}
	for _, a := range args[1:] {
		if a.eq <= 0 {
			return p.errf(a.col, "%q is not ATTR=TEMPLATE", a.text)
		}
		attr, text := a.text[:a.eq], a.text[a.eq+1:]
		if _, dup := e.Attrs[attr]; dup {
			return p.errf(a.col, "attribute %q twice in entity %q", attr, e.Name)
		}
		tpl, err := parseTemplate(text)
		if err != nil {
			return p.errf(a.col, "%v", err)
		}
		e.Attrs[attr] = tpl
	}
	p.table.Entities = append(p.table.Entities, e)
	return nil
}

// pattern parses a pattern line.
func (p *parser) pattern(kw token, args []token) error {
	if len(args) < 3 {
		return p.errf(kw.col, "pattern takes a name, an access (get, query, scan, put, update, delete) and its entities")
	}
	if err := p.name(args[0], "pattern"); err != nil {
		return err
	}
	for _, q := range p.table.Patterns {
		if q.Name == args[0].text {
			return p.errf(args[0].col, "pattern %q twice", args[0].text)
		}
	}
	pt := &Pattern{Name: args[0].text, Line: p.line}
	acc, ok := accessOf(args[1].text)
	if !ok || args[1].quoted {
		return p.errf(args[1].col, "access %q is not get, query, scan, put, update or delete", args[1].text)
	}
	pt.Access = acc
	for _, name := range strings.Split(args[2].text, ",") {
		if name == "" || slices.Contains(pt.Entities, name) {
			return p.errf(args[2].col, "entities %q: names separated by commas, each once", args[2].text)
		}
		pt.Entities = append(pt.Entities, name)
	}
	rest := args[3:]
	// A quoted last token is the description, unless it is an operand.
	if n := len(rest); n > 0 && rest[n-1].quoted && (n == 1 || !isOperator(rest[n-2])) {
		pt.Description = rest[n-1].text
		rest = rest[:n-1]
	}
	for len(rest) > 0 {
		t := rest[0]
		switch {
		case t.is("on"):
			if len(rest) < 2 || pt.Index != "" {
				return p.errf(t.col, "on takes one index name")
			}
			pt.Index = rest[1].text
			rest = rest[2:]
		case t.is("where"):
			n, err := p.conditions(pt, rest[1:])
			if err != nil {
				return err
			}
			rest = rest[1+n:]
		case t.is("asc"), t.is("desc"):
			if pt.Order != "" {
				return p.errf(t.col, "one order per pattern")
			}
			pt.Order = t.text
			rest = rest[1:]
		default:
			return p.errf(t.col, "unexpected %q: after the entities come [on INDEX] [where ...] [asc|desc] [\"description\"]", t.text)
		}
	}
	p.table.Patterns = append(p.table.Patterns, pt)
	return nil
}

// isOperator reports whether t is a keyword an operand follows.
func isOperator(t token) bool {
	if t.quoted {
		return false
	}
	switch t.text {
	case "on", "and", "=", "<", "<=", ">", ">=", "begins_with", "between":
		return true
	}
	return false
}

// conditions parses "COND [and COND]" and returns the tokens it took.
func (p *parser) conditions(pt *Pattern, toks []token) (int, error) {
	i := 0
	for {
		if i+2 >= len(toks) {
			col := 0
			if i < len(toks) {
				col = toks[i].col
			}
			return 0, p.errf(col, "a condition is pk = TEMPLATE or sk OP TEMPLATE")
		}
		attr, op := toks[i], toks[i+1]
		tpl, err := parseTemplate(toks[i+2].text)
		if err != nil {
			return 0, p.errf(toks[i+2].col, "%v", err)
		}
		switch {
		case attr.is("pk"):
			if !op.is("=") || pt.HasPK {
				return 0, p.errf(op.col, "the partition key condition is one pk = TEMPLATE")
			}
			pt.PK, pt.HasPK = tpl, true
			i += 3
		case attr.is("sk"):
			so, ok := sortOpOf(op.text)
			if !ok || op.quoted || pt.SortOp != SortNone {
				return 0, p.errf(op.col, "the sort key condition is one sk =, <, <=, >, >=, begins_with or between")
			}
			pt.SortOp, pt.SK = so, tpl
			i += 3
			if so == SortBetween {
				if i+1 >= len(toks) || !toks[i].is("and") {
					return 0, p.errf(op.col, "between takes TEMPLATE and TEMPLATE")
				}
				hi, err := parseTemplate(toks[i+1].text)
				if err != nil {
					return 0, p.errf(toks[i+1].col, "%v", err)
				}
				pt.SK2 = hi
				i += 2
			}
		default:
			return 0, p.errf(attr.col, "a condition starts with pk or sk, not %q", attr.text)
		}
		if i < len(toks) && toks[i].is("and") {
			i++
			continue
		}
		return i, nil
	}
}

// resolve checks a table's declarations against each other once the file
// is read. format is the file's (FormatText: errors say the line; else
// the member's path).
func (t *DesignTable) resolve(format string) error {
	errAt := func(line int, at string, msg string, args ...any) error {
		if format != FormatText {
			return &DesignError{Format: format, Field: at, Msg: fmt.Sprintf(msg, args...)}
		}
		return &DesignError{Line: line, Msg: fmt.Sprintf(msg, args...)}
	}
	if t.Key.Partition == "" {
		return errAt(t.Line, t.At, "table %q has no key line", t.Name)
	}
	for _, e := range t.Entities {
		for _, attr := range sortedKeys(e.Attrs) {
			if !t.isKeyAttr(attr) {
				return errAt(e.Line, e.At, "entity %q: %q is no key attribute of table %q or its indexes", e.Name, attr, t.Name)
			}
		}
		for _, attr := range []string{t.Key.Partition, t.Key.Sort} {
			if _, ok := e.Attrs[attr]; attr != "" && !ok {
				return errAt(e.Line, e.At, "entity %q has no template for the table's key attribute %q", e.Name, attr)
			}
		}
	}
	for _, pt := range t.Patterns {
		for _, name := range pt.Entities {
			if t.entity(name) == nil {
				return errAt(pt.Line, pt.At, "pattern %q: no entity %q in table %q", pt.Name, name, t.Name)
			}
		}
		key, ok := t.keyOf(pt.Index)
		if !ok {
			return errAt(pt.Line, pt.At, "pattern %q: no index %q in table %q", pt.Name, pt.Index, t.Name)
		}
		if err := pt.checkShape(key); err != "" {
			return errAt(pt.Line, pt.At, "pattern %q: %s", pt.Name, err)
		}
	}
	return nil
}

// sortedKeys returns m's keys in order, so that an error names the same
// attribute every time.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkShape returns what is wrong with the pattern's access and key
// condition for key (the key it is served by), or "".
func (pt *Pattern) checkShape(key KeyDef) string {
	switch pt.Access {
	case Scan:
		if pt.HasPK || pt.SortOp != SortNone {
			return "a scan has no key condition"
		}
		return ""
	case Get, Put, Update, Delete:
		if pt.Index != "" {
			return fmt.Sprintf("%s reads or writes the table's items by their key: no index", pt.Access)
		}
		if !pt.HasPK || key.Sort != "" && pt.SortOp != SortEQ || key.Sort == "" && pt.SortOp != SortNone {
			return fmt.Sprintf("%s needs the full key: pk = TEMPLATE%s", pt.Access, map[bool]string{true: " and sk = TEMPLATE", false: ""}[key.Sort != ""])
		}
	case Query:
		if !pt.HasPK {
			return "a query needs pk = TEMPLATE"
		}
		if key.Sort == "" && pt.SortOp != SortNone {
			return "a sort key condition on a key without a sort key"
		}
	}
	return ""
}
