package capture

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The placeholders a normalised body holds.
const (
	PrefixMark  = "${prefix}"  // the table prefix
	AccountMark = "${account}" // an ARN's account id
	RegionMark  = "${region}"  // an ARN's region
	LabelMark   = "${label}"   // a stream label, backup, export or import id in an ARN
	TimeMark    = "${time}"    // a time member written as a string (a stream label)
)

// labelled are the ARN resource segments whose next segment is made at
// creation (a time or an id): table/T/stream/LABEL, table/T/backup/ID …
var labelled = []string{"/stream/", "/backup/", "/export/", "/import/"}

// Where a body names a table. The prefix is rewritten only there, never
// in item data: an item that holds the prefix in a value keeps its size
// and its order on replay.
var (
	// nameMembers hold a table's or index's name (or an array of them).
	nameMembers = sync.OnceValue(func() map[string]bool {
		return map[string]bool{
			"TableName": true, "TargetTableName": true, "SourceTableName": true, "GlobalTableName": true,
			"IndexName": true, "TableNames": true, "ExclusiveStartTableName": true, "LastEvaluatedTableName": true,
			"ExclusiveStartGlobalTableName": true, "LastEvaluatedGlobalTableName": true,
		}
	})
	// tableKeyed are the maps whose keys are table names.
	tableKeyed = sync.OnceValue(func() map[string]bool {
		return map[string]bool{
			"RequestItems": true, "Responses": true, "UnprocessedItems": true, "UnprocessedKeys": true,
			"ItemCollectionMetrics": true,
		}
	})
	// dataMembers hold items, keys and attribute values: never rewritten.
	dataMembers = sync.OnceValue(func() map[string]bool {
		return map[string]bool{
			"Item": true, "Items": true, "Key": true, "Keys": true, "ExclusiveStartKey": true, "LastEvaluatedKey": true,
			"Attributes": true, "ExpressionAttributeValues": true, "AttributeUpdates": true, "Expected": true,
			"KeyConditions": true, "QueryFilter": true, "ScanFilter": true, "Parameters": true, "NewImage": true,
			"OldImage": true, "ItemCollectionKey": true,
		}
	})
	// messageMembers are an error's text, which names tables as it likes.
	messageMembers = sync.OnceValue(func() map[string]bool {
		return map[string]bool{"message": true, "Message": true}
	})
)

// Normalise returns body with the prefix (when not empty) written as
// ${prefix} where the protocol names a table: a table or index name
// member, a key of RequestItems, Responses and their kin, a PartiQL
// statement's table, an ARN's table, an error's message; and every
// ARN's region, account id and creation label as ${region}, ${account},
// ${label}. An ARN is a string that opens with "arn:"; in one followed by
// "|" (a shard iterator) only the part before it. Items, keys and
// attribute values are left as they are. Normalise leaves a normalised
// body as it is. body must be one JSON value.
func Normalise(body []byte, prefix string) (json.RawMessage, error) {
	v, err := decode(body)
	if err != nil {
		return nil, err
	}
	return encode(normaliseValue(v, prefix))
}

// decode reads one JSON value, numbers as json.Number (their text kept).
func decode(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("not JSON: more than one value")
	}
	return v, nil
}

// encode writes v compact, without HTML escapes, members sorted.
func encode(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func normaliseValue(v any, prefix string) any {
	return (&normaliser{prefix: prefix}).value(v, "")
}

// normaliser rewrites one body; ids, when not nil, numbers the opaque
// values (a recording's Volatile).
type normaliser struct {
	prefix string
	ids    *Volatile
}

// value is v, found at member name, normalised.
func (n *normaliser) value(v any, name string) any {
	if dataMembers()[name] {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		// In the order of the members' names: opaque values are numbered
		// as met.
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			x := v[k]
			if tableKeyed()[name] {
				// BatchGetItem's Responses: a table's items.
				if name == "Responses" {
					out[n.name(k)] = x
					continue
				}
				out[n.name(k)] = n.value(x, "")
				continue
			}
			out[k] = n.value(x, k)
		}
		return out
	case []any:
		// An array's elements are named by it only when they are names
		// (TableNames): a Responses array holds no table-keyed map.
		sub := ""
		if nameMembers()[name] {
			sub = name
		}
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = n.value(x, sub)
		}
		return out
	case json.Number:
		if n.ids != nil && timeMembers()[name] {
			return json.Number("0")
		}
	case string:
		return n.str(v, name)
	}
	return v
}

// str is a string found at member name, normalised.
func (n *normaliser) str(s, name string) string {
	if n.ids != nil {
		switch {
		case timeMembers()[name]:
			return TimeMark
		case name == "awsRegion":
			return RegionMark
		case opaqueMembers()[name] || opaqueRequestMembers()[name]:
			return n.ids.id(s)
		}
		if id, ok := n.ids.known(s); ok {
			return id
		}
	}
	switch {
	case strings.HasPrefix(s, "arn:"):
		head, tail, bar := strings.Cut(s, "|")
		s = normaliseARN(head, n.prefix)
		if bar {
			s += "|" + tail
		}
		return s
	case nameMembers()[name]:
		return n.name(s)
	case name == "Statement":
		return statementTables(s, n.name)
	case messageMembers()[name] && n.prefix != "":
		return strings.ReplaceAll(s, n.prefix, PrefixMark)
	}
	return s
}

// name is a table's name with its prefix as ${prefix}.
func (n *normaliser) name(s string) string {
	if n.prefix != "" && strings.HasPrefix(s, n.prefix) {
		return PrefixMark + s[len(n.prefix):]
	}
	return s
}

// normaliseString is a string outside item data (a member name, an
// ARN, a table's name) normalised.
func normaliseString(s, prefix string) string {
	return (&normaliser{prefix: prefix}).str(s, "TableName")
}

// statementTables is a PartiQL statement with each table it names (the
// name after FROM, INTO or UPDATE, quoted or not) rewritten by name;
// string literals ('…') are left as they are.
func statementTables(st string, name func(string) string) string {
	var b strings.Builder
	prev := ""
	for i := 0; i < len(st); {
		c := st[i]
		switch {
		case c == '\'':
			j := i + 1
			for j < len(st) {
				if st[j] == '\'' {
					if j+1 < len(st) && st[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(st))
			b.WriteString(st[i:j])
			i, prev = j, ""
		case c == '"':
			j := i + 1
			for j < len(st) {
				if st[j] == '"' {
					if j+1 < len(st) && st[j+1] == '"' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			ident := st[i+1 : min(j, len(st))]
			if tableWord(prev) {
				ident = name(ident)
			}
			b.WriteByte('"')
			b.WriteString(ident)
			if j < len(st) {
				b.WriteByte('"')
			}
			i, prev = min(j+1, len(st)), ""
		case isWordByte(c):
			j := i
			for j < len(st) && isWordByte(st[j]) {
				j++
			}
			w := st[i:j]
			if tableWord(prev) {
				w = name(w)
			}
			b.WriteString(w)
			i, prev = j, w
		default:
			b.WriteByte(c)
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				prev = ""
			}
			i++
		}
	}
	return b.String()
}

// tableWord reports whether a table's name follows the word w.
func tableWord(w string) bool {
	return strings.EqualFold(w, "FROM") || strings.EqualFold(w, "INTO") || strings.EqualFold(w, "UPDATE")
}

func isWordByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == '$' || c == '{' || c == '}' ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// normaliseARN is an ARN (arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE)
// with its region, account and labels as placeholders.
func normaliseARN(s, prefix string) string {
	p := strings.SplitN(s, ":", 6)
	if len(p) != 6 {
		return s
	}
	if p[3] != "" {
		p[3] = RegionMark
	}
	if p[4] != "" {
		p[4] = AccountMark
	}
	res := p[5]
	if kind, rest, ok := strings.Cut(res, "/"); ok && prefix != "" && strings.HasPrefix(rest, prefix) {
		res = kind + "/" + PrefixMark + rest[len(prefix):]
	}
	for _, l := range labelled {
		i := strings.Index(res, l)
		if i < 0 {
			continue
		}
		start := i + len(l)
		end := strings.IndexByte(res[start:], '/')
		if end < 0 {
			end = len(res) - start
		}
		if start+end > start {
			res = res[:start] + LabelMark + res[start+end:]
		}
	}
	p[5] = res
	return strings.Join(p, ":")
}

// fill is a normalised string with the placeholders a request may hold
// replaced: prefix, region and account.
func fill(s, prefix, region, account string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return strings.NewReplacer(PrefixMark, prefix, RegionMark, region, AccountMark, account).Replace(s)
}

// opaqueRequestMembers are the request members that carry an opaque
// value an earlier answer gave.
var opaqueRequestMembers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"ExclusiveStartShardId": true, "ClientRequestToken": true}
})

// Volatile is a recording's numbering of its opaque values (TableId,
// shard iterators, NextToken, sequence numbers, idempotency tokens):
// each is written ${id1}, ${id2} … in the order first met, in an answer
// or in a request, and times as 0 or ${time}, so that two recordings of
// one session write the same lines. It is safe for concurrent use.
type Volatile struct {
	mu  sync.Mutex
	ids map[string]string
}

// NewVolatile returns an empty numbering.
func NewVolatile() *Volatile { return &Volatile{ids: map[string]string{}} }

// Normalise is the package's Normalise of body with the volatile
// members in their stable form: times as 0 (a number) or ${time} (a
// string), opaque values numbered, and any string that equals an opaque
// value met before written as its number.
func (vo *Volatile) Normalise(body []byte, prefix string) (json.RawMessage, error) {
	v, err := decode(body)
	if err != nil {
		return nil, err
	}
	return encode((&normaliser{prefix: prefix, ids: vo}).value(v, ""))
}

func (vo *Volatile) id(s string) string {
	if s == "" || strings.HasPrefix(s, "${") {
		return s
	}
	vo.mu.Lock()
	defer vo.mu.Unlock()
	if id, ok := vo.ids[s]; ok {
		return id
	}
	id := "${id" + strconv.Itoa(len(vo.ids)+1) + "}"
	vo.ids[s] = id
	return id
}

func (vo *Volatile) known(s string) (string, bool) {
	vo.mu.Lock()
	defer vo.mu.Unlock()
	id, ok := vo.ids[s]
	return id, ok
}
