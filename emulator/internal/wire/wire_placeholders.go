package wire

import (
	"reflect"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The placeholder maps of a request, ExpressionAttributeNames
// (ExpressionNames) and ExpressionAttributeValues (ExpressionValues,
// wire_exprvalues.go), and AWS's limit on their size: "The maximum length
// of all substitution variables in an expression is 2 MB. This is the sum
// of the lengths of all ExpressionAttributeNames and
// ExpressionAttributeValues" (developer guide, Constraints, expression
// parameters). The length of an entry is its key's bytes plus its value's:
// a name's UTF-8 bytes, or a value's size by DynamoDB's item size rules
// (storage.ValueSize). DynamoDB Local measures a string value the same way
// (a key of 2 bytes and an S of 2,097,150 are accepted, one byte more is
// refused); it counts an L or M a few bytes differently. AWS has no limit
// on the number of entries.
//
// The checks come where DynamoDB Local makes them: after the maps' own
// checks (keys that are no placeholders, empty names: expr.Compiler.Err),
// before any expression is parsed; names alone first, then values alone,
// then the two together, each with DynamoDB Local's message (AWS's wording
// is not published).
//
// A map of more than 2 MB is refused whatever else the request holds, so
// its decoder does not keep it. JSON text is never shorter than what it
// measures, so a map whose JSON fits in 2 MB is decoded as usual; a longer
// one is first scanned without keeping anything (every entry still
// checked: a bad value is still reported as such), and decoded only if it
// measures 2 MB or less. Otherwise the decoder returns a stand-in: the few
// entries Compiler.Err could report (for each of its rules, the entry with
// the smallest key that breaks it) and oversizeKey, which
// exprparams.NewCompiler turns into the size error after those checks. So a 16 MB request of
// 700k placeholders costs its body and a scan, not a map of 700k entries.
// A key given twice in one map counts twice.

// MaxSubstitutionBytes is AWS's limit on the placeholder maps of one
// expression set: 2 MB.
const MaxSubstitutionBytes = 2 << 20

// oversizeKey marks a stand-in for a placeholder map of more than 2 MB
// (its value the zero Value), or, in ExpressionValues, for a map kept
// compact (an L: wire_compact.go). No request can hold it: decoded
// strings are always valid UTF-8 (wire_text.go), and this one is not.
const oversizeKey = "\xff"

// maxPlaceholderKey is expr's limit on a placeholder key (sigil included).
const maxPlaceholderKey = 255

// ExpressionNames is the ExpressionAttributeNames parameter: placeholder
// ("#n") to attribute name. Its decoder (decodeExpressionNames) keeps no
// map of more than 2 MB (see above).
type ExpressionNames map[string]string

// Rules of expr.Compiler.Err a placeholder entry can break, in the order
// it checks them; the value rules are the names' only.
const (
	ruleKeyTooLong = iota
	ruleKeySyntax
	ruleNameEmpty
	ruleNameTooLarge
	numRules
)

// Witnesses gathers, over the entries of a map that is not kept, the
// entry with the smallest key breaking each rule: the entries Err would
// report, since it reports the smallest bad key of the first rule broken.
type Witnesses[V any] struct {
	seen int // entries seen
	have [numRules]bool
	keys [numRules]string
	vals [numRules]V
}

// See records an entry; key may be a view of the request body (it is
// copied when kept).
func (w *Witnesses[V]) See(sigil byte, key string, v V, name string) {
	w.seen++
	w.note(ruleKeyTooLong, len(key) > maxPlaceholderKey, key, v)
	w.note(ruleKeySyntax, !isPlaceholderKey(key, sigil), key, v)
	if sigil == '#' {
		w.note(ruleNameEmpty, name == "", key, v)
		w.note(ruleNameTooLarge, len(name) > expr.MaxAttributeNameBytes, key, v)
	}
}

func (w *Witnesses[V]) note(rule int, broken bool, key string, v V) {
	if broken && (!w.have[rule] || key < w.keys[rule]) {
		w.have[rule], w.keys[rule], w.vals[rule] = true, strings.Clone(key), v
	}
}

// Seen is the number of entries seen (a key twice counts twice).
func (w *Witnesses[V]) Seen() int { return w.seen }

// StandIn returns the stand-in map: the witnesses and oversizeKey.
func (w *Witnesses[V]) StandIn() map[string]V {
	m := w.entries()
	var zero V
	m[oversizeKey] = zero
	return m
}

// entries is the witnesses' entries.
func (w *Witnesses[V]) entries() map[string]V {
	m := make(map[string]V, numRules+1)
	for r := range numRules {
		if w.have[r] {
			m[w.keys[r]] = w.vals[r]
		}
	}
	return m
}

// isPlaceholderKey is expr's rule for a placeholder key: sigil followed by
// one or more ASCII letters, digits or underscores.
func isPlaceholderKey(key string, sigil byte) bool {
	if len(key) < 2 || key[0] != sigil {
		return false
	}
	for i := 1; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// WithoutStandIn returns m without oversizeKey, and whether it had it.
func WithoutStandIn[V any](m map[string]V) (map[string]V, bool) {
	if _, ok := m[oversizeKey]; !ok {
		return m, false
	}
	out := make(map[string]V, len(m)-1)
	for k, v := range m {
		if k != oversizeKey {
			out[k] = v
		}
	}
	return out, true
}

// namesSize and valuesSize measure placeholder maps (see above).
func namesSize(m map[string]string) int {
	n := 0
	for k, v := range m {
		n += len(k) + len(v)
	}
	return n
}

func valuesSize(m map[string]storage.Value) int {
	n := 0
	for k, v := range m {
		n += len(k) + storage.ValueSize(v)
	}
	return n
}

// SubstitutionSizeError is the size limit's error for a request's maps,
// or nil. namesOver says the names' map was a stand-in.
func SubstitutionSizeError(names map[string]string, namesOver bool, values CompilerValues) error {
	n := 0
	if !namesOver {
		n = namesSize(names)
	}
	if namesOver || n > MaxSubstitutionBytes {
		return apierr.Validation(apierr.MsgNamesTooLarge)
	}
	v := 0
	switch {
	case values.Table != nil:
		v = values.Table.Size()
	case !values.Over:
		v = valuesSize(values.Map)
	}
	if values.Over || v > MaxSubstitutionBytes {
		return apierr.Validation(apierr.MsgValuesTooLarge)
	}
	if n+v > MaxSubstitutionBytes {
		return apierr.Validation(apierr.MsgCombinedTooLarge)
	}
	return nil
}

// decodeExpressionNames is the request decoder's codec for
// ExpressionNames: mapCodec's behaviour for a map of strings (null values
// and values of the wrong JSON type become "", the latter remembered as a
// SerializationException; a member given twice merges), without keeping a
// map of more than 2 MB.
func decodeExpressionNames(d *reqDecoder, v reflect.Value, depth int) error {
	switch d.peek() {
	case '{':
	case 'n':
		return d.setNull(v)
	default:
		return d.mismatch(v.Type(), depth)
	}
	if depth >= maxJSONDepth {
		return d.syntax()
	}
	m, _ := v.Interface().(ExpressionNames)
	start := d.pos
	// Short enough to keep: what is left of the request is within the
	// limit (no skip needed), or its text is; or malformed: the keeping
	// pass reports it. Names are no values: the map's text is skipped,
	// then read, and measured before it is kept only when its text is
	// over the limit.
	held := namesSize(m)
	fits := d.left() >= 0 && d.left()+held <= MaxSubstitutionBytes
	if !fits {
		err := d.skipValue(depth)
		fits = err != nil || d.pos-start+held <= MaxSubstitutionBytes
		d.pos = start
	}
	if fits {
		if m == nil {
			m = nameMap() // may be reused (wire_recycle.go)
			v.Set(reflect.ValueOf(m))
		}
		_, err := d.names(m, nil, depth)
		return err
	}
	// Scan without keeping, then keep only if it fits.
	var w Witnesses[string]
	size := 0
	for k, name := range m {
		if k != oversizeKey {
			w.See('#', k, name, name)
			size += len(k) + len(name)
		} else {
			size = MaxSubstitutionBytes + 1
		}
	}
	saved := d.saved
	n, err := d.names(nil, &w, depth)
	if err != nil {
		return err
	}
	if size += n; size > MaxSubstitutionBytes {
		v.Set(reflect.ValueOf(ExpressionNames(w.StandIn())))
		return nil
	}
	d.pos, d.saved = start, saved
	if m == nil {
		m = make(ExpressionNames)
		v.Set(reflect.ValueOf(m))
	}
	_, err = d.names(m, nil, depth)
	return err
}

// names reads the entries of an ExpressionAttributeNames object (at '{')
// into m, or, with m nil, only measures them and shows them to w. It
// returns their size.
func (d *reqDecoder) names(m ExpressionNames, w *Witnesses[string], depth int) (int, error) {
	d.pos++ // '{'
	if d.peek() == '}' {
		d.pos++
		return 0, nil
	}
	// Strings are copied only when kept.
	read := func() (string, error) {
		if m == nil {
			return d.stringView()
		}
		return d.readString()
	}
	size := 0
	for {
		key, err := read()
		if err != nil {
			return 0, d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return 0, err
		}
		var name string
		switch d.peek() {
		case '"':
			if name, err = read(); err != nil {
				return 0, err
			}
		case 'n':
			if err := d.literal("null"); err != nil {
				return 0, err
			}
		default:
			if err := d.mismatch(reflect.TypeFor[string](), depth+1); err != nil {
				return 0, err
			}
		}
		size += len(key) + len(name)
		if m != nil {
			m[key] = name
		} else {
			w.See('#', key, name, name)
		}
		switch d.peek() {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return size, nil
		default:
			return 0, d.syntax()
		}
	}
}
