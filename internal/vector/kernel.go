package vector

// The distance loops. Each works on float32 slices of equal length with
// eight independent accumulators (so the adds pipeline instead of waiting
// on one another) and slices re-cut to eight elements per step, so the
// compiler drops the bounds checks of the eight (//gcassert:bce,
// internal/lint's TestCompilerClaims). The order of the additions is fixed,
// so a vector's score against a query is the same on every call, whatever
// else is in the index: a search is deterministic.

// dot32 returns the dot product of a and b (len(b) >= len(a)).
func dot32(a, b []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		s0 += x[0] * y[0] //gcassert:bce
		s1 += x[1] * y[1] //gcassert:bce
		s2 += x[2] * y[2] //gcassert:bce
		s3 += x[3] * y[3] //gcassert:bce
		s4 += x[4] * y[4] //gcassert:bce
		s5 += x[5] * y[5] //gcassert:bce
		s6 += x[6] * y[6] //gcassert:bce
		s7 += x[7] * y[7] //gcassert:bce
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}

// l2sq32 returns the squared Euclidean distance between a and b (len(b) >= len(a)).
func l2sq32(a, b []float32) float32 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		x := a[i : i+8 : i+8]
		y := b[i : i+8 : i+8]
		d0 := x[0] - y[0] //gcassert:bce
		d1 := x[1] - y[1] //gcassert:bce
		d2 := x[2] - y[2] //gcassert:bce
		d3 := x[3] - y[3] //gcassert:bce
		d4 := x[4] - y[4] //gcassert:bce
		d5 := x[5] - y[5] //gcassert:bce
		d6 := x[6] - y[6] //gcassert:bce
		d7 := x[7] - y[7] //gcassert:bce
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
		s4 += d4 * d4
		s5 += d5 * d5
		s6 += d6 * d6
		s7 += d7 * d7
	}
	for ; i < n; i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}
