package oversize

import (
	"bytes"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// MapCut: a ListCut with an Echoer reads its Member as a map whose
// values are lists (BatchWriteItem's RequestItems), as the body arrives.
// Each list's first Keep elements are kept; every element, those too,
// is decoded a run at a time, echoed into its list's echo and checked;
// a run past Keep that is clean is dropped. What the answer is a
// function of, and what is kept of it:
//
//   - A fault that decoding reports (a syntax or serialization error)
//     is the answer whatever else the body holds, and the first one is
//     kept, for no element dropped has one: once a run has one,
//     nothing more is dropped.
//   - Otherwise, when the map as decoded (a name given twice: its last
//     list; a null member: no map) has a list of no element or of more
//     than Keep, the answer is the constraint violations of the
//     request's other members, kept as they are, and the echo of the
//     whole map, tables by name, cut at MaxEchoBytes: each list's echo
//     is kept to MaxEchoBytes and a few bytes (a rune) and the body
//     decoded has each list empty (so over its limit, the same
//     violation).
//   - Otherwise every list dropped from was given again later (its
//     elements decide nothing), and the body as kept gets the answer:
//     a run with a value fault is kept in place, so the first one is
//     the body's.
//
// What a body costs is its kept part (Keep elements a list), a run, and
// the echo of each table, at most MaxEchoBytes and a few bytes each,
// and less once the names before a table add up (prune).

// echoKeep is how much of a list's echo (and of the map's) is kept: the
// answer shows MaxEchoBytes of it, and whether the byte after them
// starts a rune.
const echoKeep = MaxEchoBytes + 8

// occurrence is one list of the map: a name given and its list.
type occurrence struct {
	name  string
	count int          // its elements
	echo  bytes.Buffer // "name=[...]", at most room bytes and a run's
	room  int          // the most of its echo the answer can show (prune)
	cut   bool         // echo holds room bytes, and no more is written
}

// occurrence returns a new list of name: its echo's room is the one
// the name has in the map (the names before it are still there), or
// all of echoKeep.
func (c *mapCutter) occurrence(name string) *occurrence {
	o := &occurrence{name: name, room: echoKeep}
	if old := c.names[name]; old != nil {
		o.room = old.room
	}
	return o
}

// open starts o's echo, "name=[", unless it is started.
func (o *occurrence) open() {
	if o.echo.Len() == 0 && !o.cut {
		o.echo.WriteString(o.name)
		o.echo.WriteString("=[")
	}
}

// full reports whether o's echo takes no more bytes.
func (o *occurrence) full() bool { return o.cut || o.echo.Len() > o.room }

// minEcho is the least a name given adds to the map's echo, whatever
// its list (replaced later by an empty one, or null): "name=[]" and
// the ", " before the next.
func minEcho(name string) int { return len(name) + len("=[]") + len(", ") }

// Pruning the echoes across tables. The answer shows the map's echo,
// tables by name, to echoKeep bytes; a table's echo starts after those
// of the names before it. A later list of the same name replaces a
// table's echo, maybe by a far shorter one, so the echoes before a
// table are only known at the end; but a name once in the map stays
// there, and adds minEcho at least (a "RequestItems": null empties the
// map, and so every table a name was before). So a table whose names
// before it add up to L (and the "{") shows at most echoKeep - L bytes
// of its echo, whatever comes later, and the rest of its echo is never
// shown: prune drops it. No reading in one pass can keep less: a later
// empty list for each name before a table brings its echo forward by
// all but their minEcho.

// prune cuts each echo to the bytes the answer can show of it (room),
// the names given so far and the list being read (occ, not yet in the
// map) by name, and returns the echo bytes kept.
func (c *mapCutter) prune() int {
	names := make([]string, 0, len(c.names)+1)
	for name := range c.names {
		names = append(names, name)
	}
	if c.occ != nil { // a list being read
		if _, ok := c.names[c.occ.name]; !ok {
			names = append(names, c.occ.name)
		}
	}
	slices.Sort(names)
	before, kept := len("{"), 0
	for _, name := range names {
		room := max(0, echoKeep-before)
		for _, o := range [2]*occurrence{c.names[name], c.occ} {
			if o == nil || o.name != name {
				continue // c.occ: the list being read, of another name
			}
			if room < o.room {
				o.room = room
			}
			if o.echo.Len() > o.room {
				shown := bytes.NewBuffer(make([]byte, 0, o.room))
				shown.Write(o.echo.Bytes()[:o.room])
				o.echo, o.cut = *shown, true
			}
			kept += o.echo.Cap()
		}
		before += minEcho(name)
	}
	return kept
}

// echoGrown notes n bytes written to the echoes, and prunes them once
// they have grown by the bytes they held at the last prune (so what
// they hold is at most about twice what the answer can show of them),
// by a few answers' worth, and by 32 bytes a name (so a sort of the
// names costs less than writing the echo: a map of a million tiny
// tables is sorted a few times, not once a run). Between prunes a
// name's room does not grow (a list of a name again has the room of
// the name's last).
func (c *mapCutter) echoGrown(n int) {
	c.grown += n
	if c.grown >= max(4*echoKeep, c.echoHeld, 32*len(c.names)) {
		c.echoHeld, c.grown = c.prune(), 0
	}
}

// mapCutter's states.
const (
	mTop      = iota // the top-level object's opening
	mMember          // a top-level member's name and value
	mTopSep          // the ',' or '}' after a top-level member
	mMapOpen         // the map's opening
	mTable           // a table's name and value
	mMapSep          // the ',' or '}' after a table
	mListOpen        // a table's list's opening
	mElem            // an element of a list
	mWhole           // the rest as it is
)

// mapCutter is a MapCut's reading of one body.
type mapCutter struct {
	reading
	lc    *ListCut
	echo  func(echo *bytes.Buffer, body []byte, run wire.Span, at int) (n int, ok, clean bool)
	state int
	at    int // where the value being read starts (the map's, a list's)

	names   map[string]*occurrence // the map as decoded so far
	occ     *occurrence            // the list being read
	lists   []wire.Span            // every list read, in b
	i       int                    // the list's elements read
	keepEnd int                    // the end of the list's last element kept
	run     wire.Span
	runN    int
	runAt   int // the position of the run's first element in its list
	scratch bytes.Buffer

	grown    int // echo bytes written since the last prune
	echoHeld int // echo bytes kept after it

	elems   int // elements of every list
	dropped int
	faulted bool // a run did not decode: nothing more is dropped
}

func (c *mapCutter) uncut() bool { return c.state == mWhole && c.dropped == 0 }

// step reads as much of the body's shape as has arrived.
func (c *mapCutter) step(eof bool) {
	for c.state != mWhole {
		if c.wait(eof) {
			return // a part not all there: again once the bytes since doubled
		}
		if !c.part() {
			if eof {
				c.state = mWhole // not well formed: the decoder says how
				return
			}
			c.tried = len(c.b)
			return
		}
	}
}

// part reads the part of the shape at pos.
func (c *mapCutter) part() bool {
	switch c.state {
	case mTop:
		next, empty, ok := wire.OpenAt(c.b, 0, '{')
		if !ok {
			return false
		}
		c.pos, c.state = next, mMember
		if empty {
			c.state = mWhole
		}
	case mMember:
		name, v, ok := wire.NameAt(c.b, c.pos)
		if !ok {
			return false
		}
		if name == c.lc.Member && c.b[v] == '{' {
			c.at, c.state = v, mMapOpen
			return true
		}
		s, next, last, ok := wire.ValueAt(c.b, v, '}')
		if !ok {
			return false
		}
		if name == c.lc.Member && string(c.b[s.Start:s.End]) == "null" {
			clear(c.names) // the decoder sets the map to nil
		}
		c.pos = next
		if last {
			c.state = mWhole
		}
	case mTopSep:
		next, last, ok := wire.SepAt(c.b, c.pos, '}')
		if !ok {
			return false
		}
		c.pos, c.state = next, mMember
		if last {
			c.state = mWhole
		}
	case mMapOpen:
		next, empty, ok := wire.OpenAt(c.b, c.at, '{')
		if !ok {
			return false
		}
		c.pos, c.state = next, mTable
		if empty {
			c.state = mTopSep
		}
	case mTable:
		name, v, ok := wire.NameAt(c.b, c.pos)
		if !ok {
			return false
		}
		if c.b[v] == '[' {
			c.occ = c.occurrence(name)
			c.at, c.state = v, mListOpen
			return true
		}
		_, next, last, ok := wire.ValueAt(c.b, v, '}')
		if !ok {
			return false
		}
		c.table(c.occurrence(name)) // null: no list; another value: a fault the decoder reports
		c.pos, c.state = next, mTable
		if last {
			c.state = mTopSep
		}
	case mMapSep:
		next, last, ok := wire.SepAt(c.b, c.pos, '}')
		if !ok {
			return false
		}
		c.pos, c.state = next, mTable
		if last {
			c.state = mTopSep
		}
	case mListOpen:
		next, empty, ok := wire.OpenAt(c.b, c.at, '[')
		if !ok {
			return false
		}
		c.i, c.runN, c.keepEnd = 0, 0, next
		c.pos, c.state = next, mElem
		if empty {
			c.lists = append(c.lists, wire.Span{Start: c.at, End: next})
			c.table(c.occ)
			c.state = mMapSep
		}
	case mElem:
		return c.element()
	}
	return true
}

// table records a list read whole, its echo closed: the last of its
// name is the map's.
func (c *mapCutter) table(o *occurrence) {
	o.open()
	if !o.full() {
		o.echo.WriteString("]")
	}
	c.names[o.name] = o
	c.occ = nil // read whole: in the map
	c.echoGrown(len(o.name) + len("=[]"))
}

// element reads one element of a list.
func (c *mapCutter) element() bool {
	s, next, last, ok := wire.ValueAt(c.b, c.pos, ']')
	if !ok {
		return false
	}
	c.pos = next
	if c.runN == 0 {
		c.run.Start, c.runAt = s.Start, c.i
	}
	c.run.End = s.End
	c.runN++
	c.i++
	c.elems++
	if last || c.i == c.lc.Keep || c.runN == c.lc.Size || c.run.End-c.run.Start >= maxRunBytes {
		c.flush()
	}
	if last && c.state == mElem {
		end := c.pos // after the list's ']'
		c.lists = append(c.lists, wire.Span{Start: c.at, End: end})
		c.table(c.occ)
		c.state = mMapSep
	}
	return true
}

// flush echoes and checks the run gathered; past Keep, a clean run is
// dropped. A run that does not decode stops the cutting.
func (c *mapCutter) flush() {
	o := c.occ
	o.open()
	into := &o.echo
	if o.full() {
		into = &c.scratch // past what the answer shows: checked only
	}
	was := into.Len()
	_, ok, clean := c.echo(into, c.b, c.run, c.runAt)
	if into == &o.echo {
		c.echoGrown(o.echo.Len() - was)
	}
	c.scratch.Reset()
	o.count += c.runN
	c.runN = 0
	if !ok {
		c.faulted, c.state = true, mWhole
		return
	}
	if c.runAt < c.lc.Keep || !clean {
		c.keepEnd = c.run.End
		return
	}
	c.drop(c.keepEnd, c.run.End)
	c.dropped += c.run.End - c.run.Start // counted in bytes: not 0 once any is
}

// end, once the whole body is read, returns what was cut: nothing when
// nothing was dropped (the body is as it arrived); the map's elements
// and, when the map as decoded has a list over its limit or empty (and
// no run failed to decode), its echo, with each list of the body kept
// left empty.
func (c *mapCutter) end() Cut {
	c.step(true)
	if c.dropped == 0 {
		return Cut{}
	}
	cut := Cut{Elems: c.elems}
	if c.faulted || c.state != mWhole {
		return cut
	}
	over := false
	for _, o := range c.names {
		if o.count == 0 || o.count > c.lc.Keep {
			over = true
		}
	}
	if !over {
		return cut
	}
	names := make([]string, 0, len(c.names))
	for name := range c.names {
		names = append(names, name)
	}
	slices.Sort(names)
	var e strings.Builder
	e.WriteString("{")
	for i, name := range names {
		if e.Len() > echoKeep {
			break
		}
		if i > 0 {
			e.WriteString(", ")
		}
		e.Write(c.names[name].echo.Bytes())
	}
	if e.Len() <= echoKeep {
		e.WriteString("}")
	}
	echo := e.String()
	cut.Echo = []string{echo[:min(len(echo), echoKeep)]}
	out := make([]byte, 0, len(c.b))
	prev := 0
	for _, l := range c.lists {
		out = append(out, c.b[prev:l.Start]...)
		out = append(out, "[]"...)
		prev = l.End
	}
	c.b = append(out, c.b[prev:]...)
	return cut
}
