package expr

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
)

// NameList is a legacy AttributesToGet list as a request gives it, read
// by the wire's decoder: each name is an offset into the request's text,
// where it is written without escapes and ends at the next '"', or, for
// the few names that are not (escaped ones), the offset of its element
// in the text with the name kept as a string beside it. Four bytes a
// name where a []string took 16 and the projection's place of each name
// 4 more (20 bytes a name of a 4 MB GetItem's 381,295 names of 8: 1.8
// times the body; TestOversizedMembers in cmd/dynamoemu). The offsets
// ascend in source order, so AttributesToGetList sorts them in place by
// name and keeps no other order. Its names are views of the request: do
// not keep them past it.
type NameList struct {
	src       string   // the request's text; each name of it ends at a '"'
	offs      []uint32 // each name's offset, ascending
	extraOffs []uint32 // the offsets of the names kept as strings, ascending
	extra     []string // those names
	next      uint32   // the least offset the next name may have
	given     bool     // the list was given (it may be empty)
}

// maxNameListText is the longest text a NameList takes names from: past
// it, offsets would not fit 32 bits, and every name is kept as a string.
const maxNameListText = math.MaxUint32 / 2

// Reset starts the list again, empty and given, with names from src.
func (l *NameList) Reset(src string) {
	if len(src) > maxNameListText {
		src = ""
	}
	*l = NameList{src: src, given: true}
}

// Retext gives the list src, its text as it has grown since Reset (the
// same text, and more): a body the decoder reads as it arrives.
func (l *NameList) Retext(src string) {
	if len(src) <= maxNameListText {
		l.src = src
	}
}

// Grow makes room for n more names.
func (l *NameList) Grow(n int) { l.offs = slices.Grow(l.offs, n) }

// Add appends name, given at offset off of the list's text (or -1).
// When name is the text there, followed by '"', the list keeps only the
// offset; otherwise the string too. Offsets must ascend: one that does
// not is taken as -1.
func (l *NameList) Add(name string, off int) {
	if off >= int(l.next) && len(name) > 0 && off+len(name) < len(l.src) && l.src[off+len(name)] == '"' &&
		strings.IndexByte(name, '"') < 0 && l.src[off:off+len(name)] == name {
		l.offs = append(l.offs, uint32(off))
		l.next = uint32(off) + 1
		return
	}
	o := max(l.next, uint32(max(off, 0)))
	l.offs = append(l.offs, o)
	l.extraOffs = append(l.extraOffs, o)
	l.extra = append(l.extra, name)
	l.next = o + 1
}

// Given reports whether the request gave the list (JSON null is not).
func (l *NameList) Given() bool { return l.given }

// Len is the number of names.
func (l *NameList) Len() int { return len(l.offs) }

// At returns the i-th name.
func (l *NameList) At(i int) string { return l.name(l.offs[i]) }

func (l *NameList) name(off uint32) string {
	if len(l.extraOffs) > 0 {
		if k, ok := slices.BinarySearch(l.extraOffs, off); ok {
			return l.extra[k]
		}
	}
	s := l.src[off:]
	return s[:strings.IndexByte(s, '"')]
}

// Names returns the names as a []string (nil when not given).
func (l *NameList) Names() []string {
	if !l.given {
		return nil
	}
	names := make([]string, l.Len())
	for i := range names {
		names[i] = l.At(i)
	}
	return names
}

// NameListOf is a list of names given as strings (tests, callers
// without a request text).
func NameListOf(names []string) NameList {
	if names == nil {
		return NameList{}
	}
	var l NameList
	l.Reset("")
	l.Grow(len(names))
	for _, n := range names {
		l.Add(n, -1)
	}
	return l
}

// The list sorts by name, equal names by source place (offset).
func (l *NameList) Swap(i, j int) { l.offs[i], l.offs[j] = l.offs[j], l.offs[i] }
func (l *NameList) Less(i, j int) bool {
	a, b := l.At(i), l.At(j)
	if a != b {
		return a < b
	}
	return l.offs[i] < l.offs[j]
}

// AttributesToGetList is AttributesToGetOwned for a NameList: it sorts
// the list's offsets in place, by name, and the projection reads its
// names from it (the source order is the offsets' ascending order,
// made only when asked for: Projection.Paths, String, LegacyNames). Its
// errors, and their order, are AttributesToGet's. given's order is not
// kept (its offsets are sorted in place, as AttributesToGetOwned sorts
// its names). The projection keeps a copy of the list's header, not
// given (a request's input may be zeroed and reused), and its names are
// views of the request's text: it lives no longer than the request.
func AttributesToGetList(given *NameList) (*Projection, error) {
	l := new(NameList)
	*l = *given
	for i := range l.Len() {
		if l.At(i) == "" {
			return nil, errPlain(MsgEmptyAttributeName)
		}
	}
	for i := range l.Len() {
		if err := checkAttributeName(l.At(i)); err != nil {
			return nil, err
		}
	}
	sort.Sort(l)
	repeat := -1
	for k := 1; k < l.Len(); k++ {
		if l.At(k) == l.At(k-1) && (repeat < 0 || l.offs[k] < l.offs[repeat]) {
			repeat = k // the name's second place: later ones are later
		}
	}
	if repeat >= 0 {
		return nil, errPlain(sprintf(msgLegacyDupAttr, l.At(repeat)))
	}
	p := &Projection{legacy: true, list: &listOrder{list: l}}
	p.trie = &projTrie{list: l, allLeaves: true}
	return p, nil
}

// listOrder is a sorted NameList's source order, made when first asked
// for: its offsets ascending.
type listOrder struct {
	list *NameList
	once sync.Once
	offs []uint32
}

func (o *listOrder) name(i int) string {
	o.once.Do(func() {
		o.offs = slices.Clone(o.list.offs)
		// sort.Slice, not slices.Sort: a rare path, and slices.Sort would
		// compile a sort of its own for uint32 (6 kB of the binary).
		sort.Slice(o.offs, func(i, j int) bool { return o.offs[i] < o.offs[j] })
	})
	return o.list.name(o.offs[i])
}
