package tools

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
)

// sh and bash: enough of a POSIX shell for the health checks of compose
// files ("CMD-SHELL" and "sh -c" forms), Docker's --health-cmd and the
// ready.d scripts LocalStack users write:
// simple commands joined by ||, && and ;, words in single or double
// quotes, $VAR, ${VAR} and ${VAR:-default}, output redirected to a file
// or /dev/null (>, >>, 2>, 2>&1, &>), and the builtins exit, true, false,
// ":" and echo. curl and wget run in the process (fetch.go); other
// commands are looked up on PATH. No pipes, loops, conditionals or
// globbing: a script that needs them needs a real shell.

// errShellSyntax is a command line this sh does not take.
var errShellSyntax = errors.New("syntax this sh does not take")

// shellCannotRun is the exit status of a command line this sh does not
// take: 126, "found but cannot be executed", what a container engine
// reports when an image has no usable shell. Tools that probe with
// "sh -c" then fall back as they do for a shell-less image:
// testcontainers' port check (wait.ForListeningPort), whose subshell and
// pipes this sh does not run, skips its check from inside the container
// on 126 or 127 and waits forever on any other status. Any status but 0
// is a failed health check, so compose's checks see no difference.
const shellCannotRun = 126

// runShell is "sh -c COMMANDS" or "sh FILE"; it returns the exit status.
func runShell(args []string, stdout, stderr io.Writer) int {
	var src string
	switch {
	case len(args) >= 2 && args[0] == "-c":
		src = args[1]
	case len(args) >= 1 && !strings.HasPrefix(args[0], "-"):
		b, err := os.ReadFile(args[0])
		if err != nil {
			fprintln(stderr, "sh:", err)
			return 127
		}
		src = string(b)
	default:
		fprintln(stderr, "sh: dynamoemu's sh runs \"sh -c COMMANDS\" or \"sh FILE\" (docs/containers.md)")
		return 2
	}
	status := 0
	for _, line := range shellLines(src) {
		code, exit, err := runShellLine(line, stdout, stderr)
		if err != nil {
			fprintf(stderr, "sh: %v\n", err)
			return shellCannotRun
		}
		status = code
		if exit {
			break
		}
	}
	return status
}

// shellLines splits src into lines, joining those that end with a
// backslash and dropping comments and blank lines.
func shellLines(src string) []string {
	var lines []string
	var cur strings.Builder
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.HasSuffix(l, "\\") {
			cur.WriteString(strings.TrimSuffix(l, "\\"))
			continue
		}
		cur.WriteString(l)
		if t := strings.TrimSpace(cur.String()); t != "" && !strings.HasPrefix(t, "#") {
			lines = append(lines, t)
		}
		cur.Reset()
	}
	if t := strings.TrimSpace(cur.String()); t != "" && !strings.HasPrefix(t, "#") {
		lines = append(lines, t)
	}
	return lines
}

// shellToken is a word or an operator (||, &&, ;, or a redirection).
type shellToken struct {
	text string
	op   bool
}

// shellTokens splits line into words and operators, expanding variables
// with getenv outside single quotes.
func shellTokens(line string, getenv func(string) string) ([]shellToken, error) {
	var toks []shellToken
	var word strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, shellToken{text: word.String()})
			word.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			return toks, nil // a comment
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, errorf("%w: unterminated '", errShellSyntax)
			}
			word.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			n, err := doubleQuoted(line[i:], getenv, &word)
			if err != nil {
				return nil, err
			}
			i += n - 1
			inWord = true
		case c == '\\' && i+1 < len(line):
			i++
			word.WriteByte(line[i])
			inWord = true
		case c == '$':
			v, n := expandVar(line[i:], getenv)
			word.WriteString(v)
			i += n - 1
			inWord = true
		case shellOperator(line[i:]) != "":
			op := shellOperator(line[i:])
			if op == ">" && inWord && word.String() == "1" { // 1>
				word.Reset()
				inWord = false
			}
			flush()
			toks = append(toks, shellToken{text: op, op: true})
			i += len(op) - 1
		case c == '|' || c == '&' || c == '<' || c == '(' || c == ')' || c == '`':
			return nil, errorf("%w: %q (pipes, background jobs, input redirection, subshells)", errShellSyntax, string(c))
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return toks, nil
}

// shellOperators are the operators shellTokens takes, each before any
// it starts with.
var shellOperators = []string{"||", "&&", ";", "2>&1", "&>", "2>", ">>", ">"}

// shellOperator returns the operator s starts with, or "".
func shellOperator(s string) string {
	for _, op := range shellOperators {
		if strings.HasPrefix(s, op) {
			return op
		}
	}
	return ""
}

// doubleQuoted appends to word the text of the double-quoted string s
// starts with, expanding variables and \ escapes of " \ $ and `, and
// says how many bytes it took, quotes included.
func doubleQuoted(s string, getenv func(string) string, word *strings.Builder) (int, error) {
	i := 1
	for ; i < len(s) && s[i] != '"'; i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0:
			i++
			word.WriteByte(s[i])
		case s[i] == '$':
			v, n := expandVar(s[i:], getenv)
			word.WriteString(v)
			i += n - 1
		default:
			word.WriteByte(s[i])
		}
	}
	if i == len(s) {
		return 0, errorf("%w: unterminated \"", errShellSyntax)
	}
	return i + 1, nil
}

// expandVar expands the variable at the start of s ("$NAME", "${NAME}",
// "${NAME:-default}", "$?" as 0) and says how many bytes it took.
func expandVar(s string, getenv func(string) string) (string, int) {
	if len(s) < 2 {
		return "$", 1
	}
	if s[1] == '{' {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return s, len(s)
		}
		name, def, hasDef := strings.Cut(s[2:end], ":-")
		v := getenv(name)
		if v == "" && hasDef {
			v = def
		}
		return v, end + 1
	}
	n := 1
	for n < len(s) && (s[n] == '_' || s[n] >= 'a' && s[n] <= 'z' || s[n] >= 'A' && s[n] <= 'Z' || n > 1 && s[n] >= '0' && s[n] <= '9') {
		n++
	}
	if n == 1 {
		return "$", 1
	}
	return getenv(s[1:n]), n
}

// runShellLine runs one line; exit reports an exit builtin.
func runShellLine(line string, stdout, stderr io.Writer) (status int, exit bool, err error) {
	toks, err := shellTokens(line, os.Getenv)
	if err != nil {
		return 0, false, err
	}
	var cmd []shellToken
	op := ";" // how the next command is joined to the previous
	run := func() error {
		if len(cmd) == 0 {
			return errorf("%w: a missing command near %q", errShellSyntax, op)
		}
		skip := op == "||" && status == 0 || op == "&&" && status != 0
		if !skip {
			status, exit, err = runSimpleCommand(cmd, stdout, stderr)
		}
		cmd = nil
		return err
	}
	for _, t := range toks {
		if exit {
			return status, true, nil
		}
		if t.op && (t.text == "||" || t.text == "&&" || t.text == ";") {
			if t.text == ";" && len(cmd) == 0 {
				continue
			}
			if err := run(); err != nil {
				return status, exit, err
			}
			op = t.text
			continue
		}
		cmd = append(cmd, t)
	}
	if len(cmd) > 0 && !exit {
		if err := run(); err != nil {
			return status, exit, err
		}
	}
	return status, exit, nil
}

// runSimpleCommand runs one command with its redirections.
func runSimpleCommand(toks []shellToken, stdout, stderr io.Writer) (int, bool, error) {
	var words []string
	out, errw := stdout, stderr
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.op {
			words = append(words, t.text)
			continue
		}
		if t.text == "2>&1" {
			errw = out
			continue
		}
		if i+1 == len(toks) || toks[i+1].op {
			return 0, false, errorf("%w: %s without a file", errShellSyntax, t.text)
		}
		i++
		flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if t.text == ">>" {
			flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		var w io.Writer = io.Discard
		if toks[i].text != "/dev/null" {
			f, err := os.OpenFile(toks[i].text, flags, 0o644)
			if err != nil {
				fprintln(stderr, "sh:", err)
				return 1, false, nil
			}
			files = append(files, f)
			w = f
		}
		switch t.text {
		case ">", ">>":
			out = w
		case "2>":
			errw = w
		case "&>":
			out, errw = w, w
		}
	}
	if len(words) == 0 {
		return 0, false, nil
	}
	switch name := words[0]; name {
	case "exit":
		code := 0
		if len(words) > 1 {
			n, err := strconv.Atoi(words[1])
			if err != nil {
				return 0, false, errorf("exit: %q is not a number", words[1])
			}
			code = n & 0xff
		}
		return code, true, nil
	case "true", ":":
		return 0, false, nil
	case "false":
		return 1, false, nil
	case "echo":
		fprintln(out, strings.Join(words[1:], " "))
		return 0, false, nil
	}
	switch commandName(words[0]) {
	case "curl":
		return runCurl(words[1:], out, errw), false, nil
	case "wget":
		return runWget(words[1:], out, errw), false, nil
	}
	path, err := lookPath(words[0])
	if err != nil {
		fprintf(errw, "sh: %s: not found\n", words[0])
		return 127, false, nil
	}
	code, err := run(path, words[1:], out, errw)
	if err != nil {
		fprintf(errw, "sh: %s: %v\n", words[0], err)
		return 126, false, nil
	}
	return code, false, nil
}
