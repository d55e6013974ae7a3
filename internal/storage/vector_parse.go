package storage

import (
	"fmt"
	"math"
	"strconv"
)

// Vectors on the way in: numbers to float32, and the check of an item's
// vector and search schema attributes that the emulator makes before a
// write (AWS rejects such writes; storage itself only leaves the item out
// of the index).

// Float32OfNumber rounds a number to the nearest float32 (ties to even, as
// strconv.ParseFloat(s, 32) does): AWS stores vectors at 32-bit precision
// and rounds higher-precision values on the way in. ok is false when the
// number's magnitude rounds past the largest float32 (it would be
// infinite); numbers too small for float32 round to zero or a subnormal.
func Float32OfNumber(n Number) (f float32, ok bool) {
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
func vectorInto(dst []float32, v Value) bool {
	if v.kind != KindL {
		return false
	}
	elems := v.c.list
	if len(elems) != len(dst) {
		return false
	}
	dst = dst[:len(elems)]
	for i := range elems {
		e := &elems[i]
		if e.kind != KindN {
			return false
		}
		f, ok := fastFloat32(e.str) // one call per element on the common path
		if !ok {
			if f, ok = parseFloat32(e.str); !ok {
				return false
			}
		}
		dst[i] = f
	}
	return true
}

// VectorProblem says what is wrong with an item for a vector index.
type VectorProblem uint8

// Vector problems, in the order CheckVectorItem looks for them.
const (
	// VectorNotList: the vector attribute is not a list (L); Kind says what it is.
	VectorNotList VectorProblem = iota + 1
	// VectorDimension: the list's length (Actual) is not Dimensions (Expected).
	VectorDimension
	// VectorElementNotNumber: element Element is not a number; Kind says what it is.
	VectorElementNotNumber
	// VectorElementRange: element Element is a number beyond float32's range.
	VectorElementRange
	// VectorSchemaKind: a search schema attribute (Attribute) is not of
	// the kind its attribute definition declares (Expected Kind, Actual Kind).
	VectorSchemaKind
	// VectorHashEmpty: the HASH element's value is an empty string or binary.
	VectorHashEmpty
)

// VectorItemError is CheckVectorItem's report: which index and attribute,
// and what is wrong, with the figures an error message needs. The emulator
// words it (VECTOR_SPEC.md lists what is known of AWS's wording).
type VectorItemError struct {
	Index     string // the vector index's name
	Attribute string // the offending attribute
	Problem   VectorProblem
	Expected  int  // VectorDimension: Dimensions
	Actual    int  // VectorDimension: the list's length
	Element   int  // VectorElementNotNumber, VectorElementRange: the element's index
	Kind      Kind // VectorNotList, VectorElementNotNumber: the kind found; VectorSchemaKind: the kind found
	Want      Kind // VectorSchemaKind: the kind declared
}

func (e *VectorItemError) Error() string {
	var what string
	switch e.Problem {
	case VectorNotList:
		what = fmt.Sprintf("is %s, not a list of numbers", e.Kind)
	case VectorDimension:
		what = fmt.Sprintf("has %d elements, want %d", e.Actual, e.Expected)
	case VectorElementNotNumber:
		what = fmt.Sprintf("element %d is %s, not a number", e.Element, e.Kind)
	case VectorElementRange:
		what = fmt.Sprintf("element %d is beyond float32's range", e.Element)
	case VectorSchemaKind:
		what = fmt.Sprintf("is %s, want %s", e.Kind, e.Want)
	case VectorHashEmpty:
		what = "is empty"
	}
	return fmt.Sprintf("storage: vector index %q: attribute %q %s", e.Index, e.Attribute, what)
}

// CheckVectorItem reports the first reason, over defs in order, why AWS
// would refuse to write item to a table with those vector indexes: a vector
// attribute present but not a list of exactly Dimensions numbers each
// finite as float32, a search schema attribute present with another kind,
// or an empty HASH value. A missing attribute is no error (the item is
// simply not indexed, or for an inline filter indexed without it). nil
// when the item fits; otherwise a *VectorItemError.
func CheckVectorItem(defs []VectorIndexDef, item Item) error {
	for _, d := range defs {
		if err := d.checkItem(item); err != nil {
			return err
		}
	}
	return nil
}

func (d VectorIndexDef) checkItem(item Item) error {
	fail := func(e VectorItemError) error {
		e.Index = d.Name
		if e.Attribute == "" {
			e.Attribute = d.Attribute
		}
		return &e
	}
	if v, ok := item[d.Attribute]; ok {
		if v.kind != KindL {
			return fail(VectorItemError{Problem: VectorNotList, Kind: v.kind})
		}
		elems := v.c.list
		if len(elems) != d.Dimensions {
			return fail(VectorItemError{Problem: VectorDimension, Expected: d.Dimensions, Actual: len(elems)})
		}
		for i, e := range elems {
			if e.kind != KindN {
				return fail(VectorItemError{Problem: VectorElementNotNumber, Element: i, Kind: e.kind})
			}
			if _, ok := parseFloat32(e.str); !ok {
				return fail(VectorItemError{Problem: VectorElementRange, Element: i})
			}
		}
	}
	for _, a := range d.schemaAttrs() {
		v, ok := item[a.Name]
		if !ok {
			continue
		}
		if v.kind != a.Kind {
			return fail(VectorItemError{Attribute: a.Name, Problem: VectorSchemaKind, Kind: v.kind, Want: a.Kind})
		}
		if a == d.Hash && v.str == "" && v.kind != KindN {
			return fail(VectorItemError{Attribute: a.Name, Problem: VectorHashEmpty})
		}
	}
	return nil
}
