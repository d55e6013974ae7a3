package iac

import (
	"errors"
	"fmt"
	"os"
	"sort"
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

// slsRead is a serverless.yml's resources: section as a CloudFormation
// document, and what reading it took.
type slsRead struct {
	cfn     map[string]any
	opts    Options  // Region and Getenv as the file sets them
	dotenv  string   // the .env file read, or ""
	dropped []string // outputs left out: "resources.Outputs.NAME...: why"
}

// readServerless resolves the variables of what -load reads of a
// serverless.yml, and only those, as the Serverless Framework would:
// the DynamoDB tables of resources.Resources (and what they refer to
// with ${self:...}), the other resources' Type, resources' Parameters,
// Mappings and Conditions, provider.stage and provider.region. A
// variable elsewhere (a function's stream ARN from .env, a plugin's
// settings) is never read, so one without a value is no error; an
// output that does not resolve is left out. With useDotenv: true and
// Options.Dir, .env.STAGE or .env there (DotenvFile, ReadDotenv) fills
// what the environment leaves unset.
func readServerless(top map[string]any, o Options) (*slsRead, error) {
	out := &slsRead{opts: o}
	s := &slsResolver{top: top, opts: o}
	if use, _ := top["useDotenv"].(bool); use && o.Dir != "" {
		st, err := s.stage("")
		if err != nil {
			return nil, err
		}
		file := DotenvFile(o.Dir, scalarString(st))
		vars, err := ReadDotenv(file, o.Getenv)
		if err != nil {
			return nil, fmt.Errorf("serverless: useDotenv: %w", err)
		}
		if _, err := os.Stat(file); err == nil {
			env := o.Getenv
			s.opts.Getenv = func(k string) string {
				if v := env(k); v != "" {
					return v
				}
				return vars[k]
			}
			out.dotenv = file
		}
	}
	if o.Region == "" {
		r, err := s.region("")
		if err != nil {
			return nil, err
		}
		if r, ok := r.(string); ok {
			out.opts.Region = r
		}
		s.opts.Region = out.opts.Region
	}
	res, ok := top["resources"].(map[string]any)
	if !ok || res["Resources"] == nil {
		return nil, errors.New("serverless: resources: has no Resources")
	}
	out.cfn = map[string]any{}
	for k, v := range res {
		at := "resources." + k
		switch k {
		case "Resources":
			rs, ok := v.(map[string]any)
			if !ok {
				return nil, errors.New("the template's Resources is not a mapping")
			}
			cfn := make(map[string]any, len(rs))
			for id, r := range rs {
				rm, ok := r.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("resource %s: not a mapping", id)
				}
				typ, err := s.walk(rm["Type"], at+"."+id+".Type")
				if err != nil {
					return nil, err
				}
				if t, _ := typ.(string); !isTableType(t) {
					cfn[id] = map[string]any{"Type": typ}
					continue
				}
				if cfn[id], err = s.walk(rm, at+"."+id); err != nil {
					return nil, err
				}
			}
			out.cfn[k] = cfn
		case "Outputs":
			os, _ := v.(map[string]any)
			cfn := make(map[string]any, len(os))
			for name, o := range os {
				rv, err := s.walk(o, at+"."+name)
				if err != nil {
					out.dropped = append(out.dropped, err.Error())
					continue
				}
				cfn[name] = rv
			}
			out.cfn[k] = cfn
		default:
			rv, err := s.walk(v, at)
			if err != nil {
				return nil, err
			}
			out.cfn[k] = rv
		}
	}
	sort.Strings(out.dropped)
	return out, nil
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
