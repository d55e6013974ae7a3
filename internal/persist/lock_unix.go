//go:build unix

package persist

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// lockDir takes the store's lock: an exclusive flock on dir/LOCK, held
// by the open file until unlock (or the process's end: the kernel drops
// it, so a killed server leaves no stale lock). The file names the pid
// that holds it, for the message another process gets.
func lockDir(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := strings.TrimSpace(string(b[:n]))
			if holder == "" {
				holder = "unknown"
			}
			return nil, fmt.Errorf("%w: %s is locked by another process (pid %s)", ErrLocked, path, holder)
		}
		return nil, fmt.Errorf("persist: locking %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}
