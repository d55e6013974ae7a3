//go:build !amd64

package vector

// Without assembly loops (kernel_amd64.go), the Go loops run.

const useAVX2 = false

// dot returns the dot product of a and b (len(b) >= len(a)).
func dot(a, b []float32) float32 { return dot32(a, b) }

// l2sq returns the squared Euclidean distance between a and b (len(b) >= len(a)).
func l2sq(a, b []float32) float32 { return l2sq32(a, b) }
