package expr

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// LegacyCondition is one entry of the legacy Expected, QueryFilter,
// ScanFilter or KeyConditions maps (the wire's ExpectedAttributeValue and
// Condition shapes).
type LegacyCondition struct {
	ComparisonOperator string
	AttributeValueList []storage.Value
	Exists             *bool
	Value              *storage.Value
}

// NamedCondition is one entry of a legacy QueryFilter, ScanFilter or
// KeyConditions map with its attribute name. Those maps reach Filter and
// KeyConditions as a slice: a second map of them doubled what a 4 MB
// ScanFilter held (BenchmarkOversizeMemory).
type NamedCondition struct {
	Name               string
	ComparisonOperator string
	AttributeValueList []storage.Value
}

// sortNamed sorts conds by name (the order the conditions are checked
// and printed in) and reports an attribute named "" among them.
func sortNamed(conds []NamedCondition) *Error {
	for i := range conds {
		if conds[i].Name == "" {
			return errPlain(MsgEmptyAttributeName)
		}
	}
	SortByName(conds)
	return nil
}

// SortByName sorts conds by name, stably. It is the one sort of
// conditions in the server (wire's too): each comparison sort of a
// struct type costs the binary its own copy of the sort, 8 to 12 kB.
func SortByName(conds []NamedCondition) {
	slices.SortStableFunc(conds, func(a, b NamedCondition) int { return strings.Compare(a.Name, b.Name) })
}

// AttributeUpdate is one entry of the legacy AttributeUpdates map.
type AttributeUpdate struct {
	Action string // PUT (default), ADD or DELETE
	Value  *storage.Value
}

// Legacy validation messages.
const (
	msgInvalidParams     = "One or more parameter values were invalid: "
	msgLegacyArgCount    = msgInvalidParams + "Invalid number of argument(s) for the %s ComparisonOperator"
	msgLegacyType        = msgInvalidParams + "ComparisonOperator %s is not valid for %s AttributeValue type"
	msgLegacySameType    = msgInvalidParams + "AttributeValues inside AttributeValueList must be of same type"
	msgLegacyBetween     = "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound"
	msgLegacyUnknownOp   = "Comparison type does not exist in DynamoDB"
	msgLegacyNeedValue   = msgInvalidParams + "Value or AttributeValueList must be used with ComparisonOperator: %s for Attribute: %s"
	msgLegacyExistsTrue  = msgInvalidParams + "Value must be provided when Exists is true for Attribute: %s"
	msgLegacyExistsFalse = msgInvalidParams + "Value cannot be used when Exists is false for Attribute: %s"
	msgLegacyExistsNull  = msgInvalidParams + "Value must be provided when Exists is null for Attribute: %s"
	msgLegacyExistsOp    = msgInvalidParams + "Exists and ComparisonOperator cannot be used together for Attribute: %s"
	msgLegacyValueList   = msgInvalidParams + "Value and AttributeValueList cannot be used together for Attribute: %s"
	msgLegacyCondOp      = "ConditionalOperator can only be used when Filter or Expected has two or more elements"
	msgLegacyCondOpAlone = "ConditionalOperator cannot be used without Filter or Expected"
	msgLegacyListNoOp    = msgInvalidParams + "AttributeValueList can only be used with a ComparisonOperator for Attribute: %s"
	msgLegacyHashScalar  = "Only scalar types can be used as Hash Key values"
	msgLegacyRangeScalar = "Only scalar types can be used as Range Key values"
	msgLegacyNotIndexed  = "Attempted conditional constraint is not an indexable operation"
	// msgLegacyDupAttr: AttributesToGet naming one attribute twice. AWS's
	// words as dynalite's AWS-derived tests record them; ScyllaDB's
	// AWS-verified test_item.py (2021) expects "Duplicate" in it too.
	// DynamoDB Local: "Cannot have two attributes with the same name".
	msgLegacyDupAttr    = msgInvalidParams + "Duplicate value in attribute name: %s"
	msgLegacyNoValue    = msgInvalidParams + "Only DELETE action is allowed when no attribute value is specified"
	msgLegacyAddType    = msgInvalidParams + "ADD action is not supported for the type %s"
	msgLegacyDeleteType = msgInvalidParams + "DELETE action with value is not supported for the type %s"
	msgLegacyActionEnum = "Member must satisfy enum value set: [ADD, DELETE, PUT]"
)

type legacyOp struct {
	args  int            // -1: one or more
	kinds []storage.Kind // allowed value kinds; nil = any
}

var scalarKinds = []storage.Kind{storage.KindS, storage.KindN, storage.KindB}

// legacyOps are the legacy comparison operators by name, built at their
// first use rather than at the server's start.
var legacyOps = sync.OnceValue(func() map[string]legacyOp {
	containable := append(scalarKinds[:len(scalarKinds):len(scalarKinds)], storage.KindBOOL, storage.KindNULL)
	return map[string]legacyOp{
		"EQ": {1, nil}, "NE": {1, nil},
		"LE": {1, scalarKinds}, "LT": {1, scalarKinds}, "GE": {1, scalarKinds}, "GT": {1, scalarKinds},
		"NOT_NULL": {0, nil}, "NULL": {0, nil},
		"CONTAINS": {1, containable}, "NOT_CONTAINS": {1, containable},
		"BEGINS_WITH": {1, []storage.Kind{storage.KindS, storage.KindB}},
		"IN":          {-1, scalarKinds},
		"BETWEEN":     {2, scalarKinds},
	}
})

func kindIn(k storage.Kind, ks []storage.Kind) bool {
	if ks == nil {
		return true
	}
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// checkLegacyOp validates operator, argument count and argument types.
func checkLegacyOp(op string, args []storage.Value) *Error {
	spec, ok := legacyOps()[op]
	if !ok {
		return errPlain(msgLegacyUnknownOp)
	}
	if spec.args >= 0 && len(args) != spec.args || spec.args < 0 && len(args) == 0 {
		return errPlain(sprintf(msgLegacyArgCount, op))
	}
	for _, a := range args {
		if !kindIn(a.Kind(), spec.kinds) {
			return errPlain(sprintf(msgLegacyType, op, a.Kind().String()))
		}
	}
	for _, a := range args[min(1, len(args)):] {
		if a.Kind() != args[0].Kind() {
			return errPlain(msgLegacySameType)
		}
	}
	if op == "BETWEEN" {
		if c, _ := storage.Compare(args[0], args[1]); c > 0 {
			return errPlain(msgLegacyBetween)
		}
	}
	return nil
}

// legacyBuilder turns legacy conditions into the expression AST, inventing
// placeholder names (:legacy0, ...) so the tree prints as source; each
// value gets a slot of its own.
type legacyBuilder struct {
	vals  []storage.Value
	slots []string
	// attrs are the names of the conditions, as condition is called:
	// in their order (sorted) and once each, the program's attributes.
	attrs []string
}

func (b *legacyBuilder) value(v storage.Value) *ValueExpr {
	x := &ValueExpr{Offset: -1, Name: ":legacy" + strconv.Itoa(len(b.vals)), slot: len(b.vals)}
	b.vals = append(b.vals, v)
	b.slots = append(b.slots, x.Name)
	return x
}

// condition returns the Condition of a legacy tree.
func (b *legacyBuilder) cond(root Expr) *Condition {
	return newCondProgramOf(root, b.slots, nil, b.attrs).bindOwned(b.vals)
}

func legacyPath(name string) *PathExpr {
	return &PathExpr{Elems: []PathElem{{Offset: -1, Name: name}}, resolved: Path{{Name: name}}}
}

func (b *legacyBuilder) condition(name, op string, args []storage.Value) Expr {
	b.attrs = append(b.attrs, name)
	p := legacyPath(name)
	if op == "IN" {
		vals := make([]Expr, len(args))
		for i, a := range args {
			vals[i] = b.value(a)
		}
		return &InExpr{OpPos: -1, X: p, List: vals}
	}
	// The values made as they are used (each operator takes as many
	// as checkLegacyOp let through), without a slice of them.
	switch op {
	case "EQ", "NE", "LE", "LT", "GE", "GT":
		return &BinaryExpr{OpPos: -1, Op: filterOpOf(op).comparison(), X: p, Y: b.value(args[0])}
	case "NULL":
		return &CallExpr{Offset: -1, Fun: fnNotExists, Args: []Expr{p}}
	case "NOT_NULL":
		return &CallExpr{Offset: -1, Fun: fnExists, Args: []Expr{p}}
	case "CONTAINS":
		return &CallExpr{Offset: -1, Fun: fnContains, Args: []Expr{p, b.value(args[0])}}
	case "NOT_CONTAINS":
		return &BinaryExpr{OpPos: -1, Op: AND,
			X: &CallExpr{Offset: -1, Fun: fnExists, Args: []Expr{p}},
			Y: &NotExpr{Offset: -1, X: &CallExpr{Offset: -1, Fun: fnContains, Args: []Expr{p, b.value(args[0])}}}}
	case "BEGINS_WITH":
		return &CallExpr{Offset: -1, Fun: fnBeginsWith, Args: []Expr{p, b.value(args[0])}}
	case "BETWEEN":
		lo := b.value(args[0])
		return &BetweenExpr{OpPos: -1, X: p, Lo: lo, Hi: b.value(args[1])}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// combine joins conditions with AND or OR, parenthesizing each so the tree
// prints unambiguously. Nil for no conditions.
func combine(conds []Expr, op Token) Expr {
	if len(conds) == 0 {
		return nil
	}
	for i, c := range conds { // in place: conds are the caller's to give
		conds[i] = &ParenExpr{Offset: -1, X: c}
	}
	return balanced(conds, op)
}

// balanced joins conds with op in a tree of depth log2(len(conds)): the
// same conditions in the same order (so the same answer and the same
// text) as a chain, whose evaluation and walks recursed once a
// condition: a ScanFilter of 58,254 conditions (4 MB) took 0.8 s, most
// of it growing the goroutine's stack (TestLegacyFilterDepth).
func balanced(conds []Expr, op Token) Expr {
	if len(conds) == 1 {
		return conds[0]
	}
	mid := len(conds) / 2
	return &BinaryExpr{OpPos: -1, Op: op, X: balanced(conds[:mid], op), Y: balanced(conds[mid:], op)}
}

// conditionalOp maps ConditionalOperator to AND or OR. The enum is checked
// first; the number of conditions (see checkConditionCount) only once each
// condition is found valid.
func conditionalOp(op string) (Token, *Error) {
	switch op {
	case "", "AND":
		return AND, nil
	case "OR":
		return OR, nil
	}
	return AND, errPlain("Member must satisfy enum value set: [AND, OR]")
}

// checkConditionCount applies DynamoDB's rule that a ConditionalOperator
// (AND as much as OR) needs two or more conditions; an empty map counts as
// no map at all.
func checkConditionCount(op string, n int) *Error {
	switch {
	case op == "":
		return nil
	case n == 0:
		return errPlain(msgLegacyCondOpAlone)
	case n == 1:
		return errPlain(msgLegacyCondOp)
	}
	return nil
}

// Expected compiles the legacy Expected map and ConditionalOperator of
// PutItem, UpdateItem and DeleteItem into a tree. Returns nil (no
// condition) for an empty map. The requests' Expected is read as a list
// and compiled by ExpectedOf; this is the reference its tests hold it to.
func Expected(expected map[string]LegacyCondition, conditionalOperator string) (*Condition, error) {
	if err := emptyNameIn(expected); err != nil {
		return nil, err
	}
	join, err := conditionalOp(conditionalOperator)
	if err != nil {
		return nil, err
	}
	var b legacyBuilder
	var conds []Expr
	for _, name := range sortedKeys(expected) {
		e := expected[name]
		var x Expr
		switch {
		case e.Value != nil && e.AttributeValueList != nil:
			return nil, errPlain(sprintf(msgLegacyValueList, name))
		case e.Exists != nil && e.ComparisonOperator != "":
			return nil, errPlain(sprintf(msgLegacyExistsOp, name))
		case e.AttributeValueList != nil && e.ComparisonOperator == "":
			return nil, errPlain(sprintf(msgLegacyListNoOp, name))
		case e.ComparisonOperator != "":
			args := e.AttributeValueList
			if e.Value != nil {
				args = []storage.Value{*e.Value}
			}
			if spec, ok := legacyOps()[e.ComparisonOperator]; ok && args == nil && spec.args != 0 {
				return nil, errPlain(sprintf(msgLegacyNeedValue, e.ComparisonOperator, name))
			}
			if err := checkLegacyOp(e.ComparisonOperator, args); err != nil {
				return nil, err
			}
			x = b.condition(name, e.ComparisonOperator, args)
		case e.Exists != nil && !*e.Exists:
			if e.Value != nil {
				return nil, errPlain(sprintf(msgLegacyExistsFalse, name))
			}
			x = b.condition(name, "NULL", nil)
		case e.Value != nil:
			x = b.condition(name, "EQ", []storage.Value{*e.Value})
		case e.Exists != nil:
			return nil, errPlain(sprintf(msgLegacyExistsTrue, name))
		default:
			return nil, errPlain(sprintf(msgLegacyExistsNull, name))
		}
		conds = append(conds, x)
	}
	if err := checkConditionCount(conditionalOperator, len(conds)); err != nil {
		return nil, err
	}
	if len(conds) == 0 {
		return nil, nil
	}
	return b.cond(combine(conds, join)), nil
}

// Filter compiles a legacy QueryFilter or ScanFilter given as a slice
// (its entries in any order, each name once: Filter sorts them by name)
// with its ConditionalOperator, as FilterOf does.
func Filter(filter []NamedCondition, conditionalOperator string) (*Condition, error) {
	return filterOfNamed(filter, conditionalOperator)
}

// legacyKeyOp is the sort key condition of a legacy KeyConditions
// operator; ok is false for one a key condition does not take.
func legacyKeyOp(op string) (storage.SortOp, bool) {
	switch op {
	case "EQ":
		return storage.SortEQ, true
	case "LE":
		return storage.SortLE, true
	case "LT":
		return storage.SortLT, true
	case "GE":
		return storage.SortGE, true
	case "GT":
		return storage.SortGT, true
	case "BEGINS_WITH":
		return storage.SortBeginsWith, true
	case "BETWEEN":
		return storage.SortBetween, true
	}
	return storage.SortAny, false
}

// legacyKeyTerms turns KeyConditions (in any order: sorted here) into key
// terms, in name order; more than most of them is msgKeyLength, once each
// is checked.
func legacyKeyTerms(conds []NamedCondition, most int) ([]keyTerm, error) {
	if err := sortNamed(conds); err != nil {
		return nil, err
	}
	// More than most conditions are each checked (their faults come
	// first) and answered msgKeyLength, without a term each.
	keep := len(conds) <= most
	var terms []keyTerm
	if keep {
		terms = make([]keyTerm, 0, len(conds))
	}
	for _, c := range conds {
		if err := checkLegacyOp(c.ComparisonOperator, c.AttributeValueList); err != nil {
			return nil, err
		}
		if !keep {
			continue
		}
		op, ok := legacyKeyOp(c.ComparisonOperator)
		t := keyTerm{pos: -1, name: c.Name, op: op, unindexable: !ok}
		copy(t.values[:], c.AttributeValueList)
		terms = append(terms, t)
	}
	if !keep {
		return nil, errPlain(msgKeyLength)
	}
	return terms, nil
}

// KeyConditions compiles the legacy KeyConditions of Query (in any
// order: it sorts them by name).
func KeyConditions(conds []NamedCondition, ks storage.KeySchema) (*KeyCondition, error) {
	terms, err := legacyKeyTerms(conds, 2)
	if err != nil {
		return nil, err
	}
	if len(terms) == 0 || len(terms) > 2 {
		return nil, errPlain(msgKeyLength)
	}
	kc, kerr := bindKeyTerms(terms, ks)
	if kerr != nil {
		return nil, kerr
	}
	return kc, nil
}

// AttributesToGet compiles the legacy AttributesToGet list into a
// projection of top-level attributes. The projection keeps names: do not
// modify them.
func AttributesToGet(names []string) (*Projection, error) {
	if err := checkAttributesToGet(names); err != nil {
		return nil, err
	}
	// The names sorted find a duplicate, and are the trie's root: every
	// name is a leaf of one step (allLeaves: no node a name). Built in
	// a few allocations, not five a name: 381,295 names (a 4 MB GetItem)
	// took 1.9 s and 265 MB built a name at a time, and took 0.25 s and
	// 31 MB so (BenchmarkAttributesToGet, 2-core VM); their paths are
	// made only when asked for (Projection.Paths).
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	if hasAdjacentDup(sorted) {
		return nil, errPlain(sprintf(msgLegacyDupAttr, firstRepeated(names)))
	}
	p := &Projection{legacy: true, names: names}
	p.trie = &projTrie{names: sorted, allLeaves: true}
	return p, nil
}

// AttributesToGetOwned is AttributesToGet for a caller that gives names
// up: it sorts names in place (their source order is kept as 4 bytes a
// name, one array that maps places both ways in turn) instead of keeping
// a sorted copy beside them, 16 bytes a name (6.1 MB of a 4 MB GetItem's
// 381,295 names). names' order is not kept
// when it returns, whatever it returns.
func AttributesToGetOwned(names []string) (*Projection, error) {
	if err := checkAttributesToGet(names); err != nil {
		return nil, err
	}
	if len(names) > math.MaxInt32 {
		return AttributesToGet(names)
	}
	// pos[k] is the source place of the k-th name sorted; names equal
	// sort by place, so the first repeated name (in source order) is
	// the one whose second place is least.
	pos := make([]int32, len(names))
	for i := range pos {
		pos[i] = int32(i)
	}
	sort.Sort(namesByPlace{names, pos})
	repeat := int32(-1)
	for k := 1; k < len(names); k++ {
		if names[k] == names[k-1] && (repeat < 0 || pos[k] < repeat) {
			repeat = pos[k] // the name's second place: later ones are later
		}
	}
	if repeat >= 0 {
		k := slices.Index(pos, repeat)
		return nil, errPlain(sprintf(msgLegacyDupAttr, names[k]))
	}
	invertInPlace(pos) // now each source name's place sorted
	p := &Projection{legacy: true, order: pos}
	p.trie = &projTrie{names: names, allLeaves: true}
	return p, nil
}

// invertInPlace makes the permutation p its inverse (where p[i] = j
// before, p[j] = i after) without a second array: a cycle at a time,
// each place done marked by its complement. A second
// array was 4 bytes a name (1.5 MB of a 4 MB GetItem's 381,295).
func invertInPlace(p []int32) {
	for i := range p {
		if p[i] < 0 {
			continue // in a cycle already inverted
		}
		prev, cur := int32(i), p[i]
		for cur != int32(i) {
			next := p[cur]
			p[cur] = ^prev // p took prev to cur
			prev, cur = cur, next
		}
		p[i] = ^prev
	}
	for i := range p {
		p[i] = ^p[i]
	}
}

// checkAttributesToGet refuses an AttributesToGet list with an empty or
// invalid name, before its names are sorted for duplicates.
func checkAttributesToGet(names []string) error {
	if slices.Contains(names, "") {
		return errPlain(MsgEmptyAttributeName)
	}
	for _, n := range names {
		if err := checkAttributeName(n); err != nil {
			return err
		}
	}
	return nil
}

// namesByPlace sorts names, equal names by their source place.
type namesByPlace struct {
	names []string
	pos   []int32
}

func (s namesByPlace) Len() int { return len(s.names) }
func (s namesByPlace) Less(i, j int) bool {
	if s.names[i] != s.names[j] {
		return s.names[i] < s.names[j]
	}
	return s.pos[i] < s.pos[j]
}
func (s namesByPlace) Swap(i, j int) {
	s.names[i], s.names[j] = s.names[j], s.names[i]
	s.pos[i], s.pos[j] = s.pos[j], s.pos[i]
}

// hasAdjacentDup reports whether sorted holds a name twice.
func hasAdjacentDup(sorted []string) bool {
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return true
		}
	}
	return false
}

// firstRepeated returns the first name of names that an earlier one
// repeats (names holds one).
func firstRepeated(names []string) string {
	seen := make(map[string]struct{}, len(names))
	for _, n := range names {
		if _, ok := seen[n]; ok {
			return n
		}
		seen[n] = struct{}{}
	}
	return ""
}

// AttributeUpdates compiles the legacy AttributeUpdates map of UpdateItem.
func AttributeUpdates(updates map[string]AttributeUpdate) (*Update, error) {
	if err := emptyNameIn(updates); err != nil {
		return nil, err
	}
	var b legacyBuilder
	u := &Update{updateProgram: &updateProgram{src: &UpdateExpr{}}}
	clauses := map[Token]*UpdateClause{}
	for _, name := range sortedKeys(updates) {
		if err := checkAttributeName(name); err != nil {
			return nil, err
		}
		au := updates[name]
		action := au.Action
		if action == "" {
			action = "PUT"
		}
		p := Path{{Name: name}}
		ca := &compiledAction{path: p, legacy: true}
		if au.Value == nil && action != "DELETE" {
			if action != "PUT" && action != "ADD" {
				return nil, errPlain(msgLegacyActionEnum)
			}
			return nil, errPlain(msgLegacyNoValue)
		}
		switch action {
		case "PUT":
			ca.op = SET
			ca.value = b.value(*au.Value)
		case "ADD":
			k := au.Value.Kind()
			if k != storage.KindN && k != storage.KindL && !k.IsSet() {
				return nil, errPlain(sprintf(msgLegacyAddType, typeName(k)))
			}
			ca.op = ADD
			ca.value = b.value(*au.Value)
		case "DELETE":
			ca.op = DELETE
			if au.Value != nil {
				if !au.Value.Kind().IsSet() {
					return nil, errPlain(sprintf(msgLegacyDeleteType, typeName(au.Value.Kind())))
				}
				ca.value = b.value(*au.Value)
			} else {
				ca.op = REMOVE
			}
		default:
			return nil, errPlain(msgLegacyActionEnum)
		}
		u.actions = append(u.actions, ca)
		u.paths = append(u.paths, p)
		cl := clauses[ca.op]
		if cl == nil {
			cl = &UpdateClause{Offset: -1, Op: ca.op}
			clauses[ca.op] = cl
			u.src.Clauses = append(u.src.Clauses, cl)
		}
		ua := &UpdateAction{Op: ca.op, Path: legacyPath(name)}
		if ca.value != nil {
			ua.Value = ca.value
		}
		cl.Actions = append(cl.Actions, ua)
	}
	u.tree = buildTree(u.actions)
	u.setAttributes()
	u.vals = b.vals
	return u, nil
}

// MsgEmptyAttributeName (names.go) is also the answer to an attribute named
// "" in a legacy parameter (Expected, KeyConditions, QueryFilter,
// ScanFilter): AWS's and DynamoDB Local's wording.

// emptyNameIn reports an attribute named "" among the keys of m.
func emptyNameIn[V any](m map[string]V) *Error {
	if _, ok := m[""]; ok {
		return errPlain(MsgEmptyAttributeName)
	}
	return nil
}
