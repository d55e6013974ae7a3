package iac

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// .env files as the Serverless Framework reads them for a serverless.yml
// with useDotenv: true (its "Resolution of environment variables" page):
// in the service's directory, .env.STAGE when it exists, else .env (one
// file, never both), STAGE being the stage (dev when none is set); the
// values fill ${env:...} where the environment has none (dotenv does not
// override), and a value may name others ($NAME, ${NAME},
// ${NAME:-default}: dotenv-expand). The file's syntax is dotenv's: KEY=value
// lines (or KEY: value, an optional "export "), # comments, values
// unquoted (to a # or the line's end, trimmed) or in '', "" or `` quotes
// (they may span lines; in "" \n and \r are a newline and a carriage
// return); a key given twice takes its last value. The reader is this
// package's own, written from those rules.

// maxDotenvBytes bounds a .env file: it holds a few variables.
const maxDotenvBytes = 1 << 20

// ReadDotenv reads dir/.env.STAGE, or dir/.env when there is none, and
// returns its variables, expanded, and the file read ("" and no error
// when neither exists). getenv (nil: none) is the environment: it wins
// over the file in an expansion, as it does in ${env:...}.
func ReadDotenv(dir, stage string, getenv func(string) string) (map[string]string, string, error) {
	if stage == "" {
		stage = "dev"
	}
	if strings.ContainsAny(stage, `/\`) || stage == "." || stage == ".." {
		return nil, "", fmt.Errorf("stage %q: not a name a .env.STAGE file can have", stage)
	}
	for _, name := range []string{".env." + stage, ".env"} {
		path := filepath.Join(dir, name)
		src, err := readSmall(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		vars, err := ExpandDotenv(ParseDotenv(src), getenv)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		return vars, path, nil
	}
	return nil, "", nil
}

// readSmall reads a regular file of at most maxDotenvBytes.
func readSmall(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if st.Size() > maxDotenvBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a .env file", path, maxDotenvBytes)
	}
	return os.ReadFile(path)
}

// DotenvValue is one variable of a .env file as written.
type DotenvValue struct {
	Value  string
	Quote  byte // 0, '\'', '"' or '`'
	Exists bool
}

// ParseDotenv reads a .env file's variables (unexpanded), by name.
func ParseDotenv(src []byte) map[string]DotenvValue {
	out := map[string]DotenvValue{}
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	for len(s) > 0 {
		var line string
		line, s = cutLine(s)
		line = strings.TrimLeft(line, " \t")
		if line == "" || line[0] == '#' {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			line = strings.TrimLeft(rest, " \t")
		}
		k := 0
		for k < len(line) && isDotenvKeyByte(line[k]) {
			k++
		}
		key, rest := line[:k], strings.TrimLeft(line[k:], " \t")
		switch {
		case key == "":
			continue
		case strings.HasPrefix(rest, "="):
			rest = rest[1:]
		case strings.HasPrefix(rest, ":") && (len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t'):
			rest = rest[1:]
		default:
			continue // not a KEY=value line
		}
		rest = strings.TrimLeft(rest, " \t")
		v := DotenvValue{Exists: true}
		if rest != "" && (rest[0] == '\'' || rest[0] == '"' || rest[0] == '`') {
			q := rest[0]
			full := rest[1:] + "\n" + s // the value may go on past this line
			if end := closingQuote(full, q); end >= 0 {
				v.Quote, v.Value = q, full[:end]
				_, s = cutLine(full[end+1:]) // after the quote, to its line's end: a comment
				if q == '"' {
					v.Value = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(v.Value)
				}
				out[key] = v
				continue
			}
			// No closing quote: the value is the line as written.
		}
		if i := strings.IndexByte(rest, '#'); i >= 0 {
			rest = rest[:i]
		}
		v.Value = strings.TrimRight(rest, " \t")
		out[key] = v
	}
	return out
}

// cutLine splits s after its first line.
func cutLine(s string) (line, rest string) {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// closingQuote is the index of the quote q that closes a value starting
// at s[0], a backslash escaping one, or -1.
func closingQuote(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}

func isDotenvKeyByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// maxExpandDepth bounds how deep variables may name variables (a cycle
// stops there, empty).
const maxExpandDepth = 10

// ExpandDotenv expands the variables of a parsed .env file as
// dotenv-expand does: in a value that is not in single quotes, $NAME,
// ${NAME}, ${NAME:-default} and ${NAME-default} are the environment's
// NAME (getenv, nil: none) or else the file's, expanded in turn; "\$" is
// a "$". A variable the environment sets keeps the environment's value.
// Expansions may not make more than a small multiple of
// maxDotenvBytes: past it, an error.
func ExpandDotenv(vars map[string]DotenvValue, getenv func(string) string) (map[string]string, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	x := &expander{vars: vars, getenv: getenv, done: map[string]string{}, budget: 4 * maxDotenvBytes}
	out := make(map[string]string, len(vars))
	for k := range vars {
		v, err := x.lookup(k, 0)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// expander expands a .env file's values, each once.
type expander struct {
	vars   map[string]DotenvValue
	getenv func(string) string
	done   map[string]string // expanded values, by name
	budget int               // bytes expansions may still make
}

// lookup is NAME's value: the environment's, else the file's, expanded.
func (x *expander) lookup(name string, depth int) (string, error) {
	if e := x.getenv(name); e != "" {
		return e, nil
	}
	if v, ok := x.done[name]; ok {
		return v, nil
	}
	v, ok := x.vars[name]
	if !ok || depth > maxExpandDepth {
		return "", nil
	}
	out, err := x.expand(v, depth+1)
	if err != nil {
		return "", err
	}
	if depth == 0 || !strings.Contains(v.Value, "$") {
		x.done[name] = out
	}
	return out, nil
}

func (x *expander) expand(v DotenvValue, depth int) (string, error) {
	if v.Quote == '\'' || !strings.Contains(v.Value, "$") {
		return v.Value, nil
	}
	var b strings.Builder
	s := v.Value
	write := func(t string) error {
		if x.budget -= len(t); x.budget < 0 {
			return fmt.Errorf(".env: its variables expand past %d bytes", 4*maxDotenvBytes)
		}
		b.WriteString(t)
		return nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		var piece string
		switch {
		case c == '\\' && i+1 < len(s) && s[i+1] == '$':
			piece = "$"
			i++
		case c != '$' || i+1 >= len(s):
			piece = s[i : i+1]
		case s[i+1] == '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				piece = "$"
				break
			}
			inner := s[i+2 : i+2+end]
			i += 2 + end
			name, def, hasDef := inner, "", false
			if j := strings.Index(inner, ":-"); j >= 0 {
				name, def, hasDef = inner[:j], inner[j+2:], true
			} else if j := strings.IndexByte(inner, '-'); j >= 0 {
				name, def, hasDef = inner[:j], inner[j+1:], true
			}
			val, err := x.lookup(name, depth)
			if err != nil {
				return "", err
			}
			if val == "" && hasDef {
				if val, err = x.expand(DotenvValue{Value: def}, depth+1); err != nil {
					return "", err
				}
			}
			piece = val
		default:
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j == i+1 {
				piece = "$"
				break
			}
			val, err := x.lookup(s[i+1:j], depth)
			if err != nil {
				return "", err
			}
			piece, i = val, j-1
		}
		if err := write(piece); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}
