package capture

import (
	"encoding/json"
	"strings"
)

// Name is the header's capture member: what every capture file says it is.
const Name = "dynamoemu"

// Version is the format version this build reads and writes.
const Version = 1

// Header is a capture's first line.
type Header struct {
	Capture     string `json:"capture"`               // always Name
	Version     int    `json:"version"`               // Version
	Upstream    string `json:"upstream,omitempty"`    // where it was recorded (an endpoint URL, "aws us-east-1", "docs")
	Recorded    string `json:"recorded,omitempty"`    // when, RFC 3339
	TablePrefix string `json:"tablePrefix,omitempty"` // the prefix as recorded, written as ${prefix} in the exchanges
}

// Exchange is one request and its answer: a line after the header.
type Exchange struct {
	Seq      int             `json:"seq"`    // 1, 2, 3 … in file order
	Target   string          `json:"target"` // the X-Amz-Target header, e.g. DynamoDB_20120810.Query
	Request  json.RawMessage `json:"request"`
	Status   int             `json:"status"`
	Response json.RawMessage `json:"response"`
	AfterMs  int64           `json:"afterMs,omitempty"` // wait after the previous exchange before this one
	Check    *bool           `json:"check,omitempty"`   // nil or true: compared; false: set-up, must answer 2xx
	Ignore   []string        `json:"ignore,omitempty"`  // response paths not compared
	Source   string          `json:"source,omitempty"`  // where AWS's answer is published (records)
	Note     string          `json:"note,omitempty"`    // what the row shows
	Oracle   string          `json:"oracle,omitempty"`  // records: "agrees" or "differs: <why>"

	// Line is the exchange's line in the file it was read from (0 when
	// it was not read).
	Line int `json:"-"`
}

// Checked reports whether the exchange's answer is compared.
func (e Exchange) Checked() bool { return e.Check == nil || *e.Check }

// Operation is the target's operation name: Query for
// DynamoDB_20120810.Query.
func (e Exchange) Operation() string {
	if i := strings.LastIndexByte(e.Target, '.'); i >= 0 {
		return e.Target[i+1:]
	}
	return e.Target
}

// Streams reports whether the target is DynamoDB Streams' API.
func (e Exchange) Streams() bool { return strings.HasPrefix(e.Target, "DynamoDBStreams_") }

// File is a capture read whole.
type File struct {
	Name      string // as given to Read
	Header    Header
	Exchanges []Exchange
}
