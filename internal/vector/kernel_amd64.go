package vector

// On amd64 the distance loops run in assembly (kernel_amd64.s) with
// AVX2 and FMA when the processor and the OS support them: about twice the
// speed of the Go loops, which are memory-bound no longer. Otherwise, and
// on other architectures (kernel_other.go), the Go loops run.

func dotAVX2(a, b *float32, n int) float32
func l2sqAVX2(a, b *float32, n int) float32
func cpuid(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv0() uint32

// useAVX2 is set once, at start: the assembly loops may run.
var useAVX2 = hasAVX2FMA()

// hasAVX2FMA reports CPUID's AVX, FMA and AVX2 bits and whether the OS
// saves the YMM registers (OSXSAVE, then XCR0's SSE and AVX state bits).
func hasAVX2FMA() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if c&fma == 0 || c&osxsave == 0 || c&avx == 0 || xgetbv0()&6 != 6 {
		return false
	}
	_, b, _, _ := cpuid(7, 0)
	return b&(1<<5) != 0 // AVX2
}

// dot returns the dot product of a and b (len(b) >= len(a)).
func dot(a, b []float32) float32 {
	if useAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		return dotAVX2(&a[0], &b[0], len(a))
	}
	return dot32(a, b)
}

// l2sq returns the squared Euclidean distance between a and b (len(b) >= len(a)).
func l2sq(a, b []float32) float32 {
	if useAVX2 && len(a) > 0 {
		_ = b[len(a)-1]
		return l2sqAVX2(&a[0], &b[0], len(a))
	}
	return l2sq32(a, b)
}
