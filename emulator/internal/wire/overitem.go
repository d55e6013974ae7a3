package wire

import (
	"container/heap"
	"slices"
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

// cutItem reads the rest of an item whose Limits cut it (members with
// lvl 0 and d.cut) into m, from d.pos, the next member's name. members
// reads the item's first members itself and calls it only once their
// text is past the limit: a value's size is never more than its text's,
// so m needs measuring only from then on, and an item under the limit
// (every batch's item but a wide one) costs what any other does (a map
// lookup per attribute and a deferred restore per item were 5.6% of a
// 25-item BatchWriteItem: BenchmarkBatchOverwrite).
func (d *decoder) cutItem(m map[string]storage.Value) error {
	limit := d.lim.ItemBytes
	size := storage.ItemSize(m)
	rest := -1 // where the first attribute past the limit starts
	text := d.text
	defer func() { d.text = text }()
	for more := true; more; {
		if rest < 0 && size > limit {
			rest = d.pos
		}
		past := rest >= 0 && size > limit
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
			if !past || kept { // past and not kept: let go, its text stays
				if kept {
					size -= len(name) + storage.ValueSize(old)
				}
				size += len(name) + storage.ValueSize(v)
				m[name] = v
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

// ItemHead returns the first n names of item's attributes in their
// sorted order, and their values: of a cut item (see above), the whole
// item's, its text past the limit read for the names and the last value
// of each (as a map keeps the last of a name). A batch's echo over its
// count limit shows an item's attributes by name, and no more than
// MaxEcho bytes of them: so it reads n names, however many the item has,
// and holds n of them.
func ItemHead(item map[string]storage.Value, n int) ([]string, []storage.Value) {
	return itemHead(item, n, MaxItemBytes)
}

// itemHead is ItemHead of an item cut past limit (the Limits'
// ItemBytes), whose lists are read as the decoder read them.
func itemHead(item map[string]storage.Value, n, limit int) ([]string, []storage.Value) {
	kept := make([]string, 0, len(item))
	for k := range item {
		if k != restKey {
			kept = append(kept, k)
		}
	}
	slices.Sort(kept)
	var later []headName
	var d decoder
	if rest, cut := item[restKey]; cut {
		s := rest.Str()
		d = decoder{data: []byte(s), text: s, lim: &Limits{ItemBytes: limit}} // a refused item's echo: rare, so copied
		later = restHead(&d, item, n)
	}
	names := make([]string, 0, min(n, len(kept)+len(later)))
	values := make([]storage.Value, 0, cap(names))
	for len(names) < n && (len(kept) > 0 || len(later) > 0) {
		if len(later) == 0 || len(kept) > 0 && kept[0] < later[0].name {
			names, values = append(names, kept[0]), append(values, item[kept[0]])
			kept = kept[1:]
			continue
		}
		d.pos = later[0].at
		v, _ := d.attrValue(1) // it was read once: never an error
		names, values = append(names, later[0].name), append(values, v)
		later = later[1:]
	}
	return names, values
}

// headName is a name of a cut item's text past the limit and where its
// last value starts in that text.
type headName struct {
	name string
	at   int
}

// headNames is a max-heap of headNames by name (container/heap).
type headNames []*headName

func (h headNames) Len() int           { return len(h) }
func (h headNames) Less(i, j int) bool { return h[i].name > h[j].name }
func (h headNames) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *headNames) Push(x any)        { *h = append(*h, x.(*headName)) }
func (h *headNames) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// restHead reads the text of a cut item's attributes past the limit (d's
// input) and returns the first n of its names (in sorted order) that are
// not among item's kept attributes, each with where its last value
// starts: a heap of n names, the largest dropped for a smaller one.
func restHead(d *decoder, item map[string]storage.Value, n int) []headName {
	h := make(headNames, 0, n)
	in := make(map[string]*headName, n)
	for d.pos < len(d.data) && n > 0 {
		name, err := d.readString()
		if err != nil || d.expect(':') != nil {
			break // it was read once: never
		}
		if !d.isNull() { // a null attribute is a fault, in no item
			d.skipSpace()
			at := d.pos
			if d.skipValue(2) != nil {
				break
			}
			if _, kept := item[name]; !kept {
				switch e := in[name]; {
				case e != nil:
					e.at = at
				case len(h) < n:
					e = &headName{name, at}
					in[name] = e
					heap.Push(&h, e)
				case name < h[0].name:
					delete(in, h[0].name)
					e = &headName{name, at}
					in[name] = e
					h[0] = e
					heap.Fix(&h, 0)
				}
			}
		}
		if d.peek() != ',' {
			break
		}
		d.pos++
	}
	out := make([]headName, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		out[i] = *heap.Pop(&h).(*headName)
	}
	return out
}
