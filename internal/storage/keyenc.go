package storage

import "github.com/dynamoemu/dynamoemu/internal/number"

// sortKeyBytes returns the order-preserving encoding of a sort key value.
// A number's is built on the stack (38 digits take 2 + 19 + 1 bytes), so
// that it costs one allocation, the string, not two: every write of a
// table with a numeric sort key makes it twice (BenchmarkPreload).
func sortKeyBytes(v Value) string {
	if v.kind == KindN {
		var buf [24]byte //gcassert:noescape
		return string(number.AppendKey(buf[:0], Number(v.str)))
	}
	return v.str
}

// sortKeyValue rebuilds a sort key Value of kind k from its encoding.
func sortKeyValue(k Kind, enc string) Value {
	if k == KindN {
		n, ok := number.DecodeKey(enc)
		if !ok {
			panic("storage: corrupt number key") // only ever built by number.AppendKey
		}
		return N(n)
	}
	return Value{kind: k, str: enc}
}

// partitionHash places a partition key in the scan order: FNV-1a over the
// key's bytes (canonical text for N) followed by a final avalanche so the top
// bits, which pick the parallel scan segment, depend on every input byte. It
// is fixed, so scan order is the same in every process.
func partitionHash[T ~string | ~[]byte](pk T) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(pk); i++ {
		h ^= uint32(pk[i])
		h *= 16777619
	}
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
