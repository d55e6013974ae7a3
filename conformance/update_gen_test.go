package conformance

// The generator of TestUpdateListPathsGenerated: random starting items
// (lists in maps, maps in lists, sets, numbers) and random updates of list
// indexes (in range, at and past the end, repeated) and map paths, written
// as an UpdateExpression or a PartiQL UPDATE.

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Top-level attribute names and map keys of generated items (none is a
// reserved word, so expressions need no #names).
var (
	genTopNames = []string{"l1", "l2", "m1", "n1", "t1"}
	genMapKeys  = []string{"a1", "b1", "c1"}
)

type updateGen struct {
	r     *rand.Rand
	focus []string // top-level names the current update has used
}

// item returns a random starting item (without its key).
func (g *updateGen) item() item {
	it := item{}
	for _, name := range genTopNames {
		if g.r.IntN(10) < 2 {
			continue
		}
		switch {
		case g.r.IntN(10) == 0:
			it[name] = g.value(2)
		case name[0] == 'l':
			it[name] = g.list(3)
		case name[0] == 'm':
			it[name] = g.mapValue(3)
		case name[0] == 'n':
			it[name] = n(strconv.Itoa(g.r.IntN(10)))
		default:
			it[name] = g.set("SS")
		}
	}
	return it
}

// value returns a random value nested at most depth deep.
func (g *updateGen) value(depth int) types.AttributeValue {
	k := g.r.IntN(10)
	if depth <= 0 {
		k = g.r.IntN(5)
	}
	switch k {
	case 0, 1:
		return n(strconv.Itoa(g.r.IntN(10)))
	case 2:
		return s("s" + strconv.Itoa(g.r.IntN(10)))
	case 3:
		return g.set("SS")
	case 4:
		return g.set("NS")
	case 5, 6, 7:
		return g.list(depth)
	}
	return g.mapValue(depth)
}

func (g *updateGen) list(depth int) types.AttributeValue {
	vs := []types.AttributeValue{}
	for i, k := 0, g.r.IntN(5); i < k; i++ {
		vs = append(vs, g.value(depth-1))
	}
	return l(vs...)
}

func (g *updateGen) mapValue(depth int) types.AttributeValue {
	it := item{}
	for _, k := range genMapKeys {
		if g.r.IntN(3) > 0 {
			it[k] = g.value(depth - 1)
		}
	}
	return m(it)
}

// set returns a set of one to three members: SS of a, b, c or NS of 1, 2, 3.
func (g *updateGen) set(kind string) types.AttributeValue {
	pool := []string{"a", "b", "c"}
	if kind == "NS" {
		pool = []string{"1", "2", "3"}
	}
	var members []string
	for _, x := range pool {
		if g.r.IntN(2) == 0 {
			members = append(members, x)
		}
	}
	if members == nil {
		members = pool[g.r.IntN(3):][:1]
	}
	return newSet(kind, members)
}

// path returns a random document path, mostly along the values of old:
// list indexes in range, at or past the end and repeated, map keys present
// or not, and now and then a step into a missing or scalar value.
func (g *updateGen) path(old item) docPath {
	var name string
	switch k := g.r.IntN(10); {
	case k < 5 && len(g.focus) > 0: // another action on the same attribute
		name = g.focus[g.r.IntN(len(g.focus))]
	case k < 8:
		name = genTopNames[g.r.IntN(2)] // l1 or l2
	default:
		name = genTopNames[g.r.IntN(len(genTopNames))]
	}
	if !contains(g.focus, name) {
		g.focus = append(g.focus, name)
	}
	p := docPath{{name: name}}
	cur := old[name]
	for len(p) < 5 {
		if len(p) > 1 && g.r.IntN(10) < 4 || len(p) == 1 && g.r.IntN(10) < 1 {
			return p
		}
		var st docStep
		switch c := cur.(type) {
		case *types.AttributeValueMemberL:
			switch k := g.r.IntN(20); {
			case k == 0:
				st = docStep{name: genMapKeys[g.r.IntN(len(genMapKeys))]} // a key into a list
			case k < 12 && len(c.Value) > 0:
				st = docStep{isIndex: true, index: g.r.IntN(len(c.Value))}
			default:
				st = docStep{isIndex: true, index: len(c.Value) + g.r.IntN(4)}
			}
		case *types.AttributeValueMemberM:
			if g.r.IntN(20) == 0 {
				st = docStep{isIndex: true, index: g.r.IntN(3)} // an index into a map
			} else {
				st = docStep{name: genMapKeys[g.r.IntN(len(genMapKeys))]}
			}
		default: // missing or scalar: a step through it fails
			if g.r.IntN(10) > 0 {
				return p
			}
			if g.r.IntN(2) == 0 {
				st = docStep{isIndex: true, index: g.r.IntN(3)}
			} else {
				st = docStep{name: genMapKeys[g.r.IntN(len(genMapKeys))]}
			}
		}
		p = append(p, st)
		cur = getPath(old, p)
	}
	return p
}

// existingPath returns a path to a value of old (nil when old is empty).
func (g *updateGen) existingPath(old item) docPath {
	var names []string
	for _, name := range genTopNames {
		if old[name] != nil {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	p := docPath{{name: names[g.r.IntN(len(names))]}}
	cur := old[p[0].name]
	for g.r.IntN(3) > 0 {
		var st docStep
		switch c := cur.(type) {
		case *types.AttributeValueMemberL:
			if len(c.Value) == 0 {
				return p
			}
			st = docStep{isIndex: true, index: g.r.IntN(len(c.Value))}
		case *types.AttributeValueMemberM:
			var keys []string
			for _, k := range genMapKeys {
				if c.Value[k] != nil {
					keys = append(keys, k)
				}
			}
			if len(keys) == 0 {
				return p
			}
			st = docStep{name: keys[g.r.IntN(len(keys))]}
		default:
			return p
		}
		p = append(p, st)
		cur = getPath(old, p)
	}
	return p
}

// operandPath is the path of a SET operand: mostly one that exists.
func (g *updateGen) operandPath(old item) docPath {
	if p := g.existingPath(old); p != nil && g.r.IntN(4) > 0 {
		return p
	}
	return g.path(old)
}

// update returns one to five actions in the order of their text. partiql:
// SET and REMOVE only, with the right-hand sides PartiQL has.
func (g *updateGen) update(old item, partiql bool) []updAction {
	g.focus = nil
	var acts []updAction
	// At most one pair of paths overlaps or conflicts (in one update of
	// twelve), so that the message names that pair whatever the order.
	overlapDone := g.r.IntN(12) != 0
	for i, k := 0, 1+g.r.IntN(5); i < k; i++ {
		var a updAction
		ok := false
		for try := 0; try < 20 && !ok; try++ {
			a = g.action(old, partiql)
			if !overlapDone && len(acts) > 0 && g.r.IntN(3) == 0 {
				a.path = g.overlapping(acts[g.r.IntN(len(acts))].path)
			}
			switch overlaps(acts, a.path) {
			case 0:
				ok = true
			case 1:
				if !overlapDone {
					ok, overlapDone = true, true
				}
			}
		}
		if ok {
			acts = append(acts, a)
		}
	}
	if partiql {
		return acts
	}
	// Clauses in a random order, actions in each in the order made.
	var out []updAction
	for _, op := range g.clauseOrder() {
		for _, a := range acts {
			if a.op == op {
				out = append(out, a)
			}
		}
	}
	return out
}

// overlaps counts the actions whose paths overlap or conflict with p.
func overlaps(acts []updAction, p docPath) int {
	n := 0
	for _, a := range acts {
		if pathRelation(a.path, p) != 0 {
			n++
		}
	}
	return n
}

// overlapping returns a path that overlaps p: itself, a prefix, an
// extension, or one that conflicts at its last step.
func (g *updateGen) overlapping(p docPath) docPath {
	q := append(docPath{}, p...)
	switch g.r.IntN(4) {
	case 0:
		return q
	case 1:
		if len(q) > 1 {
			return q[:len(q)-1]
		}
		return q
	case 2:
		return append(q, docStep{isIndex: true, index: g.r.IntN(3)})
	}
	if last := q[len(q)-1]; len(q) > 1 {
		if last.isIndex {
			q[len(q)-1] = docStep{name: genMapKeys[0]}
		} else {
			q[len(q)-1] = docStep{isIndex: true}
		}
	}
	return q
}

func (g *updateGen) clauseOrder() []string {
	ops := []string{"SET", "REMOVE", "ADD", "DELETE"}
	g.r.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	return ops
}

// action returns a random action on a random path.
func (g *updateGen) action(old item, partiql bool) updAction {
	a := updAction{path: g.path(old)}
	k := g.r.IntN(20)
	switch {
	case k < 9 || partiql && k < 13:
		a.op = "SET"
		a.set = g.rhs(old, partiql)
	case k < 13 || partiql:
		a.op = "REMOVE"
	case k < 17:
		a.op = "ADD"
		switch cur := getPath(old, a.path); {
		case setKind(cur) != "" && g.r.IntN(4) > 0:
			a.operand = g.set(setKind(cur))
		case g.r.IntN(2) == 0:
			a.operand = n(strconv.Itoa(1 + g.r.IntN(5)))
		default:
			a.operand = g.set([]string{"SS", "NS"}[g.r.IntN(4)/3])
		}
	default:
		a.op = "DELETE"
		if kind := setKind(getPath(old, a.path)); kind != "" && g.r.IntN(4) > 0 {
			a.operand = g.set(kind)
		} else {
			a.operand = g.set([]string{"SS", "NS"}[g.r.IntN(5)/4])
		}
	}
	return a
}

// rhs returns a random SET right-hand side.
func (g *updateGen) rhs(old item, partiql bool) rhs {
	k := g.r.IntN(20)
	switch {
	case k < 11:
		return rhs{kind: "value", val: g.value(2)}
	case k < 14:
		return rhs{kind: "path", path: g.operandPath(old)}
	case k < 16:
		return rhs{kind: "plus", path: g.operandPath(old), val: n(strconv.Itoa(g.r.IntN(5)))}
	case k < 18 || partiql:
		return rhs{kind: "append", path: g.operandPath(old), val: g.list(1)}
	}
	return rhs{kind: "ifne", path: g.path(old), val: g.value(1)}
}

// expression writes actions (in text order) as an UpdateExpression with
// its values :v0, :v1, ...
func expression(acts []updAction) (string, item) {
	vals := item{}
	value := func(v types.AttributeValue) string {
		k := ":v" + strconv.Itoa(len(vals))
		vals[k] = v
		return k
	}
	var b strings.Builder
	last := ""
	for _, a := range acts {
		if a.op != last {
			if last != "" {
				b.WriteString(" ")
			}
			b.WriteString(a.op + " ")
			last = a.op
		} else {
			b.WriteString(", ")
		}
		b.WriteString(a.path.String())
		switch a.op {
		case "SET":
			b.WriteString(" = " + a.set.text(value))
		case "ADD", "DELETE":
			b.WriteString(" " + value(a.operand))
		}
	}
	if len(vals) == 0 {
		vals = nil
	}
	return b.String(), vals
}

// text writes a right-hand side; value names a value (a placeholder or ?).
func (r rhs) text(value func(types.AttributeValue) string) string {
	switch r.kind {
	case "path":
		return r.path.String()
	case "plus":
		return r.path.String() + " + " + value(r.val)
	case "append":
		return "list_append(" + r.path.String() + ", " + value(r.val) + ")"
	case "ifne":
		return "if_not_exists(" + r.path.String() + ", " + value(r.val) + ")"
	}
	return value(r.val)
}

// partiqlUpdate writes actions as a PartiQL UPDATE of the item with key pk,
// one SET or REMOVE per action, with its parameters.
func partiqlUpdate(table, pk string, acts []updAction) (string, []types.AttributeValue) {
	var params []types.AttributeValue
	value := func(v types.AttributeValue) string {
		params = append(params, v)
		return "?"
	}
	var b strings.Builder
	b.WriteString("UPDATE " + quoted(table))
	for _, a := range acts {
		b.WriteString(" " + a.op + " " + a.path.String())
		if a.op == "SET" {
			b.WriteString(" = " + a.set.text(value))
		}
	}
	b.WriteString(" WHERE pk = ?")
	params = append(params, s(pk))
	return b.String(), params
}
