package wire

import (
	"reflect"
	"slices"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Limits is how the decoder reads the members of a request that AWS
// limits and a client may send far over their limits: the service's one
// table of them, handed to DecodeBody (nil: every member read whole, the
// simple version the doc.go describes). A list member named in it keeps
// the elements its List says, decodes each other one into one scratch
// value that it shows the List (Past) and drops, bytes and all.
type Limits struct {
	// ItemBytes, when not 0, is the item size limit: an attribute's
	// own list whose elements' sizes pass it keeps them up to the one
	// that passes it, and of the later ones only the deepest, if it is
	// deeper than those (overList).
	ItemBytes int
	lists     map[reflect.Type]map[string]*List
	cuts      map[reflect.Type]map[string]bool // the items CutItem cuts
	codecs    sync.Map                         // reflect.Type -> codec: the decoder's plans read with these Limits (decode.go)
}

// List is the policy of one list member (or of each list of a map
// member, by its key).
type List struct {
	// Max is how many elements are kept when Keep is nil.
	Max int
	// Keep reports whether the element at At is kept in the input.
	Keep func(at At) bool
	// Start is told each list of the member, whatever its value (null,
	// a value of the wrong type), before its elements; of a map member,
	// the member too (At.I -1), before its lists.
	Start func(at At)
	// Past, when not nil, is shown each element not kept, decoded into a
	// scratch value (a pointer to it), which is then reused: its strings
	// are views of the body, which Past copies what it keeps of
	// (viewText).
	Past func(at At, elem any)
}

// At is where an element of a limited list is: the request's input, the
// struct whose member the list is (a pointer), the list's key in a map
// member ("" for a list member), and the element's position.
type At struct {
	In, Owner any
	Key       string
	I         int
}

// Add puts the policy of member (its json name) of the struct owner
// points to into l, and returns l.
func (l *Limits) Add(owner any, member string, p List) *Limits {
	t := reflect.TypeOf(owner).Elem()
	if l.lists == nil {
		l.lists = map[reflect.Type]map[string]*List{}
	}
	if l.lists[t] == nil {
		l.lists[t] = map[string]*List{}
	}
	l.lists[t][member] = &p
	return l
}

// CutItem makes the WireItem member of the struct owner points to (its
// json name) an item cut past ItemBytes (overitem.go): an item a
// request writes, of which nothing reads more than its size and its
// attribute names (ItemNames) before its size is checked. It returns l.
func (l *Limits) CutItem(owner any, member string) *Limits {
	t := reflect.TypeOf(owner).Elem()
	if l.cuts == nil {
		l.cuts = map[reflect.Type]map[string]bool{}
	}
	if l.cuts[t] == nil {
		l.cuts[t] = map[string]bool{}
	}
	l.cuts[t][member] = true
	return l
}

// cutsItem reports whether member of struct type t is an item CutItem
// cuts.
func (l *Limits) cutsItem(t reflect.Type, member string) bool {
	return l != nil && l.ItemBytes > 0 && l.cuts[t][member]
}

// list is the policy of member of struct type t (nil: none).
func (l *Limits) list(t reflect.Type, member string) *List {
	if l == nil {
		return nil
	}
	return l.lists[t][member]
}

// keeps reports whether the element at at is kept.
func (p *List) keeps(at At) bool {
	if p.Keep != nil {
		return p.Keep(at)
	}
	return at.I < p.Max
}

// limited reads the member f of struct owner, whose policy is p: a list,
// or a map of lists (each by its key).
func (d *reqDecoder) limited(f field, owner reflect.Value, depth int) error {
	v := f.at(owner)
	at := At{In: d.in, Owner: owner.Addr().Interface()}
	if v.Kind() == reflect.Slice {
		return d.limitedList(f, v, at, depth)
	}
	if f.lim.Start != nil {
		f.lim.Start(At{In: at.In, Owner: at.Owner, I: -1})
	}
	t := v.Type()
	return d.readObject(v, t, depth, func() {
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
	}, func(int, int) {}, func(key string) error {
		e := reflect.New(t.Elem()).Elem()
		at.Key = key
		err := d.limitedList(f, e, at, depth+1)
		if err == nil {
			v.SetMapIndex(reflect.ValueOf(key).Convert(t.Key()), e)
		}
		return err
	})
}

// limitedList reads the list v as sliceOf does, but for the elements
// its policy does not keep: each is decoded into one scratch value,
// shown to Past, and dropped from the window with the ',' before it, so
// that what the window keeps is JSON still.
func (d *reqDecoder) limitedList(f field, v reflect.Value, at At, depth int) error {
	if f.lim.Start != nil {
		f.lim.Start(at)
	}
	if ok, err := d.listStart(v, v.Type(), depth); !ok {
		return err
	}
	var scratch reflect.Value // made at the first element not kept
	kept, end := 0, d.pos+1   // end: after the last element read, or the '['
	_, err := d.readList(depth, false, func(i, _ int) error {
		at.I = i
		if f.lim.keeps(at) {
			kept = i + 1
			err := f.elem(d, elemAt(v, i, -1), depth+1)
			end = d.pos
			return err
		}
		if !scratch.IsValid() {
			scratch = reflect.New(v.Type().Elem())
		}
		scratch.Elem().SetZero()
		text := d.text
		d.viewText()
		err := f.elem(d, scratch.Elem(), depth+1)
		d.text = text
		if err != nil {
			return err
		}
		if f.lim.Past != nil {
			f.lim.Past(at, scratch.Interface())
		}
		d.drop(end)
		return nil
	})
	if err != nil {
		return err
	}
	endSlice(v, kept)
	return nil
}

// overList is what an attribute's own list (level 1) keeps when the
// decoder has Limits with ItemBytes: an item holding a list of more than
// that, by its elements' sizes, can never be written, and the list
// equals no value stored; what reads it before it is refused (an item's
// size check, UpdateItem's value check, a comparison, an update's
// nesting) reads its kind, its size over the limit and its depth. So its
// elements are kept until their sizes pass ItemBytes, the one that
// passes it too; each later one is decoded (every fault found, in its
// order) and dropped, but the deepest, kept last if it is deeper than
// those before it. A 4 MB PutItem's list of 262,141 numbers held 8.4 MB
// of values decoded whole.
type overList struct {
	start    int  // where the list's text starts in the window
	cuts     bool // the decoder's Limits have ItemBytes
	size     int  // its size so far, once measured
	measured bool
	over     bool          // past the limit: the elements read are dropped
	deep     storage.Value // past the limit: the deepest element
	depth    int           // its depth
}

// add adds the list's next element v to elems.
func (o *overList) add(d *decoder, elems []storage.Value, v storage.Value) []storage.Value {
	limit := d.lim.ItemBytes
	if o.over {
		if dv := v.Depth(); dv > o.depth {
			o.deep, o.depth = v, dv
		}
		return elems
	}
	if len(elems) >= longList && len(elems) == cap(elems) {
		elems = slices.Grow(elems, len(elems)) // doubled: append grows a long slice by a quarter
	}
	elems = append(elems, v)
	// A value's size is never more than its text's (the service's
	// item_size_bound.go): the elements are measured only once their
	// text is past the limit.
	if !o.measured && d.pos-o.start <= limit {
		return elems
	}
	if !o.measured {
		o.measured, o.size = true, 3 // a list's own bytes, as storage.ValueSize counts them
		for _, e := range elems[:len(elems)-1] {
			o.size += 1 + storage.ValueSize(e)
		}
		// Room for the elements like these that take it past the limit,
		// and an eighth more, not a doubled slice's: a 4 MB list of
		// numbers keeps 68,000 of them.
		if each := o.size / len(elems); each > 0 && o.size < limit {
			more := (limit - o.size) / each
			elems = slices.Grow(elems, more+more/8+16)
		}
	}
	o.size += 1 + storage.ValueSize(v)
	o.over = o.size > limit
	return elems
}

// end returns the elements kept: with the deepest later one last, when
// it is deeper than those.
func (o *overList) end(elems []storage.Value) []storage.Value {
	if o.depth == 0 {
		return elems
	}
	for _, e := range elems {
		if e.Depth() >= o.depth {
			return elems
		}
	}
	return append(elems, o.deep)
}

// MaxItemBytes is DynamoDB's item size limit (400 KB), the service's
// maxItemBytes and its table's ItemBytes.
const MaxItemBytes = 400 * 1024
