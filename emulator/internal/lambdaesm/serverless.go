package lambdaesm

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v4"

	"github.com/dynamoemu/dynamoemu/internal/iac"
)

// A Serverless Framework service file (serverless.yml) read for its
// DynamoDB stream events: each function's `stream` events become
// mappings to the function as serverless-offline names it
// (`name`, else SERVICE-STAGE-KEY), with the event's settings
// (batchSize, batchWindow, startingPosition, enabled,
// maximumRetryAttempts, maximumRecordAgeInSeconds,
// bisectBatchOnFunctionError, parallelizationFactor,
// functionResponseType, tumblingWindowInSeconds, filterPatterns,
// destinations.onFailure). An event's ARN names its table: the mapping
// follows that table's latest stream by name, so an ARN kept in .env
// from another run (or another emulator) still finds it. ${env:NAME},
// ${env:NAME, 'default'}, ${opt:stage, 'dev'}, ${sls:stage} and
// ${self:path} are resolved; with useDotenv, .env beside the file
// fills variables the environment does not set.

// ServerlessMapping is a mapping read from a service file and where it
// came from.
type ServerlessMapping struct {
	Function string // the function's key in the file
	Spec     Spec
}

// varPattern matches a ${...} variable, built at its first use (not at
// every start of the server).
var varPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([^{}]+)\}`) })

// slsEvent is one DynamoDB stream event of a service file, as read.
type slsEvent struct {
	function string // the function's key
	index    int    // the event's number among the function's events, from 1
	spec     Spec   // with TableName the table its arn names, when it names one
	why      string // why it names no table ("" when it does)
}

// slsFile is what a service file's stream events need: the events and
// the .env file its variables were read from ("": none, without
// useDotenv).
type slsFile struct {
	events []slsEvent
	dotenv string
}

// readServerless reads a service file's DynamoDB stream events. getenv
// looks up the environment (then the .env file, with useDotenv).
func readServerless(path string, getenv func(string) string) (*slsFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f := &slsFile{}
	r := &resolver{doc: doc, env: getenv}
	stage := "dev"
	if p, ok := doc["provider"].(map[string]any); ok {
		if s := r.str(p["stage"]); s != "" {
			stage = s
		}
	}
	if v, _ := doc["useDotenv"].(bool); v {
		f.dotenv = iac.DotenvFile(filepath.Dir(path), stage)
		dot, err := iac.ReadDotenv(f.dotenv, getenv)
		if err != nil {
			return nil, err
		}
		r.env = func(k string) string {
			if v := getenv(k); v != "" {
				return v
			}
			return dot[k]
		}
		if p, ok := doc["provider"].(map[string]any); ok { // the stage may come from .env
			if s := r.str(p["stage"]); s != "" {
				stage = s
			}
		}
	}
	r.stage = stage
	service := r.str(doc["service"])
	if m, ok := doc["service"].(map[string]any); ok {
		service = r.str(m["name"])
	}
	fns, _ := doc["functions"].(map[string]any)
	keys := make([]string, 0, len(fns))
	for k := range fns {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		fn, _ := fns[key].(map[string]any)
		name := r.str(fn["name"])
		if name == "" {
			name = service + "-" + stage + "-" + key
		}
		events, _ := fn["events"].([]any)
		for i, ev := range events {
			em, _ := ev.(map[string]any)
			st, ok := em["stream"]
			if !ok {
				continue
			}
			spec, why := r.streamEvent(st)
			spec.FunctionName = &name
			f.events = append(f.events, slsEvent{function: key, index: i + 1, spec: spec, why: why})
		}
	}
	return f, nil
}

// ParseServerless reads a service file's stream events: the mappings of
// those whose arn names a table, and why each other was left out.
func ParseServerless(path string, getenv func(string) string) (maps []ServerlessMapping, warnings []string, err error) {
	f, err := readServerless(path, getenv)
	if err != nil {
		return nil, nil, err
	}
	for _, ev := range f.events {
		if ev.why != "" {
			warnings = append(warnings, ev.describe(path)+": "+ev.why)
			continue
		}
		maps = append(maps, ServerlessMapping{Function: ev.function, Spec: ev.spec})
	}
	return maps, warnings, nil
}

// describe names the event in a message.
func (ev *slsEvent) describe(path string) string {
	return fmt.Sprintf("%s: function %s, event %d", path, ev.function, ev.index)
}

// streamEvent reads one stream event into a Spec, or says why not.
func (r *resolver) streamEvent(v any) (Spec, string) {
	m, ok := v.(map[string]any)
	if !ok {
		m = map[string]any{"arn": v}
	}
	if t := r.str(m["type"]); t != "" && t != "dynamodb" {
		return Spec{}, "not a DynamoDB stream (type " + t + ")"
	}
	s := Spec{}
	why := ""
	if table := r.tableOf(m["arn"]); table != "" {
		s.TableName = &table
	} else {
		why = "its arn names no table (unset variable, or not a DynamoDB stream ARN)"
	}
	pos := posTrimHorizon // the Serverless Framework's default
	if p := r.str(m["startingPosition"]); p != "" {
		pos = p
	}
	s.StartingPosition = &pos
	ints := map[string]**int64{"batchSize": &s.BatchSize, "batchWindow": &s.MaximumBatchingWindowInSeconds,
		"maximumRetryAttempts": &s.MaximumRetryAttempts, "maximumRecordAgeInSeconds": &s.MaximumRecordAgeInSeconds,
		"parallelizationFactor": &s.ParallelizationFactor, "tumblingWindowInSeconds": &s.TumblingWindowInSeconds}
	for k, dst := range ints {
		if n, ok := r.int(m[k]); ok {
			*dst = &n
		}
	}
	if b, ok := m["enabled"].(bool); ok {
		s.Enabled = &b
	}
	if b, ok := m["bisectBatchOnFunctionError"].(bool); ok {
		s.BisectBatchOnFunctionError = &b
	}
	if t := r.str(m["functionResponseType"]); t != "" {
		s.FunctionResponseTypes = []string{t}
	}
	if fps, ok := m["filterPatterns"].([]any); ok {
		fc := &FilterCriteria{}
		for _, fp := range fps {
			b, err := json.Marshal(fp)
			if err != nil {
				return Spec{}, "a filter pattern is not JSON: " + err.Error()
			}
			p := string(b)
			fc.Filters = append(fc.Filters, Filter{Pattern: &p})
		}
		s.FilterCriteria = fc
	}
	if d, ok := m["destinations"].(map[string]any); ok {
		dest := r.str(d["onFailure"])
		if om, ok := d["onFailure"].(map[string]any); ok {
			dest = r.str(om["arn"])
		}
		if dest != "" {
			s.DestinationConfig = &DestinationConfig{OnFailure: &OnFailure{Destination: &dest}}
		}
	}
	return s, why
}

// tableOf returns the table an event's arn names: a stream ARN's table,
// or the TableName of the resource Fn::GetAtt names.
func (r *resolver) tableOf(v any) string {
	if m, ok := v.(map[string]any); ok {
		ga, _ := m["Fn::GetAtt"].([]any)
		if len(ga) == 0 {
			return ""
		}
		res, _ := r.doc["resources"].(map[string]any)
		all, _ := res["Resources"].(map[string]any)
		rm, _ := all[r.str(ga[0])].(map[string]any)
		props, _ := rm["Properties"].(map[string]any)
		return r.str(props["TableName"])
	}
	arn := r.str(v)
	_, rest, ok := strings.Cut(arn, ":table/")
	if !ok || !strings.HasPrefix(arn, "arn:") {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	return name
}

// resolver resolves a service file's variables.
type resolver struct {
	doc   map[string]any
	env   func(string) string
	stage string
}

// str is a scalar as a string, its variables resolved.
func (r *resolver) str(v any) string {
	switch x := v.(type) {
	case string:
		return r.resolve(x, 0)
	case int, int64, float64, bool:
		return fmt.Sprint(x)
	}
	return ""
}

func (r *resolver) int(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case string:
		var n int64
		_, err := fmt.Sscan(r.resolve(x, 0), &n)
		return n, err == nil
	}
	return 0, false
}

func (r *resolver) resolve(s string, depth int) string {
	if depth > 8 {
		return s
	}
	return varPattern().ReplaceAllStringFunc(s, func(m string) string {
		inner := m[2 : len(m)-1]
		src, def, hasDef := strings.Cut(inner, ",")
		def = strings.Trim(strings.TrimSpace(def), `'"`)
		src = strings.TrimSpace(src)
		var out string
		switch {
		case strings.HasPrefix(src, "env:"):
			out = r.env(strings.TrimPrefix(src, "env:"))
		case src == "opt:stage", src == "sls:stage", src == "self:provider.stage":
			out = r.stage
		case strings.HasPrefix(src, "self:"):
			out = r.self(strings.TrimPrefix(src, "self:"), depth)
		}
		if out == "" && hasDef {
			out = def
		}
		return out
	})
}

// self looks a dotted path up in the file.
func (r *resolver) self(path string, depth int) string {
	var cur any = r.doc
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[part]
	}
	if s, ok := cur.(string); ok {
		return r.resolve(s, depth+1)
	}
	return r.str(cur)
}
