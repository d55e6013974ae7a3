//go:build unix

package persist

import (
	"syscall"
	"time"
)

// processCPU is the user and system time the process has used (every
// thread's: the writers', the runtime's, the fdatasyncs').
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
