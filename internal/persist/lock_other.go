//go:build !unix

package persist

import (
	"fmt"
	"os"
)

// lockDir: no flock here, so no store.
func lockDir(path string) (*os.File, error) {
	return nil, fmt.Errorf("persist: locking %s: not supported on this system", path)
}
