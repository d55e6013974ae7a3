package expr

import (
	"sort"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Applying an update: the actions are merged by path into a tree once per
// request (compile time), and Apply walks the tree and the old item side by
// side, so that every action is resolved against the item as it was before
// the update, never against another action's result.
//
// The rules, and where each comes from:
//
//   - Every action reads the item as it was before the update (AWS
//     developer guide, "Using update expressions in DynamoDB": with several
//     actions, DynamoDB evaluates every action against the item's values
//     before the update; they are not applied one after another).
//   - A SET of a list index at or past the end appends; several appends go
//     in index order (developer guide, SET, "Adding elements to a list":
//     "If the element doesn't already exist, SET appends the new element at
//     the end of the list. If you add multiple elements in a single SET
//     operation, the elements are sorted in order by element number.").
//   - Several REMOVEs of list elements name the original positions (developer
//     guide, REMOVE, "Removing elements from a list": REMOVE
//     RelatedItems[1], RelatedItems[2] on five elements removes the second
//     and third).
//   - A REMOVE or a DELETE past the end of the original list does nothing; an
//     ADD past the end appends its operand in index order with the SETs; a
//     DELETE that empties a set removes it (from a map or a list); a nested
//     path under a list element past the end, or under an attribute or map
//     key that does not exist, or through a value of the wrong type, is
//     MsgInvalidPathForUpdate. DynamoDB Local 3.3.0 decides these (the
//     conformance test TestUpdateListPathsGenerated checks them against it).
//   - When several actions fail, DynamoDB reports one of their errors in an
//     order of its own (neither source nor name order; it could not be
//     pinned down against DynamoDB Local); the emulator reports the failing
//     action that comes first in the expression (or in the order given to
//     Compiler.UpdateInOrder).

// updateNode is one step of the update tree: a leaf holds an action; an
// inner node holds the children under one document path, by map key
// (names, in first-appearance order) or by list index (indexes, ascending).
// The overlap and conflict checks of compileUpdate guarantee that a node
// is a leaf or has children, and never both names and indexes.
type updateNode struct {
	action  *compiledAction
	seq     int // the lowest source position of an action in this subtree
	names   []string
	byName  map[string]*updateNode
	indexes []indexedNode
}

// indexedNode is a child of an updateNode under a list index.
type indexedNode struct {
	index int
	node  *updateNode
}

// buildTree merges actions (in source order) into an update tree.
func buildTree(actions []*compiledAction) *updateNode {
	root := &updateNode{}
	for seq, a := range actions {
		n := root
		for _, s := range a.path {
			n = n.child(s, seq)
		}
		n.action = a
	}
	root.sortIndexes()
	return root
}

// child returns (creating it) the child of n at step s, and lowers the
// sequence numbers on the way.
func (n *updateNode) child(s PathStep, seq int) *updateNode {
	var c *updateNode
	if s.IsIndex {
		for _, ic := range n.indexes {
			if ic.index == s.Index {
				c = ic.node
			}
		}
		if c == nil {
			c = &updateNode{seq: seq}
			n.indexes = append(n.indexes, indexedNode{s.Index, c})
		}
	} else {
		c = n.byName[s.Name]
		if c == nil {
			if n.byName == nil {
				n.byName = map[string]*updateNode{}
			}
			c = &updateNode{seq: seq}
			n.byName[s.Name] = c
			n.names = append(n.names, s.Name)
		}
	}
	return c
}

func (n *updateNode) sortIndexes() {
	sort.Slice(n.indexes, func(i, j int) bool { return n.indexes[i].index < n.indexes[j].index })
	for _, ic := range n.indexes {
		ic.node.sortIndexes()
	}
	for _, c := range n.byName {
		c.sortIndexes()
	}
}

// applyRun carries what one Apply needs everywhere: the old item (every
// operand reads it) and the first error in source order.
type applyRun struct {
	old    storage.Item
	vals   []storage.Value // the update's values
	err    *Error
	errSeq int
}

// fail records err for the action (or subtree) at source position seq,
// keeping the earliest.
func (r *applyRun) fail(seq int, err *Error) {
	if r.err == nil || seq < r.errSeq {
		r.err, r.errSeq = err, seq
	}
}

// Apply returns the item after the update; old (nil when the item does not
// exist) is not modified. Errors are *Error with DynamoDB's messages.
func (u *Update) Apply(old storage.Item) (storage.Item, error) {
	return u.ApplyInto(make(storage.Item, len(old)+len(u.tree.names)), old)
}

// ApplyInto is Apply building the item after the update in out, which
// must be empty and not old (a caller's scratch map, cleared and reused
// across requests); it returns out, or nil and the error.
func (u *Update) ApplyInto(out, old storage.Item) (storage.Item, error) {
	r := &applyRun{old: old, vals: u.vals}
	for k, v := range old {
		out[k] = v
	}
	for _, name := range u.tree.names {
		cur, exists := old[name]
		if v, present := r.apply(u.tree.byName[name], cur, exists); present {
			out[name] = v
		} else {
			delete(out, name)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

// apply returns what the value cur (exists: it is there in the old item)
// becomes under n, and whether it is there afterwards. On an error it
// records it and returns cur unchanged.
func (r *applyRun) apply(n *updateNode, cur storage.Value, exists bool) (storage.Value, bool) {
	if n.action != nil {
		v, present, err := n.action.applyLeaf(r.old, r.vals, cur, exists)
		if err != nil {
			r.fail(n.seq, err)
			return cur, exists
		}
		return v, present
	}
	switch {
	case !exists:
		// A path through something that is not there: every action below
		// fails the same way.
	case n.byName != nil && cur.Kind() == storage.KindM:
		return r.applyMap(n, cur), true
	case n.indexes != nil && cur.Kind() == storage.KindL:
		return r.applyList(n, cur), true
	}
	r.fail(n.seq, updateErr(MsgInvalidPathForUpdate))
	return cur, exists
}

// applyMap applies n's children to the map cur.
func (r *applyRun) applyMap(n *updateNode, cur storage.Value) storage.Value {
	m := cur.Map()
	out := make(map[string]storage.Value, len(m)+len(n.names))
	for k, v := range m {
		out[k] = v
	}
	for _, name := range n.names {
		v, exists := m[name]
		if nv, present := r.apply(n.byName[name], v, exists); present {
			out[name] = nv
		} else {
			delete(out, name)
		}
	}
	return storage.M(out)
}

// applyList applies n's children to the list cur: children within the
// list replace, change or drop their element in place; children past its
// end append what they produce (SET, ADD), in index order, and the others
// (REMOVE, DELETE) do nothing.
func (r *applyRun) applyList(n *updateNode, cur storage.Value) storage.Value {
	list := cur.List()
	out := make([]storage.Value, 0, len(list)+len(n.indexes))
	next := 0 // the next child in n.indexes
	for i, v := range list {
		if next < len(n.indexes) && n.indexes[next].index == i {
			nv, present := r.apply(n.indexes[next].node, v, true)
			next++
			if present {
				out = append(out, nv)
			}
			continue
		}
		out = append(out, v)
	}
	for _, ic := range n.indexes[next:] {
		if nv, present := r.apply(ic.node, storage.Value{}, false); present {
			out = append(out, nv)
		}
	}
	return storage.L(out)
}

// applyLeaf applies one action to the value at its path (cur; exists: it
// is there in the old item) and returns the new value and whether it is
// there afterwards.
func (a *compiledAction) applyLeaf(old storage.Item, vals []storage.Value, cur storage.Value, exists bool) (storage.Value, bool, *Error) {
	switch a.op {
	case SET:
		v, err := evalUpdateValue(a.value, old, vals)
		if err != nil {
			return cur, exists, err
		}
		return v, true, nil
	case REMOVE:
		return storage.Value{}, false, nil
	case ADD:
		v, _ := evalOperand(a.value, old, vals)
		if !exists {
			return v, true, nil
		}
		nv, err := addValues(cur, v, a.legacy)
		if err != nil {
			return cur, exists, err
		}
		return nv, true, nil
	case DELETE:
		if a.value == nil || !exists { // legacy DELETE without a value; nothing to delete from
			return storage.Value{}, false, nil
		}
		v, _ := evalOperand(a.value, old, vals)
		if cur.Kind() != v.Kind() {
			if a.legacy {
				return cur, exists, updateErr("Type mismatch for attribute to update")
			}
			return cur, exists, updateErr(MsgOperandDataType)
		}
		var keep []string
		for _, m := range cur.Members() {
			if !v.HasMember(m) {
				keep = append(keep, m)
			}
		}
		if len(keep) == 0 {
			return storage.Value{}, false, nil
		}
		return storage.SetOf(cur.Kind(), keep), true, nil
	}
	return cur, exists, nil
}
