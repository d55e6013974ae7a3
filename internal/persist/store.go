package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Store errors.
var (
	// ErrLocked: another process (or another Store in this one) has the
	// directory open.
	ErrLocked = errors.New("persist: data directory in use")
	// ErrBadName: a namespace name that is not a directory name the store
	// makes (see NamespaceName).
	ErrBadName = errors.New("persist: bad namespace name")
)

// SharedNamespace is the namespace of a server that keeps one database
// for every access key and region (-sharedDb), named as DynamoDB Local
// names its file (shared-local-instance.db).
const SharedNamespace = "shared-local-instance"

// lockName is the lock file in a store's directory.
const lockName = "LOCK"

// The layout file in a store's directory says which layout of
// directories and files it holds, so that a build never reads (or
// starts empty over) a directory a newer one laid out otherwise. A
// directory without one is of layout 1, and gets it at Open.
const (
	layoutName    = "FORMAT"
	layoutVersion = 1
	layoutPrefix  = "dynamoemu data directory, layout "
)

// Store is a data directory: one subdirectory per namespace, each with its
// DB's log and snapshots, and the lock that keeps a second process out.
// All methods are safe for concurrent use.
type Store struct {
	dir  string
	opts Options
	lock *os.File

	// mu guards nss and closed. DB holds it while a namespace loads.
	mu     sync.Mutex
	nss    map[string]*namespace
	closed bool
}

// Open opens the data directory dir, creating it if need be, and locks
// it. Namespaces are loaded by DB, each the first time it is asked for.
func Open(dir string, opts Options) (*Store, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("persist: cannot create the data directory: %w", err)
	}
	lock, err := lockDir(filepath.Join(dir, lockName))
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return nil, err
		}
		return nil, fmt.Errorf("persist: the data directory %s is not usable (it must be a writable directory): %w", dir, err)
	}
	if err := checkLayout(dir); err != nil {
		lock.Close()
		return nil, err
	}
	return &Store{dir: dir, opts: o, lock: lock, nss: map[string]*namespace{}}, nil
}

// checkLayout refuses a directory of a later layout than this build's
// and writes the layout file where there is none.
func checkLayout(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, layoutName))
	if errors.Is(err, os.ErrNotExist) {
		err = replaceFile(openOSFile, dir, layoutName, func(f file) error {
			_, err := f.WriteAt([]byte(layoutPrefix+strconv.Itoa(layoutVersion)+"\n"), 0)
			return err
		})
		if err != nil {
			return fmt.Errorf("persist: the data directory %s is not usable (it must be a writable directory): %w", dir, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("persist: %s: %w", layoutName, err)
	}
	v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(string(b), layoutPrefix), "\n"))
	switch {
	case err != nil || !strings.HasPrefix(string(b), layoutPrefix):
		return fmt.Errorf("%w: %s: %q is not a dynamoemu layout line", ErrCorrupt, filepath.Join(dir, layoutName), b)
	case v > layoutVersion:
		return fmt.Errorf("%w: the data directory %s is of layout %d (%s), this build reads up to %d: refusing to use it; run a newer dynamoemu",
			ErrNewerFormat, dir, v, layoutName, layoutVersion)
	}
	return nil
}

// NamespaceName returns the namespace name of an access key and a region,
// as DynamoDB Local names its files (<key>_<region>.db) but escaped so
// that any key and region make a distinct, safe directory name: every
// byte but ASCII letters, digits and '-' is written %XX.
func NamespaceName(accessKey, region string) string {
	return escape(accessKey) + "_" + escape(region)
}

func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// validName reports whether name is a namespace name: SharedNamespace or
// what NamespaceName makes (letters, digits, '-', '_' and %XX escapes),
// of at most 200 bytes.
func validName(name string) bool {
	if name == "" || len(name) > 200 || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '%') {
			return false
		}
	}
	return true
}

// DB returns the DB of namespace name, loading it from its directory the
// first time (creating the directory if it has none), then the same DB.
// Every change of the DB is logged; see doc.go for when a change is
// acknowledged and what survives what.
func (s *Store) DB(name string) (*storage.DB, error) {
	if !validName(name) {
		return nil, fmt.Errorf("%w: %q", ErrBadName, name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if ns := s.nss[name]; ns != nil {
		return ns.db, nil
	}
	ns, err := openNamespace(name, filepath.Join(s.dir, name), &s.opts)
	if err != nil {
		return nil, err
	}
	s.nss[name] = ns
	return ns.db, nil
}

// Namespaces returns the names of the namespaces in the directory, loaded
// or not, in order.
func (s *Store) Namespaces() ([]string, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() && validName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names, nil
}

// namespace returns the loaded namespace name, or nil.
func (s *Store) namespace(name string) *namespace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nss[name]
}

// Recovery returns how namespace name was loaded; false if it is not.
func (s *Store) Recovery(name string) (Recovery, bool) {
	ns := s.namespace(name)
	if ns == nil {
		return Recovery{}, false
	}
	return ns.rec, true
}

// Stats returns namespace name's figures; false if it is not loaded.
func (s *Store) Stats(name string) (Stats, bool) {
	ns := s.namespace(name)
	if ns == nil {
		return Stats{}, false
	}
	return ns.statsNow(), true
}

// Compact folds namespace name's log into a new snapshot now, whatever
// its size, and waits for it.
func (s *Store) Compact(name string) error {
	ns := s.namespace(name)
	if ns == nil {
		return fmt.Errorf("persist: namespace %s is not loaded", name)
	}
	return ns.compact()
}

// Close makes everything logged durable, stops the namespaces' background
// work, closes their files and unlocks the directory. Their DBs accept no
// more writes (they fail); reads go on.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for _, ns := range s.nss {
		errs = append(errs, ns.close())
	}
	errs = append(errs, s.lock.Close())
	return errors.Join(errs...)
}

// ParseNamespaceName is NamespaceName backwards: the access key and the
// region a namespace name was made of, or shared for SharedNamespace; ok
// is false for a name NamespaceName does not make.
func ParseNamespaceName(name string) (accessKey, region string, shared, ok bool) {
	if name == SharedNamespace {
		return "", "", true, true
	}
	k, r, found := strings.Cut(name, "_")
	if !found || strings.Contains(r, "_") {
		return "", "", false, false
	}
	accessKey, ok1 := unescape(k)
	region, ok2 := unescape(r)
	if !ok1 || !ok2 || NamespaceName(accessKey, region) != name {
		return "", "", false, false
	}
	return accessKey, region, false, true
}

// unescape undoes escape.
func unescape(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		if err != nil {
			return "", false
		}
		b.WriteByte(byte(v))
		i += 2
	}
	return b.String(), true
}
