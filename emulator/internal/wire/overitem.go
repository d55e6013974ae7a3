package wire

import (
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// An item over the item size limit, cut (Limits.CutItem): the item a
// request writes, of a member that nothing reads before its size is
// checked but its attribute names (PutItem's Item: IAM's
// dynamodb:Attributes), keeps its attributes until their sizes pass
// ItemBytes, and the later ones as their text. Each later attribute is
// decoded (every fault found, in its order) into a value whose strings
// are views of the window, and let go; its text stays in the window, as
// every byte of the body does. So an item of 500,000 attributes of 20
// bytes (a 9.9 MB PutItem) holds its body and 400 KB of values instead
// of a Go map of 500,000 slots (75 bytes each beside the text's 20:
// 9.5 times the body at the peak, eight at once).
//
// The cut item is the map of the kept attributes and one more, restKey,
// an S whose text is the later attributes' (a name no request can give:
// it is not UTF-8), so that its size is over the limit as the whole
// item's is, and ItemNames reads every name. A later attribute named as
// a kept one replaces it (the last of a name counts, as in a map); when
// such replacements take the kept attributes back under the limit, the
// later ones are decoded again from their text, which the window still
// holds, and the item is whole: the answer is always the whole item's.

// restKey is the attribute of a cut item holding the text of the
// attributes past the limit.
const restKey = "\xffrest"

// cutItem reads the members of an item whose Limits cut it (members
// with lvl 0 and d.cut), into m.
func (d *decoder) cutItem(m map[string]storage.Value) error {
	limit := d.lim.ItemBytes
	start := d.pos
	size, measured := 0, false
	rest := -1 // where the first attribute past the limit starts
	text := d.text
	defer func() { d.text = text }()
	for more := true; more; {
		past := rest >= 0 && size > limit
		if rest < 0 && measured && size > limit {
			rest = d.pos
			past = true
		}
		if past {
			d.text = d.bodyText() // the strings of a value let go are views
		} else {
			d.text = text
		}
		name, err := d.readString()
		if err != nil {
			return d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		old, kept := m[name]
		if past && kept {
			name = strings.Clone(name)
			d.text = text // the value replaces a kept one: its strings are kept
		}
		if name == "" {
			d.ranked(apierr.MsgEmptyAttributeName, rankName)
		} else if len(name) > expr.MaxAttributeNameBytes {
			d.ranked(expr.MsgAttributeNameTooLarge, rankName)
		}
		if d.isNull() {
			d.validation(apierr.MsgNullInList + ": " + name + " is null")
		} else {
			v, err := d.attrValue(1)
			if err != nil {
				return err
			}
			switch {
			case past && !kept: // let go: its text stays
			case measured:
				if kept {
					size -= len(name) + storage.ValueSize(old)
				}
				size += len(name) + storage.ValueSize(v)
				m[name] = v
			default:
				m[name] = v
				// A value's size is never more than its text's: the
				// attributes are measured only once their text is past
				// the limit.
				if d.pos-start > limit {
					measured, size = true, storage.ItemSize(m)
				}
			}
		}
		if more, err = d.next('}'); err != nil {
			return err
		}
	}
	if rest < 0 {
		return nil
	}
	end := d.pos - 1 // the '}'
	if size > limit {
		// A copy, not a view: the window moves on under later members.
		m[restKey] = storage.S(string(d.data[rest:end]))
		return nil
	}
	return d.decodeRest(m, rest, end)
}

// decodeRest decodes again, into m, the attributes of a cut item from
// rest (where they start in the window) to end: the kept ones came back
// under the limit. Their faults were found the first time.
func (d *decoder) decodeRest(m map[string]storage.Value, rest, end int) error {
	verr, vrank, older, decoded := d.verr, d.vrank, d.olderForm, d.decoded
	pos := d.pos
	d.pos = rest
	for d.pos < end {
		name, err := d.readString()
		if err != nil {
			return d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		if !d.isNull() {
			v, err := d.attrValue(1)
			if err != nil {
				return err
			}
			m[name] = v
		}
		if _, err := d.next('}'); err != nil {
			return err
		}
	}
	d.pos = pos
	d.verr, d.vrank, d.olderForm, d.decoded = verr, vrank, older, decoded
	return nil
}

// ItemNames returns the names of item's attributes: of a cut item (see
// above), its kept attributes' and those of its text past the limit (a
// name given again there may come twice).
func ItemNames(item map[string]storage.Value) []string {
	names := make([]string, 0, len(item))
	for k := range item {
		if k != restKey {
			names = append(names, k)
		}
	}
	rest, ok := item[restKey]
	if !ok {
		return names
	}
	s := rest.Str()
	d := decoder{data: []byte(s), text: s} // a refused item's names: rare, so copied

	for d.pos < len(d.data) {
		name, err := d.readString()
		if err != nil || d.expect(':') != nil {
			break // it was read once: never
		}
		if !d.isNull() { // a null attribute is a fault, in no item
			if d.skipValue(2) != nil {
				break
			}
			names = append(names, name)
		}
		if d.peek() != ',' {
			break
		}
		d.pos++
	}
	return names
}
