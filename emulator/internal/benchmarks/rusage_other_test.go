//go:build !unix

package benchmarks

// processCPU is not available here: no CPU metrics are reported.
func processCPU() (cpuTime, bool) { return cpuTime{}, false }
