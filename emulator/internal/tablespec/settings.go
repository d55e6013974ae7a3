package tablespec

import (
	"cmp"
	"time"
)

// Settings are a table's settings that its requests set (CreateTable,
// UpdateTable, UpdateTimeToLive, UpdateContinuousBackups, a restore) and
// a feature reads whole and changes in place: plain values, kept in the
// table's definition and recorded with it. The pointers are shared with
// the definitions that came before: replace what they point to, never
// change it.
type Settings struct {
	Billing    Billing
	Capacity   Throughput          // provisioned throughput with its history; zero while on demand
	OnDemand   *OnDemandThroughput // on-demand limits; nil: none
	Warm       Warm                // warm throughput floor (WarmOf); zero: the default
	SSE        *SSEDescription     // encryption; nil: the AWS owned key (not reported)
	TableClass string              // "": STANDARD (not reported)
	TTL        TTL
	Recovery   Recovery  // point-in-time recovery
	Restored   *Restored // where a restored table came from; nil: not restored
}

// Billing is a table's billing mode and its history.
type Billing struct {
	Mode               string    // PROVISIONED or PAY_PER_REQUEST
	Reported           bool      // BillingModeSummary is reported (the mode was given or changed)
	PayPerRequestSince time.Time // LastUpdateToPayPerRequestDateTime; zero: never
}

// TTL is a table's TimeToLive: on, and its attribute while on.
type TTL struct {
	Enabled bool
	Attr    string
}

// Recovery is a table's point-in-time recovery: on, and its period in
// days (1 to 35) while on.
type Recovery struct {
	On   bool
	Days int
}

// Restored is where a restored table came from (its RestoreSummary), as
// its definition records it.
type Restored struct {
	BackupArn string    `json:"backupArn,omitempty"`
	TableArn  string    `json:"tableArn,omitempty"`
	At        time.Time `json:"at"`
}

// From is the ARN of the backup, or else of the table, the table was
// restored from.
func (r *Restored) From() string { return cmp.Or(r.BackupArn, r.TableArn) }

// WarmNow is the table's warm throughput as DescribeTable reports it:
// its floor raised to the default of its capacity.
func (s *Settings) WarmNow() Warm {
	if s.Billing.Mode == "PAY_PER_REQUEST" {
		return WarmOf(s.Warm, nil)
	}
	return WarmOf(s.Warm, &s.Capacity)
}
