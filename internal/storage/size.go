package storage

// MaxItemSize is DynamoDB's limit on ItemSize: 400 KB. An item of exactly
// this size is accepted.
const MaxItemSize = 400 * 1024

// ItemSize returns an item's size by DynamoDB's rules: for each attribute the
// UTF-8 length of its name plus ValueSize of its value.
//
// The rules (AWS developer guide "DynamoDB item sizes and formats", checked
// byte for byte against DynamoDB Local at the 400 KB boundary):
//   - S: UTF-8 bytes; B: raw bytes; BOOL and NULL: 1.
//   - N: 1 + one byte per pair of digits when the significant digits are
//     grouped in pairs aligned on the decimal point (so 1.5 is "01 50", two
//     pairs), + 1 more for a negative number; 0 is 1.
//   - L and M: 3 + for each element 1 + its size (for M, + the entry name).
//   - SS, NS, BS: the sum of the member sizes.
func ItemSize(item Item) int {
	n := 0
	for name, v := range item {
		n += len(name) + ValueSize(v)
	}
	return n
}

// ValueSize returns the size of one attribute value by DynamoDB's rules (see
// ItemSize), not counting any attribute name.
func ValueSize(v Value) int {
	switch v.kind {
	case KindS, KindB:
		return len(v.str)
	case KindN:
		return numberSize(Number(v.str))
	case KindBOOL, KindNULL:
		return 1
	case KindL:
		n := 3
		for _, e := range v.List() {
			n += 1 + ValueSize(e)
		}
		return n
	case KindM:
		n := 3
		for name, e := range v.Map() {
			n += 1 + len(name) + ValueSize(e)
		}
		return n
	case KindSS, KindBS:
		n := 0
		for _, m := range v.Members() {
			n += len(m)
		}
		return n
	case KindNS:
		n := 0
		for _, m := range v.Members() {
			n += numberSize(Number(m))
		}
		return n
	}
	return 0
}

// numberSize is the stored size of a number: a length byte, base-100 digit
// pairs aligned on the decimal point, and a terminator byte when negative.
func numberSize(n Number) int {
	neg, hi, lo, adj := n.digits()
	if len(hi)+len(lo) == 0 {
		return 1
	}
	return digitsSize(neg, len(hi)+len(lo), adj)
}

// digitsSize is the size of a number other than zero of d significant
// digits whose leading digit has weight 10^adj.
func digitsSize(neg bool, d, adj int) int {
	// The leading digit's pair starts on an even power.
	if adj%2 == 0 {
		d++ // the leading digit shares its pair with a leading zero
	}
	size := 1 + (d+1)/2
	if neg {
		size++
	}
	return size
}
