package faults

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Config is a rule list as a config file (or the admin endpoint) holds
// it: JSON of this shape, every member optional but each rule's fault:
//
//	{
//	  "seed": 42,
//	  "rules": [
//	    {"name": "hot-order", "table": "Orders", "index": "byCustomer",
//	     "operations": ["PutItem", "UpdateItem"],
//	     "partitionKey": "ORDER#1", "partitionKeyPrefix": "ORDER#",
//	     "sortKey": {"N": "1.50"}, "sortKeyPrefix": "2024-",
//	     "probability": 0.5, "every": 3, "count": 10,
//	     "fault": "ProvisionedThroughputExceeded", "delay": "250ms",
//	     "message": "..."}
//	  ]
//	}
//
// A key value is a string (compared with S values' text and N values'
// canonical text) or an attribute value of one of the key kinds: {"S":
// "..."}, {"N": "1.50"} (made canonical, so it matches 1.5), {"B":
// "<base64>"}. Fault names are Kind's String names; a delay is a Go
// duration ("250ms", "2s"). Unknown members are errors.
type Config struct {
	Seed  uint64
	Rules []Rule
}

// ErrConfig: a config document is not valid; the error says where.
var ErrConfig = errors.New("faults: invalid config")

// jsonConfig and jsonRule are the wire shapes of Config and Rule.
type jsonConfig struct {
	Seed  uint64     `json:"seed"`
	Rules []jsonRule `json:"rules"`
}

type jsonRule struct {
	Name               string    `json:"name,omitempty"`
	Table              string    `json:"table,omitempty"`
	Index              string    `json:"index,omitempty"`
	Operations         []string  `json:"operations,omitempty"`
	PartitionKey       *keyValue `json:"partitionKey,omitempty"`
	PartitionKeyPrefix *keyValue `json:"partitionKeyPrefix,omitempty"`
	SortKey            *keyValue `json:"sortKey,omitempty"`
	SortKeyPrefix      *keyValue `json:"sortKeyPrefix,omitempty"`
	Probability        float64   `json:"probability,omitempty"`
	Every              int       `json:"every,omitempty"`
	Count              int       `json:"count,omitempty"`
	Fault              string    `json:"fault"`
	Delay              string    `json:"delay,omitempty"`
	Message            string    `json:"message,omitempty"`
}

// keyValue is a key value in a rule: its text as storage compares it.
type keyValue struct {
	text string
	b    bool // given as B: written back in base64
}

// UnmarshalJSON accepts a string or {"S"|"N"|"B": string}.
func (k *keyValue) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, &k.text)
	}
	var av map[string]string
	if err := json.Unmarshal(data, &av); err != nil {
		return fmt.Errorf("a key value is a string or {\"S\"|\"N\"|\"B\": string}")
	}
	if len(av) != 1 {
		return fmt.Errorf("a key value has exactly one of S, N, B")
	}
	for kind, s := range av {
		switch kind {
		case "S":
			k.text = s
		case "N":
			n, err := storage.ParseNumber(s)
			if err != nil {
				return fmt.Errorf("the N value %q: %v", s, err)
			}
			k.text = string(n)
		case "B":
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return fmt.Errorf("the B value %q is not base64", s)
			}
			k.text, k.b = string(b), true
		default:
			return fmt.Errorf("key value of kind %q: a key is S, N or B", kind)
		}
	}
	return nil
}

// MarshalJSON writes a string, or {"B": base64} for a binary value.
func (k keyValue) MarshalJSON() ([]byte, error) {
	if k.b {
		return json.Marshal(map[string]string{"B": base64.StdEncoding.EncodeToString([]byte(k.text))})
	}
	return json.Marshal(k.text)
}

// textOf returns the text of an optional key value.
func textOf(k *keyValue) string {
	if k == nil {
		return ""
	}
	return k.text
}

// ParseConfig parses and validates a config document.
func ParseConfig(data []byte) (Config, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var jc jsonConfig
	if err := dec.Decode(&jc); err != nil {
		return Config{}, configError(data, dec, err)
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		for end < len(data) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
			end++
		}
		return Config{}, fmt.Errorf("%w: %s: data after the document", ErrConfig, position(data, end))
	}
	c := Config{Seed: jc.Seed, Rules: make([]Rule, 0, len(jc.Rules))}
	for i, jr := range jc.Rules {
		r := Rule{
			Name: jr.Name, Table: jr.Table, Index: jr.Index, Operations: jr.Operations,
			PartitionKey: textOf(jr.PartitionKey), PartitionKeyPrefix: textOf(jr.PartitionKeyPrefix),
			SortKey: textOf(jr.SortKey), SortKeyPrefix: textOf(jr.SortKeyPrefix),
			Probability: jr.Probability, Every: jr.Every, Count: jr.Count, Message: jr.Message,
		}
		if len(r.Operations) == 0 {
			r.Operations = nil
		}
		k, ok := KindOf(jr.Fault)
		if !ok {
			return Config{}, fmt.Errorf("%w: rule %d: fault %q is not one of %s", ErrConfig, i+1, jr.Fault, kindNames())
		}
		r.Fault = k
		if jr.Delay != "" {
			d, err := time.ParseDuration(jr.Delay)
			if err != nil {
				return Config{}, fmt.Errorf("%w: rule %d: delay %q is not a duration such as \"250ms\"", ErrConfig, i+1, jr.Delay)
			}
			r.Delay = d
		}
		if err := r.Validate(); err != nil {
			return Config{}, fmt.Errorf("%w: rule %d: %w", ErrConfig, i+1, err)
		}
		c.Rules = append(c.Rules, r)
	}
	return c, nil
}

// configError turns a decoding error into ErrConfig with a line and
// column.
func configError(data []byte, dec *json.Decoder, err error) error {
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = int(se.Offset) - 1 // the offset after the bad byte
	case errors.As(err, &te):
		off = int(te.Offset)
		if te.Field != "" {
			return fmt.Errorf("%w: %s: member %s: %s is not a %s", ErrConfig, position(data, off), te.Field, te.Value, te.Type)
		}
	}
	return fmt.Errorf("%w: %s: %v", ErrConfig, position(data, off), err)
}

// position renders a byte offset of data as "line L, column C" (the
// column counts bytes from 1).
func position(data []byte, off int) string {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// MarshalConfig writes c as a config document that ParseConfig reads
// back to the same rules. Binary key values cannot be told from text
// ones in a Rule, so keys are written as strings: valid UTF-8 text is
// kept as it is, other bytes as {"B": base64}.
func MarshalConfig(c Config) ([]byte, error) {
	jc := jsonConfig{Seed: c.Seed, Rules: make([]jsonRule, len(c.Rules))}
	for i, r := range c.Rules {
		jr := jsonRule{
			Name: r.Name, Table: r.Table, Index: r.Index, Operations: r.Operations,
			PartitionKey: keyOf(r.PartitionKey), PartitionKeyPrefix: keyOf(r.PartitionKeyPrefix),
			SortKey: keyOf(r.SortKey), SortKeyPrefix: keyOf(r.SortKeyPrefix),
			Probability: r.Probability, Every: r.Every, Count: r.Count,
			Fault: r.Fault.String(), Message: r.Message,
		}
		if r.Delay != 0 {
			jr.Delay = r.Delay.String()
		}
		jc.Rules[i] = jr
	}
	return json.MarshalIndent(jc, "", "  ")
}

// keyOf returns the key value for text, nil for "".
func keyOf(text string) *keyValue {
	if text == "" {
		return nil
	}
	return &keyValue{text: text, b: !validText(text)}
}

// validText reports whether s survives JSON as a string (valid UTF-8).
func validText(s string) bool { return utf8.ValidString(s) }
