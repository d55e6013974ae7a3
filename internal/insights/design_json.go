package insights

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/jsonkind"
)

// What the two JSON formats (design_workbench.go, design_onetable.go)
// share: members read in the file's order, each error naming the path of
// the member at fault, templates in the formats' spellings, and the
// pattern lines of dynamoemu's own block.

// isJSON reports whether src is JSON rather than a design file: its first
// character that is not white space is '{'.
func isJSON(src []byte) bool {
	t := bytes.TrimLeft(src, " \t\r\n\ufeff")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// parseJSONDesign parses a NoSQL Workbench model or a OneTable schema.
func parseJSONDesign(src []byte) (*Design, error) {
	src = bytes.TrimPrefix(bytes.TrimLeft(src, " \t\r\n"), []byte("\ufeff"))
	if len(src) > 0 && src[0] == '[' {
		return parseElectroDBArray(src) // the entities of one table
	}
	top, err := members(src, "json", "")
	if err != nil {
		return nil, err
	}
	switch {
	case top.has("DataModel"):
		top.format = FormatWorkbench
		return parseWorkbench(top)
	case top.has("tables") && (top.has("access_patterns") || top.has("items")):
		top.format = FormatDataModel
		return parseDataModel(top)
	case isElectroDB(top):
		// before OneTable: it shares "indexes", not their meaning
		return parseElectroDB([]*object{top})
	case isToolbox(top):
		return parseToolbox(top)
	case isDynamoose(top):
		return parseDynamoose(top)
	case top.has("models") || top.has("indexes"):
		top.format = FormatOneTable
		return parseOneTable(top)
	}
	return nil, &DesignError{Format: "json", Msg: "neither a NoSQL Workbench data model (no DataModel member) nor a OneTable schema (no models or indexes member)"}
}

// object is a JSON object's members in the file's order.
type object struct {
	format, path string
	names        []string
	values       []json.RawMessage
	raw          json.RawMessage // the whole object, for decodeMembers
}

// members decodes raw as a JSON object; path names it in errors.
func members(raw []byte, format, path string) (*object, error) {
	o := &object{format: format, path: path, raw: raw}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, o.errf("", "not JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, o.errf("", "want an object, found %s", jsonkind.Of(raw))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, o.errf("", "not JSON: %v", err)
		}
		name := tok.(string) // a member name: the decoder checked it
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, o.errf(name, "not JSON: %v", err)
		}
		if slices.Contains(o.names, name) {
			return nil, o.errf(name, "the member appears twice")
		}
		o.names = append(o.names, name)
		o.values = append(o.values, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, o.errf("", "not JSON: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, o.errf("", "text after the object")
	}
	return o, nil
}

// at is the path of member name of o.
func (o *object) at(name string) string {
	switch {
	case name == "":
		return o.path
	case o.path == "":
		return name
	}
	return o.path + "." + name
}

// errf is an error at member name of o ("" the object itself).
func (o *object) errf(name, format string, args ...any) error {
	return &DesignError{Format: o.format, Field: o.at(name), Msg: fmt.Sprintf(format, args...)}
}

// has reports whether o has member name.
func (o *object) has(name string) bool { return slices.Contains(o.names, name) }

// get returns member name's value, or nil.
func (o *object) get(name string) json.RawMessage {
	if i := slices.Index(o.names, name); i >= 0 {
		return o.values[i]
	}
	return nil
}

// only checks that o has no member but those known: a member the reader
// does not know is an error naming it, never dropped.
func (o *object) only(known ...string) error {
	for _, n := range o.names {
		if !slices.Contains(known, n) {
			return o.errf(n, "unknown member (known here: %s)", strings.Join(known, ", "))
		}
	}
	return nil
}

// str returns member name as a string ("" when absent).
func (o *object) str(name string) (string, error) {
	raw := o.get(name)
	if raw == nil {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", o.errf(name, "want a string, found %s", jsonkind.Of(raw))
	}
	return s, nil
}

// elem is the path of element i of array member name of o.
func (o *object) elem(name string, i int) string {
	return o.at(name) + "[" + strconv.Itoa(i) + "]"
}

// templateSyntax is how a format writes a template's variables.
type templateSyntax uint8

const (
	dollarBraces templateSyntax = 1 << iota // ${name}, ${name:size}, ${name:size:pad} (OneTable)
	braces                                  // {name} (a design file)
	angles                                  // <name> (a common spelling in Workbench aliases)
)

// convertTemplate rewrites s, a template in the spellings syn allows,
// into a design file's ({name}), and reports whether it has a variable.
// OneTable's padding (${n:8:0}) is dropped: a padded value is still text
// the variable matches.
func convertTemplate(s string, syn templateSyntax) (string, bool, error) {
	var b strings.Builder
	vars := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		var end byte
		skip := 1
		switch {
		case c == '$' && syn&dollarBraces != 0 && i+1 < len(s) && s[i+1] == '{':
			end, skip = '}', 2
		case c == '{' && syn&braces != 0:
			end = '}'
		case c == '<' && syn&angles != 0:
			end = '>'
		case c == '{' || c == '}':
			return "", false, fmt.Errorf("template %q: a brace that is not a ${variable}", s)
		default:
			b.WriteByte(c)
			continue
		}
		j := strings.IndexByte(s[i+skip:], end)
		if j < 0 {
			return "", false, fmt.Errorf("template %q: %s without %c", s, s[i:i+skip], end)
		}
		name := s[i+skip : i+skip+j]
		if syn&dollarBraces != 0 && end == '}' && skip == 2 {
			name, _, _ = strings.Cut(name, ":")
		}
		if !isName(name) {
			return "", false, fmt.Errorf("template %q: variable %q is not a name (letters, digits, _)", s, name)
		}
		b.WriteString("{" + name + "}")
		vars = true
		i += skip + j
	}
	return b.String(), vars, nil
}

// ownBlock is dynamoemu's own block in a JSON design: what the format
// cannot say. entities: per entity, templates for key attributes
// (ATTR: TEMPLATE in a design file's syntax); patterns: pattern lines of
// a design file.
type ownBlock struct {
	entities orderedMembers    // entity names are data: in the file's order
	patterns []json.RawMessage // each a string, read with its index for errors
	format   string
	path     string
}

// ownBlockJSON is the members of dynamoemu's block that both formats
// share; a format may add its own (OneTable's table).
type ownBlockJSON struct {
	Entities orderedMembers    `json:"entities"`
	Patterns []json.RawMessage `json:"patterns"`
}

// readOwnBlock reads the members of dynamoemu's block o that both
// formats share, besides those the caller names (and reads).
func readOwnBlock(o *object, extra ...string) (ownBlock, error) {
	if err := o.only(append([]string{"entities", "patterns"}, extra...)...); err != nil {
		return ownBlock{}, err
	}
	return decodeOwnBlock(o.raw, o.format, o.path, membersOpen)
}

// decodeOwnBlock reads raw, dynamoemu's block of format at path; closed:
// it has only the members both formats share.
func decodeOwnBlock(raw []byte, format, path string, closed bool) (ownBlock, error) {
	var bj ownBlockJSON
	if err := decodeMembers(raw, format, path, closed, &bj); err != nil {
		return ownBlock{}, err
	}
	b := ownBlock{entities: bj.Entities, patterns: bj.Patterns, format: format, path: path}
	if name := b.entities.twice(); name != "" {
		return b, b.member("entities").errf(name, "the member appears twice")
	}
	return b, nil
}

// member is member name of the block, for its errors.
func (b ownBlock) member(name string) *object {
	return &object{format: b.format, path: b.path + "." + name}
}

// apply adds the block's entity templates and patterns to table t.
func (b ownBlock) apply(t *DesignTable, format string) error {
	b.format = format
	for _, ne := range b.entities {
		e := t.entity(ne.Name)
		if e == nil {
			return b.member("entities").errf(ne.Name, "no entity %q in table %q", ne.Name, t.Name)
		}
		if err := b.entityTemplates(e, ne.Value, b.member("entities").at(ne.Name)); err != nil {
			return err
		}
	}
	for i, raw := range b.patterns {
		at := b.path + ".patterns[" + strconv.Itoa(i) + "]"
		var line string
		if err := json.Unmarshal(raw, &line); err != nil {
			return &DesignError{Format: format, Field: at, Msg: "want a pattern line (a string)"}
		}
		if err := patternLine(t, line, format, at); err != nil {
			return err
		}
	}
	return nil
}

// entityTemplates adds to entity e the templates raw, at path at, gives:
// an object of ATTR: TEMPLATE, the attribute names its data.
func (b ownBlock) entityTemplates(e *Entity, raw json.RawMessage, at string) error {
	attrs := &object{format: b.format, path: at}
	if kind := jsonkind.Of(raw); kind != "an object" {
		return attrs.errf("", "want an object, found %s", kind)
	}
	var ts orderedMembers
	if err := json.Unmarshal(raw, &ts); err != nil {
		return attrs.errf("", "not JSON: %v", err)
	}
	if name := ts.twice(); name != "" {
		return attrs.errf(name, "the member appears twice")
	}
	for _, nt := range ts {
		var text string
		if err := json.Unmarshal(nt.Value, &text); err != nil {
			return attrs.errf(nt.Name, "want a string, found %s", jsonkind.Of(nt.Value))
		}
		if text == "" {
			return attrs.errf(nt.Name, "missing or empty")
		}
		tpl, err := parseTemplate(text)
		if err != nil {
			return attrs.errf(nt.Name, "%v", err)
		}
		e.Attrs[nt.Name] = tpl
	}
	return nil
}

// patternLine parses one pattern line of a design file ("pattern NAME
// ACCESS ...") into table t.
func patternLine(t *DesignTable, line, format, at string) error {
	fail := func(err error) error {
		msg := err.Error()
		var de *DesignError
		if errors.As(err, &de) {
			msg = de.Msg
			if de.Col > 0 {
				msg = fmt.Sprintf("column %d: %s", de.Col, de.Msg)
			}
		}
		return &DesignError{Format: format, Field: at, Msg: msg}
	}
	if strings.ContainsAny(line, "\n\r") {
		return fail(errors.New("one pattern line per string"))
	}
	toks, err := tokenize(line, 1)
	if err != nil {
		return fail(err)
	}
	if len(toks) == 0 || !toks[0].is("pattern") {
		return fail(errors.New(`a pattern line starts with "pattern"`))
	}
	p := &parser{d: &Design{}, table: t, line: 1}
	if err := p.pattern(toks[0], toks[1:]); err != nil {
		return fail(err)
	}
	t.Patterns[len(t.Patterns)-1].At = at
	return nil
}

// finish checks the tables of a design read from a JSON file and derives
// the patterns of those that declare none.
func finish(d *Design) (*Design, error) {
	if len(d.Tables) == 0 {
		return nil, &DesignError{Format: d.Format, Msg: "the design declares no table"}
	}
	for _, t := range d.Tables {
		if len(t.Patterns) == 0 {
			derivePatterns(t)
		}
		if err := t.resolve(d.Format); err != nil {
			return nil, err
		}
	}
	return d, nil
}
