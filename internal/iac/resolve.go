package iac

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// resolver resolves CloudFormation's intrinsic functions.
type resolver struct {
	opts       Options
	resources  map[string]any
	params     map[string]any // parameter name: its value (Default, or Options.Parameters)
	mappings   map[string]any
	tableNames map[string]string // logical id: table name
	attr       func(logicalID, name string) (string, error)
}

// noValue stands for AWS::NoValue: the property it is the value of is
// removed.
type noValue struct{}

func (r *resolver) readParameters(top map[string]any) error {
	r.params = map[string]any{}
	ps, _ := top["Parameters"].(map[string]any)
	for name, p := range ps {
		if v, ok := r.opts.Parameters[name]; ok {
			r.params[name] = v
			continue
		}
		pm, _ := p.(map[string]any)
		if d, ok := pm["Default"]; ok {
			r.params[name] = d
		}
	}
	return nil
}

// pseudo is the value of a pseudo parameter.
func (r *resolver) pseudo(name string) (any, bool) {
	switch name {
	case "AWS::Region":
		return r.opts.Region, true
	case "AWS::AccountId":
		return AccountID, true
	case "AWS::StackName":
		return r.opts.StackName, true
	case "AWS::StackId":
		return "arn:aws:cloudformation:" + r.opts.Region + ":" + AccountID + ":stack/" + r.opts.StackName + "/local", true
	case "AWS::Partition":
		return "aws", true
	case "AWS::URLSuffix":
		return "amazonaws.com", true
	case "AWS::NoValue":
		return noValue{}, true
	}
	return nil, false
}

// ref resolves Ref name.
func (r *resolver) ref(name, at string) (any, error) {
	if v, ok := r.pseudo(name); ok {
		return v, nil
	}
	if v, ok := r.params[name]; ok {
		return v, nil
	}
	if n, ok := r.tableNames[name]; ok {
		return n, nil
	}
	if _, ok := r.resources[name]; ok {
		return nil, fmt.Errorf("%s: Ref %s: a resource that is not a DynamoDB table has no value here", at, name)
	}
	return nil, fmt.Errorf("%s: Ref %s: no parameter with a Default, pseudo parameter or table of that name", at, name)
}

// resolve returns v with its intrinsic functions resolved; at names
// where v is, for errors.
func (r *resolver) resolve(v any, at string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			for k, arg := range x {
				if k == "Ref" || strings.HasPrefix(k, "Fn::") || k == "Condition" {
					return r.intrinsic(k, arg, at)
				}
			}
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			rv, err := r.resolve(e, at+"."+k)
			if err != nil {
				return nil, err
			}
			if _, drop := rv.(noValue); !drop {
				out[k] = rv
			}
		}
		return out, nil
	case []any:
		out := make([]any, 0, len(x))
		for i, e := range x {
			rv, err := r.resolve(e, at+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return nil, err
			}
			if _, drop := rv.(noValue); !drop {
				out = append(out, rv)
			}
		}
		return out, nil
	}
	return v, nil
}

// intrinsic resolves the intrinsic function fn of argument arg, at at.
func (r *resolver) intrinsic(fn string, arg any, at string) (any, error) {
	at = at + "." + fn
	switch fn {
	case "Ref":
		name, ok := arg.(string)
		if !ok {
			return nil, fmt.Errorf("%s: want a name", at)
		}
		return r.ref(name, at)
	case "Fn::Sub":
		return r.sub(arg, at)
	case "Fn::Join":
		return r.join(arg, at)
	case "Fn::Select":
		return r.selectOf(arg, at)
	case "Fn::Split":
		return r.split(arg, at)
	case "Fn::FindInMap":
		return r.findInMap(arg, at)
	case "Fn::GetAtt":
		return r.getAtt(arg, at)
	}
	return nil, fmt.Errorf("%s: an intrinsic function that cannot be resolved locally", at)
}

// list resolves an intrinsic's argument arg, which is a list; false when
// it is not one.
func (r *resolver) list(arg any, at string) ([]any, bool, error) {
	a, err := r.resolve(arg, at)
	if err != nil {
		return nil, false, err
	}
	l, ok := a.([]any)
	return l, ok, nil
}

// join resolves Fn::Join: [delimiter, [values]].
func (r *resolver) join(arg any, at string) (any, error) {
	l, ok, err := r.list(arg, at)
	if err != nil {
		return nil, err
	}
	if !ok || len(l) != 2 {
		return nil, fmt.Errorf("%s: want [delimiter, [values]]", at)
	}
	sep, ok1 := l[0].(string)
	items, ok2 := l[1].([]any)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("%s: want [delimiter, [values]]", at)
	}
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = scalarString(it)
	}
	return strings.Join(parts, sep), nil
}

// selectOf resolves Fn::Select: [index, [values]].
func (r *resolver) selectOf(arg any, at string) (any, error) {
	l, ok, err := r.list(arg, at)
	if err != nil {
		return nil, err
	}
	if !ok || len(l) != 2 {
		return nil, fmt.Errorf("%s: want [index, [values]]", at)
	}
	i, err := strconv.Atoi(scalarString(l[0]))
	items, ok := l[1].([]any)
	if err != nil || !ok || i < 0 || i >= len(items) {
		return nil, fmt.Errorf("%s: index %v out of range", at, l[0])
	}
	return items[i], nil
}

// split resolves Fn::Split: [delimiter, string].
func (r *resolver) split(arg any, at string) (any, error) {
	l, ok, err := r.list(arg, at)
	if err != nil {
		return nil, err
	}
	if !ok || len(l) != 2 {
		return nil, fmt.Errorf("%s: want [delimiter, string]", at)
	}
	sep, ok1 := l[0].(string)
	s, ok2 := l[1].(string)
	if !ok1 || !ok2 || sep == "" {
		return nil, fmt.Errorf("%s: want [delimiter, string]", at)
	}
	var out []any
	for _, p := range strings.Split(s, sep) {
		out = append(out, p)
	}
	return out, nil
}

// findInMap resolves Fn::FindInMap: [map, key, key] in Mappings.
func (r *resolver) findInMap(arg any, at string) (any, error) {
	l, ok, err := r.list(arg, at)
	if err != nil {
		return nil, err
	}
	if !ok || len(l) < 3 {
		return nil, fmt.Errorf("%s: want [map, key, key]", at)
	}
	var cur any = r.mappings
	for _, k := range l[:3] {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: %v not in Mappings", at, l[:3])
		}
		if cur, ok = m[scalarString(k)]; !ok {
			return nil, fmt.Errorf("%s: %v not in Mappings", at, l[:3])
		}
	}
	return cur, nil
}

// getAtt resolves Fn::GetAtt of a table: Arn at once, StreamArn once the
// tables exist (Outputs).
func (r *resolver) getAtt(arg any, at string) (any, error) {
	l, ok := arg.([]any)
	if ok && len(l) == 1 {
		if s, isStr := l[0].(string); isStr {
			a, b, _ := strings.Cut(s, ".")
			l = []any{a, b}
		}
	}
	if !ok || len(l) != 2 {
		return nil, fmt.Errorf("%s: want [LogicalId, Attribute]", at)
	}
	id, _ := l[0].(string)
	attr, err := r.resolve(l[1], at)
	if err != nil {
		return nil, err
	}
	name, isTable := r.tableNames[id]
	if !isTable {
		return nil, fmt.Errorf("%s: %s.%v: not a DynamoDB table of the template", at, id, attr)
	}
	switch attr {
	case "Arn":
		return "arn:aws:dynamodb:" + r.opts.Region + ":" + AccountID + ":table/" + name, nil
	case "StreamArn":
		if r.attr == nil {
			return nil, fmt.Errorf("%s: %s.StreamArn: known only once the table exists (in Outputs)", at, id)
		}
		return r.attr(id, "StreamArn")
	}
	return nil, fmt.Errorf("%s: %s.%v: an attribute that cannot be resolved locally", at, id, attr)
}

// sub resolves Fn::Sub: "text ${Name} ${Res.Attr} ${!Literal}" or
// [text, {Name: value}].
func (r *resolver) sub(arg any, at string) (any, error) {
	text, vars := "", map[string]any{}
	switch a := arg.(type) {
	case string:
		text = a
	case []any:
		if len(a) != 2 {
			return nil, fmt.Errorf("%s: want a string or [string, {variables}]", at)
		}
		s, ok := a[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s: want a string", at)
		}
		text = s
		m, _ := a[1].(map[string]any)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v, err := r.resolve(m[k], at+"."+k)
			if err != nil {
				return nil, err
			}
			vars[k] = v
		}
	default:
		return nil, fmt.Errorf("%s: want a string or [string, {variables}]", at)
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "${")
		if i < 0 {
			b.WriteString(text)
			return b.String(), nil
		}
		b.WriteString(text[:i])
		end := strings.IndexByte(text[i:], '}')
		if end < 0 {
			return nil, fmt.Errorf("%s: an unclosed ${", at)
		}
		name := text[i+2 : i+end]
		text = text[i+end+1:]
		if strings.HasPrefix(name, "!") {
			b.WriteString("${" + name[1:] + "}")
			continue
		}
		var v any
		var err error
		if vv, ok := vars[name]; ok {
			v = vv
		} else if id, attr, dotted := strings.Cut(name, "."); dotted && !strings.HasPrefix(name, "AWS::") {
			v, err = r.getAtt([]any{id, attr}, at)
		} else {
			v, err = r.ref(name, at)
		}
		if err != nil {
			return nil, err
		}
		b.WriteString(scalarString(v))
	}
}

// scalarString is v as a string (numbers as CloudFormation writes them).
func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
