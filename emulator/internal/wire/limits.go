package wire

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Limits is how the decoder reads the members of a request that AWS
// limits and a client may send far over their limits: the service's one
// table of them, handed to DecodeBody (nil: every member read whole, the
// simple version the doc.go describes). A list member named in it keeps
// the elements its Row says, decodes each other one into one scratch
// value that it shows the Row (Past) and drops, bytes and all.
type Limits struct {
	// ItemBytes, when not 0, is the item size limit: an attribute's
	// own list whose elements' sizes pass it keeps them up to the one
	// that passes it, and of the later ones only the deepest, if it is
	// deeper than those (overList).
	ItemBytes int
	lists     map[reflect.Type]map[string]*list
	cuts      map[reflect.Type]map[string]bool // the items CutItem cuts
	codecs    sync.Map                         // reflect.Type -> codec: the decoder's plans read with these Limits (decode.go)
}

// Row is the policy of one list member of the struct O whose elements
// are E (or of each list of a map member, by its key). Its functions are
// given the struct the member is in, typed: a row is attached to its
// struct by its type, so one written for another struct does not
// compile, and Add checks that O has the member and that its elements
// are E.
type Row[O, E any] struct {
	// Max is how many elements are kept when Keep is nil.
	Max int
	// Keep reports whether the element at at is kept in the input.
	Keep func(o *O, at At) bool
	// Start is told each list of the member, whatever its value (null,
	// a value of the wrong type), before its elements; of a map member,
	// the member too (At.I -1), before its lists.
	Start func(o *O, at At)
	// Past, when not nil, is shown each element not kept, decoded into a
	// scratch value, which is then reused: its strings are views of the
	// body, which Past copies what it keeps of (viewText). Under the race
	// detector the bytes a view reads are overwritten once the element is
	// dropped (poisonDrops), so a Past that keeps one is caught by any
	// test that looks at what it kept.
	Past func(o *O, at At, e *E)
}

// At is where an element of a limited list is: the request's input, the
// list's key in a map member ("" for a list member), and the element's
// position.
type At struct {
	In  any
	Key string
	I   int
}

// list is a Row with its types taken out, as the decoder calls it: owner
// is a pointer to the struct the member is in, elem to the element.
type list struct {
	max   int
	keep  func(owner any, at At) bool
	start func(owner any, at At)
	past  func(owner any, at At, elem any)
}

// Add puts the policy of member (its json name, or its Go name when it
// has no tag) of struct O into l, and returns l. It panics, at wiring,
// when O has no such member or the member is not a list of E or a map of
// lists of E: a row that names a member its struct lacks would otherwise
// turn that member's memory bound off without a word.
func Add[O, E any](l *Limits, member string, r Row[O, E]) *Limits {
	t, et := reflect.TypeFor[O](), reflect.TypeFor[E]()
	if err := checkRow(t, member, et); err != nil {
		panic(err)
	}
	p := &list{max: r.Max}
	if r.Keep != nil {
		p.keep = func(owner any, at At) bool { return r.Keep(owner.(*O), at) }
	}
	if r.Start != nil {
		p.start = func(owner any, at At) { r.Start(owner.(*O), at) }
	}
	if r.Past != nil {
		p.past = func(owner any, at At, elem any) { r.Past(owner.(*O), at, elem.(*E)) }
	}
	if l.lists == nil {
		l.lists = map[reflect.Type]map[string]*list{}
	}
	if l.lists[t] == nil {
		l.lists[t] = map[string]*list{}
	}
	l.lists[t][member] = p
	return l
}

// checkRow reports why member of struct t cannot hold a row whose
// elements are et (nil: it can).
func checkRow(t reflect.Type, member string, et reflect.Type) error {
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("wire: limits row %q on %s: not a struct", member, t)
	}
	fields, _ := structFields(t)
	m, ok := fields[member]
	if !ok {
		return fmt.Errorf("wire: limits row %q on %s: no such member (members: %s)", member, t, strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
	}
	lt := m.t
	if lt.Kind() == reflect.Map && lt.Key().Kind() == reflect.String {
		lt = lt.Elem()
	}
	if lt.Kind() != reflect.Slice || lt.Elem() != et {
		return fmt.Errorf("wire: limits row %q on %s: member is %s, not a list of %s or a map of such lists", member, t, m.t, et)
	}
	return nil
}

// Rows are the rows of l, each as "Struct.Member", sorted.
func (l *Limits) Rows() []string {
	var rows []string
	for t, ms := range l.lists {
		for m := range ms {
			rows = append(rows, t.Name()+"."+m)
		}
	}
	slices.Sort(rows)
	return rows
}

// CutItem makes the WireItem member of the struct owner points to (its
// json name) an item cut past ItemBytes (overitem.go): an item a
// request writes, of which nothing reads more than its size and its
// attribute names (ItemNames) before its size is checked. It returns l.
func (l *Limits) CutItem(owner any, member string) *Limits {
	t := reflect.TypeOf(owner).Elem()
	// A misspelt member would switch the cut off without a word, as a
	// misspelt row would (checkRow): it stops the wiring instead.
	if fields, _ := structFields(t); fields[member].t != reflect.TypeFor[WireItem]() {
		panic(fmt.Sprintf("wire: CutItem %q on %s: no member of that name holds an item", member, t))
	}
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
func (l *Limits) list(t reflect.Type, member string) *list {
	if l == nil {
		return nil
	}
	return l.lists[t][member]
}

// keeps reports whether the element at at of the list in owner is kept.
func (p *list) keeps(owner any, at At) bool {
	if p.keep != nil {
		return p.keep(owner, at)
	}
	return at.I < p.max
}

// limited reads the member f of struct owner, whose policy is p: a list,
// or a map of lists (each by its key).
func (d *reqDecoder) limited(f field, owner reflect.Value, depth int) error {
	v := f.at(owner)
	o, at := owner.Addr().Interface(), At{In: d.in}
	if v.Kind() == reflect.Slice {
		return d.limitedList(f, v, o, at, depth)
	}
	if f.lim.start != nil {
		f.lim.start(o, At{In: at.In, I: -1})
	}
	t := v.Type()
	return d.readObject(v, t, depth, func() {
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
	}, func(int, int) {}, func(key string) error {
		e := reflect.New(t.Elem()).Elem()
		at.Key = key
		err := d.limitedList(f, e, o, at, depth+1)
		if err == nil {
			v.SetMapIndex(reflect.ValueOf(key).Convert(t.Key()), e)
		}
		return err
	})
}

// limitedList reads the list v of the struct o points to as sliceOf does, but for the elements
// its policy does not keep: each is decoded into one scratch value,
// shown to Past, and dropped from the window with the ',' before it, so
// that what the window keeps is JSON still.
func (d *reqDecoder) limitedList(f field, v reflect.Value, o any, at At, depth int) error {
	if f.lim.start != nil {
		f.lim.start(o, at)
	}
	if ok, err := d.listStart(v, v.Type(), depth); !ok {
		return err
	}
	var scratch reflect.Value // made at the first element not kept
	kept, end := 0, d.pos+1   // end: after the last element read, or the '['
	_, err := d.readList(depth, false, func(i, _ int) error {
		at.I = i
		if f.lim.keeps(o, at) {
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
		if f.lim.past != nil {
			f.lim.past(o, at, scratch.Interface())
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
