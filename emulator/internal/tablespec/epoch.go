package tablespec

import (
	"time"

	"github.com/dynamoemu/dynamoemu/internal/shapes"
)

// EpochTime is a timestamp on the wire (internal/shapes').
type EpochTime = shapes.EpochTime

// EpochPtr returns t as an EpochTime, nil for the zero time.
func EpochPtr(t time.Time) *EpochTime {
	if t.IsZero() {
		return nil
	}
	e := EpochTime(t)
	return &e
}

// EpochSeconds is a request timestamp (epoch seconds) as a time.
func EpochSeconds(s float64) time.Time { return shapes.EpochSeconds(s) }
