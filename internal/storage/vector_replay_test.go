package storage

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Vector indexes in the replay and snapshot workloads (replay_test.go):
// tables are created with some, the workload adds and drops them, and
// items carry a vector attribute "v" (sometimes of the wrong length or
// kind, which the index leaves out).

// replayVectorIndexes are the vector indexes of the workloads.
var replayVectorIndexes = []VectorIndexDef{
	{Name: "vx", Attribute: "v", Dimensions: 2, Distance: Euclidean, Hash: KeyAttr{"g", KindS}, Projection: Projection{All: true}},
	{Name: "vc", Attribute: "v", Dimensions: 2, Distance: Cosine, Filters: []KeyAttr{{"h", KindN}}, Projection: Projection{NonKey: []string{"a0"}}},
	{Name: "vd", Attribute: "w", Dimensions: 3, Distance: DotProduct},
}

// vectorize gives item it, most times, vectors "v" and "w".
func vectorize(r *rand.Rand, it Item) Item {
	vec := func(n int) Value {
		elems := make([]Value, n)
		for i := range elems {
			elems[i] = N(MustNumber(fmt.Sprint(r.IntN(7) - 3)))
		}
		return L(elems)
	}
	switch r.IntN(6) {
	case 0:
	case 1:
		it["v"] = vec(3) // the wrong length: not indexed
	case 2:
		it["v"] = S("not a vector")
	default:
		it["v"] = vec(2)
	}
	if r.IntN(2) == 0 {
		it["w"] = vec(3)
	}
	return it
}

// dumpVectors renders vector index definitions.
func dumpVectors(b *strings.Builder, defs []VectorIndexDef) {
	for _, d := range defs {
		fmt.Fprintf(b, "  vector index %+v\n", d)
	}
}
