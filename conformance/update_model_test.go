package conformance

// A reference model of how an update expression changes an item, for the
// generated list-path test (update_listpaths_test.go). It is written from
// the rules, not from the emulator, and was proved against DynamoDB Local
// 3.3.0 with many seeds (see TestUpdateListPathsGenerated):
//
//   - every action, its operands and its target path, is resolved against
//     the item as it was before the update (AWS developer guide, "Using
//     update expressions in DynamoDB");
//   - a SET or an ADD of a list index at or past the end appends, several in
//     index order (developer guide: "If you add multiple elements in a
//     single SET operation, the elements are sorted in order by element
//     number"); REMOVEs of list elements name original positions (the
//     guide's REMOVE RelatedItems[1], RelatedItems[2] example); a REMOVE or
//     a DELETE past the end does nothing (DynamoDB Local);
//   - a nested path under a missing attribute, map key or list element, or
//     through a value of the wrong type, is an error, as is an ADD or DELETE
//     on a value of the wrong type; a DELETE that empties a set removes it;
//   - two paths of which one is a prefix of the other overlap, and two that
//     index a list where the other names a map key conflict: both are
//     errors before anything is read (see modelOverlaps for what the
//     overlap message names).
//
// When several actions fail, DynamoDB reports one of them in an order the
// model does not know (neither the text order nor name order), so the model
// returns the set of messages the failing actions would give.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Messages of update errors, as DynamoDB words them.
const (
	msgInvalidPath = "The document path provided in the update expression is invalid for update"
	msgOperandType = "An operand in the update expression has an incorrect data type"
	msgMissingAttr = "The provided expression refers to an attribute that does not exist in the item"
	msgOverlap     = "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s"
	msgConflict    = "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s"
)

// docStep is one step of a document path: a map key (or top-level name) or
// a list index.
type docStep struct {
	name    string
	index   int
	isIndex bool
}

type docPath []docStep

// String renders the path in expression syntax: m1.a1[2].
func (p docPath) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.isIndex:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case i > 0:
			b.WriteString("." + s.name)
		default:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

// message renders the path as DynamoDB's overlap messages do: [l1, [0], a1].
func (p docPath) message() string {
	parts := make([]string, len(p))
	for i, s := range p {
		if s.isIndex {
			parts[i] = "[" + strconv.Itoa(s.index) + "]"
		} else {
			parts[i] = s.name
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rhs is the right-hand side of a SET.
type rhs struct {
	kind string               // "value", "path", "plus" (path + value), "append" (list_append(path, value)), "ifne" (if_not_exists(path, value))
	val  types.AttributeValue // value, plus, append, ifne
	path docPath              // path, plus, append, ifne
}

// updAction is one action of a generated update.
type updAction struct {
	op      string // SET, REMOVE, ADD, DELETE
	path    docPath
	set     rhs                  // SET
	operand types.AttributeValue // ADD, DELETE
}

// modelOutcome is what the model predicts: the item afterwards, or the
// messages of which the endpoint must answer one (ValidationException).
type modelOutcome struct {
	item     item
	messages []string // sorted; empty when the update succeeds
	before   bool     // the error comes before the item is read (overlapping paths)
	mixed    bool     // a list had actions past its end and removals (a case once answered wrong)
}

func (o modelOutcome) String() string {
	if len(o.messages) > 0 {
		if len(o.messages) > 6 {
			return fmt.Sprintf("error, one of %d messages such as %s", len(o.messages), o.messages[0])
		}
		return "error, one of " + strings.Join(o.messages, " | ")
	}
	return renderItem(o.item)
}

// modelUpdate applies actions (in the order of the request text) to old.
// partiql: DynamoDB's PartiQL names the later of two overlapping paths
// first and puts no "Invalid UpdateExpression: " before the message.
func modelUpdate(old item, actions []updAction, partiql bool) modelOutcome {
	if msgs := modelOverlaps(actions, partiql); msgs != nil {
		return modelOutcome{messages: msgs, before: true}
	}
	m := &updateModel{old: old, errs: map[string]bool{}}
	root := &modelNode{}
	for i := range actions {
		n := root
		for _, s := range actions[i].path {
			n = n.child(s)
		}
		n.action = &actions[i]
	}
	out := item{}
	for k, v := range old {
		out[k] = v
	}
	for _, name := range root.names {
		if v := m.apply(root.byName[name], old[name]); v != nil {
			out[name] = v
		} else {
			delete(out, name)
		}
	}
	if len(m.errs) > 0 {
		var msgs []string
		for msg := range m.errs {
			msgs = append(msgs, msg)
		}
		sort.Strings(msgs)
		return modelOutcome{messages: msgs}
	}
	return modelOutcome{item: out, mixed: m.mixed}
}

// modelOverlaps returns the messages DynamoDB may give for the first
// pair (in text order; PartiQL: in reverse) of paths that overlap or
// conflict, or nil. A conflict names its pair. An overlap names one path
// of an overlapping pair as "path one", but as "path two" a path chosen in
// an order of its own (SET a.b = :v, a = :v, c = :v: "path one: [a, b],
// path two: [c]", in DynamoDB Local and in a message from AWS quoted on
// GitHub, "path one: [createdAt], path two: [cost]"), so any path of the
// update may be path two.
func modelOverlaps(actions []updAction, partiql bool) []string {
	paths := make([]docPath, len(actions))
	for i, a := range actions {
		paths[i] = a.path
	}
	if partiql {
		for i, j := 0, len(paths)-1; i < j; i, j = i+1, j-1 {
			paths[i], paths[j] = paths[j], paths[i]
		}
	}
	prefix := "Invalid UpdateExpression: "
	if partiql {
		prefix = ""
	}
	for j := range paths {
		for i := 0; i < j; i++ {
			switch pathRelation(paths[i], paths[j]) {
			case 2:
				return []string{prefix + fmt.Sprintf(msgConflict, paths[i].message(), paths[j].message())}
			case 1:
				var msgs []string
				for _, one := range paths {
					if overlapsAny(one, paths) {
						for _, two := range paths {
							msgs = append(msgs, prefix+fmt.Sprintf(msgOverlap, one.message(), two.message()))
						}
					}
				}
				sort.Strings(msgs)
				return msgs
			}
		}
	}
	return nil
}

// overlapsAny reports whether p is a prefix of another of paths, or has
// another as a prefix.
func overlapsAny(p docPath, paths []docPath) bool {
	n := 0
	for _, q := range paths {
		if pathRelation(p, q) == 1 {
			n++
		}
	}
	return n > 1 // p itself is one
}

// pathRelation is 0 for independent paths, 1 when one is a prefix of the
// other, 2 when they agree up to a step where one indexes a list and the
// other names a map key.
func pathRelation(p, q docPath) int {
	for i := 0; i < len(p) && i < len(q); i++ {
		if p[i].isIndex != q[i].isIndex {
			return 2
		}
		if p[i] != q[i] {
			return 0
		}
	}
	return 1
}

// modelNode is a step of the actions merged by path.
type modelNode struct {
	action  *updAction
	names   []string
	byName  map[string]*modelNode
	indexes map[int]*modelNode
}

func (n *modelNode) child(s docStep) *modelNode {
	if s.isIndex {
		if n.indexes == nil {
			n.indexes = map[int]*modelNode{}
		}
		if n.indexes[s.index] == nil {
			n.indexes[s.index] = &modelNode{}
		}
		return n.indexes[s.index]
	}
	if n.byName == nil {
		n.byName = map[string]*modelNode{}
	}
	if n.byName[s.name] == nil {
		n.byName[s.name] = &modelNode{}
		n.names = append(n.names, s.name)
	}
	return n.byName[s.name]
}

// actions returns the actions under n.
func (n *modelNode) actions() []*updAction {
	if n.action != nil {
		return []*updAction{n.action}
	}
	var out []*updAction
	for _, c := range n.byName {
		out = append(out, c.actions()...)
	}
	for _, c := range n.indexes {
		out = append(out, c.actions()...)
	}
	return out
}

type updateModel struct {
	old   item
	errs  map[string]bool
	mixed bool
}

// fail records that the actions under n cannot apply: msg, or any error
// their own operands give.
func (m *updateModel) fail(n *modelNode, msg string) {
	m.errs[msg] = true
	for _, a := range n.actions() {
		if a.op == "SET" {
			if _, err := m.eval(a.set); err != "" {
				m.errs[err] = true
			}
		}
	}
}

// apply returns what cur (nil: absent) becomes under n (nil: absent).
func (m *updateModel) apply(n *modelNode, cur types.AttributeValue) types.AttributeValue {
	if a := n.action; a != nil {
		v, err := m.leaf(a, cur)
		if err != "" {
			m.errs[err] = true
			return cur
		}
		return v
	}
	switch c := cur.(type) {
	case *types.AttributeValueMemberM:
		if n.byName != nil {
			out := item{}
			for k, v := range c.Value {
				out[k] = v
			}
			for _, name := range n.names {
				if v := m.apply(n.byName[name], c.Value[name]); v != nil {
					out[name] = v
				} else {
					delete(out, name)
				}
			}
			return &types.AttributeValueMemberM{Value: out}
		}
	case *types.AttributeValueMemberL:
		if n.indexes != nil {
			out := []types.AttributeValue{}
			removed := false
			for i, v := range c.Value {
				if child := n.indexes[i]; child != nil {
					v = m.apply(child, v)
				}
				if v != nil {
					out = append(out, v)
				} else {
					removed = true
				}
			}
			var past []int
			for i := range n.indexes {
				if i >= len(c.Value) {
					past = append(past, i)
				}
			}
			m.mixed = m.mixed || len(past) > 0 && (removed || len(past) > 1)
			sort.Ints(past)
			for _, i := range past {
				if v := m.apply(n.indexes[i], nil); v != nil {
					out = append(out, v)
				}
			}
			return &types.AttributeValueMemberL{Value: out}
		}
	}
	m.fail(n, msgInvalidPath)
	return cur
}

// leaf applies one action to the value at its path (nil: absent).
func (m *updateModel) leaf(a *updAction, cur types.AttributeValue) (types.AttributeValue, string) {
	switch a.op {
	case "SET":
		return m.eval(a.set)
	case "REMOVE":
		return nil, ""
	case "ADD":
		if cur == nil {
			return a.operand, ""
		}
		return addValues(cur, a.operand)
	case "DELETE":
		if cur == nil {
			return nil, ""
		}
		return deleteMembers(cur, a.operand)
	}
	panic("unknown op " + a.op)
}

// eval computes a SET right-hand side against the old item.
func (m *updateModel) eval(r rhs) (types.AttributeValue, string) {
	if r.kind == "value" {
		return r.val, ""
	}
	v := getPath(m.old, r.path)
	switch r.kind {
	case "ifne":
		if v == nil {
			return r.val, ""
		}
		return v, ""
	case "path":
		if v == nil {
			return nil, msgMissingAttr
		}
		return v, ""
	case "plus":
		if v == nil {
			return nil, msgMissingAttr
		}
		return addNumbers(v, r.val)
	case "append":
		if v == nil {
			return nil, msgMissingAttr
		}
		a, ok1 := v.(*types.AttributeValueMemberL)
		b, ok2 := r.val.(*types.AttributeValueMemberL)
		if !ok1 || !ok2 {
			return nil, msgOperandType
		}
		return &types.AttributeValueMemberL{Value: append(append([]types.AttributeValue{}, a.Value...), b.Value...)}, ""
	}
	panic("unknown rhs " + r.kind)
}

// getPath returns the value at p in it, or nil.
func getPath(it item, p docPath) types.AttributeValue {
	v := it[p[0].name]
	for _, s := range p[1:] {
		switch c := v.(type) {
		case *types.AttributeValueMemberL:
			if !s.isIndex || s.index >= len(c.Value) {
				return nil
			}
			v = c.Value[s.index]
		case *types.AttributeValueMemberM:
			if s.isIndex {
				return nil
			}
			v = c.Value[s.name]
		default:
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

// addNumbers adds two numbers (the generator keeps them small integers).
func addNumbers(a, b types.AttributeValue) (types.AttributeValue, string) {
	x, ok1 := a.(*types.AttributeValueMemberN)
	y, ok2 := b.(*types.AttributeValueMemberN)
	if !ok1 || !ok2 {
		return nil, msgOperandType
	}
	i, _ := strconv.Atoi(x.Value)
	j, _ := strconv.Atoi(y.Value)
	return n(strconv.Itoa(i + j)), ""
}

// addValues is ADD on an existing value: numbers add, sets of one type unite.
func addValues(cur, v types.AttributeValue) (types.AttributeValue, string) {
	if _, ok := v.(*types.AttributeValueMemberN); ok {
		return addNumbers(cur, v)
	}
	a, ok1 := setMembers(cur)
	b, ok2 := setMembers(v)
	if !ok1 || !ok2 || setKind(cur) != setKind(v) {
		return nil, msgOperandType
	}
	members := append([]string{}, a...)
	for _, x := range b {
		if !contains(members, x) {
			members = append(members, x)
		}
	}
	return newSet(setKind(cur), members), ""
}

// deleteMembers is DELETE on an existing value: the set without v's
// members, absent when none is left.
func deleteMembers(cur, v types.AttributeValue) (types.AttributeValue, string) {
	a, ok1 := setMembers(cur)
	b, ok2 := setMembers(v)
	if !ok1 || !ok2 || setKind(cur) != setKind(v) {
		return nil, msgOperandType
	}
	var keep []string
	for _, x := range a {
		if !contains(b, x) {
			keep = append(keep, x)
		}
	}
	if len(keep) == 0 {
		return nil, ""
	}
	return newSet(setKind(cur), keep), ""
}

func setKind(v types.AttributeValue) string {
	switch v.(type) {
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	}
	return ""
}

func setMembers(v types.AttributeValue) ([]string, bool) {
	switch v := v.(type) {
	case *types.AttributeValueMemberSS:
		return v.Value, true
	case *types.AttributeValueMemberNS:
		return v.Value, true
	}
	return nil, false
}

func newSet(kind string, members []string) types.AttributeValue {
	if kind == "NS" {
		return ns(members...)
	}
	return ss(members...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
