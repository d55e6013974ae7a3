package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool: its name, its description for an agent, its input schema, and
// whether it changes anything (refused read-only). Every tool's result
// is JSON text; a bad input, a refusal or an error DynamoDB answered is a
// tool error (IsError) whose text says what was wrong, and changes
// nothing (DynamoDB validates a request whole before it writes).

// tool is one tool of the server.
type tool struct {
	name   string
	title  string
	desc   string
	schema schema
	// write: the tool changes data or the emulator's state; a read-only
	// server refuses it. destructive: it may delete or overwrite.
	write, destructive bool
	// session: the tool changes the session (enable_tools lists more
	// tools), not data: not read-only, and a read-only server runs it.
	session bool
	// dynamicWrite, when set, says from its arguments whether a call
	// writes (a PartiQL statement): a read-only server refuses those.
	dynamicWrite func(args json.RawMessage) bool
	run          func(ctx context.Context, args json.RawMessage) (any, error)
}

// errReadOnly refuses a write tool on a read-only server.
var errReadOnly = errors.New("this MCP server is read-only (-readOnly): tools that change data or the emulator's state are refused")

// inputError is a tool input that is not what the tool takes.
type inputError struct{ msg string }

func (e *inputError) Error() string { return e.msg }

func inputErrorf(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// add registers t with the SDK server.
func (s *Server) add(t *tool) {
	s.tools = append(s.tools, t)
	destructive := t.destructive
	openWorld := false
	s.sdk.AddTool(&sdk.Tool{
		Name:        t.name,
		Title:       t.title,
		Description: t.desc,
		InputSchema: t.schema.json(),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: !t.write && !t.session && t.dynamicWrite == nil, DestructiveHint: &destructive, OpenWorldHint: &openWorld},
	}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return s.call(ctx, t, req.Params.Arguments), nil
	})
}

// call runs one tool call and turns its outcome into a result.
func (s *Server) call(ctx context.Context, t *tool, args json.RawMessage) *sdk.CallToolResult {
	if t.write && s.opts.ReadOnly {
		return errorResult(fmt.Errorf("%s: %w", t.name, errReadOnly))
	}
	args = bytes.TrimSpace(args)
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if args[0] != '{' {
		return errorResult(inputErrorf("%s takes an object of arguments, not %s", t.name, args))
	}
	if err := t.schema.check(args); err != nil {
		return errorResult(fmt.Errorf("%s: %w", t.name, err))
	}
	if t.dynamicWrite != nil && s.opts.ReadOnly && t.dynamicWrite(args) {
		return errorResult(fmt.Errorf("%s: a statement that writes: %w", t.name, errReadOnly))
	}
	out, err := t.run(ctx, args)
	if err != nil {
		s.opts.Logger.Debug("mcp tool failed", "tool", t.name, "err", err)
		return errorResult(err)
	}
	var text []byte
	switch v := out.(type) {
	case fitted:
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(v)}}}
	case json.RawMessage:
		text = v
	case string:
		text = []byte(v)
	default:
		if text, err = json.Marshal(emptyLists(reflect.ValueOf(v)).Interface()); err != nil {
			return errorResult(err)
		}
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s.capText(string(text))}}}
}

// emptyLists returns a copy of v in which every nil slice (but a []byte,
// and below a json.Marshaler, which writes itself) is an empty one, so
// that a tool's list with nothing in it is [] in its answer, as
// DynamoDB's own answers have it, never null. Maps and pointers are
// copied where something below them changes: v may be shared.
func emptyLists(v reflect.Value) reflect.Value {
	if !v.IsValid() || v.Type().Implements(marshalerType) {
		return v
	}
	switch v.Kind() {
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v
		}
		if v.IsNil() {
			return reflect.MakeSlice(v.Type(), 0, 0)
		}
		if !mayHoldLists(v.Type().Elem()) {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(emptyLists(v.Index(i)))
		}
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(emptyLists(v.Field(i)))
			}
		}
		return c
	case reflect.Pointer:
		if v.IsNil() || !mayHoldLists(v.Type().Elem()) {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(emptyLists(v.Elem()))
		return c
	case reflect.Map:
		if v.IsNil() || !mayHoldLists(v.Type().Elem()) {
			return v
		}
		c := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			c.SetMapIndex(it.Key(), emptyLists(it.Value()))
		}
		return c
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type()).Elem()
		c.Set(emptyLists(v.Elem()))
		return c
	}
	return v
}

// marshalerType is json.Marshaler's type.
var marshalerType = reflect.TypeFor[json.Marshaler]()

// mayHoldLists reports whether a value of type t may hold a slice
// emptyLists changes.
func mayHoldLists(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Struct, reflect.Pointer, reflect.Map, reflect.Interface:
		return !t.Implements(marshalerType)
	}
	return false
}

// errorResult is a tool error whose text is err's. An error DynamoDB
// answered carries its type, message and whether the same call may
// succeed if made again after a wait ("retryable"), as structured
// content and, when it may, in the text too.
func errorResult(err error) *sdk.CallToolResult {
	text := err.Error()
	var structured any
	var ae *apiError
	if errors.As(err, &ae) {
		retry := ae.retryable()
		structured = map[string]any{"error": map[string]any{"type": ae.Type, "message": ae.Message, "retryable": retry}}
		if retry {
			text += "\nretryable: the same call may succeed if made again after a short wait (DynamoDB's SDKs retry this error with backoff)"
		}
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: structured}
}

// capText cuts a result over MaxBytes, saying so. Results of items are
// capped item by item before (caps.go); this is the net for the others.
func (s *Server) capText(text string) string {
	if len(text) <= s.opts.MaxBytes {
		return text
	}
	cut := s.opts.MaxBytes - 200
	for cut > 0 && cut < len(text) && text[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	return text[:cut] + fmt.Sprintf("\n... (cut: the result is %d bytes, over the server's cap of %d; ask for less)", len(text), s.opts.MaxBytes)
}

// schema is a tool's input schema: an object's properties.
type schema struct {
	props    []prop
	required []string
	// more are members taken without a description (a DynamoDB request's
	// rarer members, opSchema); any other member is an input error.
	more []string
}

// prop is one property of an input schema.
type prop struct {
	name, typ, desc string
	enum            []string
}

// json renders s as JSON Schema.
func (s schema) json() map[string]any {
	props := map[string]any{}
	for _, p := range s.props {
		m := map[string]any{}
		if p.desc != "" {
			m["description"] = p.desc
		}
		if p.typ != "" {
			m["type"] = p.typ
		}
		if len(p.enum) > 0 {
			m["enum"] = p.enum
		}
		props[p.name] = m
	}
	for _, n := range s.more {
		props[n] = map[string]any{}
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(s.required) > 0 {
		out["required"] = s.required
	}
	return out
}

// names lists the members s takes.
func (s schema) names() []string {
	var known []string
	for _, p := range s.props {
		known = append(known, p.name)
	}
	return append(known, s.more...)
}

// check checks args against s: no unknown member (the error names the
// nearest one s takes), required members present, each described member
// of its JSON type.
func (s schema) check(args json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return inputErrorf("the arguments are not a JSON object: %v", err)
	}
	known := s.names()
	for _, name := range sortedNames(m) {
		if slices.Contains(known, name) {
			continue
		}
		if len(known) == 0 {
			return inputErrorf("unknown argument %q: this tool takes no arguments", name)
		}
		if tool, ok := memberTool(name); ok {
			return inputErrorf("unknown argument %q: this tool takes no %s; the %s tool does. Nothing was done (this tool takes: %s)", name, name, tool, strings.Join(known, ", "))
		}
		if near, ok := nearest(name, known); ok {
			return inputErrorf("unknown argument %q: did you mean %q? Nothing was done (this tool takes: %s)", name, near, strings.Join(known, ", "))
		}
		return inputErrorf("unknown argument %q: nothing was done (this tool takes: %s)", name, strings.Join(known, ", "))
	}
	for _, r := range s.required {
		if _, ok := m[r]; !ok {
			return inputErrorf("missing argument %q", r)
		}
	}
	for name, raw := range m {
		i := slices.IndexFunc(s.props, func(p prop) bool { return p.name == name })
		if i < 0 {
			continue // one of more: DynamoDB checks it
		}
		p := s.props[i]
		if got := jsonType(raw); p.typ != "" && got != p.typ && !(p.typ == "number" && got == "integer") && !(p.typ == "integer" && got == "number" && isWhole(raw)) {
			return inputErrorf("argument %q is %s, want %s", name, got, p.typ)
		}
		if len(p.enum) > 0 {
			var v string
			_ = json.Unmarshal(raw, &v)
			ok := false
			for _, e := range p.enum {
				ok = ok || e == v
			}
			if !ok {
				return inputErrorf("argument %q is %s, want one of %s", name, raw, strings.Join(p.enum, ", "))
			}
		}
	}
	return nil
}

// jsonType names raw's JSON Schema type.
func jsonType(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	if isWhole(t) {
		return "integer"
	}
	return "number"
}

// isWhole reports whether raw is a JSON number without fraction or
// exponent.
func isWhole(raw json.RawMessage) bool {
	return !bytes.ContainsAny(raw, ".eE")
}

// decode decodes a tool's arguments into v (after check).
func decode(args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return inputErrorf("bad arguments: %v", err)
	}
	return nil
}
