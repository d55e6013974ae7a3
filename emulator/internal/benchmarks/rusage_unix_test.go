//go:build unix

package benchmarks

import "syscall"

// processCPU returns this process's user and system CPU time in
// nanoseconds and its minor page faults.
func processCPU() (cpuTime, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuTime{}, false
	}
	return cpuTime{user: ru.Utime.Nano(), sys: ru.Stime.Nano(), faults: ru.Minflt}, true
}
