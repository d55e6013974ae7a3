package tools

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// awslocal: LocalStack's wrapper of the AWS CLI. LocalStack's ready.d
// scripts create their tables with "awslocal dynamodb create-table ..."
// (the AWS CLI pointed at LocalStack), and the image has no AWS CLI: when
// none is on PATH, awslocal answers "awslocal dynamodb COMMAND [options]"
// itself. The
// command's options become the operation's JSON input the way the AWS CLI
// reads them (its "Shorthand syntax" and JSON parameter values, file://
// values, --cli-input-json), the request goes to AWS_ENDPOINT_URL (else
// http://localhost:4566), and the answer is printed as the CLI prints JSON,
// or its error as "An error occurred (Type) when calling the Op operation:
// message" with the CLI's exit status 254. Not taken: --query (JMESPath),
// outputs other than json, the wait and other high-level commands.

// awsCLIListParam reports whether a top-level parameter of the DynamoDB
// API takes a list, so that one shorthand value is a list of one.
func awsCLIListParam(name string) bool {
	switch name {
	case "AttributeDefinitions", "KeySchema", "GlobalSecondaryIndexes", "LocalSecondaryIndexes", "Tags", "TagKeys",
		"AttributesToGet", "GlobalSecondaryIndexUpdates", "ReplicaUpdates", "ReplicationGroup", "TransactItems", "Statements":
		return true
	}
	return false
}

// awsCLINumberParam reports whether a top-level parameter takes a number.
func awsCLINumberParam(name string) bool {
	return name == "Limit" || name == "Segment" || name == "TotalSegments"
}

// errAWSCLIUsage is a command line the native awslocal does not take.
var errAWSCLIUsage = errors.New("awslocal")

// awsCLIRequest is an operation and its JSON input, read off the AWS CLI's
// command line "dynamodb COMMAND [options]"; endpoint is --endpoint-url's.
type awsCLIRequest struct {
	op       string
	input    jsonObject
	endpoint string
	region   string
}

// parseAWSCLI reads args ("dynamodb create-table --table-name T ...");
// readFile reads file:// values.
func parseAWSCLI(args []string, readFile func(string) ([]byte, error)) (awsCLIRequest, error) {
	var r awsCLIRequest
	rest, err := r.globalOptions(args)
	if err != nil {
		return r, err
	}
	if len(rest) < 2 || rest[0] != "dynamodb" || strings.HasPrefix(rest[1], "-") {
		return r, errorf("%w: without the AWS CLI only \"awslocal dynamodb COMMAND [options]\" runs", errAWSCLIUsage)
	}
	r.op = pascal(rest[1])
	if r.op == "Wait" {
		return r, errorf("%w: dynamodb wait is not taken without the AWS CLI (tables are ACTIVE at once)", errAWSCLIUsage)
	}
	r.input = jsonObject{}
	opts := rest[2:]
	for i := 0; i < len(opts); i++ {
		o := opts[i]
		if !strings.HasPrefix(o, "--") || len(o) == 2 {
			return r, errorf("%w: %q is not an option", errAWSCLIUsage, o)
		}
		var vals []string
		for i+1 < len(opts) && !strings.HasPrefix(opts[i+1], "--") {
			i++
			vals = append(vals, opts[i])
		}
		if err := r.option(o[2:], vals, readFile); err != nil {
			return r, err
		}
	}
	return r, nil
}

// globalOptions reads the AWS CLI's global options, which may come
// first, into r, and returns the other arguments.
func (r *awsCLIRequest) globalOptions(args []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "--region", "--endpoint-url", "--output", "--profile", "--cli-read-timeout", "--cli-connect-timeout":
			if i+1 == len(args) {
				return nil, errorf("%w: %s needs a value", errAWSCLIUsage, a)
			}
			i++
			switch a {
			case "--region":
				r.region = args[i]
			case "--endpoint-url":
				r.endpoint = args[i]
			case "--output":
				if args[i] != "json" {
					return nil, errorf("%w: --output %s: only json (install the AWS CLI for the others)", errAWSCLIUsage, args[i])
				}
			}
		case "--no-cli-pager", "--no-paginate", "--debug", "--no-verify-ssl", "--no-sign-request":
		case "--query":
			return nil, errorf("%w: --query (JMESPath) is not taken without the AWS CLI", errAWSCLIUsage)
		default:
			rest = append(rest, a)
		}
	}
	return rest, nil
}

// option sets the input's member for the command's option --name with
// the values vals.
func (r *awsCLIRequest) option(name string, vals []string, readFile func(string) ([]byte, error)) error {
	if name == "cli-input-json" {
		return r.inputJSON(vals, readFile)
	}
	param := pascal(name)
	if len(vals) == 0 { // a switch: --consistent-read, --no-consistent-read
		if neg, ok := strings.CutPrefix(name, "no-"); ok {
			r.input.set(pascal(neg), false)
		} else {
			r.input.set(param, true)
		}
		return nil
	}
	var list []any
	for _, s := range vals {
		v, err := awsCLIValue(s, readFile, false)
		if err != nil {
			return errorf("--%s: %w", name, err)
		}
		if str, ok := v.(string); ok && awsCLINumberParam(param) {
			n, err := strconv.ParseInt(str, 10, 64)
			if err != nil {
				return errorf("%w: --%s %q is not a number", errAWSCLIUsage, name, str)
			}
			v = n
		}
		list = append(list, v)
	}
	switch {
	case len(list) > 1:
		r.input.set(param, list)
	case awsCLIListParam(param):
		if l, ok := list[0].([]any); ok {
			r.input.set(param, l)
		} else {
			r.input.set(param, list)
		}
	default:
		r.input.set(param, list[0])
	}
	return nil
}

// inputJSON sets the input's members from --cli-input-json's object.
func (r *awsCLIRequest) inputJSON(vals []string, readFile func(string) ([]byte, error)) error {
	if len(vals) != 1 {
		return errorf("%w: --cli-input-json takes one value", errAWSCLIUsage)
	}
	v, err := awsCLIValue(vals[0], readFile, true)
	if err != nil {
		return errorf("--cli-input-json: %w", err)
	}
	m, ok := v.(jsonObject)
	if !ok {
		return errorf("%w: --cli-input-json is not a JSON object", errAWSCLIUsage)
	}
	for _, x := range m {
		r.input.set(x.key, x.val)
	}
	return nil
}

// pascal is a CLI name in the API's case: create-table is CreateTable.
func pascal(kebab string) string {
	var b strings.Builder
	for _, w := range strings.Split(kebab, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// awsCLIValue is one option value: JSON when it starts with { or [ (or
// whole, with json), file:// the file's text read as a value, a shorthand
// structure when it has a top-level "=", else the string.
func awsCLIValue(s string, readFile func(string) ([]byte, error), jsonOnly bool) (any, error) {
	if path, ok := strings.CutPrefix(s, "file://"); ok {
		b, err := readFile(path)
		if err != nil {
			return nil, err
		}
		s = strings.TrimSpace(string(b))
		jsonOnly = jsonOnly || strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")
	}
	t := strings.TrimSpace(s)
	if jsonOnly || strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		v, err := parseJSON(t)
		if err != nil {
			return nil, errorf("%w: %v", errAWSCLIUsage, err)
		}
		return v, nil
	}
	if !shorthandHasKey(s) {
		return s, nil
	}
	p := shorthand{src: s}
	v, err := p.members(0)
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.src) {
		return nil, p.errorf("unexpected %q", p.src[p.pos:])
	}
	return v, nil
}

// shorthandHasKey reports whether s has an "=" outside brackets: a
// shorthand structure rather than a plain string.
func shorthandHasKey(s string) bool {
	depth := 0
	for _, c := range s {
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '=':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// shorthand parses the AWS CLI's shorthand syntax:
//
//	members = member { "," member }
//	member  = key "=" value
//	value   = "{" members "}" | "[" [ value { "," value } ] "]" | scalar
//
// Scalars are numbers (as JSON writes them), true and false, or strings (quoted with ' or ", or bare up to , ] or }).
type shorthand struct {
	src string
	pos int
}

// shorthandDepth bounds nesting.
const shorthandDepth = 32

func (p *shorthand) errorf(format string, a ...any) error {
	return errorf("%w: shorthand at %d: %s", errAWSCLIUsage, p.pos, sprintf(format, a...))
}

func (p *shorthand) members(depth int) (jsonObject, error) {
	if depth > shorthandDepth {
		return nil, p.errorf("nested too deep")
	}
	m := jsonObject{}
	for {
		start := p.pos
		for p.pos < len(p.src) && p.src[p.pos] != '=' && p.src[p.pos] != ',' && p.src[p.pos] != '}' {
			p.pos++
		}
		key := strings.TrimSpace(p.src[start:p.pos])
		if p.pos == len(p.src) || p.src[p.pos] != '=' || key == "" {
			return nil, p.errorf("want key=value")
		}
		p.pos++ // =
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m.set(key, v)
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		return m, nil
	}
}

func (p *shorthand) value(depth int) (any, error) {
	if depth > shorthandDepth {
		return nil, p.errorf("nested too deep")
	}
	if p.pos == len(p.src) {
		return "", nil
	}
	switch p.src[p.pos] {
	case '{':
		p.pos++
		m, err := p.members(depth)
		if err != nil {
			return nil, err
		}
		if p.pos == len(p.src) || p.src[p.pos] != '}' {
			return nil, p.errorf("want }")
		}
		p.pos++
		return m, nil
	case '[':
		p.pos++
		l := []any{}
		for p.pos < len(p.src) && p.src[p.pos] != ']' {
			var v any
			var err error
			if p.src[p.pos] == '{' || p.src[p.pos] == '[' || !shorthandHasKey(p.elem()) {
				v, err = p.value(depth + 1)
			} else {
				v, err = p.members(depth + 1) // [K=V,K2=V2] is a list of one structure
			}
			if err != nil {
				return nil, err
			}
			l = append(l, v)
			switch {
			case p.pos < len(p.src) && p.src[p.pos] == ',':
				p.pos++
			case p.pos < len(p.src) && p.src[p.pos] != ']':
				return nil, p.errorf("want , or ]")
			}
		}
		if p.pos == len(p.src) {
			return nil, p.errorf("want ]")
		}
		p.pos++
		return l, nil
	case '"', '\'':
		q := p.src[p.pos]
		end := strings.IndexByte(p.src[p.pos+1:], q)
		if end < 0 {
			return nil, p.errorf("unterminated quote")
		}
		s := p.src[p.pos+1 : p.pos+1+end]
		p.pos += end + 2
		return s, nil
	}
	start := p.pos
	for p.pos < len(p.src) && !strings.ContainsRune(",]}", rune(p.src[p.pos])) {
		p.pos++
	}
	return scalar(strings.TrimSpace(p.src[start:p.pos])), nil
}

// elem is the rest of the current list element (up to the next , ] or }
// at this level), to see whether it is a key=value.
func (p *shorthand) elem() string {
	end := p.pos
	for end < len(p.src) && !strings.ContainsRune(",]}", rune(p.src[end])) {
		end++
	}
	return p.src[p.pos:end]
}

// scalar is a bare shorthand value: a number (in JSON's syntax), true or
// false, or the string.
func scalar(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	if s != "" && numberLen(s) == len(s) {
		return jsonNumber(s) // a JSON number: 5, -1.5, 1e3
	}
	return s
}

// runAwslocal is LocalStack's awslocal: the AWS CLI (aws, on PATH) with
// --endpoint-url from AWS_ENDPOINT_URL (the LocalStack shape's init
// scripts get it), else http://localhost:4566; without the AWS CLI (the
// image has none) its own "awslocal dynamodb ...".
func runAwslocal(args []string, stdout, stderr io.Writer) int {
	aws, err := lookPath("aws")
	if err != nil {
		return runAWSCLINative(args, stdout, stderr)
	}
	code, err := run(aws, append([]string{"--endpoint-url", awslocalEndpoint()}, args...), stdout, stderr)
	if err != nil {
		fprintln(stderr, "awslocal:", err)
		return 127
	}
	return code
}

// awslocalEndpoint is AWS_ENDPOINT_URL, else LocalStack's port on localhost.
func awslocalEndpoint() string {
	if e := os.Getenv("AWS_ENDPOINT_URL"); e != "" {
		return e
	}
	return "http://localhost:4566"
}

// runAWSCLINative sends the request of args to the endpoint and prints
// the answer as the AWS CLI does; it returns the exit status.
func runAWSCLINative(args []string, stdout, stderr io.Writer) int {
	r, err := parseAWSCLI(args, os.ReadFile)
	if err != nil {
		fprintf(stderr, "awslocal: %v\n", strings.TrimPrefix(err.Error(), "awslocal: "))
		return 252 // the AWS CLI's status for a command line it cannot parse
	}
	endpoint := r.endpoint
	if endpoint == "" {
		endpoint = awslocalEndpoint()
	}
	region := r.region
	for _, k := range []string{"AWS_DEFAULT_REGION", "AWS_REGION"} {
		if region == "" {
			region = os.Getenv(k)
		}
	}
	if region == "" {
		region = "us-east-1"
	}
	key := os.Getenv("AWS_ACCESS_KEY_ID")
	if key == "" {
		key = "test"
	}
	header := []string{
		"Content-Type: application/x-amz-json-1.0",
		"X-Amz-Target: DynamoDB_20120810." + r.op,
		"Authorization: AWS4-HMAC-SHA256 Credential=" + key + "/" + time.Now().UTC().Format("20060102") + "/" + region +
			"/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0",
	}
	res, err := fetch("POST", endpoint, header, appendJSON(nil, r.input, "", 0), time.Minute)
	if err != nil {
		fprintf(stderr, "\nCould not connect to the endpoint URL: %q (%v)\n", endpoint, err)
		return 255
	}
	answer, perr := parseJSON(string(res.body))
	if res.status != 200 {
		typ, msg := "", ""
		if obj, ok := answer.(jsonObject); ok {
			typ, msg = memberString(obj, "__type"), memberString(obj, "message")+memberString(obj, "Message")
		}
		typ = typ[strings.LastIndexByte(typ, '#')+1:]
		fprintf(stderr, "\nAn error occurred (%s) when calling the %s operation: %s\n", typ, r.op, msg)
		return 254
	}
	switch obj, ok := answer.(jsonObject); {
	case perr != nil:
		_, _ = stdout.Write(append(res.body, '\n'))
	case !ok || len(obj) > 0: // {} prints nothing, as the CLI
		_, _ = stdout.Write(append(appendJSON(nil, answer, "    ", 0), '\n'))
	}
	return 0
}

// memberString is obj's member key when it is a string, else "".
func memberString(obj jsonObject, key string) string {
	v, _ := obj.get(key)
	s, _ := v.(string)
	return s
}
