package ddblocal

import (
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver "sqlite"
)

// Errors Open returns, wrapped with the file's name and the details.
var (
	// ErrNotSQLite: the file does not start with SQLite's header.
	ErrNotSQLite = errors.New("not an SQLite database")
	// ErrTruncated: the file is shorter than its header says.
	ErrTruncated = errors.New("truncated")
	// ErrDamaged: SQLite cannot read the file whole.
	ErrDamaged = errors.New("damaged")
	// ErrNotDynamoDBLocal: an SQLite database without DynamoDB Local's tables.
	ErrNotDynamoDBLocal = errors.New("not a DynamoDB Local database")
)

// headerSize is the size of SQLite's database header; magic starts it.
const (
	headerSize = 100
	magic      = "SQLite format 3\x00"
)

// File is a DynamoDB Local database file opened read-only. Close it.
type File struct {
	path    string
	db      *sql.DB
	version string // the cf table's: DynamoDB Local's schema version
}

// Open opens the DynamoDB Local file at path read-only and checks that it
// is one: SQLite's header, a size that holds every page the header counts,
// SQLite's quick_check, and DynamoDB Local's tables (dm, sm, cf).
func Open(path string) (*File, error) {
	if err := checkHeader(path); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	// mode=ro: SQLite opens the file read-only and never writes it (no
	// journal is made either).
	dsn := (&url.URL{Scheme: "file", OmitHost: true, Path: abs, RawQuery: "mode=ro"}).String()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	f := &File{path: path, db: db}
	if err := f.check(); err != nil {
		db.Close()
		return nil, err
	}
	return f, nil
}

// Close closes the file.
func (f *File) Close() error { return f.db.Close() }

// Path is the file's path as Open got it.
func (f *File) Path() string { return f.path }

// Version is DynamoDB Local's schema version the file says (its cf table).
func (f *File) Version() string { return f.version }

// checkHeader refuses what is not an SQLite file, and one shorter than its
// header says, before SQLite reads it.
func checkHeader(path string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return err
	}
	if st.IsDir() {
		return fmt.Errorf("%s: %w: it is a directory", path, ErrNotSQLite)
	}
	var h [headerSize]byte
	n, err := io.ReadFull(fh, h[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	if n < len(magic) || string(h[:len(magic)]) != magic {
		return fmt.Errorf("%s: %w: it does not start with SQLite's header (DynamoDB Local's -dbPath files do)", path, ErrNotSQLite)
	}
	if n < headerSize {
		return fmt.Errorf("%s: %w: %d bytes, less than SQLite's %d-byte header", path, ErrTruncated, n, headerSize)
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return fmt.Errorf("%s: %w: its header's page size %d is not SQLite's", path, ErrDamaged, pageSize)
	}
	// The page count at offset 28 is valid when the change counter (24)
	// equals the version-valid-for number (92), as SQLite writes it.
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	if binary.BigEndian.Uint32(h[24:28]) == binary.BigEndian.Uint32(h[92:96]) && pages > 0 {
		if want := pages * pageSize; st.Size() < want {
			return fmt.Errorf("%s: %w: its header counts %d pages of %d bytes (%d bytes), the file has %d: copy it again from where DynamoDB Local wrote it",
				path, ErrTruncated, pages, pageSize, want, st.Size())
		}
	}
	if st.Size()%pageSize != 0 {
		return fmt.Errorf("%s: %w: %d bytes is not a whole number of %d-byte pages", path, ErrTruncated, st.Size(), pageSize)
	}
	return nil
}

// check runs SQLite's quick_check and looks for DynamoDB Local's tables.
func (f *File) check() error {
	rows, err := f.db.Query("PRAGMA quick_check")
	if err != nil {
		return f.damaged(err)
	}
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return f.damaged(err)
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return f.damaged(err)
	}
	rows.Close()
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], fmt.Sprintf("and %d more", len(problems)-3))
		}
		return fmt.Errorf("%s: %w: SQLite's quick_check says: %s", f.path, ErrDamaged, strings.Join(problems, "; "))
	}
	have := map[string]bool{}
	names, err := f.db.Query("SELECT name FROM sqlite_master WHERE type = 'table'")
	if err != nil {
		return f.damaged(err)
	}
	defer names.Close()
	for names.Next() {
		var s string
		if err := names.Scan(&s); err != nil {
			return f.damaged(err)
		}
		have[s] = true
	}
	if err := names.Err(); err != nil {
		return f.damaged(err)
	}
	for _, t := range []string{"dm", "sm", "cf"} {
		if !have[t] {
			return fmt.Errorf("%s: %w: it has no %s table (DynamoDB Local keeps its tables' definitions in dm, its streams in sm, its schema version in cf)",
				f.path, ErrNotDynamoDBLocal, t)
		}
	}
	if err := f.db.QueryRow("SELECT version FROM cf LIMIT 1").Scan(&f.version); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return f.damaged(err)
	}
	return nil
}

// damaged wraps an error SQLite gave while checking the file.
func (f *File) damaged(err error) error {
	return fmt.Errorf("%s: %w: SQLite cannot read it (%v)", f.path, ErrDamaged, err)
}
