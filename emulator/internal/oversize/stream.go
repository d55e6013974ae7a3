package oversize

import (
	"bytes"
	"io"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// ListCut is how a request whose top-level member Member is a list with
// a count limit is read as its bytes arrive: its first Keep elements are
// kept, the later ones are checked a run at a time (as firstOf checks
// them in a body held whole) and dropped, so a request far over its
// limit holds its bytes up to the list's limit, a run, and what follows
// the list, never the whole list. The body kept is the one firstOf
// would reduce the whole body to, and the service answers it as it
// answers that (the list's length given apart).
type ListCut struct {
	Member     string
	Keep, Size int // elements kept; elements a run, at most
	// Checker returns the check of one request's runs: whether the
	// elements of run (in body) have no fault the answer would report.
	// Each request gets its own (a check may reuse what it decodes into
	// from run to run).
	Checker func() func(body []byte, run wire.Span) bool
	// Fill, when not nil, tells a decoded input the list's length.
	Fill func(in any, elems int)
	// Picker, when not nil, is Checker for a list whose answer depends
	// on the kinds of its elements too (BatchExecuteStatement's: reads,
	// writes): it also returns the elements of run to keep, each the
	// first of its kind past the first Keep, which the body kept has
	// after them.
	Picker func() func(body []byte, run wire.Span) (ok bool, keep []wire.Span)

	// Echoer, when not nil, makes Member a map whose values are lists
	// (BatchWriteItem's RequestItems, a table name to its write
	// requests) read as MapCut says, and Checker unused: it returns the
	// echo of one request's runs, which appends the echo of run's
	// elements (in body) to echo, the first at position at of its list,
	// and returns how many it echoed, whether they decode (ok) and
	// whether they have no value fault either (clean).
	Echoer func() func(echo *bytes.Buffer, body []byte, run wire.Span, at int) (n int, ok, clean bool)
	// Echoed, when not nil, tells a decoded input the map's echo.
	Echoed func(in any, echo []string)

	// List and Measurer, when Measurer is not nil, make Member a map
	// whose values are objects with a list member List (BatchGetItem's
	// RequestItems, a table name to its KeysAndAttributes, and its
	// Keys) read as KeysCut says, and Checker unused: Measurer returns
	// the check of one request's runs, which reports whether the
	// elements of run (in body) decode (ok) with no value fault either
	// (clean), and, when echo is not nil, adds to *echo at least the
	// bytes the answer's echo of them takes.
	List     string
	Measurer func() func(body []byte, run wire.Span, echo *int) (ok, clean bool)
	// Names, when not empty with Measurer, is a list member of strings
	// beside List in each object (BatchGetItem's AttributesToGet): past
	// the echo the answer shows, its names are checked and, when the
	// object closes with its last List over Keep-1 elements and one
	// Names list, dropped.
	Names string
	// Table, when not nil with Measurer, reports whether a key of
	// Member's map is a table name (BatchGetItem's); with it, the lists
	// past Keep elements in all are parked as KeysCut says.
	Table func(name string) bool
}

// Filled tells in what the cut left out: the list's length (Fill), and
// the map's echo (Echoed) when it is the answer.
func (lc *ListCut) Filled(in any, cut Cut) {
	if lc.Fill != nil {
		lc.Fill(in, cut.Elems)
	}
	if lc.Echoed != nil && cut.Echo != nil {
		lc.Echoed(in, cut.Echo)
	}
}

// Cut is what Read cut from a body.
type Cut struct {
	Elems int // the list's length (0: nothing was cut); a map's, all its lists'
	Len   int // the bytes of the body as it was sent
	// Read says the body was read through the ListCut (Read, with no
	// error): a Reduce of the body kept would cut nothing more, so the
	// service runs none (a second copy of the body, to cut nothing).
	Read bool
	// Echo is a map cut's echo, when the answer is the one that echoes
	// it (MapCut); in one piece, cut after MaxEchoBytes and a few bytes.
	Echo []string
}

// MinCutBytes is the smallest body read through a ListCut: a smaller one
// is read whole (its list, over its limit or not, is at most a few
// thousand elements, which the prescans read in the body held).
const MinCutBytes = 256 << 10

// Checked returns a ListCut's Checker that decodes each run into a new T
// as the only elements of its list (pre and post around them, as
// DecodeAlone) and accepts it when clean does (clean may give back what
// was decoded).
func Checked[T any](pre, post string, clean func(*T) bool) func() func([]byte, wire.Span) bool {
	return func() func([]byte, wire.Span) bool {
		return func(body []byte, run wire.Span) bool {
			in := new(T)
			ok := DecodeAlone(body, run, pre, post, in)
			return clean(in) && ok
		}
	}
}

// TakesSize reports whether a body of size bytes (-1: unknown) is read
// through its operation's ListCut, if it has one: a smaller one than
// MinCutBytes is read whole.
func TakesSize(size int64) bool { return size < 0 || size >= MinCutBytes }

// Reduce is Read for a body held whole (a compressed one, or one smaller
// than MinCutBytes): it returns the body to decode instead (nil: the body
// as it is) and what to tell its decoded input.
func (lc *ListCut) Reduce(body []byte) (reduced []byte, fill func(any)) {
	if Few(body, lc.Keep) {
		return nil, nil
	}
	var buf bytes.Buffer
	_, cut, _, _ := lc.Read(&buf, bytes.NewReader(body), int64(len(body))+1, 0)
	if cut.Elems == 0 {
		return nil, nil
	}
	return buf.Bytes(), func(in any) { lc.Filled(in, cut) }
}

// Again is Reduce for the service's prescan of a body the edge may have
// read through lc already (cut.Read): that one has nothing more to cut,
// and a Reduce would only read it into a second buffer, a copy of the
// body (of a 4 MB TransactWriteItems of one item: buffers of 8 MB).
func (lc *ListCut) Again(body []byte, cut Cut) (reduced []byte, fill func(any)) {
	if cut.Read {
		return nil, nil
	}
	return lc.Reduce(body)
}

// readChunk is how much of the body a read asks for: what the body holds
// beyond its kept part is at most a run and a chunk.
const readChunk = 32 << 10

// Read reads the body from r into buf, at most limit bytes, and returns
// how many it read and err (r's; io.EOF is nil). When cut.Elems is not 0
// the list held that many elements, those past Keep were checked and dropped,
// and buf holds the rest of the body, all of it. Otherwise buf holds the
// body as it arrived, or, where a later element had a fault (or the
// body's shape was not the one firstOf reduces), the body with each
// dropped element in place of a clean one dropped before it: a body
// whose answer is the whole body's, the list's length and every element
// with a fault at its place; and more says the rest of the body is yet
// to be read (the caller reads it as any body).
//
// want, when not 0, is the body's announced size plus one: the kept part
// grows towards it, no further.
func (lc *ListCut) Read(buf *bytes.Buffer, r io.Reader, limit, want int64) (n int64, cut Cut, more bool, err error) {
	var c bodyCutter
	if lc.Measurer != nil {
		kc := &keysCutter{lc: lc, reading: reading{b: buf.Bytes()[:0]}, measure: lc.Measurer(), names: measureNames()}
		defer kc.parked.letGo() // a body that stops or fails inside an object
		defer kc.keys.letGo()
		c = kc
	} else if lc.Echoer != nil {
		c = &mapCutter{lc: lc, reading: reading{b: buf.Bytes()[:0]}, echo: lc.Echoer(), names: map[string]*occurrence{}}
	} else if lc.Picker != nil {
		lcut := &cutter{lc: lc, reading: reading{b: buf.Bytes()[:0]}}
		pick := lc.Picker()
		lcut.check = func(b []byte, run wire.Span) bool {
			ok, keep := pick(b, run)
			for _, s := range keep {
				lcut.picks = append(lcut.picks, append([]byte(nil), b[s.Start:s.End]...))
			}
			return ok
		}
		c = lcut
	} else {
		c = &cutter{lc: lc, reading: reading{b: buf.Bytes()[:0]}, check: lc.Checker()}
	}
	defer func() { *buf = *bytes.NewBuffer(*c.body()) }()
	n, cut, more, err = readCut(c, r, limit, want)
	cut.Read = err == nil
	return n, cut, more, err
}

// bodyCutter is a reading of one body as it arrives: the bytes kept so
// far, a step over what has arrived, whether it cut nothing and will
// not (the rest read as any body), and at the end what it cut.
type bodyCutter interface {
	body() *[]byte
	step(eof bool)
	uncut() bool
	end() Cut
	failed() error
}

func (c *cutter) uncut() bool { return c.state == whole && c.dropped == 0 }
func (c *cutter) end() Cut {
	c.step(true)
	return Cut{Elems: c.finish()}
}

// readCut is Read's loop over the reads of r, for any bodyCutter.
func readCut(c bodyCutter, r io.Reader, limit, want int64) (n int64, cut Cut, more bool, err error) {
	bp := c.body()
	for n < limit {
		// The buffer doubles, and takes the announced size (want) once
		// it would hold half of it; with room left it is not grown (the
		// body's end is read into the byte past it). A body kept whole, 4
		// MB: buffers of 8.2 MB in all, where they were 16.3 (the last 8).
		if free := cap(*bp) - len(*bp); free == 0 || free < readChunk && int64(cap(*bp)) < want {
			size := max(2*cap(*bp), len(*bp)+readChunk)
			if want > int64(len(*bp)) && int64(2*size) > want {
				size = int(want)
			}
			b := make([]byte, len(*bp), size)
			copy(b, *bp)
			*bp = b
		}
		free := (*bp)[len(*bp):cap(*bp)]
		free = free[:min(int64(len(free)), limit-n)]
		m, rerr := r.Read(free)
		*bp = (*bp)[:len(*bp)+m]
		n += int64(m)
		if rerr != nil && rerr != io.EOF {
			return n, Cut{}, false, rerr
		}
		eof := rerr == io.EOF
		c.step(eof)
		if err := c.failed(); err != nil {
			return n, Cut{}, false, err
		}
		if c.uncut() {
			return n, Cut{}, !eof, nil // nothing cut: the rest as any body
		}
		if eof {
			break
		}
	}
	if n >= limit { // over the limit: refused by its size, whatever it holds
		return n, Cut{}, false, nil
	}
	cut = c.end()
	if err := c.failed(); err != nil {
		return n, Cut{}, false, err
	}
	if cut.Elems > 0 {
		cut.Len = int(n)
		return n, cut, false, nil
	}
	return n, Cut{}, false, nil
}

// cutter's states: before the list, in it, after it (or no list to cut).
const (
	top = iota
	inList
	whole
)

// reading is one body as a cutter reads it, the cutters' shared part.
type reading struct {
	b     []byte // the body kept so far
	pos   int    // where the next part of the shape starts in b
	tried int    // len(b) when the part at pos was last found not all there
	err   error  // what makes the body's reading fail (ErrParking)
}

func (r *reading) body() *[]byte { return &r.b }
func (r *reading) failed() error { return r.err }

// wait reports whether the part at pos, found not all there, is not worth
// trying again yet: the body has not reached eof and the bytes since have
// not doubled.
func (r *reading) wait(eof bool) bool {
	return !eof && r.tried > r.pos && len(r.b)-r.pos < 2*(r.tried-r.pos)
}

// drop takes b[from:to] out of the body kept, and what is read after it
// moves back with it.
func (r *reading) drop(from, to int) {
	r.b = append(r.b[:from], r.b[to:]...)
	shift := to - from
	r.pos -= shift
	r.tried = max(0, r.tried-shift)
}

// cutter is a ListCut's reading of one body.
type cutter struct {
	reading
	lc    *ListCut
	check func(body []byte, run wire.Span) bool
	state int

	list    int // where the list starts in b (its '[')
	i       int // elements read
	keepEnd int // the end of the last element kept
	run     wire.Span
	runN    int
	first   wire.Span // the run's first element
	dropped int       // elements dropped
	clean   []byte    // a dropped element: the stand-in of the others
	picks   [][]byte  // elements dropped that the body kept has after the first Keep (Picker)
}

// step reads as much of the body's shape as has arrived.
func (c *cutter) step(eof bool) {
	for c.state != whole {
		if c.wait(eof) {
			return // a part not all there: again once the bytes since doubled
		}
		var ok bool
		if c.state == top {
			ok = c.member()
		} else {
			ok = c.element()
		}
		if !ok {
			if eof {
				c.state = whole // not well formed: the decoder says how
				return
			}
			c.tried = len(c.b)
			return
		}
	}
}

// member reads the top-level object's opening or one member.
func (c *cutter) member() bool {
	if c.pos == 0 {
		next, empty, ok := wire.OpenAt(c.b, 0, '{')
		if !ok {
			return false
		}
		c.pos = next
		if empty {
			c.state = whole
		}
		return true
	}
	name, v, ok := wire.NameAt(c.b, c.pos)
	if !ok {
		return false
	}
	if name == c.lc.Member && c.b[v] == '[' {
		c.list, c.pos, c.state = v, v+1, inList
		return true
	}
	_, next, last, ok := wire.ValueAt(c.b, v, '}')
	if !ok {
		return false
	}
	c.pos = next
	if last {
		c.state = whole
	}
	return true
}

// element reads one element of the list.
func (c *cutter) element() bool {
	if c.i == 0 {
		if _, empty, ok := wire.OpenAt(c.b, c.list, '['); !ok {
			return false
		} else if empty {
			c.state = whole
			return true
		}
	}
	s, next, last, ok := wire.ValueAt(c.b, c.pos, ']')
	if !ok {
		return false
	}
	c.pos = next
	if c.i < c.lc.Keep {
		c.keepEnd = s.End
	} else {
		if c.runN == 0 {
			c.run.Start, c.first = s.Start, s
		}
		c.run.End = s.End
		c.runN++
		if c.runN == c.lc.Size || c.run.End-c.run.Start >= maxRunBytes {
			c.flush()
		}
	}
	c.i++
	if last {
		c.flush()
		if c.state != whole {
			c.state = whole
		}
	}
	return true
}

// flush checks the run gathered and drops it; a run with a fault is kept,
// the elements dropped before it put back as stand-ins, and nothing more
// is cut.
func (c *cutter) flush() {
	if c.runN == 0 {
		return
	}
	if !c.check(c.b, c.run) {
		c.restore()
		return
	}
	if c.clean == nil {
		c.clean = append([]byte(nil), c.b[c.first.Start:c.first.End]...)
	}
	c.drop(c.keepEnd, c.run.End)
	c.dropped += c.runN
	c.runN = 0
}

// restore puts a stand-in back in the place of each element dropped (the
// list's length and the places of the elements kept are the body's
// again) and reads the rest as it comes.
func (c *cutter) restore() {
	c.runN = 0
	c.state = whole
	if c.dropped == 0 {
		return
	}
	var in []byte
	for i := range c.dropped {
		in = append(in, ',')
		if i < len(c.picks) { // the kinds of the elements dropped are there again
			in = append(in, c.picks[i]...)
		} else {
			in = append(in, c.clean...)
		}
	}
	c.picks = nil
	c.b = append(c.b[:c.keepEnd], append(in, c.b[c.keepEnd:]...)...)
	c.dropped = 0
}

// finish, once the whole body is read, returns the list's length when
// elements were dropped and the body kept has the shape firstOf reduces
// (an object with that member once, in no other case, whose list is well
// formed); otherwise it restores the body (0).
func (c *cutter) finish() int {
	if c.dropped == 0 {
		return 0
	}
	if c.state != whole || c.runN > 0 {
		c.restore() // the body ended inside the list
		return 0
	}
	list, ok := topMember(c.b, c.lc.Member)
	kept := 0
	if !ok || list.Start != c.list ||
		!wire.ArrayElements(c.b, list.Start, func(int, wire.Span) bool { kept++; return true }) || kept != c.lc.Keep {
		c.restore()
		return 0
	}
	if len(c.picks) > 0 {
		var in []byte
		for _, p := range c.picks {
			in = append(in, ',')
			in = append(in, p...)
		}
		c.b = slices.Insert(c.b, c.keepEnd, in...)
	}
	return c.i
}
