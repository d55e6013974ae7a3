package capture

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dynamoemu/dynamoemu/internal/jsonkind"
)

// maxLine bounds one line: a BatchGetItem answer holds at most 16 MB of
// items, and its request and the line's other members fit in the rest.
const maxLine = 32 << 20

// ReadFile reads the capture at path.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(path, f)
}

// Read reads a whole capture; name is the file's name in errors. The
// first line that is not JSON, lacks a required member, has a member of
// the wrong type or one the format does not know, or is numbered out of
// order, is refused with "NAME:LINE: what is wrong", and nothing of the
// file is returned.
func Read(name string, r io.Reader) (*File, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	f := &File{Name: name}
	for n := 1; ; n++ {
		line, err := readLine(br)
		if err == io.EOF {
			if n == 1 {
				return nil, fmt.Errorf("%s:1: empty file: a capture opens with its header line", name)
			}
			return f, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if n == 1 {
			h, err := parseHeader(line)
			if err != nil {
				return nil, fmt.Errorf("%s:1: %w", name, err)
			}
			f.Header = h
			continue
		}
		e, err := parseExchange(line, len(f.Exchanges)+1)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		e.Line = n
		f.Exchanges = append(f.Exchanges, e)
	}
}

// readLine returns the next line without its newline; io.EOF at the end.
// A final line without a newline is a line.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("line longer than %d bytes", maxLine)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(line) == 0:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}

// members decodes a line into its members, refusing what is not one
// JSON object.
func members(line []byte) (map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, errors.New("blank line: every line is one JSON object")
	}
	var m map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	if m == nil {
		return nil, errors.New("not a JSON object: null")
	}
	if dec.More() {
		return nil, errors.New("more than one JSON value on the line")
	}
	return m, nil
}

// field checks that member name, if present, is of JSON type want
// ("a string", "an object" …) and decodes it into dst; required says
// whether its absence is an error.
func field(m map[string]json.RawMessage, name, want string, required bool, dst any) error {
	v, ok := m[name]
	if !ok {
		if required {
			return fmt.Errorf("member %q is missing", name)
		}
		return nil
	}
	if got := jsonkind.Of(v); got != want {
		return fmt.Errorf("member %q is %s, not %s", name, got, want)
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return fmt.Errorf("member %q: %v", name, err)
	}
	return nil
}

// parseHeader reads line 1.
func parseHeader(line []byte) (Header, error) {
	var h Header
	m, err := members(line)
	if err != nil {
		return h, err
	}
	var version float64
	for _, f := range []struct {
		name, want string
		required   bool
		dst        any
	}{
		{"capture", "a string", true, &h.Capture},
		{"version", "a number", true, &version},
		{"upstream", "a string", false, &h.Upstream},
		{"recorded", "a string", false, &h.Recorded},
		{"tablePrefix", "a string", false, &h.TablePrefix},
	} {
		if err := field(m, f.name, f.want, f.required, f.dst); err != nil {
			return h, fmt.Errorf("header: %w", err)
		}
	}
	if h.Capture != Name {
		return h, fmt.Errorf("header: capture is %q, not %q: not a dynamoemu capture", h.Capture, Name)
	}
	if version != Version {
		return h, fmt.Errorf("capture version %v is not known (this build reads %d)", version, Version)
	}
	h.Version = Version
	if err := unknown(m, "capture", "version", "upstream", "recorded", "tablePrefix"); err != nil {
		return h, fmt.Errorf("header: %w", err)
	}
	return h, nil
}

// unknown refuses a member not among known.
func unknown(m map[string]json.RawMessage, known ...string) error {
	for k := range m {
		found := false
		for _, n := range known {
			found = found || k == n
		}
		if !found {
			return fmt.Errorf("member %q is not part of the format (it knows %s)", k, strings.Join(known, ", "))
		}
	}
	return nil
}

// parseExchange reads an exchange line, the seq-th of the file.
func parseExchange(line []byte, seq int) (Exchange, error) {
	var e Exchange
	m, err := members(line)
	if err != nil {
		return e, err
	}
	var seqF, status, after, overlap float64
	var check bool
	for _, f := range []struct {
		name, want string
		required   bool
		dst        any
	}{
		{"seq", "a number", true, &seqF},
		{"target", "a string", true, &e.Target},
		{"request", "an object", true, &e.Request},
		{"status", "a number", true, &status},
		{"response", "an object", true, &e.Response},
		{"afterMs", "a number", false, &after},
		{"check", "a boolean", false, &check},
		{"ignore", "an array", false, &e.Ignore},
		{"source", "a string", false, &e.Source},
		{"note", "a string", false, &e.Note},
		{"oracle", "a string", false, &e.Oracle},
		{"retries", "an array", false, &e.Retries},
		{"upstream", "a string", false, &e.Upstream},
		{"client", "a string", false, &e.Client},
		{"overlap", "a number", false, &overlap},
	} {
		if err := field(m, f.name, f.want, f.required, f.dst); err != nil {
			return e, err
		}
	}
	if err := unknown(m, "seq", "target", "request", "status", "response", "afterMs", "check", "ignore", "source", "note", "oracle",
		"retries", "upstream", "client", "overlap"); err != nil {
		return e, err
	}
	if seqF != float64(seq) {
		return e, fmt.Errorf("seq is %v, not %d: exchanges are numbered 1, 2, 3 … in file order", seqF, seq)
	}
	e.Seq = seq
	if e.Target == "" || !strings.Contains(e.Target, ".") {
		return e, fmt.Errorf("target %q is not an X-Amz-Target (DynamoDB_20120810.OPERATION)", e.Target)
	}
	if status != float64(int(status)) || status < 100 || status > 599 {
		return e, fmt.Errorf("status %v is not an HTTP status", status)
	}
	e.Status = int(status)
	if after < 0 || after != float64(int64(after)) {
		return e, fmt.Errorf("afterMs %v is not a whole number of milliseconds ≥ 0", after)
	}
	e.AfterMs = int64(after)
	if overlap < 0 || overlap != float64(int(overlap)) {
		return e, fmt.Errorf("overlap %v is not a whole number ≥ 0", overlap)
	}
	e.Overlap = int(overlap)
	for i, a := range e.Retries {
		if a.Status < 100 || a.Status > 599 || jsonkind.Of(a.Response) != "an object" {
			return e, fmt.Errorf("retries[%d] is not an answer (a status and a response object)", i)
		}
	}
	if e.Upstream != "" && !strings.HasPrefix(e.Upstream, "failed") && !strings.HasPrefix(e.Upstream, "unreachable") {
		return e, fmt.Errorf("upstream %q is neither \"failed: <why>\" nor \"unreachable: <why>\"", e.Upstream)
	}
	if _, ok := m["check"]; ok {
		e.Check = &check
	}
	for i, p := range e.Ignore {
		if p == "" {
			return e, fmt.Errorf("ignore[%d] is empty", i)
		}
	}
	if e.Oracle != "" && e.Oracle != "agrees" && !strings.HasPrefix(e.Oracle, "differs: ") {
		return e, fmt.Errorf("oracle %q is neither \"agrees\" nor \"differs: <why>\"", e.Oracle)
	}
	return e, nil
}
