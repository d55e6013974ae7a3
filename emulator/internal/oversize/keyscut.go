package oversize

import (
	"hash/maphash"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// KeysCut: a ListCut with a Measurer reads its Member as a map whose
// values are objects with a list member List (BatchGetItem's
// RequestItems: a table name to its KeysAndAttributes, and its Keys),
// as the body arrives. Each such list keeps its elements until it has
// kept Keep of them and their echo has reached MaxEcho and a few bytes;
// past that, every run is decoded and checked and a clean one dropped.
// With Names, a names list of the object (AttributesToGet) keeps its
// names until their echo has reached MaxEcho and a few bytes; past
// that each run is checked, dropped and parked (parking: compressed,
// in a temporary file) until the object closes (flushNames, closed). Nothing else of the
// body is dropped, and nothing but the parked names is kept beside it.
//
// Why the names may go: when the object closes with its last list of
// Keep elements or more and one names list, that object's table is
// either named again later (the object is then not in the map the
// decoder makes) or its list is a count violation in both bodies, and
// the answer is the violations, which show the names only in the map's
// echo, of which the prefix kept is longer than the answer shows. Any
// other way the object ends (a shorter list after the names, a second
// names list, which the decoder reads into the first one's elements, a
// run that does not decode, a body that stops) puts the names back.
//
// Why the body kept gets the whole body's answer: it differs from the
// whole body only in lists that keep a prefix of at least Keep
// elements, whose echo alone is longer than the answer shows, and lose
// elements that decode with no fault, not even of a value. So
//
//   - the first fault that decoding reports, and the first value fault,
//     are the whole body's (a run with either is kept in place; once a
//     run does not decode, nothing more is dropped);
//   - every list of the map as decoded (a name given twice, a list
//     given twice, a null map: however the decoder reads them) is empty,
//     of 1 to Keep-1 elements, or of Keep or more in both, so the count
//     violations, and the total of the lists, over Keep-1 in both, are
//     the same;
//   - the echo of the map the answer shows for a bad table name (the
//     map as JSON, tables by name, cut at MaxEcho) is the same: up to a
//     list cut, both bodies' echoes are the same bytes, and the list
//     cut adds more than the answer shows before it differs.
//
// With Table, once the lists read hold Keep elements in all, a later
// list of 2 to Keep-1 elements with no value fault keeps its first and
// parks the rest (parking, as the names) when it closes, until the body
// ends: a map of more than Keep-1 keys in all is refused for its total
// whatever its keys are, after its constraints and before its tables are
// read (the service's batchGetItem), so the keys parked are let go when
// the body is well formed, names no table twice, gives no list or map
// twice (in any case) and names no table that is no table name (whose
// answer echoes the map); else they go back. Let go, every list keeps
// its length's class (none, null, empty, 1 to Keep-1, Keep or more) and
// the map still holds Keep keys or more: those read before any was
// parked, all kept. A list of Keep-1 keys or fewer is the one part of the
// body held whole until it closes.
//
// What a body costs is its bytes outside the lists, each list's
// elements up to Keep and MaxEcho bytes of echo, and a run; with Table,
// a list of keys after Keep of them, and one key a table.

// keysCutter's states.
const (
	kTop       = iota // the top-level object's opening
	kMember           // a top-level member's name and value
	kTopSep           // the ',' or '}' after a top-level member
	kMapOpen          // the map's opening
	kTable            // a table's name and value
	kMapSep           // the ',' or '}' after a table
	kObjOpen          // a table's object's opening
	kField            // a member of a table's object
	kObjSep           // the ',' or '}' after a member of a table's object
	kListOpen         // the list's opening
	kElem             // an element of the list
	kNamesOpen        // the names list's opening
	kName             // an element of the names list
	kWhole            // the rest as it is
)

// keysCutter is a KeysCut's reading of one body.
type keysCutter struct {
	reading
	lc      *ListCut
	measure func(body []byte, run wire.Span, echo *int) (ok, clean bool)
	state   int
	at      int // where the value being read starts (the map's, an object's, a list's)

	i       int // the list's elements read
	echo    int // the echo of the list's elements kept, at least (up to echoKeep)
	keepEnd int // the end of the list's last element kept
	run     wire.Span
	runN    int
	runAt   int // the position of the run's first element in its list

	elems   int // elements of every list
	dropped int // bytes dropped

	// The names list (ListCut.Names) of the object being read: the
	// echo of its elements kept, the end of the last kept,
	// and its run; over says the object's last list had Keep elements
	// or more; nLists counts the object's names lists; parked are the
	// names dropped from the object's names list past its echo, each run
	// at its place, given back when the object closes without over or
	// with a second names list, or when the cutting stops in it.
	nEcho, nKeepEnd int
	nRun            wire.Span
	nRunN           int
	over            bool
	nLists          int
	parked          parking
	names           func(body []byte, run wire.Span, echo *int) (ok bool)

	// The total's parking (ListCut.Table): the end of the list's first
	// element, whether a run of it had a value fault; the keys parked;
	// the RequestItems members and the object's Keys members (in any
	// case) read, the tables' names hashed; doubt says a name or member
	// came twice or in another case, or a table is no table name (the
	// total may not be the answer: nothing more is parked), and
	// broken that the cutting stopped before the body's end: then the
	// keys go back.
	firstEnd       int
	dirty          bool
	keys           parking
	members, lists int
	tables         []uint64
	seed           maphash.Seed
	doubt, broken  bool
}

func (c *keysCutter) uncut() bool { return c.state == kWhole && c.dropped == 0 }

func (c *keysCutter) end() Cut {
	c.step(true)
	if c.dropped == 0 {
		return Cut{}
	}
	return Cut{Elems: c.elems}
}

// step reads as much of the body's shape as has arrived.
func (c *keysCutter) step(eof bool) {
	defer c.unparkIfWhole()
	for c.state != kWhole {
		if c.wait(eof) {
			return // a part not all there: again once the bytes since doubled
		}
		if !c.part() {
			if eof {
				c.stop() // not well formed: the decoder says how
				return
			}
			c.tried = len(c.b)
			return
		}
	}
}

// stop stops the cutting before the body's end: the rest is read as it
// is.
func (c *keysCutter) stop() {
	c.state, c.broken = kWhole, true
}

// unparkIfWhole gives the names parked back once the cutting stopped
// inside their object: nothing says their table's answer is a violation.
// The keys parked for the total are let go once the body ended as the
// total's parking needs (keysCutter), and go back otherwise.
func (c *keysCutter) unparkIfWhole() {
	if c.state != kWhole {
		return
	}
	c.unpark()
	if c.keys.empty() {
		return
	}
	if c.broken || c.doubt || c.err != nil || repeated(c.tables) {
		c.putBack(&c.keys)
		return
	}
	c.keys.letGo()
}

// repeated reports whether hashes holds a value twice (sorting it).
func repeated(hashes []uint64) bool {
	slices.Sort(hashes)
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			return true
		}
	}
	return false
}

// unpark puts the names parked back in their places (the keys parked
// after them in the body move with them).
func (c *keysCutter) unpark() {
	c.keys.after(&c.parked)
	c.putBack(&c.parked)
}

// putBack puts the runs of p back in their places; when they do not
// read back, the reading fails (ErrParking) and stops cutting.
func (c *keysCutter) putBack(p *parking) {
	b, n, err := p.unpark(c.b)
	if err != nil {
		c.err = err
		c.stop()
		return
	}
	c.b = b
	c.pos += n
	if c.tried > 0 {
		c.tried += n
	}
	c.dropped -= n
}

// skip reads the value at v and the separator after it, in a container
// that closes with close; last says it closed.
func (c *keysCutter) skip(v int, close byte) (last, ok bool) {
	_, next, last, ok := wire.ValueAt(c.b, v, close)
	if !ok {
		return false, false
	}
	c.pos = next
	return last, true
}

// part reads the part of the shape at pos.
func (c *keysCutter) part() bool {
	switch c.state {
	case kTop:
		c.at = 0
		return c.open('{', kMember, kWhole)
	case kMember:
		return c.field(c.lc.Member, '{', kMapOpen, kWhole)
	case kTopSep:
		return c.sep('}', kMember, kWhole)
	case kMapOpen:
		return c.open('{', kTable, kTopSep)
	case kTable:
		return c.field("", '{', kObjOpen, kTopSep)
	case kMapSep:
		return c.sep('}', kTable, kTopSep)
	case kObjOpen:
		c.over, c.nLists, c.lists = false, 0, 0
		return c.open('{', kField, kMapSep)
	case kField:
		if c.lc.Names != "" && c.namesField() {
			return true
		}
		return c.closed(c.field(c.lc.List, '[', kListOpen, kMapSep))
	case kObjSep:
		return c.closed(c.sep('}', kField, kMapSep))
	case kNamesOpen:
		c.nEcho, c.nRunN = 0, 0
		if !c.open('[', kName, kObjSep) {
			return false
		}
		c.nKeepEnd = c.pos
	case kName:
		return c.name()
	case kListOpen:
		c.i, c.echo, c.runN, c.dirty = 0, 0, 0, false
		if !c.open('[', kElem, kObjSep) {
			return false
		}
		c.over = false // an empty list; else its last element says
		c.keepEnd = c.pos
	case kElem:
		return c.element()
	}
	return true
}

// field reads an object's member at pos: one named want (any name when
// want is "") whose value opens with o is entered (state in); any other
// is skipped, and after the object's last the state is after.
func (c *keysCutter) field(want string, o byte, in, after int) bool {
	name, v, ok := wire.NameAt(c.b, c.pos)
	if !ok {
		return false
	}
	if (want == "" || name == want) && c.b[v] == o {
		c.note(name)
		c.at, c.state = v, in
		return true
	}
	last, ok := c.skip(v, '}')
	if !ok {
		return false
	}
	c.note(name)
	if last {
		c.state = after
	}
	return true
}

// note reads a member's name, in the state that read it, where the
// total's parking depends on it (doubt, tables).
func (c *keysCutter) note(name string) {
	if c.lc.Table == nil {
		return
	}
	switch c.state {
	case kMember:
		if strings.EqualFold(name, c.lc.Member) {
			c.members++
			c.doubt = c.doubt || c.members > 1 || name != c.lc.Member
		}
	case kTable:
		if c.tables == nil {
			c.seed = maphash.MakeSeed()
		}
		c.tables = append(c.tables, maphash.String(c.seed, name))
		c.doubt = c.doubt || !c.lc.Table(name)
	case kField:
		if strings.EqualFold(name, c.lc.List) {
			c.lists++
			c.doubt = c.doubt || c.lists > 1 || name != c.lc.List
		}
	}
}

// open reads the opening of the container at c.at: then the state is
// in (its first member or element) or, when it is empty, after.
func (c *keysCutter) open(o byte, in, after int) bool {
	next, empty, ok := wire.OpenAt(c.b, c.at, o)
	if !ok {
		return false
	}
	c.pos, c.state = next, in
	if empty {
		c.state = after
	}
	return true
}

// sep reads the ',' or the close after a value: then the state is next
// or, after the close, after.
func (c *keysCutter) sep(close byte, next, after int) bool {
	n, last, ok := wire.SepAt(c.b, c.pos, close)
	if !ok {
		return false
	}
	c.pos, c.state = n, next
	if last {
		c.state = after
	}
	return true
}

// gather reads one element of a list at pos into the run gathered
// (run, of n elements); last says it was the list's last.
func (c *keysCutter) gather(run *wire.Span, n *int) (last, ok bool) {
	s, next, last, ok := wire.ValueAt(c.b, c.pos, ']')
	if !ok {
		return false, false
	}
	c.pos = next
	if *n == 0 {
		run.Start = s.Start
	}
	run.End = s.End
	*n++
	return last, true
}

// element reads one element of the list.
func (c *keysCutter) element() bool {
	last, ok := c.gather(&c.run, &c.runN)
	if !ok {
		return false
	}
	if c.runN == 1 {
		c.runAt = c.i
	}
	if c.i == 0 {
		c.firstEnd = c.run.End
	}
	c.i++
	c.elems++
	if last || c.i == c.lc.Keep || c.runN == c.lc.Size || c.run.End-c.run.Start >= maxRunBytes {
		c.flush()
	}
	if last && c.state == kElem {
		c.state = kObjSep
		c.over = c.i >= c.lc.Keep
		c.parkKeys()
	}
	return true
}

// parkKeys, when the list just closed has 2 to Keep-1 elements and no
// value fault, after lists of Keep elements in all, parks all its
// elements but the first (the total's parking, keysCutter).
func (c *keysCutter) parkKeys() {
	if c.lc.Table == nil || c.over || c.dirty || c.doubt || c.i < 2 || c.elems-c.i < c.lc.Keep {
		return
	}
	c.keys.park(c.firstEnd, c.b[c.firstEnd:c.keepEnd])
	c.drop(c.firstEnd, c.keepEnd)
	c.dropped += c.keepEnd - c.firstEnd
}

// flush decodes and checks the run gathered: kept while the list has
// kept fewer than Keep elements or less echo than the answer shows (its
// echo measured), dropped past that when clean. A run that does not
// decode stops the cutting.
func (c *keysCutter) flush() {
	keep := c.runAt < c.lc.Keep || c.echo < echoKeep
	var echo *int
	if c.echo < echoKeep {
		echo = &c.echo
	}
	ok, clean := c.measure(c.b, c.run, echo)
	c.runN = 0
	c.dirty = c.dirty || !clean
	if !ok {
		c.stop()
		return
	}
	if keep || !clean {
		c.keepEnd = c.run.End
		return
	}
	c.drop(c.keepEnd, c.run.End)
	c.dropped += c.run.End - c.run.Start // counted in bytes: not 0 once any is
}

// namesField reads, at an object's member, a names list (ListCut.Names)
// and enters it; it reports whether it did (false: the member is read
// as any other, or is not all there).
func (c *keysCutter) namesField() bool {
	name, v, ok := wire.NameAt(c.b, c.pos)
	if !ok || name != c.lc.Names || c.b[v] != '[' {
		return false
	}
	c.at, c.state = v, kNamesOpen
	c.nLists++
	return true
}

// name reads one element of a names list.
func (c *keysCutter) name() bool {
	last, ok := c.gather(&c.nRun, &c.nRunN)
	if !ok {
		return false
	}
	if last || c.nRunN == c.lc.Size || c.nRun.End-c.nRun.Start >= maxRunBytes {
		c.flushNames()
	}
	if last && c.state == kName {
		c.state = kObjSep
	}
	return true
}

// flushNames decodes and checks the names run gathered: kept while the
// list has kept less echo than the answer shows (its echo measured);
// past that, it is dropped from the body kept and parked (a copy of its
// bytes, not decoded) until the object closes. A run that does not
// decode stops the cutting.
func (c *keysCutter) flushNames() {
	keep := c.nEcho < echoKeep
	var echo *int
	if keep {
		echo = &c.nEcho
	}
	ok := c.names(c.b, c.nRun, echo)
	c.nRunN = 0
	switch {
	case !ok:
		c.stop()
	case keep:
		c.nKeepEnd = c.nRun.End
	default:
		c.parked.park(c.nKeepEnd, c.b[c.nKeepEnd:c.nRun.End])
		c.drop(c.nKeepEnd, c.nRun.End)
		c.dropped += c.nRun.End - c.nKeepEnd
	}
}

// closed is ok, after an object's member or separator is read: when
// that closed the object, the names parked are let go if its last list
// had Keep elements or more (the answer is that list's violation, which
// shows of the names no more than their echo), and put back otherwise,
// or when the object has a second names list (the decoder reads a later
// list into the earlier one's elements: its null keeps the name there).
func (c *keysCutter) closed(ok bool) bool {
	if !ok || c.state != kMapSep {
		return ok
	}
	if !c.over || c.nLists > 1 {
		c.unpark()
	}
	c.parked.letGo()
	return true
}

// measureNames is a names list's check: a run of names decoded alone,
// and measured as the answer's echo shows each name, at least (its
// bytes and two quotes).
func measureNames() func(body []byte, run wire.Span, echo *int) bool {
	var part struct {
		N []string `json:"n"`
	}
	return func(body []byte, run wire.Span, echo *int) bool {
		clear(part.N[:cap(part.N)]) // a null keeps the element there: none
		part.N = part.N[:0]
		ok, clean := DecodeRun(body, run, `{"n":[`, `]}`, &part)
		if echo != nil {
			for _, n := range part.N {
				*echo += len(n) + 2
			}
		}
		return ok && clean
	}
}

// keysInput is a run of BatchGetItem keys, decoded as the service's
// input decodes them (the same members, at the same depth).
type keysInput struct {
	RequestItems map[string]*struct {
		Keys []wire.WireItem `json:"Keys"`
	} `json:"RequestItems"`
}

// MeasureKeys is BatchGetItem's Measurer: a run of keys decoded alone
// at their depth, and measured as the answer's echo (the map as JSON)
// shows each key, at least.
func MeasureKeys() func(body []byte, run wire.Span, echo *int) (ok, clean bool) {
	var part keysInput
	var scratch []byte
	return func(body []byte, run wire.Span, echo *int) (bool, bool) {
		clear(part.RequestItems)
		ok, clean := DecodeRun(body, run, `{"RequestItems":{"t":{"Keys":[`, `]}}}`, &part)
		if req := part.RequestItems["t"]; req != nil {
			for _, k := range req.Keys {
				if echo != nil {
					n := len("null")
					if k != nil {
						scratch = wire.AppendItem(scratch[:0], k)
						n = len(scratch)
					}
					*echo += n
				}
				wire.RecycleItem(k) // measured: the next run reuses the map
			}
		}
		return ok, clean
	}
}
