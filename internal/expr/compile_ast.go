package expr

import (
	"errors"
	"github.com/dynamoemu/dynamoemu/internal/lease"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Compiling a tree a caller built. The Compile methods take the AST of an
// expression instead of its text: a caller that has a statement of its own
// (PartiQL) lowers it into expr's AST, with attribute names and values
// already resolved (PathElem.Resolved, ValueExpr with Name ""), and the
// tree goes through the same checks as parsed text, in the same order:
// reserved words (not for resolved names), list index range, function
// names and placement, the operator count, then placeholders (if the tree
// uses any), operand types, BETWEEN bounds, IN size, path depth and
// overlapping paths. The text methods (Condition, KeyCondition, Update,
// ...) are parse-then-compile over the same passes: there is one compiler.
//
// What belongs to the text alone is not checked on a tree: its size
// (4 KB), redundant parentheses and "each update section once" (a tree may
// give every update action a clause of its own, in the caller's order).
// param names the expression in messages ("Invalid <param>: ..."); with
// param "" messages have no prefix, as PartiQL's have none.
//
// A tree is checked for shape first: what the parser guarantees (a
// condition where a condition must be, an operand where an operand must
// be, paths that start with a name, ADD and DELETE with a value) a caller
// might get wrong; such a tree gets an error wrapping ErrMalformedTree,
// never a panic. The compiler keeps the tree (it fills in resolved paths
// and value slots): a tree compiles once, into one result.
//
// The results are the programs text compiles to (cache.go): a resolved
// tree and values bound by slot beside it, each of the caller's values (a
// ValueExpr with Name "") in a slot of its own, so a Matcher or Projector
// takes them alike. They do not go into the Compiler's Cache, which is
// keyed by expression text and the #names it used and rebinds a hit to
// the request's ExpressionAttributeValues: a tree has no text, and its
// values are the tree's, not a placeholder map's (a slot of the caller's
// is named "", which rebind never binds, so such a program could not be
// reused with other values even if it were stored). A cache of the
// caller's language (PartiQL statements by text, parameters as slots)
// is its own design, for when the emulator uses one.

// ErrMalformedTree is wrapped by the error for a tree the parser could not
// have produced: a bug of the caller that built it, not of the request.
var ErrMalformedTree = errors.New("expr: malformed expression tree")

// CompileCondition compiles a condition tree (a ConditionExpression or
// FilterExpression) built by the caller.
func (c *Compiler) CompileCondition(param string, x Expr) (*Condition, error) {
	lease.Check(c)
	root, k, err := c.conditionTree(param, x)
	if err != nil {
		return nil, err
	}
	return newCondProgram(root, k.slots, k.nameKeys).bind(k.vals), nil
}

// conditionTree checks a condition tree's shape, then runs the checks of
// a parsed condition on it.
func (c *Compiler) conditionTree(param string, x Expr) (Expr, *checker, *Error) {
	if c.err != nil {
		return nil, nil, c.err
	}
	if err := checkConditionShape(x, 0); err != nil {
		return nil, nil, err
	}
	return c.checkCondition(param, x)
}

// CompileKeyCondition compiles a key condition tree against the key schema
// of the table or index being queried: the checks of a condition, then the
// key condition's shape rules (one equality on the partition key, at most
// one sort key condition, no OR, NOT, IN, ...) with KeyCondition's messages.
func (c *Compiler) CompileKeyCondition(param string, x Expr, ks storage.KeySchema) (*KeyCondition, error) {
	lease.Check(c)
	root, k, err := c.conditionTree(param, x)
	if err != nil {
		return nil, err
	}
	terms, err := keyTerms(param, root, 2)
	if err != nil {
		return nil, err
	}
	kc, err := bindKeySchema(bindTerms(terms, k.vals), ks)
	if err != nil {
		return nil, err
	}
	return kc, nil
}

// CompileMultiKeyCondition compiles a key condition tree against a
// multi-attribute index key.
func (c *Compiler) CompileMultiKeyCondition(param string, x Expr, ks MultiKeySchema) (*MultiKeyCondition, error) {
	lease.Check(c)
	root, k, err := c.conditionTree(param, x)
	if err != nil {
		return nil, err
	}
	terms, err := keyTerms(param, root, len(ks.Partition)+len(ks.Sort))
	if err != nil {
		return nil, err
	}
	kc, err := bindMultiKeyTerms(bindTerms(terms, k.vals), ks, root.Pos())
	if err != nil {
		return nil, err
	}
	return kc, nil
}

// CompileUpdate compiles an update tree. Its actions are checked in the
// tree's order (clauses, then actions), unless order gives another (as for
// UpdateInOrder; nil: the tree's): overlapping paths are looked for, and
// the failing action to report chosen, in that order.
func (c *Compiler) CompileUpdate(param string, u *UpdateExpr, order []int) (*Update, error) {
	lease.Check(c)
	if c.err != nil {
		return nil, c.err
	}
	if err := checkUpdateShape(u, order); err != nil {
		return nil, err
	}
	out, _, err := c.checkUpdate(param, u, order)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CompileProjection compiles a projection tree.
func (c *Compiler) CompileProjection(param string, p *ProjectionExpr) (*Projection, error) {
	lease.Check(c)
	if c.err != nil {
		return nil, c.err
	}
	if p == nil || len(p.Paths) == 0 {
		return nil, shapeError(-1, "a projection without paths")
	}
	for _, x := range p.Paths {
		if err := checkPathShape(x); err != nil {
			return nil, err
		}
	}
	proj, _, err := c.checkProjection(param, p)
	if err != nil {
		return nil, err
	}
	return proj, nil
}

// ownPos is a node's position without asking its children (a malformed
// tree may lack them).
func ownPos(x Expr) int {
	switch x := x.(type) {
	case *BinaryExpr:
		return x.OpPos
	case *BetweenExpr:
		return x.OpPos
	case *InExpr:
		return x.OpPos
	case *PathExpr:
		if len(x.Elems) == 0 {
			return -1
		}
	}
	return x.Pos()
}

func shapeError(pos int, what string) *Error {
	return &Error{Pos: pos, Msg: ErrMalformedTree.Error() + ": " + what, Err: ErrMalformedTree}
}

// checkConditionShape checks that x is a condition: comparison, BETWEEN,
// IN, function call, AND, OR, NOT, a parenthesized condition or a
// constant, with operands where operands go.
func checkConditionShape(x Expr, depth int) *Error {
	if depth > maxParseDepth {
		return shapeError(-1, "nested too deeply")
	}
	switch x := x.(type) {
	case *ParenExpr:
		return checkConditionShape(x.X, depth+1)
	case *NotExpr:
		return checkConditionShape(x.X, depth+1)
	case *BinaryExpr:
		switch {
		case x.Op == AND || x.Op == OR:
			if err := checkConditionShape(x.X, depth+1); err != nil {
				return err
			}
			return checkConditionShape(x.Y, depth+1)
		case x.Op.IsComparison():
			return checkOperands(false, depth+1, x.X, x.Y)
		}
		return shapeError(x.OpPos, "operator "+x.Op.String()+" in a condition")
	case *BetweenExpr:
		return checkOperands(false, depth+1, x.X, x.Lo, x.Hi)
	case *InExpr:
		if len(x.List) == 0 {
			return shapeError(x.OpPos, "IN without operands")
		}
		if err := checkOperands(false, depth+1, x.X); err != nil {
			return err
		}
		return checkOperands(false, depth+1, x.List...)
	case *CallExpr:
		return checkOperands(false, depth+1, x.Args...)
	case *ConstExpr:
		return nil
	case nil:
		return shapeError(-1, "a missing condition")
	}
	return shapeError(ownPos(x), "an operand where a condition must be")
}

// checkOperands checks that each of xs is an operand: a path, a value, a
// function call or a parenthesized operand, and in an update's SET value
// (update) also x + y and x - y.
func checkOperands(update bool, depth int, xs ...Expr) *Error {
	if depth > maxParseDepth {
		return shapeError(-1, "nested too deeply")
	}
	for _, x := range xs {
		var err *Error
		switch x := x.(type) {
		case *PathExpr:
			err = checkPathShape(x)
		case *ValueExpr:
		case *CallExpr:
			err = checkOperands(update, depth+1, x.Args...)
		case *ParenExpr:
			err = checkOperands(update, depth+1, x.X)
		case *BinaryExpr:
			if !update || x.Op != PLUS && x.Op != MINUS {
				return shapeError(x.OpPos, "operator "+x.Op.String()+" where an operand must be")
			}
			err = checkOperands(update, depth+1, x.X, x.Y)
		case nil:
			return shapeError(-1, "a missing operand")
		default:
			return shapeError(ownPos(x), "a condition where an operand must be")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkPathShape checks that a path starts with a name and names no
// attribute "".
func checkPathShape(p *PathExpr) *Error {
	if p == nil || len(p.Elems) == 0 {
		return shapeError(-1, "an empty document path")
	}
	if p.Elems[0].IsIndex {
		return shapeError(p.Elems[0].Offset, "a document path that starts with a list index")
	}
	for _, e := range p.Elems {
		if !e.IsIndex && e.Name == "" {
			return shapeError(e.Offset, "an empty name in a document path")
		}
	}
	return nil
}

// checkUpdateShape checks an update tree: SET actions with a value, REMOVE
// without, ADD and DELETE with a value operand, each action in a clause of
// its kind, and order (if given) a permutation of the actions.
func checkUpdateShape(u *UpdateExpr, order []int) *Error {
	if u == nil {
		return shapeError(-1, "a missing update")
	}
	n := 0
	for _, cl := range u.Clauses {
		if cl == nil || len(cl.Actions) == 0 {
			return shapeError(-1, "an update clause without actions")
		}
		for _, a := range cl.Actions {
			if a == nil || a.Op != cl.Op {
				return shapeError(cl.Offset, "an action in a clause of another kind")
			}
			if err := checkPathShape(a.Path); err != nil {
				return err
			}
			switch a.Op {
			case SET:
				if err := checkOperands(true, 0, a.Value); err != nil {
					return err
				}
			case REMOVE:
				if a.Value != nil {
					return shapeError(a.Path.Pos(), "REMOVE with a value")
				}
			case ADD, DELETE:
				if _, ok := a.Value.(*ValueExpr); !ok {
					return shapeError(a.Path.Pos(), a.Op.String()+" without a value")
				}
			default:
				return shapeError(cl.Offset, "an update clause "+a.Op.String())
			}
			n++
		}
	}
	if n == 0 {
		return shapeError(-1, "an update without actions")
	}
	if order != nil {
		seen := make([]bool, n)
		if len(order) != n {
			return shapeError(-1, "an order that is not a permutation of the actions")
		}
		for _, i := range order {
			if i < 0 || i >= n || seen[i] {
				return shapeError(-1, "an order that is not a permutation of the actions")
			}
			seen[i] = true
		}
	}
	return nil
}
