package iac

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A serverless.yml with `useDotenv: true` takes ${env:...} from a .env
// file in its directory too, as the Serverless Framework (v3) loads it
// ("Resolution of environment variables"): it "looks for .env and
// .env.{stage} files in service directory"; "If .env.{stage} is found,
// .env will not be loaded"; the stage defaults to dev; the file is read
// with dotenv and its values expanded with dotenv-expand ($NAME, ${NAME}).
// The environment wins over the file, as dotenv does not override a
// variable that is set.

// DotenvFile returns the file the Serverless Framework loads for a
// service in dir at stage ("": dev): dir/.env.STAGE when it exists, else
// dir/.env.
func DotenvFile(dir, stage string) string {
	if stage == "" {
		stage = "dev"
	}
	staged := filepath.Join(dir, ".env."+stage)
	if _, err := os.Stat(staged); err == nil {
		return staged
	}
	return filepath.Join(dir, ".env")
}

// ReadDotenv reads a .env file (ParseDotenv); a file that does not exist
// holds no variables.
func ReadDotenv(path string, getenv func(string) string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseDotenv(string(b), getenv), nil
}

// ParseDotenv parses a .env file's text as dotenv does: KEY=VALUE lines
// (an `export ` before the key is allowed; blank lines and lines starting
// with # are skipped); a value in single, double or back quotes is taken
// as it is quoted (in double quotes \n is a newline), and may span lines;
// an unquoted value is trimmed and ends at a # after a space. Then each
// value not in single quotes is expanded as dotenv-expand does: $NAME and
// ${NAME} (${NAME:-default} when it is unset or empty) are the
// environment's value (getenv; nil: none), else the file's, else empty; \$
// is a $. The last of two lines of one key wins.
func ParseDotenv(text string, getenv func(string) string) map[string]string {
	out := map[string]string{}
	literal := map[string]bool{} // single-quoted: not expanded
	text = strings.ReplaceAll(text, "\r\n", "\n")
	for len(text) > 0 {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, val, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			continue
		}
		val = strings.TrimLeft(val, " \t")
		if len(val) > 0 && (val[0] == '"' || val[0] == '\'' || val[0] == '`') {
			q := val[0]
			body := val[1:]
			end := strings.IndexByte(body, q)
			for end < 0 && len(text) > 0 { // a quoted value spans lines
				var next string
				next, text, _ = strings.Cut(text, "\n")
				body += "\n" + next
				end = strings.IndexByte(body, q)
			}
			if end >= 0 {
				body = body[:end]
			}
			if q == '"' {
				body = strings.ReplaceAll(body, `\n`, "\n")
			}
			out[key], literal[key] = body, q == '\''
			continue
		}
		if i := strings.Index(val, " #"); i >= 0 {
			val = val[:i]
		}
		out[key], literal[key] = strings.TrimSpace(val), false
	}
	x := &dotenvExpander{file: out, literal: literal, getenv: getenv, done: map[string]string{}, busy: map[string]bool{}}
	expanded := make(map[string]string, len(out))
	for k := range out {
		expanded[k] = x.value(k)
	}
	return expanded
}

// dotenvExpander expands a file's values, each once (a value that
// refers back to itself, directly or through others, reads "" there).
type dotenvExpander struct {
	file    map[string]string
	literal map[string]bool
	getenv  func(string) string
	done    map[string]string // expanded values
	busy    map[string]bool   // being expanded: a reference back is a cycle
}

// value is the file's variable name, expanded.
func (x *dotenvExpander) value(name string) string {
	if v, ok := x.done[name]; ok {
		return v
	}
	if x.busy[name] {
		return ""
	}
	v := x.file[name]
	if !x.literal[name] {
		x.busy[name] = true
		v = x.expand(v)
		delete(x.busy, name)
	}
	x.done[name] = v
	return v
}

// lookup is a reference's value: the environment's, else the file's.
func (x *dotenvExpander) lookup(name string) string {
	if x.getenv != nil {
		if s := x.getenv(name); s != "" {
			return s
		}
	}
	return x.value(name)
}

// expand expands the $NAME and ${NAME} references in v.
func (x *dotenvExpander) expand(v string) string {
	if !strings.Contains(v, "$") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v) && v[i+1] == '$':
			b.WriteByte('$')
			i++
		case c == '$' && i+1 < len(v) && v[i+1] == '{':
			end := strings.IndexByte(v[i+2:], '}')
			if end < 0 {
				b.WriteString(v[i:])
				return b.String()
			}
			name, def, hasDef := strings.Cut(v[i+2:i+2+end], ":-")
			s := x.lookup(name)
			if s == "" && hasDef {
				s = def
			}
			b.WriteString(s)
			i += 2 + end
		case c == '$' && i+1 < len(v) && isEnvNameByte(v[i+1], true):
			j := i + 1
			for j < len(v) && isEnvNameByte(v[j], false) {
				j++
			}
			b.WriteString(x.lookup(v[i+1 : j]))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isEnvNameByte(c byte, first bool) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || !first && c >= '0' && c <= '9'
}
