package persist

import (
	"os"
	"syscall"
)

// datasync is fdatasync(2): the file's data and the metadata needed to
// read it back, without its timestamps. It holds the file open while it
// runs (SyscallConn), so a concurrent Close cannot hand the descriptor to
// another file meanwhile.
func datasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		for {
			serr = syscall.Fdatasync(int(fd))
			if serr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	if serr != nil {
		return &os.PathError{Op: "fdatasync", Path: f.Name(), Err: serr}
	}
	return nil
}

// freeBytes returns the bytes of the file system holding dir that an
// unprivileged writer may still use; ok is false when it cannot tell.
func freeBytes(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * st.Bsize, true
}
