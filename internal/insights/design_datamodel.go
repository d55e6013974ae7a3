package insights

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// AWS's DynamoDB MCP server's data model (dynamodb_data_model.json, the
// file its data model validation reads) as a design:
//
//	{"tables": [CreateTable inputs],
//	 "items": {"Blog": [{"PutRequest": {"Item": {...}}}]},
//	 "access_patterns": [{"pattern": "1", "description": ..., "table": "Blog", "index": "GSI1" | null,
//	   "dynamodb_operation": "Query", "implementation": "aws dynamodb query --table-name Blog ...",
//	   "reason": "why it is not DynamoDB's"}]}
//
// The tables are their key and indexes (design_tables.go); the format
// names no entities. Each access pattern with a table is a pattern: its
// name the pattern's, its access the operation's (BatchGetItem and
// TransactGetItems read by the full key as GetItem does, BatchWriteItem
// and TransactWriteItems write as PutItem does), its key condition the
// implementation's (an AWS CLI command: --index-name,
// --key-condition-expression with --expression-attribute-names and
// -values, --key, --item, --no-scan-index-forward). The command gives
// example values, not templates: a value is read as literal text around
// the values of the sample item (items) that holds it in that attribute
// ("77fcab6b" is {post_id} when that comment's post_id is "77fcab6b"); a
// value no sample item explains is a constant when it is a word
// ("post"), else a variable named by its placeholder (":author" is
// {author}) or its attribute. A begins_with operand is the prefix as
// written. A pattern with a reason and no table is not DynamoDB's and is
// left out. Without a command the key condition is the key's attributes
// as variables.

// FormatDataModel is AWS's DynamoDB MCP server's data model.
const FormatDataModel = "dynamodb-data-model"

// dataModelJSON is a data model's top level, decoded with decodeMembers
// as each level below it. Its members are closed (membersClosed): the
// MCP server's validation reads these three and no other, so a member
// the reader does not know is an error naming it.
type dataModelJSON struct {
	Tables         []json.RawMessage `json:"tables"`          // CreateTable inputs (design_tables.go)
	Items          orderedMembers    `json:"items"`           // per table name, its PutRequests
	AccessPatterns []json.RawMessage `json:"access_patterns"` // of dataModelPattern
}

// dataModelPattern is one of access_patterns.
type dataModelPattern struct {
	Pattern           string  `json:"pattern"`
	Description       string  `json:"description"`
	Table             string  `json:"table"`
	Index             string  `json:"index"` // "" or null: the table
	DynamoDBOperation string  `json:"dynamodb_operation"`
	Implementation    string  `json:"implementation"` // an AWS CLI command
	Reason            *string `json:"reason"`         // why it is not DynamoDB's
}

func parseDataModel(top *object) (*Design, error) {
	var dm dataModelJSON
	if err := decodeMembers(top.raw, FormatDataModel, top.path, membersClosed, &dm); err != nil {
		return nil, err
	}
	d := &Design{Format: FormatDataModel}
	for i, raw := range dm.Tables {
		o, err := members(raw, FormatDataModel, top.elem("tables", i))
		if err != nil {
			return nil, err
		}
		t, err := readCreateTable(o)
		if err != nil {
			return nil, err
		}
		if d.table(t.Name) != nil {
			return nil, o.errf("TableName", "table %q twice", t.Name)
		}
		d.Tables = append(d.Tables, t)
	}
	samples, err := dataModelItems(dm.Items, top.at("items"), d)
	if err != nil {
		return nil, err
	}
	for i, raw := range dm.AccessPatterns {
		if err := readDataModelPattern(d, raw, top.elem("access_patterns", i), samples); err != nil {
			return nil, err
		}
	}
	if len(d.Tables) == 0 {
		return nil, &DesignError{Format: FormatDataModel, Msg: "the design declares no table"}
	}
	for _, t := range d.Tables {
		if len(t.Patterns) == 0 {
			t.FromTraffic = true
		}
		if err := t.resolve(d.Format); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// dataModelItems reads items, at path at: per table of d, its sample
// items as BatchWriteItem's PutRequests.
func dataModelItems(items orderedMembers, at string, d *Design) (map[string][]sampleItem, error) {
	o := &object{format: FormatDataModel, path: at}
	if name := items.twice(); name != "" {
		return nil, o.errf(name, "the member appears twice")
	}
	samples := map[string][]sampleItem{}
	for _, nv := range items {
		if d.table(nv.Name) == nil {
			return nil, o.errf(nv.Name, "no table %q in tables", nv.Name)
		}
		var reqs []struct {
			PutRequest struct {
				Item json.RawMessage
			}
		}
		if err := json.Unmarshal(nv.Value, &reqs); err != nil {
			return nil, o.errf(nv.Name, "want an array of {\"PutRequest\": {\"Item\": ...}}")
		}
		var raws []json.RawMessage
		for _, r := range reqs {
			raws = append(raws, r.PutRequest.Item)
		}
		samples[nv.Name] = sampleItems(raws)
	}
	return samples, nil
}

// dataModelAccess is the access an operation makes.
func dataModelAccess(op string) (Access, bool) {
	switch op {
	case "Query":
		return Query, true
	case "Scan":
		return Scan, true
	case "GetItem", "BatchGetItem", "TransactGetItems":
		return Get, true
	case "PutItem", "BatchWriteItem", "TransactWrite", "TransactWriteItems":
		return Put, true
	case "UpdateItem":
		return Update, true
	case "DeleteItem":
		return Delete, true
	}
	return AccessNone, false
}

// readDataModelPattern reads raw, the access pattern at path at, into
// its table.
func readDataModelPattern(d *Design, raw json.RawMessage, at string, samples map[string][]sampleItem) error {
	var p dataModelPattern
	if err := decodeMembers(raw, FormatDataModel, at, membersClosed, &p); err != nil {
		return err
	}
	o := &object{format: FormatDataModel, path: at}
	if p.Pattern == "" {
		return o.errf("pattern", "missing or empty")
	}
	if err := checkName(o, "pattern", p.Pattern, "pattern"); err != nil {
		return err
	}
	if p.Table == "" {
		if p.Reason == nil {
			return o.errf("table", "missing: a pattern names its table, or gives the reason it is not DynamoDB's")
		}
		return nil
	}
	t := d.table(p.Table)
	if t == nil {
		return o.errf("table", "no table %q in tables", p.Table)
	}
	if p.DynamoDBOperation == "" {
		return o.errf("dynamodb_operation", "missing or empty")
	}
	acc, ok := dataModelAccess(p.DynamoDBOperation)
	if !ok {
		return o.errf("dynamodb_operation", "%q is not Query, Scan, GetItem, PutItem, UpdateItem, DeleteItem, BatchGetItem, BatchWriteItem, TransactGetItems or TransactWriteItems", p.DynamoDBOperation)
	}
	pt := &Pattern{Name: p.Pattern, Description: p.Description, Access: acc, Index: p.Index, At: at}
	if t.hasPattern(p.Pattern) {
		pt.Name = p.Pattern + "-" + acc.String() // a range split by operation ("16-19")
		if t.hasPattern(pt.Name) {
			return o.errf("pattern", "pattern %q twice", p.Pattern)
		}
	}
	cmd, err := parseCLI(p.Implementation)
	if err != nil {
		return o.errf("implementation", "%v", err)
	}
	if cmd.index != "" {
		pt.Index = cmd.index
	}
	key, ok := t.keyOf(pt.Index)
	if !ok {
		return o.errf("index", "no index %q in table %q", pt.Index, t.Name)
	}
	if err := cmd.condition(pt, key, t, samples[t.Name]); err != nil {
		return o.errf("implementation", "%v", err)
	}
	t.Patterns = append(t.Patterns, pt)
	return nil
}

// cliCommand is what an AWS CLI command says of a pattern.
type cliCommand struct {
	index, keyCond string
	names          map[string]string
	values         map[string]map[string]json.RawMessage
	key            map[string]map[string]json.RawMessage // --key or --item
	order          string
}

// parseCLI reads the options of an "aws dynamodb OP ..." command ("":
// none).
func parseCLI(s string) (*cliCommand, error) {
	c := &cliCommand{}
	if strings.TrimSpace(s) == "" {
		return c, nil
	}
	words, err := shellWords(s)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		arg := func() (string, error) {
			if i+1 >= len(words) {
				return "", errorf("%s takes a value", w)
			}
			i++
			return words[i], nil
		}
		var v string
		switch w {
		case "--index-name", "--key-condition-expression", "--expression-attribute-names", "--expression-attribute-values", "--key", "--item":
			if v, err = arg(); err != nil {
				return nil, err
			}
		case "--no-scan-index-forward":
			c.order = "desc"
			continue
		case "--scan-index-forward":
			c.order = "asc"
			continue
		default:
			continue
		}
		switch w {
		case "--index-name":
			c.index = v
		case "--key-condition-expression":
			c.keyCond = v
		case "--expression-attribute-names":
			err = json.Unmarshal([]byte(v), &c.names)
		case "--expression-attribute-values":
			err = json.Unmarshal([]byte(v), &c.values)
		case "--key", "--item":
			err = json.Unmarshal([]byte(v), &c.key)
		}
		if err != nil {
			return nil, errorf("%s: not the JSON it takes: %v", w, err)
		}
	}
	return c, nil
}

// shellWords splits a command line as a POSIX shell does its words:
// single quotes, double quotes (with \ escapes), backslashes.
func shellWords(s string) ([]string, error) {
	var words []string
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errorf("a ' without its closing '")
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errorf("a \" without its closing \"")
			}
			in = true
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
				in = true
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words, nil
}

// keyConditionREs are the three forms of a key condition's terms:
// begins_with, BETWEEN and a comparison, built at their first use.
var keyConditionREs = sync.OnceValue(func() [3]*regexp.Regexp {
	return [3]*regexp.Regexp{
		regexp.MustCompile(`(?i)begins_with\s*\(\s*([#\w.-]+)\s*,\s*(:[\w-]+)\s*\)`),
		regexp.MustCompile(`(?i)([#\w.-]+)\s+between\s+(:[\w-]+)\s+and\s+(:[\w-]+)`),
		regexp.MustCompile(`([#\w.-]+)\s*(<=|>=|=|<|>)\s*(:[\w-]+)`),
	}
})

// condition sets the pattern's key condition and order from the command,
// key being the key that serves it, on table t whose sample items are
// items.
func (c *cliCommand) condition(pt *Pattern, key KeyDef, t *DesignTable, items []sampleItem) error {
	pt.Order = c.order
	if c.key != nil {
		// The command's own item (--item) or key comes first: its other
		// attributes explain its key values.
		if it := sampleItems([]json.RawMessage{mustJSON(c.key)}); len(it) == 1 {
			items = append(it, items...)
		}
	}
	if pt.Access == Scan {
		return nil
	}
	ks := keySetter{c: c, pt: pt, key: key, t: t, items: items}
	switch {
	case c.keyCond != "":
		if err := ks.keyCondition(c.keyCond); err != nil {
			return err
		}
	case c.key != nil:
		for _, attr := range []string{key.Partition, key.Sort} {
			if av, ok := c.key[attr]; ok && attr != "" {
				if err := ks.set(attr, "=", avText(av), "", "", ""); err != nil {
					return err
				}
			}
		}
	}
	if !pt.HasPK {
		pt.PK, pt.HasPK = varTemplate(key.Partition, "pk"), true
	}
	if pt.Access != Query && key.Sort != "" && pt.SortOp == SortNone {
		pt.SortOp, pt.SK = SortEQ, varTemplate(key.Sort, "sk")
	}
	return nil
}

// keySetter sets a pattern's key condition from a command's parts: pt
// on key of table t, whose sample items are items.
type keySetter struct {
	c     *cliCommand
	pt    *Pattern
	key   KeyDef
	t     *DesignTable
	items []sampleItem
}

// keyCondition sets the key condition from a --key-condition-expression:
// its begins_with, then its between, then its comparisons.
func (ks keySetter) keyCondition(cond string) error {
	res := keyConditionREs()
	beginsWithRE, betweenRE, compareRE := res[0], res[1], res[2]
	rest := cond
	for _, m := range beginsWithRE.FindAllStringSubmatch(rest, -1) {
		v, err := ks.value(m[2])
		if err != nil {
			return err
		}
		if err := ks.set(ks.attrName(m[1]), "begins_with", v, "", m[2], ""); err != nil {
			return err
		}
	}
	rest = beginsWithRE.ReplaceAllString(rest, "")
	for _, m := range betweenRE.FindAllStringSubmatch(rest, -1) {
		lo, err := ks.value(m[2])
		if err != nil {
			return err
		}
		hi, err := ks.value(m[3])
		if err != nil {
			return err
		}
		if err := ks.set(ks.attrName(m[1]), "between", lo, hi, m[2], m[3]); err != nil {
			return err
		}
	}
	rest = betweenRE.ReplaceAllString(rest, "")
	for _, m := range compareRE.FindAllStringSubmatch(rest, -1) {
		v, err := ks.value(m[3])
		if err != nil {
			return err
		}
		if err := ks.set(ks.attrName(m[1]), m[2], v, "", m[3], ""); err != nil {
			return err
		}
	}
	return nil
}

// attrName is the attribute a name or #placeholder stands for.
func (ks keySetter) attrName(s string) string {
	if n, ok := ks.c.names[s]; ok {
		return n
	}
	return s
}

// value is the text of the :placeholder's value.
func (ks keySetter) value(ph string) (string, error) {
	av, ok := ks.c.values[ph]
	if !ok {
		return "", errorf("%s has no value in --expression-attribute-values", ph)
	}
	return avText(av), nil
}

// set sets the condition on attr: op with the value lo (and hi for
// between), named by placeholders loName and hiName.
func (ks keySetter) set(attr, op, lo, hi, loName, hiName string) error {
	pt, key := ks.pt, ks.key
	example := func(attr, v, ph string) Template { return exampleTemplate(attr, v, ph, ks.t, ks.items) }
	switch attr {
	case key.Partition:
		if op != "=" {
			return errorf("the partition key %s is compared with %s, not =", attr, op)
		}
		pt.PK, pt.HasPK = example(attr, lo, loName), true
	case key.Sort:
		so, ok := sortOpOf(op)
		if !ok {
			return errorf("sort key operator %q", op)
		}
		pt.SortOp = so
		if so == SortBeginsWith {
			pt.SK = literalOr(lo, key.Sort)
		} else {
			pt.SK = example(attr, lo, loName)
		}
		if so == SortBetween {
			pt.SK2 = example(attr, hi, hiName)
		}
	default:
		return errorf("%s is no key attribute of the %s", attr, map[bool]string{true: "table", false: "index " + pt.Index}[pt.Index == ""])
	}
	return nil
}

// avText is an attribute value's text (S, N; B as written).
func avText(av map[string]json.RawMessage) string {
	for _, typ := range []string{"S", "N", "B"} {
		var s string
		if raw, ok := av[typ]; ok && json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return ""
}

// exampleTemplate is the template an example value v of key attribute
// attr of table t stands for (see the top of the file; design_infer.go
// infers it as every reader does): read from the items that hold v in
// attr; ph names the value's placeholder.
func exampleTemplate(attr, v, ph string, t *DesignTable, items []sampleItem) Template {
	name := strings.TrimPrefix(ph, ":")
	if !isName(name) {
		name = attr
	}
	if v == "" || strings.ContainsAny(v, "{}") {
		return varTemplate(name, "v")
	}
	holding := []sampleItem{{attr: v}}
	for _, it := range items {
		if it[attr] == v {
			holding = append(holding, it)
		}
	}
	if len(holding) > 1 {
		holding = holding[1:]
	}
	tpl, _ := inferKey(keyEvidence{attr: attr, items: holding, keyAttr: t.isKeyAttr, name: name, example: true})
	return tpl
}

// mustJSON is v as JSON (a value decoded from JSON).
func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// literalOr is v as a literal template, or a variable named by attr when
// v cannot be one.
func literalOr(v, attr string) Template {
	if t, err := parseTemplate(v); err == nil && t.literal() {
		return t
	}
	return varTemplate(attr, "sk")
}

// errorf is an error of a format's reader; the caller wraps it in a
// *DesignError naming the member.
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
