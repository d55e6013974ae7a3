package iac

import (
	"fmt"
	"strconv"
	"strings"
)

// serverless.yml's variables: ${source:address} with an optional
// fallback after a comma (${env:TABLE, 'orders'}). ${...} that names no
// source (CloudFormation's ${AWS::Region} in a !Sub) is left alone.

// slsSource reports whether src is a variable source serverless knows;
// those resolved here are env, self, opt, sls and aws.
func slsSource(src string) bool {
	switch src {
	case "env", "self", "opt", "sls", "aws", "file", "ssm", "cf", "s3", "param", "git", "strToBool":
		return true
	}
	return false
}

type slsResolver struct {
	top   map[string]any
	opts  Options
	depth int
}

func resolveServerless(top map[string]any, o Options) (any, error) {
	s := &slsResolver{top: top, opts: o}
	return s.walk(top, "")
}

func (s *slsResolver) walk(v any, at string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			rv, err := s.walk(e, joinPath(at, k))
			if err != nil {
				return nil, err
			}
			out[k] = rv
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			rv, err := s.walk(e, at+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			out[i] = rv
		}
		return out, nil
	case string:
		return s.str(x, at)
	}
	return v, nil
}

func joinPath(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// str resolves the variables of one string. A string that is one
// variable takes the variable's value, whatever its type.
func (s *slsResolver) str(in, at string) (any, error) {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > 20 {
		return nil, fmt.Errorf("serverless: %s: variables nest or refer to each other too deep", at)
	}
	var b strings.Builder
	rest := in
	for {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		end := closing(rest, i+2)
		if end < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		inner := rest[i+2 : end]
		if !s.isVariable(inner) {
			b.WriteString(rest[:end+1])
			rest = rest[end+1:]
			continue
		}
		// Resolve variables nested in the address first.
		innerV, err := s.str(inner, at)
		if err != nil {
			return nil, err
		}
		v, err := s.variable(fmt.Sprint(innerV), at)
		if err != nil {
			return nil, err
		}
		if i == 0 && end == len(rest)-1 && b.Len() == 0 {
			return v, nil
		}
		b.WriteString(rest[:i])
		b.WriteString(scalarString(v))
		rest = rest[end+1:]
	}
}

// closing is the index of the } closing the ${ whose content starts at
// from, or -1.
func closing(s string, from int) int {
	depth := 1
	for j := from; j < len(s); j++ {
		switch {
		case strings.HasPrefix(s[j:], "${"):
			depth++
			j++
		case s[j] == '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// isVariable reports whether the content of ${...} is serverless'.
func (s *slsResolver) isVariable(inner string) bool {
	inner = strings.TrimSpace(inner)
	if strings.HasPrefix(inner, "file(") {
		return true
	}
	src, _, ok := strings.Cut(inner, ":")
	return ok && slsSource(src) && !strings.HasPrefix(inner, src+"::")
}

// variable resolves "source:address[, fallback]".
func (s *slsResolver) variable(inner, at string) (any, error) {
	ref, fallback, hasFallback := cutTopComma(inner)
	ref = strings.TrimSpace(ref)
	v, err := s.source(ref, at)
	if err != nil {
		return nil, err
	}
	if v != nil && v != "" {
		return v, nil
	}
	if !hasFallback {
		return nil, fmt.Errorf("serverless: %s: ${%s} has no value and no fallback", at, inner)
	}
	fallback = strings.TrimSpace(fallback)
	if len(fallback) >= 2 && (fallback[0] == '\'' || fallback[0] == '"') && fallback[len(fallback)-1] == fallback[0] {
		return fallback[1 : len(fallback)-1], nil
	}
	if n, err := strconv.ParseFloat(fallback, 64); err == nil {
		return n, nil
	}
	if s.isVariable(fallback) {
		return s.variable(fallback, at)
	}
	return fallback, nil
}

// cutTopComma splits at the first comma not inside quotes.
func cutTopComma(s string) (string, string, bool) {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ',':
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func (s *slsResolver) source(ref, at string) (any, error) {
	if strings.HasPrefix(ref, "file(") {
		return nil, fmt.Errorf("serverless: %s: ${%s}: file variables are not read", at, ref)
	}
	src, addr, _ := strings.Cut(ref, ":")
	addr = strings.TrimSpace(addr)
	switch src {
	case "env":
		return s.opts.Getenv(addr), nil
	case "self":
		return s.self(addr, at)
	case "opt":
		return nil, nil // no command-line options here: the fallback, if any
	case "sls":
		if addr == "stage" {
			return s.stage(at)
		}
	case "aws":
		switch addr {
		case "region":
			return s.region(at)
		case "accountId":
			return AccountID, nil
		}
	}
	return nil, fmt.Errorf("serverless: %s: ${%s}: a variable source that is not resolved locally", at, ref)
}

func (s *slsResolver) stage(at string) (any, error) {
	if p, ok := s.top["provider"].(map[string]any); ok && p["stage"] != nil {
		return s.walk(p["stage"], "provider.stage")
	}
	return "dev", nil
}

func (s *slsResolver) region(at string) (any, error) {
	if p, ok := s.top["provider"].(map[string]any); ok && p["region"] != nil {
		return s.walk(p["region"], "provider.region")
	}
	return s.opts.Region, nil
}

// self looks addr (a.b.c) up in the file, resolving what it finds.
func (s *slsResolver) self(addr, at string) (any, error) {
	var cur any = s.top
	if addr == "" {
		return nil, fmt.Errorf("serverless: %s: ${self:} names the whole file", at)
	}
	for _, k := range strings.Split(addr, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, nil
		}
		if cur, ok = m[k]; !ok {
			return nil, nil
		}
	}
	return s.walk(cur, addr)
}
