package oversize

import (
	"bytes"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// Echoes are the echo of a map's lists past their limit (BatchWriteItem's
// write requests past 25 a table): each list's count and echo, by the
// list's name, kept to what the answer can show of it. The answer shows
// the map's echo, lists by name, to Keep bytes; a list's echo starts
// after those of the names before it, each of which adds Sep bytes and
// itself at least, whatever its list (a later list of a name replaces
// its echo; a name once in the map stays there). So a list whose names
// before it add up to L shows at most Keep - L bytes of its echo: prune
// drops the rest, and what the echoes hold is about twice what the
// answer can show, not the lists'.
type Echoes struct {
	Keep, Sep   int
	lists       map[string]*echoList
	grown, held int // bytes echoed since the last prune, and kept by it
}

// echoList is one list's elements past its limit.
type echoList struct {
	n    int
	echo []byte
	room int
}

// Start starts the list of name: a name given again replaces its list,
// and keeps the room the names before it left.
func (e *Echoes) Start(name string) {
	if e.lists == nil {
		e.lists = map[string]*echoList{}
	}
	room := e.Keep
	if l := e.lists[name]; l != nil {
		room = l.room
	}
	e.lists[name] = &echoList{room: room}
}

// Started reports whether a list was started.
func (e *Echoes) Started() bool { return e.lists != nil }

// Add counts an element of name's list and, while the answer can show
// it, echoes it (write appends its echo).
func (e *Echoes) Add(name string, write func(*bytes.Buffer)) {
	l := e.lists[name]
	l.n++
	if len(l.echo) <= l.room {
		b := bytes.NewBuffer(l.echo)
		write(b)
		e.grown += b.Len() - len(l.echo)
		l.echo = b.Bytes()
	}
	if e.grown >= max(4*e.Keep, e.held, 32*len(e.lists)) { // a sort of the names costs less than the echoes' writing
		e.prune()
	}
}

// prune cuts each list's echo to the bytes the answer can show of it.
func (e *Echoes) prune() {
	names := make([]string, 0, len(e.lists))
	for name := range e.lists {
		names = append(names, name)
	}
	slices.Sort(names)
	before := len("{")
	e.held, e.grown = 0, 0
	for _, name := range names {
		l := e.lists[name]
		l.room = min(l.room, max(0, e.Keep-before))
		l.echo = l.echo[:min(len(l.echo), l.room)]
		e.held += len(l.echo)
		before += len(name) + e.Sep
	}
}

// Len is the count of name's list's elements past its limit.
func (e *Echoes) Len(name string) int {
	if l := e.lists[name]; l != nil {
		return l.n
	}
	return 0
}

// Echo is the echo of name's list's elements past its limit, to what
// the answer can show of it.
func (e *Echoes) Echo(name string) []byte {
	if l := e.lists[name]; l != nil {
		return l.echo
	}
	return nil
}

// Past is what a list's elements past its limit leave for the answer:
// their count, and their constraint violations while an answer can list
// them (apierr.MaxConstraintErrors).
type Past struct {
	N          int
	Violations []string
}

// Add counts one more element, with the violations add finds of it.
func (p *Past) Add(add func(*apierr.Constraints)) {
	p.N++
	if len(p.Violations) < apierr.MaxConstraintErrors {
		var cs apierr.Constraints
		add(&cs)
		p.Violations = append(p.Violations, cs.Msgs...)
	}
}
