package persist

import (
	"fmt"
	"os"
	"path/filepath"
)

// Store-wide state: small files of the store's owner, beside the
// namespaces, each replaced whole (the emulator's clock offset). A name
// is a file name of letters, digits and '-' (no namespace is named so:
// namespace names hold '_' or are SharedNamespace, and Namespaces lists
// directories only), stored as <name>.state.

// SaveState replaces the state called name with data, durably: written
// to a temporary file, synced, renamed into place and the directory
// synced, so a crash leaves the old value or the new one.
func (s *Store) SaveState(name string, data []byte) error {
	path, err := s.statePath(name)
	if err != nil {
		return err
	}
	err = replaceFile(openOSFile, s.dir, filepath.Base(path), func(f file) error {
		_, err := f.WriteAt(data, 0)
		return err
	})
	if err != nil {
		return fmt.Errorf("persist: state %s: %w", name, err)
	}
	return nil
}

// State returns the state called name (nil, nil when there is none).
func (s *Store) State(name string) ([]byte, error) {
	path, err := s.statePath(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("persist: state %s: %w", name, err)
	}
	return b, nil
}

func (s *Store) statePath(name string) (string, error) {
	if name == "" || len(name) > 64 {
		return "", fmt.Errorf("%w: state %q", ErrBadName, name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return "", fmt.Errorf("%w: state %q", ErrBadName, name)
		}
	}
	return filepath.Join(s.dir, name+".state"), nil
}
