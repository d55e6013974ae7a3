package lambdaesm

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// The wire shapes of Lambda's event source mapping operations
// (CreateEventSourceMapping, UpdateEventSourceMapping and the
// EventSourceMappingConfiguration they answer), the members that apply
// to DynamoDB streams, with Lambda's defaults and ranges ("Lambda
// parameters for Amazon DynamoDB event source mappings").

// Spec is CreateEventSourceMapping's request (and, its members set,
// UpdateEventSourceMapping's), plus two members of the emulator's:
// TableName (a table's latest stream, for configurations written before
// the table exists) and Endpoint (where the function is invoked).
type Spec struct {
	EventSourceArn                 *string            `json:",omitempty"`
	FunctionName                   *string            `json:",omitempty"`
	Enabled                        *bool              `json:",omitempty"`
	BatchSize                      *int64             `json:",omitempty"`
	MaximumBatchingWindowInSeconds *int64             `json:",omitempty"`
	StartingPosition               *string            `json:",omitempty"`
	StartingPositionTimestamp      *float64           `json:",omitempty"`
	FilterCriteria                 *FilterCriteria    `json:",omitempty"`
	MaximumRetryAttempts           *int64             `json:",omitempty"`
	MaximumRecordAgeInSeconds      *int64             `json:",omitempty"`
	BisectBatchOnFunctionError     *bool              `json:",omitempty"`
	FunctionResponseTypes          []string           `json:",omitempty"`
	ParallelizationFactor          *int64             `json:",omitempty"`
	TumblingWindowInSeconds        *int64             `json:",omitempty"`
	DestinationConfig              *DestinationConfig `json:",omitempty"`
	UUID                           *string            `json:",omitempty"` // UpdateEventSourceMapping's path parameter; the mappings file's id

	TableName *string `json:",omitempty"` // the emulator's: a table's latest stream instead of EventSourceArn
	Endpoint  *string `json:",omitempty"` // the emulator's: the Lambda endpoint of this mapping's function
}

// FilterCriteria is a mapping's filters.
type FilterCriteria struct {
	Filters []Filter
}

// Filter is one filter: a pattern (filter.go).
type Filter struct {
	Pattern *string
}

// DestinationConfig is where discarded batches' invocation records go.
type DestinationConfig struct {
	OnFailure *OnFailure `json:",omitempty"`
}

// OnFailure names the on-failure destination: an ARN (kept in memory,
// Manager.Failures), a file:// URL (one JSON line per record) or an
// http(s):// URL (POSTed).
type OnFailure struct {
	Destination *string `json:",omitempty"`
}

// Configuration is EventSourceMappingConfiguration, as Lambda answers
// every mapping operation.
type Configuration struct {
	UUID                           string
	EventSourceMappingArn          string `json:",omitempty"`
	BatchSize                      int64
	MaximumBatchingWindowInSeconds int64
	ParallelizationFactor          int64
	EventSourceArn                 string
	FilterCriteria                 *FilterCriteria `json:",omitempty"`
	FunctionArn                    string
	LastModified                   float64
	LastProcessingResult           string
	State                          string
	StateTransitionReason          string
	DestinationConfig              DestinationConfig
	MaximumRecordAgeInSeconds      int64
	BisectBatchOnFunctionError     bool
	MaximumRetryAttempts           int64
	StartingPosition               string
	TumblingWindowInSeconds        int64
	FunctionResponseTypes          []string `json:",omitempty"`
}

// Lambda's ranges for a DynamoDB stream's mapping.
const (
	defaultBatchSize   = 100
	maxBatchSize       = 10000
	maxWindowSeconds   = 300
	maxRetryAttempts   = 10000
	maxRecordAge       = 604800
	minRecordAge       = 60
	maxParallelization = 10
	maxTumblingWindow  = 900
	payloadLimit       = 6 << 20 // a synchronous invocation's payload
	maxFunctionName    = 140     // FunctionName's length, a whole ARN's

	// The filters of a mapping: "By default, you can define up to five
	// different filters for a single event source mapping", and a quota
	// increase allows up to 10 ("Control which events Lambda sends to
	// your function"); SetFilterQuota sets it.
	DefaultFilterQuota = 5
	MaxFilterQuota     = 10
)

const (
	posTrimHorizon = "TRIM_HORIZON"
	posLatest      = "LATEST"
	posAtTimestamp = "AT_TIMESTAMP"

	reportBatchItemFailures = "ReportBatchItemFailures"
)

// settings are a mapping's resolved settings.
type settings struct {
	function    string // the function's name
	fnSpec      string // FunctionName as given (a name, an ARN, with a qualifier or not)
	fnRef       functionRef
	sourceARN   string // "" until a TableName mapping finds its stream
	tableName   string
	endpoint    string
	enabled     bool
	batchSize   int
	window      time.Duration
	startPos    string
	filterSpec  *FilterCriteria
	filters     filterSet
	maxRetries  int64 // -1: infinite
	maxAge      int64 // seconds; -1: infinite
	bisect      bool
	reportItems bool
	parallel    int
	tumbling    int64
	onFailure   string
}

// apiError is an error of the API as Lambda answers it: its type
// (X-Amzn-ErrorType), status and message (writeAPIError).
type apiError struct {
	typ    string
	status int
	msg    string
	noType bool // the body is {"Message":...} alone, without "Type"
}

func (e *apiError) Error() string { return e.typ + ": " + e.msg }

func invalidParameter(msg string) error {
	return &apiError{typ: "InvalidParameterValueException", status: 400, msg: msg}
}

func notFound() error {
	return &apiError{typ: "ResourceNotFoundException", status: 404, msg: "The resource you requested does not exist."}
}

// checkRanges applies the model's constraints to the members set, with
// the ValidationException every AWS service answers them.
func checkRanges(s *Spec) error {
	var cs apierr.Constraints
	rng := func(p *int64, path string, lo, hi int64) {
		if p == nil {
			return
		}
		if *p < lo {
			cs.Add(apierr.QuoteInt(*p), path, apierr.ValGE(lo))
		} else if *p > hi {
			cs.Add(apierr.QuoteInt(*p), path, apierr.ValLE(hi))
		}
	}
	rng(s.BatchSize, "batchSize", 1, maxBatchSize)
	rng(s.MaximumBatchingWindowInSeconds, "maximumBatchingWindowInSeconds", 0, maxWindowSeconds)
	rng(s.MaximumRetryAttempts, "maximumRetryAttempts", -1, maxRetryAttempts)
	rng(s.MaximumRecordAgeInSeconds, "maximumRecordAgeInSeconds", -1, maxRecordAge)
	rng(s.ParallelizationFactor, "parallelizationFactor", 1, maxParallelization)
	rng(s.TumblingWindowInSeconds, "tumblingWindowInSeconds", 0, maxTumblingWindow)
	if s.FunctionName != nil {
		switch fn := *s.FunctionName; {
		case len(fn) < 1:
			cs.Add(apierr.Quote(fn), "functionName", apierr.LenGE(1))
		case len(fn) > maxFunctionName:
			cs.Add(apierr.Quote(fn), "functionName", apierr.LenLE(maxFunctionName))
		default:
			if _, ok := parseFunctionName(fn); !ok {
				cs.Add(apierr.Quote(fn), "functionName", "Member must satisfy regular expression pattern: "+functionNamePattern)
			}
		}
	}
	if s.StartingPosition != nil {
		apierr.Enum(&cs, s.StartingPosition, "startingPosition", posTrimHorizon, posLatest, posAtTimestamp)
	}
	for i, t := range s.FunctionResponseTypes {
		if t != reportBatchItemFailures {
			cs.Add(apierr.Quote(t), fmt.Sprintf("functionResponseTypes.%d.member", i+1), apierr.EnumConstraint(reportBatchItemFailures))
		}
	}
	if err := cs.Err(); err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) {
			return &apiError{typ: "ValidationException", status: 400, msg: ae.Msg}
		}
		return err
	}
	return nil
}

// apply sets s's members on st (a new mapping's defaults, or the
// settings being updated), checking Lambda's rules for a DynamoDB
// stream.
func (st *settings) apply(s *Spec, create bool) error {
	if err := checkRanges(s); err != nil {
		return err
	}
	if create {
		if err := st.create(s); err != nil {
			return err
		}
	}
	if s.StartingPosition != nil {
		if *s.StartingPosition == posAtTimestamp {
			return invalidParameter("Unsupported starting position for a DynamoDB stream event source: AT_TIMESTAMP")
		}
		if !create {
			return invalidParameter("StartingPosition cannot be updated")
		}
		st.startPos = *s.StartingPosition
	}
	if s.FunctionName != nil {
		ref, _ := parseFunctionName(*s.FunctionName) // checkRanges checked it
		st.function, st.fnSpec, st.fnRef = ref.name, *s.FunctionName, ref
	} else if create {
		return invalidParameter("FunctionName is required")
	}
	if err := st.applyBatching(s); err != nil {
		return err
	}
	return st.applyDelivery(s)
}

// create sets st to a new mapping's defaults and its source, which s
// must name with its starting position.
func (st *settings) create(s *Spec) error {
	*st = settings{enabled: true, batchSize: defaultBatchSize, maxRetries: -1, maxAge: -1, parallel: 1}
	switch {
	case s.EventSourceArn != nil && *s.EventSourceArn != "":
		if !isStreamARN(*s.EventSourceArn) {
			return invalidParameter("Unrecognized event source, must be DynamoDB stream ARN: " + *s.EventSourceArn)
		}
		st.sourceARN = *s.EventSourceArn
	case s.TableName != nil && *s.TableName != "":
		st.tableName = *s.TableName
	default:
		return invalidParameter("EventSourceArn is required")
	}
	if s.StartingPosition == nil {
		return invalidParameter("StartingPosition must be provided for a DynamoDB stream event source")
	}
	return nil
}

// applyBatching sets the members of s that shape batches and their
// retries: Enabled, BatchSize, the batching window, retries, record age,
// bisection, ParallelizationFactor and the tumbling window.
func (st *settings) applyBatching(s *Spec) error {
	if s.Enabled != nil {
		st.enabled = *s.Enabled
	}
	if s.BatchSize != nil {
		st.batchSize = int(*s.BatchSize)
	}
	if s.MaximumBatchingWindowInSeconds != nil {
		st.window = time.Duration(*s.MaximumBatchingWindowInSeconds) * time.Second
	}
	if s.MaximumRetryAttempts != nil {
		st.maxRetries = *s.MaximumRetryAttempts
	}
	if s.MaximumRecordAgeInSeconds != nil {
		if a := *s.MaximumRecordAgeInSeconds; a != -1 && a < minRecordAge {
			return invalidParameter(fmt.Sprintf("MaximumRecordAgeInSeconds must be -1 or between %d and %d", minRecordAge, maxRecordAge))
		}
		st.maxAge = *s.MaximumRecordAgeInSeconds
	}
	if s.BisectBatchOnFunctionError != nil {
		st.bisect = *s.BisectBatchOnFunctionError
	}
	if s.ParallelizationFactor != nil {
		st.parallel = int(*s.ParallelizationFactor)
	}
	if s.TumblingWindowInSeconds != nil {
		st.tumbling = *s.TumblingWindowInSeconds
	}
	return nil
}

// applyDelivery sets the members of s that decide what is delivered
// where: FunctionResponseTypes, FilterCriteria, the on-failure
// destination and the Endpoint.
func (st *settings) applyDelivery(s *Spec) error {
	if s.FunctionResponseTypes != nil {
		st.reportItems = len(s.FunctionResponseTypes) > 0
	}
	if s.FilterCriteria != nil {
		fs, err := parseFilters(s.FilterCriteria)
		if err != nil {
			return invalidParameter("Invalid filter pattern definition.")
		}
		st.filters = fs
		st.filterSpec = s.FilterCriteria
		if len(s.FilterCriteria.Filters) == 0 {
			st.filterSpec = nil
		}
	}
	if d := s.DestinationConfig; d != nil {
		st.onFailure = ""
		if d.OnFailure != nil && d.OnFailure.Destination != nil {
			st.onFailure = *d.OnFailure.Destination
		}
	}
	if s.Endpoint != nil {
		st.endpoint = strings.TrimRight(*s.Endpoint, "/")
	}
	return nil
}

// functionNamePattern is FunctionName's pattern in Lambda's API
// reference (CreateEventSourceMapping): a name, with a version or alias
// or not, alone, after an account ("partial ARN") or in a whole ARN.
const functionNamePattern = `(arn:(aws[a-zA-Z0-9-]*):lambda:)?([a-z]{2}(-gov)?-[a-z]+-\d{1}:)?(\d{12}:)?(function:)?([a-zA-Z0-9-_]+)(:(\$LATEST|[a-zA-Z0-9-_]+))?`

var functionNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^` + functionNamePattern + `$`) })

// functionRef is a FunctionName read: the function's name, its
// qualifier (a version, an alias or $LATEST; "": none), and the region
// and account an ARN gives ("": none given).
type functionRef struct {
	name, qualifier, region, account string
}

// parseFunctionName reads a FunctionName as Lambda's API reference
// describes it ("Name formats": Function name MyFunction, Function ARN
// arn:aws:lambda:us-west-2:123456789012:function:MyFunction, Version or
// Alias ARN ...:function:MyFunction:PROD, Partial ARN
// 123456789012:function:MyFunction; a name with a qualifier, MyFunction:PROD,
// fits the same pattern); false when it does not fit.
func parseFunctionName(s string) (functionRef, bool) {
	if len(s) < 1 || len(s) > maxFunctionName {
		return functionRef{}, false
	}
	m := functionNameRE().FindStringSubmatch(s)
	if m == nil {
		return functionRef{}, false
	}
	return functionRef{name: m[7], qualifier: m[9], region: strings.TrimSuffix(m[3], ":"),
		account: strings.TrimSuffix(m[5], ":")}, true
}

// functionName is the function's name a FunctionName gives ("": none).
func functionName(s string) string {
	ref, _ := parseFunctionName(s)
	return ref.name
}

// arn is the function's ARN as a mapping's FunctionArn says it: in the
// region and account the FunctionName gives, else region and account
// (the stream's), with the qualifier when it has one.
func (f functionRef) arn(region, account string) string {
	if f.region != "" {
		region = f.region
	}
	if f.account != "" {
		account = f.account
	}
	a := "arn:aws:lambda:" + region + ":" + account + ":function:" + f.name
	if f.qualifier != "" {
		a += ":" + f.qualifier
	}
	return a
}

// isStreamARN reports whether arn is a DynamoDB stream's ARN
// (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL).
func isStreamARN(arn string) bool {
	parts := strings.SplitN(arn, ":", 6)
	return len(parts) == 6 && parts[0] == "arn" && parts[2] == "dynamodb" &&
		strings.HasPrefix(parts[5], "table/") && strings.Contains(parts[5], "/stream/")
}

// arnParts returns an ARN's region and account.
func arnParts(arn string) (region, account string) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return "", ""
	}
	return parts[3], parts[4]
}
