package expr

import (
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Compiler compiles the expressions of one request against that request's
// ExpressionAttributeNames and ExpressionAttributeValues. It records which
// placeholders the expressions used so Unused can report the rest. A
// Compiler is not safe for concurrent use; the compiled results are
// immutable and may be evaluated concurrently.
type Compiler struct {
	lease.Owned // a pooled one (NewPooledCompiler) is used until Release
	names       map[string]string
	values      map[string]storage.Value
	table       ValueTable // the values when they are no map (NewPooledTableCompiler)
	used        usedSet    // the placeholders the compiled expressions used
	err         *Error     // the placeholder maps' own error, if any
	cache       *Cache     // compiled expressions to reuse; nil: none
}

// NewCompiler returns a Compiler for one request's placeholder maps (either
// may be nil). The maps are checked first (see [Compiler.Err]); when they
// are invalid, every compile method returns that error.
func NewCompiler(names map[string]string, values map[string]storage.Value) *Compiler {
	return &Compiler{
		names:  names,
		values: values,
		err:    checkPlaceholders(names, values),
	}
}

// NewCachedCompiler is NewCompiler with a Cache: each expression is looked
// up there first and compiled only when it is missing (see [Cache]). A nil
// cache compiles every expression.
func NewCachedCompiler(cache *Cache, names map[string]string, values map[string]storage.Value) *Compiler {
	c := NewCompiler(names, values)
	c.cache = cache
	return c
}

// Err reports what is wrong with the placeholder maps themselves, as
// DynamoDB checks them before it looks at any expression: every
// ExpressionAttributeNames key is "#" and every ExpressionAttributeValues
// key ":" followed by one or more letters, digits or underscores, at most
// 255 bytes in all (names' keys first, then values'), then no name maps to
// "". Nil when they are fine.
func (c *Compiler) Err() error {
	lease.Check(c)
	if c.err == nil {
		return nil
	}
	return c.err
}

// Messages about the placeholder maps themselves.
const (
	msgNamesInvalidKey   = "ExpressionAttributeNames contains invalid key: Syntax error; key: \"%s\""
	msgValuesInvalidKey  = "ExpressionAttributeValues contains invalid key: Syntax error; key: \"%s\""
	msgNamesInvalidValue = "ExpressionAttributeNames contains invalid value: Empty attribute name for key %s"
	// DynamoDB Local gives the size for names only.
	msgNamesKeyTooLong  = "ExpressionAttributeNames contains invalid key: The expression attribute map contains a key that is too long; size of key: %d"
	msgValuesKeyTooLong = "ExpressionAttributeValues contains invalid key: The expression attribute map contains a key that is too long;"
	// maxPlaceholderKey is the longest placeholder key, sigil included.
	maxPlaceholderKey = 255
)

// checkPlaceholders applies Err's rules. DynamoDB reports the first bad
// entry in request order; Go maps have none, so the first in sorted order
// is reported.
func checkPlaceholders(names map[string]string, values map[string]storage.Value) *Error {
	if placeholdersFine(names, values) {
		return nil // one walk of each map (compile_placeholders.go)
	}
	if k, bad := firstBad(names, func(k, _ string) bool { return len(k) > maxPlaceholderKey }); bad {
		return errPlain(sprintf(msgNamesKeyTooLong, len(k)))
	}
	if k, bad := firstBad(names, func(k, _ string) bool { return !isPlaceholder(k, '#') }); bad {
		return errPlain(sprintf(msgNamesInvalidKey, k))
	}
	if _, bad := firstBad(values, func(k string, _ storage.Value) bool { return len(k) > maxPlaceholderKey }); bad {
		return errPlain(msgValuesKeyTooLong)
	}
	if k, bad := firstBad(values, func(k string, _ storage.Value) bool { return !isPlaceholder(k, ':') }); bad {
		return errPlain(sprintf(msgValuesInvalidKey, k))
	}
	if k, bad := firstBad(names, func(_, v string) bool { return v == "" }); bad {
		return errPlain(sprintf(msgNamesInvalidValue, k))
	}
	if k, bad := firstBad(names, func(_, v string) bool { return len(v) > MaxAttributeNameBytes }); bad {
		return errPlain(sprintf(msgNamesValueTooLarge, k))
	}
	return nil
}

// firstBad returns the smallest key whose entry is bad, without sorting
// when none is (the common case).
func firstBad[V any](m map[string]V, bad func(string, V) bool) (string, bool) {
	first, found := "", false
	for k, v := range m {
		if bad(k, v) && (!found || k < first) {
			first, found = k, true
		}
	}
	return first, found
}

// isPlaceholder reports whether key is sigil followed by one or more
// characters the scanner accepts in a placeholder.
func isPlaceholder(key string, sigil byte) bool {
	if len(key) < 2 || key[0] != sigil {
		return false
	}
	for i := 1; i < len(key); i++ {
		if !isNameChar(key[i]) {
			return false
		}
	}
	return true
}

// Unused reports, after all of a request's expressions are compiled, the
// placeholders nobody used, with DynamoDB's message; nil if all were used.
func (c *Compiler) Unused() error {
	lease.Check(c)
	if c.used.names == len(c.names) && c.used.values == c.valueCount() {
		return nil // every key used: no walk of the maps (usedSet)
	}
	if keys := unusedKeys(c.names, &c.used); len(keys) > 0 {
		return errPlain(unusedMessage("ExpressionAttributeNames", keys))
	}
	if msg := c.unusedValues(); msg != "" {
		return errPlain(msg)
	}
	return nil
}

// MaxEcho bounds the part of an error message that echoes a request's
// elements: here the keys of unused placeholders, in apierr the lists of
// BatchWriteItem and the transactions (apierr.MaxEcho is this). AWS
// echoes every element, and no public record shows what it answers for
// hundreds of thousands of them (the unused values of a 4 MB Query were
// 2 MB of message). The first MaxEcho bytes of the echo are kept and the
// cut is marked with EchoElided.
const MaxEcho = 64 << 10

// EchoElided marks where an echo was cut at MaxEcho bytes.
const EchoElided = "...(echo cut at 65536 bytes by dynamoemu)"

// unusedMessage is "Value provided in <param> unused in expressions:
// keys: {k1, k2}", the keys cut after MaxEcho bytes (at a key's end) and
// the cut marked with EchoElided.
func unusedMessage(param string, keys []string) string {
	return unusedMessageOf(param, len(keys), func(i int) string { return keys[i] })
}

// unusedMessageOf is unusedMessage of the n keys key(0) ... key(n-1).
func unusedMessageOf(param string, n int, key func(i int) string) string {
	head := "Value provided in " + param + " unused in expressions: keys: {"
	echo, whole := 0, n // the keys' bytes and the keys that fit in MaxEcho
	for i := range n {
		k := len(key(i))
		if i > 0 {
			k += len(", ")
		}
		if echo+k > MaxEcho {
			whole = i
			break
		}
		echo += k
	}
	var b strings.Builder
	b.Grow(len(head) + echo + len(EchoElided) + 1)
	b.WriteString(head)
	for i := range whole {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(key(i))
	}
	if whole < n {
		b.WriteString(EchoElided)
	}
	b.WriteString("}")
	return b.String()
}

func unusedKeys[V any](m map[string]V, used *usedSet) []string {
	// Room for every key at once: the unused ones of 190,646 (a 4 MB
	// Query) grown by append allocated 17 MB, 3 MB so
	// (BenchmarkOversizeMemory).
	keys := make([]string, 0, len(m))
	for k := range m {
		if !used.has(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	return javaHashOrder(keys)
}

// usedSet is a set of placeholder keys (#names and :values, told apart by
// their sigils): a few inline, so that most requests make no map, and a
// map beyond. It counts the #names and the :values it holds; a key is
// added only once the request's map is known to hold it (a compile
// resolves it, or a cache entry's names match and its slots are bound),
// so equal counts mean that nothing in the maps went unused.
type usedSet struct {
	few           [8]string
	n             int
	many          map[string]bool
	names, values int
}

func (s *usedSet) add(k string) {
	if s.has(k) {
		return
	}
	if strings.HasPrefix(k, "#") {
		s.names++
	} else {
		s.values++
	}
	if s.n < len(s.few) {
		s.few[s.n] = k
		s.n++
		return
	}
	if s.many == nil {
		s.many = make(map[string]bool)
	}
	s.many[k] = true
}

func (s *usedSet) has(k string) bool {
	for _, x := range s.few[:s.n] {
		if x == k {
			return true
		}
	}
	return s.many[k]
}

// context says which expression language a tree belongs to.
type context uint8

const (
	ctxCondition context = iota
	ctxUpdate
	ctxProjection
)

// checker runs the post-parse passes over one expression. Pass B binds
// each :value placeholder to a slot: the compiled tree holds slot numbers,
// vals the values, so the tree never holds a request's values and can be
// shared (cache.go).
type checker struct {
	c     *Compiler
	param string
	ctx   context
	ops   int
	// binding is what compiling binds (nil when rechecking).
	*binding
	// recheck: pass B runs again over a tree already resolved and bound
	// (a cached one) with this request's values, rvals, for the checks
	// that look at values; paths and placeholders are left as they are.
	// (They are apart from binding so that a recheck's checker and its
	// values stay on the stack.)
	recheck bool
	rvals   []storage.Value
}

// binding is what compiling an expression binds: vals are the values of
// its placeholders by slot, and slots the placeholder each slot is for;
// nameKeys are the #name placeholders it resolved, distinct, in order.
type binding struct {
	vals     []storage.Value
	slots    []string
	nameKeys []string
}

// newChecker returns a checker that compiles (resolves and binds).
func newChecker(c *Compiler, param string, ctx context) *checker {
	return &checker{c: c, param: param, ctx: ctx, binding: &binding{}}
}

// value returns the value of slot i.
func (k *checker) value(i int) storage.Value {
	if k.recheck {
		return k.rvals[i]
	}
	return k.vals[i]
}

const (
	maxOperators    = 300
	maxInOperands   = 100
	maxPathDepth    = 32
	fnExists        = "attribute_exists"
	fnNotExists     = "attribute_not_exists"
	fnType          = "attribute_type"
	fnBeginsWith    = "begins_with"
	fnContains      = "contains"
	fnSize          = "size"
	fnIfNotExists   = "if_not_exists"
	fnListAppend    = "list_append"
	typeSetAdd      = "ALLOWED_FOR_ADD_OPERAND"
	typeSetDelete   = "ALLOWED_FOR_DELETE_OPERAND"
	maxOperatorsMsg = maxOperators + 1
)

// checkPathSyntax is pass A for a path: reserved words and index range.
func (k *checker) checkPathSyntax(p *PathExpr) *Error {
	for _, e := range p.Elems {
		switch {
		case e.IsIndex:
			if e.Index < 0 {
				return exprError(k.param, e.Offset, sprintf(msgIndexRange, e.Lit))
			}
		case !e.Resolved && !strings.HasPrefix(e.Name, "#") && IsReserved(e.Name):
			return exprError(k.param, e.Offset, sprintf(msgReserved, e.Name))
		}
	}
	return nil
}

// passA walks x in source order checking what DynamoDB checks before it
// looks at placeholders: reserved words, index ranges, function names and
// where each function may appear. asCondition says whether x sits where a
// condition (rather than an operand) is expected.
func (k *checker) passA(x Expr, asCondition bool) *Error {
	switch x := x.(type) {
	case *PathExpr:
		return k.checkPathSyntax(x)
	case *ValueExpr, *ConstExpr:
		return nil
	case *ParenExpr:
		return k.passA(x.X, asCondition)
	case *NotExpr:
		k.ops++
		return k.passA(x.X, true)
	case *BinaryExpr:
		k.ops++
		sub := x.Op == AND || x.Op == OR
		if err := k.passA(x.X, sub); err != nil {
			return err
		}
		return k.passA(x.Y, sub)
	case *BetweenExpr:
		k.ops++
		for _, y := range []Expr{x.X, x.Lo, x.Hi} {
			if err := k.passA(y, false); err != nil {
				return err
			}
		}
		return nil
	case *InExpr:
		k.ops++
		if err := k.passA(x.X, false); err != nil {
			return err
		}
		for _, y := range x.List {
			if err := k.passA(y, false); err != nil {
				return err
			}
		}
		return nil
	case *CallExpr:
		k.ops++
		if err := k.checkFunction(x, asCondition); err != nil {
			return err
		}
		for _, a := range x.Args {
			if err := k.passA(a, false); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}

func (k *checker) checkFunction(x *CallExpr, asCondition bool) *Error {
	switch x.Fun {
	case fnExists, fnNotExists, fnType, fnBeginsWith, fnContains, fnSize:
		if k.ctx == ctxUpdate {
			return exprError(k.param, x.Offset, sprintf(msgFuncInUpdate, x.Fun))
		}
		if asCondition == (x.Fun == fnSize) {
			return exprError(k.param, x.Offset, sprintf(msgFuncUsage, x.Fun))
		}
	case fnIfNotExists, fnListAppend:
		if k.ctx != ctxUpdate {
			return exprError(k.param, x.Offset, sprintf(msgFuncInCondition, x.Fun))
		}
	default:
		return exprError(k.param, x.Offset, sprintf(msgInvalidFunc, x.Fun))
	}
	return nil
}

// resolvePath is pass B for a path: placeholders and nesting depth.
func (k *checker) resolvePath(p *PathExpr) *Error {
	if k.recheck {
		return nil
	}
	out := make(Path, len(p.Elems))
	for i, e := range p.Elems {
		switch {
		case e.IsIndex:
			out[i] = PathStep{Index: e.Index, IsIndex: true}
		case e.Resolved:
			out[i] = PathStep{Name: e.Name}
		case strings.HasPrefix(e.Name, "#"):
			name, ok := k.c.names[e.Name]
			if !ok {
				return exprError(k.param, e.Offset, sprintf(msgUndefinedName, e.Name))
			}
			k.c.used.add(e.Name)
			if !slices.Contains(k.nameKeys, e.Name) {
				k.nameKeys = append(k.nameKeys, e.Name)
			}
			out[i] = PathStep{Name: name}
		default:
			out[i] = PathStep{Name: e.Name}
		}
	}
	if len(out) > maxPathDepth {
		return exprError(k.param, p.Pos(), sprintf(msgNesting, len(out)))
	}
	p.resolved = out
	return nil
}

func (k *checker) resolveValue(v *ValueExpr) *Error {
	if k.recheck {
		return nil
	}
	if v.Name == "" {
		v.slot = k.literal(v.Value) // the caller's value
		return nil
	}
	val, ok := k.c.value(v.Name)
	if !ok {
		return exprError(k.param, v.Offset, sprintf(msgUndefinedValue, v.Name))
	}
	k.c.used.add(v.Name)
	v.slot = k.slot(v.Name, val)
	return nil
}

// slot returns the slot of placeholder name (bound to val), adding one the
// first time the expression names it.
func (k *checker) slot(name string, val storage.Value) int {
	if i := slices.Index(k.slots, name); i >= 0 {
		return i
	}
	k.slots = append(k.slots, name)
	k.vals = append(k.vals, val)
	return len(k.slots) - 1
}

// literal returns a new slot for a value given by the caller that built
// the tree (a ValueExpr with Name ""): each gets a slot of its own, named
// "", which no request's placeholders can bind (see rebind).
func (k *checker) literal(val storage.Value) int {
	k.slots = append(k.slots, "")
	k.vals = append(k.vals, val)
	return len(k.slots) - 1
}

// passB resolves placeholders and checks each node's operands, children
// first, in source order.
func (k *checker) passB(x Expr) *Error {
	switch x := x.(type) {
	case *PathExpr:
		return k.resolvePath(x)
	case *ValueExpr:
		return k.resolveValue(x)
	case *ParenExpr:
		return k.passB(x.X)
	case *NotExpr:
		return k.passB(x.X)
	case *BinaryExpr:
		if err := k.passB(x.X); err != nil {
			return err
		}
		if err := k.passB(x.Y); err != nil {
			return err
		}
		return k.checkBinary(x)
	case *BetweenExpr:
		for _, y := range []Expr{x.X, x.Lo, x.Hi} {
			if err := k.passB(y); err != nil {
				return err
			}
		}
		return k.checkBetween(x)
	case *InExpr:
		if len(x.List) > maxInOperands {
			return exprError(k.param, x.OpPos, sprintf(msgTooManyIn, len(x.List)))
		}
		if err := k.passB(x.X); err != nil {
			return err
		}
		for _, y := range x.List {
			if err := k.passB(y); err != nil {
				return err
			}
		}
		return k.checkDistinct("IN", x.OpPos, x.X, x.List...)
	case *CallExpr:
		for _, a := range x.Args {
			if err := k.passB(a); err != nil {
				return err
			}
		}
		return k.checkCall(x)
	}
	return nil
}

// constant returns the value of x when x is a (parenthesized) placeholder.
func (k *checker) constant(x Expr) (storage.Value, bool) {
	for {
		switch y := x.(type) {
		case *ParenExpr:
			x = y.X
		case *ValueExpr:
			return k.value(y.slot), true
		default:
			return storage.Value{}, false
		}
	}
}

// pathOf returns the path when x is a (parenthesized) document path.
func pathOf(x Expr) (*PathExpr, bool) {
	for {
		switch y := x.(type) {
		case *ParenExpr:
			x = y.X
		case *PathExpr:
			return y, true
		default:
			return nil, false
		}
	}
}

func isScalarKey(v storage.Value) bool { return v.Kind().IsScalarKey() }

func (k *checker) operandTypeError(pos int, op string, v storage.Value) *Error {
	return exprError(k.param, pos, sprintf(msgIncorrectOperand, op, v.Kind().String()))
}

func (k *checker) checkBinary(x *BinaryExpr) *Error {
	switch x.Op {
	case LT, LE, GT, GE:
		for _, y := range []Expr{x.X, x.Y} {
			if v, ok := k.constant(y); ok && !isScalarKey(v) {
				return k.operandTypeError(x.OpPos, x.Op.String(), v)
			}
		}
	case PLUS, MINUS:
		for _, y := range []Expr{x.X, x.Y} {
			if v, ok := k.constant(y); ok && v.Kind() != storage.KindN {
				return k.operandTypeError(x.OpPos, x.Op.String(), v)
			}
		}
		return nil
	case AND, OR:
		return nil
	}
	return k.checkDistinct(x.Op.String(), x.OpPos, x.X, x.Y)
}

func (k *checker) checkDistinct(op string, pos int, first Expr, rest ...Expr) *Error {
	p, ok := pathOf(first)
	if !ok {
		return nil
	}
	for _, r := range rest {
		if q, ok := pathOf(r); ok && p.resolved.equal(q.resolved) {
			return exprError(k.param, pos, sprintf(msgDistinct, op, p.resolved.message()))
		}
	}
	return nil
}

func (k *checker) checkBetween(x *BetweenExpr) *Error {
	for _, y := range []Expr{x.X, x.Lo, x.Hi} {
		if v, ok := k.constant(y); ok && !isScalarKey(v) {
			return k.operandTypeError(x.OpPos, "BETWEEN", v)
		}
	}
	lo, okLo := k.constant(x.Lo)
	hi, okHi := k.constant(x.Hi)
	if okLo && okHi {
		if lo.Kind() != hi.Kind() {
			return exprError(k.param, x.OpPos, sprintf(msgBetweenTypes, describeValue(lo), describeValue(hi)))
		}
		if c, _ := storage.Compare(lo, hi); c > 0 {
			return exprError(k.param, x.OpPos, sprintf(msgBetweenOrder, describeValue(lo), describeValue(hi)))
		}
	}
	return k.checkDistinct("BETWEEN", x.OpPos, x.X, x.Lo, x.Hi)
}

// arity is the number of operands function fun takes (0: no such
// function). This package's small lookup tables are switches, not
// package-level maps: nothing to build at the server's start
// (internal/lint TestServerInitLazy).
func arity(fun string) int {
	switch fun {
	case fnExists, fnNotExists, fnSize:
		return 1
	case fnType, fnBeginsWith, fnContains, fnIfNotExists, fnListAppend:
		return 2
	}
	return 0
}

func (k *checker) checkCall(x *CallExpr) *Error {
	if n := arity(x.Fun); len(x.Args) != n {
		return exprError(k.param, x.Offset, sprintf(msgOperandCount, x.Fun, len(x.Args)))
	}
	switch x.Fun {
	case fnExists, fnNotExists, fnIfNotExists:
		// attribute_type takes a value as its first operand too, as
		// DynamoDB Local does and suites recorded against AWS expect; it
		// is then true when the value has the type.
		if _, ok := pathOf(x.Args[0]); !ok {
			return exprError(k.param, x.Offset, sprintf(msgNeedsPath, x.Fun))
		}
	}
	switch x.Fun {
	case fnType:
		if v, ok := k.constant(x.Args[1]); ok {
			if v.Kind() != storage.KindS {
				return k.operandTypeError(x.Offset, x.Fun, v)
			}
			if storage.KindFromString(v.Str()) == storage.KindInvalid {
				return exprError(k.param, x.Offset, sprintf(msgAttrTypeName, v.Str()))
			}
			break
		}
		// The type name is a value, decided when the expression is
		// compiled, never read from an item: a path has "any type" (the
		// set DynamoDB prints), size() a number.
		if _, ok := unparen(x.Args[1]).(*PathExpr); ok {
			return exprError(k.param, x.Offset, sprintf(msgIncorrectOperand, x.Fun, anyOperandType))
		}
		if isSizeCall(x.Args[1]) {
			return exprError(k.param, x.Offset, sprintf(msgIncorrectOperand, x.Fun, "N"))
		}
	case fnBeginsWith:
		for _, a := range x.Args {
			if v, ok := k.constant(a); ok && v.Kind() != storage.KindS && v.Kind() != storage.KindB {
				return k.operandTypeError(x.Offset, x.Fun, v)
			}
			if isSizeCall(a) {
				return exprError(k.param, x.Offset, sprintf(msgIncorrectOperand, x.Fun, "N"))
			}
		}
		return k.checkDistinct(x.Fun, x.Offset, x.Args[0], x.Args[1])
	case fnContains:
		return k.checkDistinct(x.Fun, x.Offset, x.Args[0], x.Args[1])
	case fnSize:
		if v, ok := k.constant(x.Args[0]); ok {
			if _, ok := sizeOf(v); !ok {
				return k.operandTypeError(x.Offset, x.Fun, v)
			}
		}
		if isSizeCall(x.Args[0]) {
			return exprError(k.param, x.Offset, sprintf(msgIncorrectOperand, x.Fun, "N"))
		}
	case fnListAppend:
		for _, a := range x.Args {
			if v, ok := k.constant(a); ok && v.Kind() != storage.KindL {
				return k.operandTypeError(x.Offset, x.Fun, v)
			}
			if c, ok := a.(*CallExpr); ok && c.Fun == fnListAppend {
				return exprError(k.param, c.Offset, sprintf(msgFuncUsage, c.Fun))
			}
		}
	}
	return nil
}

// isSizeCall reports whether x is a size() call: a number whatever the
// item holds, so a function that needs a string knows at compile time.
func isSizeCall(x Expr) bool {
	c, ok := unparen(x).(*CallExpr)
	return ok && c.Fun == fnSize
}
