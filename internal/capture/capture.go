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
	// Retries are the tries the client made of this request before the
	// answer above, each failed with an answer it retries (a 5xx, a
	// throttling error): recorded, never replayed.
	Retries []Attempt `json:"retries,omitempty"`
	// Upstream says the answer is not the upstream's service answer:
	// "failed: why" when the upstream failed the request and the client
	// gave up retrying, "unreachable: why" when the recorder could not
	// reach the upstream (it answered 502 itself). A replay sends
	// neither; at an unreachable one it ends (Unreachable).
	Upstream string `json:"upstream,omitempty"`
	// Client and Overlap are written when the exchange was in flight at
	// once with another: Client is the connection it came on (c1, c2 …),
	// Overlap the run of overlapping exchanges it belongs to (1, 2 …).
	// A replay sends one Overlap's exchanges concurrently, each client's
	// in order, and pairs their answers in any order.
	Client  string `json:"client,omitempty"`
	Overlap int    `json:"overlap,omitempty"`

	// Line is the exchange's line in the file it was read from (0 when
	// it was not read).
	Line int `json:"-"`
}

// Attempt is one failed try of a retried exchange.
type Attempt struct {
	Status   int             `json:"status"`
	Response json.RawMessage `json:"response"`
}

// Failed reports whether the recorded answer is an upstream failure
// ("failed: …") or the recorder's own for an unreachable upstream: a
// replay neither sends it nor compares it.
func (e Exchange) Failed() bool { return e.Upstream != "" }

// Unreachable reports whether the recorder could not reach the
// upstream: what follows it in the capture was not answered by the
// upstream the session began with.
func (e Exchange) Unreachable() bool { return strings.HasPrefix(e.Upstream, "unreachable") }

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
