package vector

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Vectors on the way in: numbers to float32, and the check of an item's
// vector and search schema attributes that the emulator makes before a
// write (AWS rejects such writes; an index only leaves the item out).

// Float32OfNumber rounds a number to the nearest float32 (ties to even, as
// strconv.ParseFloat(s, 32) does): AWS stores vectors at 32-bit precision
// and rounds higher-precision values on the way in. ok is false when the
// number's magnitude rounds past the largest float32 (it would be
// infinite); numbers too small for float32 round to zero or a subnormal.
func Float32OfNumber(n storage.Number) (f float32, ok bool) {
	return parseFloat32(string(n))
}

// parseFloat32 is Float32OfNumber over text.
func parseFloat32(s string) (float32, bool) {
	if f, ok := fastFloat32(s); ok {
		return f, true
	}
	f, err := strconv.ParseFloat(s, 32)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false // out of float32's range, or not a number ("Inf" parses)
	}
	return float32(f), true
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastFloat32 converts plain decimal text (an optional '-', digits, an
// optional '.' and digits: a canonical Number) whose digits make an
// integer below 2^53 and that has at most 22 decimals without strconv; ok
// is false when it cannot, and the caller falls back to strconv.
//
// Why it is exact: with a mantissa m < 2^53 and 10^|e| <= 10^22 both exact
// in float64, one multiplication or division rounds m*10^e correctly to
// float64 (Clinger's fast path). Rounding that float64 again to float32 is
// then correct unless it landed exactly on a midpoint between two float32s
// (rounding to nearest never crosses a midpoint, which float64 can
// represent, but may land on one): that case goes to strconv. So the result
// is always the correctly rounded float32.
func fastFloat32(s string) (float32, bool) {
	// One function, no calls: this runs once per vector element on every
	// write to an indexed table (BenchmarkFloat32OfNumber, BenchmarkVectorPutRatio).
	n := len(s)
	i, neg := 0, false
	if n > 0 && s[0] == '-' {
		neg, i = true, 1
	}
	var m uint64 // every digit, in order
	j := i
	for j < n && s[j]-'0' <= 9 {
		m = m*10 + uint64(s[j]-'0')
		j++
	}
	whole := j - i
	exp := 0
	if j < n {
		if s[j] != '.' {
			return 0, false
		}
		j++
		k := j
		// The decimals eight at a time: one 64-bit word, checked to be all
		// digits (each high nibble 3, and adding 6 to each byte carries no
		// low nibble past 15) and combined by SWAR arithmetic.
		for k+8 <= n {
			b := s[k : k+8]
			v := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
			if v&0xF0F0F0F0F0F0F0F0 != 0x3030303030303030 || (v+0x0606060606060606)&0xF0F0F0F0F0F0F0F0 != 0x3030303030303030 {
				return 0, false
			}
			v -= 0x3030303030303030
			v = v*10 + v>>8 // each even byte: two digits' value
			v = ((v&0x000000FF000000FF)*(100+(1000000<<32)) + (v>>16&0x000000FF000000FF)*(1+(10000<<32))) >> 32
			m = m*100000000 + v
			k += 8
		}
		for ; k < n; k++ {
			c := s[k] - '0'
			if c > 9 {
				return 0, false
			}
			m = m*10 + uint64(c)
		}
		exp = j - k
		if whole == 0 && exp == 0 {
			return 0, false // "." or "-."
		}
	} else if whole == 0 {
		return 0, false // "" or "-"
	}
	if whole-exp > 19 || m > 1<<53 || exp < -22 {
		return 0, false // m may have wrapped, or is not exact in float64: strconv knows
	}
	if m == 0 {
		if neg {
			return float32(math.Copysign(0, -1)), true // as strconv (not a canonical Number)
		}
		return 0, true
	}
	f := float64(m)
	if exp < 0 {
		f /= pow10[-exp]
	}
	// Only normal float32 results, and no float32 midpoint: the 29 low
	// mantissa bits that float32 drops must not be exactly one half.
	if f < 0x1p-126 || f > math.MaxFloat32 || math.Float64bits(f)&(1<<29-1) == 1<<28 {
		return 0, false
	}
	if neg {
		f = -f
	}
	return float32(f), true
}

// vectorInto stores v's elements in dst, rounded to float32, when v is a
// list of exactly len(dst) numbers each finite as float32; false if not
// (dst is then partly written).
func vectorInto(dst []float32, v storage.Value) bool {
	if v.Kind() != storage.KindL {
		return false
	}
	elems := v.List()
	if len(elems) != len(dst) {
		return false
	}
	dst = dst[:len(elems)]
	for i := range elems {
		e := &elems[i]
		if e.Kind() != storage.KindN {
			return false
		}
		f, ok := fastFloat32(e.Str()) // one call per element on the common path
		if !ok {
			if f, ok = parseFloat32(e.Str()); !ok {
				return false
			}
		}
		dst[i] = f
	}
	return true
}

// Problem says what is wrong with an item for a vector index.
type Problem uint8

// Vector problems, in the order CheckItem looks for them.
const (
	// NotList: the vector attribute is not a list (L); Kind says what it is.
	NotList Problem = iota + 1
	// Dimension: the list's length (Actual) is not Dimensions (Expected).
	Dimension
	// ElementNotNumber: element Element is not a number; Kind says what it is.
	ElementNotNumber
	// ElementRange: element Element is a number beyond float32's range.
	ElementRange
	// SchemaKind: a search schema attribute (Attribute) is not of
	// the kind its attribute definition declares (Expected Kind, Actual Kind).
	SchemaKind
	// HashEmpty: the HASH element's value is an empty string or binary.
	HashEmpty
)

// ItemError is CheckItem's report: which index and attribute,
// and what is wrong, with the figures an error message needs. The emulator
// words it (VECTOR_SPEC.md lists what is known of AWS's wording).
type ItemError struct {
	Index     string // the vector index's name
	Attribute string // the offending attribute
	Problem   Problem
	Expected  int          // Dimension: Dimensions
	Actual    int          // Dimension: the list's length
	Element   int          // ElementNotNumber, ElementRange: the element's index
	Kind      storage.Kind // NotList, ElementNotNumber: the kind found; SchemaKind: the kind found
	Want      storage.Kind // SchemaKind: the kind declared
}

func (e *ItemError) Error() string {
	var what string
	switch e.Problem {
	case NotList:
		what = fmt.Sprintf("is %s, not a list of numbers", e.Kind)
	case Dimension:
		what = fmt.Sprintf("has %d elements, want %d", e.Actual, e.Expected)
	case ElementNotNumber:
		what = fmt.Sprintf("element %d is %s, not a number", e.Element, e.Kind)
	case ElementRange:
		what = fmt.Sprintf("element %d is beyond float32's range", e.Element)
	case SchemaKind:
		what = fmt.Sprintf("is %s, want %s", e.Kind, e.Want)
	case HashEmpty:
		what = "is empty"
	}
	return fmt.Sprintf("vector: index %q: attribute %q %s", e.Index, e.Attribute, what)
}

// CheckItem reports the first reason, over defs in order, why AWS
// would refuse to write item to a table with those vector indexes: a vector
// attribute present but not a list of exactly Dimensions numbers each
// finite as float32, a search schema attribute present with another kind,
// or an empty HASH value. A missing attribute is no error (the item is
// simply not indexed, or for an inline filter indexed without it). nil
// when the item fits; otherwise a *ItemError.
func CheckItem(defs []storage.VectorIndexDef, item storage.Item) error {
	for _, d := range defs {
		if err := checkItem(d, item); err != nil {
			return err
		}
	}
	return nil
}

func checkItem(d storage.VectorIndexDef, item storage.Item) error {
	fail := func(e ItemError) error {
		e.Index = d.Name
		if e.Attribute == "" {
			e.Attribute = d.Attribute
		}
		return &e
	}
	if v, ok := item[d.Attribute]; ok {
		if v.Kind() != storage.KindL {
			return fail(ItemError{Problem: NotList, Kind: v.Kind()})
		}
		elems := v.List()
		if len(elems) != d.Dimensions {
			return fail(ItemError{Problem: Dimension, Expected: d.Dimensions, Actual: len(elems)})
		}
		for i, e := range elems {
			if e.Kind() != storage.KindN {
				return fail(ItemError{Problem: ElementNotNumber, Element: i, Kind: e.Kind()})
			}
			if _, ok := parseFloat32(e.Str()); !ok {
				return fail(ItemError{Problem: ElementRange, Element: i})
			}
		}
	}
	for _, a := range d.SchemaAttrs() {
		v, ok := item[a.Name]
		if !ok {
			continue
		}
		if v.Kind() != a.Kind {
			return fail(ItemError{Attribute: a.Name, Problem: SchemaKind, Kind: v.Kind(), Want: a.Kind})
		}
		if a == d.Hash && v.Str() == "" && v.Kind() != storage.KindN {
			return fail(ItemError{Attribute: a.Name, Problem: HashEmpty})
		}
	}
	return nil
}
