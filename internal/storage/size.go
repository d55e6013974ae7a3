package storage

import "github.com/dynamoemu/dynamoemu/internal/number"

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
		return number.Size(Number(v.str))
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
			n += number.Size(Number(m))
		}
		return n
	}
	return 0
}
