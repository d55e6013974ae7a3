package tablerec

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// MetaKey is the storage metadata key of a table's definition.
const MetaKey = "emulator/table"

// Version is the version of Table's encoding.
const Version = 1

// Table is a table's definition as its metadata record keeps it:
// JSON, versioned, independent of the in-memory types.
type Table struct {
	V                  int                            `json:"v"`
	Name               string                         `json:"name"`
	ID                 string                         `json:"id"`
	ARN                string                         `json:"arn"`
	Created            time.Time                      `json:"created"`
	KeySchema          []Key                          `json:"keySchema"`
	AttrDefs           []Key                          `json:"attrDefs,omitempty"`
	BillingMode        string                         `json:"billingMode"`
	BillingReported    bool                           `json:"billingReported,omitempty"`
	PayPerRequestSince time.Time                      `json:"payPerRequestSince,omitzero"`
	Throughput         Throughput                     `json:"throughput"`
	OnDemand           *tablespec.OnDemandThroughput  `json:"onDemand,omitempty"`
	Warm               Warm                           `json:"warm,omitzero"`
	Stream             *tablespec.StreamSpecification `json:"stream,omitempty"`
	StreamLabel        string                         `json:"streamLabel,omitempty"`
	StreamShard        string                         `json:"streamShard,omitempty"`
	StreamRegion       string                         `json:"streamRegion,omitempty"`
	StreamCreated      time.Time                      `json:"streamCreated,omitzero"`
	SSE                *tablespec.SSEDescription      `json:"sse,omitempty"`
	TableClass         string                         `json:"tableClass,omitempty"`
	DeletionProtection bool                           `json:"deletionProtection,omitempty"`
	Tags               []Key                          `json:"tags,omitempty"`
	LSIs               []Index                        `json:"lsis,omitempty"`
	GSIs               []Index                        `json:"gsis,omitempty"`
	Deleting           []Index                        `json:"deleting,omitempty"`
	Vectors            []Vector                       `json:"vectors,omitempty"`
	VDeleting          []Vector                       `json:"vdeleting,omitempty"`
	TTLEnabled         bool                           `json:"ttlEnabled,omitempty"`
	TTLAttr            string                         `json:"ttlAttr,omitempty"`
	PITR               bool                           `json:"pitr,omitempty"`
	PITRDays           int                            `json:"pitrDays,omitempty"`
	ActiveAt           time.Time                      `json:"activeAt,omitzero"`
	Restored           *tablespec.Restored            `json:"restored,omitempty"`
	// The features' slots follow as members named by their features
	// (AppendSlots); a record of an earlier version may hold
	// some in an "ext" member (Slots).
}

// Key is a name and a second string: a key schema element (HASH
// or RANGE), an attribute definition or a key attribute (S, N or B), or a
// tag (its value).
type Key struct {
	Name  string `json:"n"`
	Value string `json:"v"`
}

type Throughput struct {
	Read           int64     `json:"read,omitempty"`
	Write          int64     `json:"write,omitempty"`
	LastIncrease   time.Time `json:"lastIncrease,omitzero"`
	LastDecrease   time.Time `json:"lastDecrease,omitzero"`
	DecreasesToday int64     `json:"decreasesToday,omitempty"`
}

type Index struct {
	Name       string                        `json:"name"`
	ARN        string                        `json:"arn"`
	Local      bool                          `json:"local,omitempty"`
	KeySchema  []Key                         `json:"keySchema"`
	Partition  []Key                         `json:"partition"`
	Sort       []Key                         `json:"sort,omitempty"`
	ActiveAt   time.Time                     `json:"activeAt,omitzero"`
	GoneAt     time.Time                     `json:"goneAt,omitzero"`
	Projection string                        `json:"projection"`
	NonKey     []string                      `json:"nonKey,omitempty"`
	Throughput *Throughput                   `json:"throughput,omitempty"`
	OnDemand   *tablespec.OnDemandThroughput `json:"onDemand,omitempty"`
	Warm       Warm                          `json:"warm,omitzero"`
}

// Warm is a warm throughput floor (tablespec.Warm). Records written
// before it existed lack it: zero, the default, which is what those
// tables reported.
type Warm struct {
	Read  int64 `json:"read,omitempty"`
	Write int64 `json:"write,omitempty"`
}

// Vector is a vector index in a table record.
type Vector struct {
	Name       string    `json:"name"`
	ARN        string    `json:"arn"`
	Attr       string    `json:"attr"`
	Dims       int64     `json:"dims"`
	Distance   string    `json:"distance"`
	Schema     []Search  `json:"schema,omitempty"`
	Projection string    `json:"projection"`
	NonKey     []string  `json:"nonKey,omitempty"`
	ActiveAt   time.Time `json:"activeAt,omitzero"`
	Backfill   bool      `json:"backfill,omitempty"`
	GoneAt     time.Time `json:"goneAt,omitzero"`
}

// Search is a SearchSchema element: name, type and kind (S, N, B).
type Search struct {
	Name string `json:"n"`
	Type string `json:"t"`
	Kind string `json:"k"`
}

// Encode returns the metadata record of r (its V set to Version) with
// the features' slots.
func Encode(r *Table, slots map[string]json.RawMessage) []byte {
	r.V = Version
	b, err := json.Marshal(r)
	if err != nil {
		panic("emulator: encoding a table record: " + err.Error()) // plain data: cannot fail
	}
	return AppendSlots(b, slots)
}

// Decode parses a table's metadata record and the slots it holds of the
// features named (extMembers: each feature's members in an old record's
// "ext" object, Slots). A record that does not parse, of another
// version, or with an index without a partition key is storage.ErrCorrupt.
func Decode(b []byte, features []string, extMembers map[string][]string) (*Table, map[string]json.RawMessage, error) {
	var r Table
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, nil, fmt.Errorf("%w: table record: %v", storage.ErrCorrupt, err)
	}
	if r.V != Version {
		return nil, nil, fmt.Errorf("%w: table record version %d", storage.ErrCorrupt, r.V)
	}
	slots, err := Slots(b, features, extMembers)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: table record: %v", storage.ErrCorrupt, err)
	}
	for _, x := range slices.Concat(r.LSIs, r.GSIs, r.Deleting) {
		if len(x.Partition) == 0 {
			return nil, nil, fmt.Errorf("%w: table record: index %q without a partition key", storage.ErrCorrupt, x.Name)
		}
	}
	return &r, slots, nil
}

// AppendSlots adds the features' slots to the encoded record b
// (one JSON object), each a member named by its feature, in name order.
func AppendSlots(b []byte, slots map[string]json.RawMessage) []byte {
	if len(slots) == 0 {
		return b
	}
	b = b[:len(b)-1] // the record's closing brace
	for _, name := range slices.Sorted(maps.Keys(slots)) {
		b = append(b, ',')
		b = strconv.AppendQuote(b, name)
		b = append(b, ':')
		b = append(b, slots[name]...)
	}
	return append(b, '}')
}

// Slots returns the slots of the features named that the encoded record
// b holds (nil: none). A slot is a member of the record named by its
// feature or, in a record written before its feature moved behind the
// service's seam, a member of that name in the record's "ext" object,
// or the object of the feature's members there (extMembers).
func Slots(b []byte, features []string, extMembers map[string][]string) (map[string]json.RawMessage, error) {
	if len(features) == 0 {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	var legacy map[string]json.RawMessage
	if ext, ok := all["ext"]; ok {
		if err := json.Unmarshal(ext, &legacy); err != nil {
			return nil, err
		}
	}
	var slots map[string]json.RawMessage
	for _, name := range features {
		s, ok := all[name]
		if !ok {
			s, ok = legacy[name]
		}
		if !ok {
			s, ok = extObject(legacy, extMembers[name])
		}
		if ok {
			if slots == nil {
				slots = map[string]json.RawMessage{}
			}
			slots[name] = s
		}
	}
	return slots, nil
}

// extObject returns the object of the members names of ext (an old
// record's "ext" object), or false when it has none of them.
func extObject(ext map[string]json.RawMessage, names []string) (json.RawMessage, bool) {
	var b []byte
	for _, n := range names {
		v, ok := ext[n]
		if !ok {
			continue
		}
		if b == nil {
			b = append(b, '{')
		} else {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, n)
		b = append(b, ':')
		b = append(b, v...)
	}
	if b == nil {
		return nil, false
	}
	return append(b, '}'), true
}

// Retagged returns the table record b with the tags of record now (the
// same table's as it is now) in place of its own, and whether they
// differ (false: b itself). A record that does not parse is
// storage.ErrCorrupt.
func Retagged(b, now []byte) ([]byte, bool, error) {
	var rec, cur map[string]json.RawMessage
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, false, fmt.Errorf("%w: table record: %v", storage.ErrCorrupt, err)
	}
	if err := json.Unmarshal(now, &cur); err != nil {
		return nil, false, fmt.Errorf("%w: table record: %v", storage.ErrCorrupt, err)
	}
	tags, ok := cur["tags"]
	if string(tags) == string(rec["tags"]) {
		return b, false, nil
	}
	if delete(rec, "tags"); ok {
		rec["tags"] = tags
	}
	out, err := json.Marshal(rec)
	return out, true, err
}
