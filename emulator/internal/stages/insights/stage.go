package insights

import (
	"errors"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// Stage is the report's stage (service.Stage, service.Switch and
// service.Hooker).
type Stage struct{}

// Hooks put back a namespace's Contributor Insights when it is loaded,
// and forget a table's or a GSI's when it is deleted.
func (Stage) Hooks() service.Hooks {
	return service.Hooks{Loaded: loaded, Dropped: dropped, IndexDropped: indexDropped}
}

// Watches watches every table: whether a use is recorded is the
// recorder's to say.
func (Stage) Watches(service.Table) bool { return true }

// On reports whether the namespace's recorder collects: reporting is on
// (the recorder is made at the use's End if need be), or some table or
// GSI of its has Contributor Insights enabled.
func (Stage) On(t service.Table) bool {
	sp := t.Space()
	set := settingsOf.In(sp)
	if set.recorders.Load() == 0 { // no namespace has a recorder: none of them collects
		return set.reporting.Load()
	}
	if r := Existing(sp); r != nil {
		return r.On()
	}
	return set.reporting.Load()
}

// Begin does nothing: the use is recorded once it is over.
func (Stage) Begin(*service.TableUse) error { return nil }

// End records the use with what it did, or, refused for throughput, as
// throttled (with the key of the partition refused).
func (Stage) End(u *service.TableUse, o service.Outcome) {
	t := u.Table()
	sp := t.Space()
	rec := Existing(sp)
	if rec == nil {
		if !settingsOf.In(sp).reporting.Load() {
			return
		}
		rec = RecorderOf(sp)
	}
	if !rec.On() {
		return
	}
	q := insights.Request{Op: u.Op(), Access: u.Access(), Table: t.Info().Name, Index: u.Index(), Key: u.Key(), Filter: u.Filter()}
	if o.Refused != nil {
		if !throughputRefusal(o.Refused) {
			return
		}
		q.Throttled = true
	} else {
		q.ReadUnits, q.WriteUnits, q.Read, q.Returned = o.ReadUnits, o.WriteUnits, o.Read, o.Returned
		if u.Vector() {
			q.VectorSearchBytes = o.SearchBytes
		}
	}
	rec.Record(&q)
}

// throughputRefusal reports whether err refuses a use for throughput:
// what Contributor Insights counts as a throttled key.
func throughputRefusal(err error) bool {
	return errors.Is(err, apierr.ErrThrottling) || errors.Is(err, apierr.ErrProvisionedThroughputExceeded) ||
		errors.Is(err, apierr.ErrRequestLimitExceeded)
}
