package iac

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v4"
)

// Reading YAML (JSON is YAML too): a document that is not YAML is an
// error naming the line and column where it stops being YAML (yaml v4's
// LoadError carries both; v3's said the line alone), and aliases may not
// expand a document past a small multiple of its own size (an alias bomb:
// nine anchors of ten aliases each are a billion values from a few
// hundred bytes).
//
// The YAML library (decided 2026-11-28): the parsing is
// go.yaml.in/yaml/v4's, the YAML project's own maintained line (the
// successor of gopkg.in/yaml.v3 and go.yaml.in/yaml/v3); only the walk
// from its nodes to plain values is ours (builder.value, below), because
// what no YAML decoder into structs or maps does is CloudFormation's
// short tags (!Ref X, !GetAtt A.B, !Sub ...), which a decoder into
// map[string]any drops or refuses, and the count that bounds alias
// expansion. v4 stays: it is in the server already (`go list -deps
// ./cmd/dynamoemu` lists it; emulator/internal/lambdaesm reads
// serverless.yml's stream events with it), so keeping it costs the
// server no byte (17,408,162 bytes at main b50b3542 with docs/
// containers.md's flags), while a v3 here would link a second YAML
// library beside it and lose the column in its errors (v3's say the
// line alone).

// maxExpansion is how many values a document's aliases may make of each
// byte of it, past a floor: a template that repeats a block by an alias
// a few times is far below it.
const (
	maxExpansion      = 10
	maxExpansionFloor = 100_000
)

// parseYAML reads the first document of src.
func parseYAML(src []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, yamlError(err)
	}
	return &doc, nil
}

// yamlError names a YAML error's line and column.
func yamlError(err error) error {
	var le *yaml.LoadError
	if !errors.As(err, &le) || le.Mark.Line == 0 {
		return fmt.Errorf("not YAML or JSON: %w", err)
	}
	msg := le.Message
	if le.ContextMsg != "" && le.ContextMark.Line != 0 {
		msg += fmt.Sprintf(" (%s at line %d, column %d)", le.ContextMsg, le.ContextMark.Line, le.ContextMark.Column)
	}
	return &SyntaxError{Line: le.Mark.Line, Column: le.Mark.Column, Msg: msg}
}

// SyntaxError is a document that is not YAML (or JSON), and where.
type SyntaxError struct {
	Line, Column int // 1-based
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("not YAML or JSON: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Kind reports which kind of template src is, as Sniff, and why src is
// not read at all: an error naming the line and column where it stops
// being YAML, or where its aliases expand it too far. A document that is
// YAML but not a template is ("", nil).
func Kind(src []byte) (string, error) {
	doc, err := parseYAML(src)
	if err != nil {
		return "", err
	}
	if len(doc.Content) == 0 {
		return "", nil
	}
	b := newBuilder(src)
	v, err := b.value(doc.Content[0], 0)
	if err != nil {
		return "", err
	}
	top, ok := v.(map[string]any)
	if !ok {
		return "", nil
	}
	return kindOf(top), nil
}

// builder turns YAML nodes into plain values, counting what it makes.
type builder struct {
	made, limit int
}

func newBuilder(src []byte) *builder {
	return &builder{limit: maxExpansionFloor + maxExpansion*len(src)}
}

// value turns a YAML node into plain values (map[string]any, []any,
// string, bool, int and float64 as yaml decodes them), rewriting
// CloudFormation's short tags (!Ref X, !GetAtt A.B, !Sub ...) into their
// long forms ({"Ref": X}, {"Fn::GetAtt": [A, B]}, {"Fn::Sub": ...}).
func (b *builder) value(n *yaml.Node, depth int) (any, error) {
	if depth > 100 {
		return nil, fmt.Errorf("line %d, column %d: the document nests too deep", n.Line, n.Column)
	}
	if b.made++; b.made > b.limit {
		return nil, fmt.Errorf("line %d, column %d: the document's aliases expand it past %d values: refused (an alias bomb?)", n.Line, n.Column, b.limit)
	}
	var v any
	switch n.Kind {
	case yaml.AliasNode:
		return b.value(n.Alias, depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d, column %d: a key that is not a scalar", k.Line, k.Column)
			}
			if k.Value == "<<" { // a YAML merge key
				mv, err := b.value(n.Content[i+1], depth+1)
				if err != nil {
					return nil, err
				}
				if mm, ok := mv.(map[string]any); ok {
					for kk, vv := range mm {
						if _, set := m[kk]; !set {
							m[kk] = vv
						}
					}
				}
				continue
			}
			val, err := b.value(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			m[k.Value] = val
		}
		v = m
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			val, err := b.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			s = append(s, val)
		}
		v = s
	case yaml.ScalarNode:
		if strings.HasPrefix(n.Tag, "!!") || n.Tag == "" {
			if err := n.Decode(&v); err != nil {
				return nil, fmt.Errorf("line %d, column %d: %w", n.Line, n.Column, err)
			}
			return v, nil
		}
		v = n.Value
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return b.value(n.Content[0], depth+1)
	default:
		return nil, fmt.Errorf("line %d, column %d: unexpected YAML node", n.Line, n.Column)
	}
	if !strings.HasPrefix(n.Tag, "!") || strings.HasPrefix(n.Tag, "!!") {
		return v, nil
	}
	fn := strings.TrimPrefix(n.Tag, "!")
	switch fn {
	case "Ref", "Condition":
		return map[string]any{fn: v}, nil
	case "GetAtt":
		if s, ok := v.(string); ok {
			a, b, _ := strings.Cut(s, ".")
			v = []any{a, b}
		}
	}
	return map[string]any{"Fn::" + fn: v}, nil
}
