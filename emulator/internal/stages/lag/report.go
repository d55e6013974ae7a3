package lag

import (
	"encoding/base64"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// StaleRead is one read that returned data older than a committed write:
// the read (its operation, table, view and key condition) and the
// writes it missed.
type StaleRead struct {
	// N is the read's number on its view's gate (from 1).
	N  uint64
	Op string
	// Namespace is the ID of the namespace read (a branch's own).
	Namespace string
	// Table is the table read; Index the GSI or LSI ("": the table).
	Table, Index string
	// View is what lagged: ViewTable, ViewIndex or ViewStream.
	View string
	// Key is the key condition read, in DynamoDB JSON ({"pk":{"S":"a"}}):
	// the item's key, a Query's partition (and sort key when equal); nil
	// for a Scan or a stream.
	Key map[string]map[string]string
	At  time.Time
	// Missed are the committed writes the read did not see, oldest first.
	Missed []MissedWrite
}

// MissedWrite is a committed write a read did not see.
type MissedWrite struct {
	// Commit is the write's number on the view's gate (a stream's: the
	// record's sequence number).
	Commit uint64
	Op     string
	// Key is the item's key, in DynamoDB JSON.
	Key map[string]map[string]string
	// Event is INSERT, MODIFY or REMOVE when known ("": a batch item).
	Event string
	At    time.Time
}

// keyJSON is a key in DynamoDB JSON; attrs names its partition and sort
// attributes (a value not valid, or an empty name, is left out).
func keyJSON(attrs [2]string, vals [2]storage.Value) map[string]map[string]string {
	out := map[string]map[string]string{}
	for i, v := range vals {
		if !v.IsValid() || attrs[i] == "" {
			continue
		}
		switch v.Kind() {
		case storage.KindB:
			out[attrs[i]] = map[string]string{"B": base64.StdEncoding.EncodeToString(v.Bytes())}
		case storage.KindN:
			out[attrs[i]] = map[string]string{"N": v.Str()}
		default:
			out[attrs[i]] = map[string]string{"S": v.Str()}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// condJSON is a read's key condition in DynamoDB JSON: the partition,
// and the sort key when the condition is an equality.
func condJSON(attrs [2]string, kc insights.KeyCondition) map[string]map[string]string {
	vals := [2]storage.Value{kc.Partition}
	if kc.SortOp == insights.SortEQ {
		vals[1] = kc.Sort
	}
	return keyJSON(attrs, vals)
}
