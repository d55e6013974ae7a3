package expr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Error is every error expr returns. Its Error() text is the exact message
// of DynamoDB's ValidationException; Pos locates the cause in the
// expression text (a byte offset) or is -1 when the error has no position
// (placeholder maps, legacy parameters, evaluation).
type Error struct {
	Pos int
	Msg string
	Err error // underlying cause (e.g. a storage number error), if any
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

func errPlain(msg string) *Error { return &Error{Pos: -1, Msg: msg} }

// exprError prefixes msg with "Invalid <param>: " as DynamoDB does for
// errors found in an expression; with param "" (a tree compiled for a
// caller whose messages have no prefix, such as PartiQL) msg stands alone.
func exprError(param string, pos int, msg string) *Error {
	if param == "" {
		return &Error{Pos: pos, Msg: msg}
	}
	return &Error{Pos: pos, Msg: "Invalid " + param + ": " + msg}
}

// Message bodies (after "Invalid <param>: ").
const (
	msgEmpty            = "The expression can not be empty;"
	msgRedundantParens  = "The expression has redundant parentheses;"
	msgIncorrectOperand = "Incorrect operand type for operator or function; operator or function: %s, operand type: %s"
	msgOperandCount     = "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d"
	msgNeedsPath        = "Operator or function requires a document path; operator or function: %s"
	msgFuncUsage        = "The function is not allowed to be used this way in an expression; function: %s"
	msgFuncInCondition  = "The function is not allowed in a condition expression; function: %s"
	msgFuncInUpdate     = "The function is not allowed in an update expression; function: %s"
	msgInvalidFunc      = "Invalid function name; function: %s"
	msgReserved         = "Attribute name is a reserved keyword; reserved keyword: %s"
	msgUndefinedName    = "An expression attribute name used in the document path is not defined; attribute name: %s"
	msgUndefinedValue   = "An expression attribute value used in expression is not defined; attribute value: %s"
	msgSyntax           = "Syntax error; token: \"%s\", near: \"%s\""
	msgSize             = "Expression size has exceeded the maximum allowed size; expression size: %d"
	msgSizeNoCount      = "Expression size has exceeded the maximum allowed size;"
	msgTooManyOps       = "The expression contains too many operators; operator count: %d"
	msgTooManyIn        = "The IN operator is provided with too many operands; number of operands: %d"
	msgNesting          = "The document path has too many nesting levels; nesting levels: %d"
	msgIndexRange       = "List index is not within the allowable range; index: [%s]"
	msgDistinct         = "The first operand must be distinct from the remaining operands for this operator or function; operator: %s, first operand: %s"
	msgBetweenOrder     = "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: %s, upper bound operand: %s"
	msgBetweenTypes     = "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: %s, upper bound operand: %s"
	msgAttrTypeName     = "Invalid attribute type name found; type: %s, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"
	msgOverlap          = "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s"
	msgConflict         = "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s"
	msgSectionTwice     = "The \"%s\" section can only be used once in an update expression;"
	msgUpdateOperand    = "Incorrect operand type for operator or function; operator: %s, operand type: %s, typeSet: %s"
)

// anyOperandType is how DynamoDB names the type of an operand read from an
// item where a value is required (attribute_type's second operand):
// DynamoDB Local's text.
const anyOperandType = "{DECIMALSET,DICT,INTSET,DECIMAL,NS,FLOAT,INT,HDS,BOOL,BS,M,HD,L,N,B,NULL,DOUBLE,SS,DOUBLESET,S,FS}"

// Messages of errors found while applying an update to an item.
const (
	// MsgInvalidPathForUpdate: a nested update path whose parent is missing
	// or of the wrong type.
	MsgInvalidPathForUpdate = "The document path provided in the update expression is invalid for update"
	// MsgOperandDataType: + - ADD DELETE list_append on an item value of
	// the wrong type.
	MsgOperandDataType = "An operand in the update expression has an incorrect data type"
	// MsgMissingAttribute: an update reads an attribute the item lacks.
	MsgMissingAttribute = "The provided expression refers to an attribute that does not exist in the item"
)

// describeValue renders a value as DynamoDB's messages do:
// "AttributeValue: {N:5}".
func describeValue(v storage.Value) string {
	return "AttributeValue: {" + valueBrief(v) + "}"
}

// DescribeValue renders a value as DynamoDB's messages do:
// "AttributeValue: {N:5}".
func DescribeValue(v storage.Value) string { return describeValue(v) }

func valueBrief(v storage.Value) string {
	k := v.Kind()
	switch k {
	case storage.KindS, storage.KindN:
		return k.String() + ":" + v.Str()
	case storage.KindB:
		return "B:" + fmt.Sprintf("java.nio.HeapByteBuffer[pos=0 lim=%d cap=%d]", len(v.Str()), len(v.Str()))
	case storage.KindBOOL:
		return "BOOL:" + strconv.FormatBool(v.Bool())
	case storage.KindNULL:
		return "NULL:true"
	case storage.KindSS, storage.KindNS:
		return k.String() + ":[" + strings.Join(v.Members(), ", ") + "]"
	}
	return k.String() + ":..."
}

// hashedKeys sorts keys by their buckets, then by themselves.
type hashedKeys struct {
	keys    []string
	buckets []uint32 // of keys[i]
}

func (h hashedKeys) Len() int { return len(h.keys) }

func (h hashedKeys) Less(i, j int) bool {
	if h.buckets[i] != h.buckets[j] {
		return h.buckets[i] < h.buckets[j]
	}
	return h.keys[i] < h.keys[j]
}

func (h hashedKeys) Swap(i, j int) {
	h.keys[i], h.keys[j] = h.keys[j], h.keys[i]
	h.buckets[i], h.buckets[j] = h.buckets[j], h.buckets[i]
}

// javaHashOrder orders keys, in place, the way DynamoDB's messages list a
// set of strings: the iteration order of a java.util.HashSet holding
// them. It returns keys.
func javaHashOrder(keys []string) []string {
	capacity := javaHashCapacity(len(keys))
	// Each key's bucket computed once, not in every comparison: 190,646
	// unused placeholders (a 4 MB Query) took 244 ms with the hash in
	// a stable sort's comparator (keys are distinct: no sort need be
	// stable), and take 70 ms so (BenchmarkJavaHashOrder, 2-core VM).
	// The buckets beside the keys, sorted with them: 4 bytes a key, not
	// a copy of the keys with them (24 bytes a key, 4.6 MB of that
	// Query's 10 times its body: BenchmarkOversizeMemory).
	hk := hashedKeys{keys: keys, buckets: make([]uint32, len(keys))}
	for i, k := range keys {
		hk.buckets[i] = javaBucket(k, capacity)
	}
	sort.Sort(hk)
	return keys
}

// javaHashCapacity is the table size of a java.util.HashSet of n keys
// added one by one (load factor 0.75, from 16).
func javaHashCapacity(n int) int {
	capacity := 16
	for float64(n) > float64(capacity)*0.75 {
		capacity *= 2
	}
	return capacity
}

// javaBucket is s's bucket in such a set of capacity buckets.
func javaBucket(s string, capacity int) uint32 {
	var h uint32
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16Surrogates(r)
			h = 31*h + uint32(hi)
			h = 31*h + uint32(lo)
			continue
		}
		h = 31*h + uint32(r)
	}
	h ^= h >> 16
	return h & uint32(capacity-1)
}

func utf16Surrogates(r rune) (uint16, uint16) {
	r -= 0x10000
	return uint16(0xD800 + (r>>10)&0x3FF), uint16(0xDC00 + r&0x3FF)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
