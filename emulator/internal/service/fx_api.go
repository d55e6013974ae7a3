package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// What the facade (and its admin endpoints) reach of the report's
// settings; the report itself is read by its stage
// (emulator/internal/stages/insights: Reports, ReportOf, Contributors).

// SetReporting starts or stops the access-pattern report in every
// namespace, present and future.
func (s *Service) SetReporting(on bool) {
	s.fx.mu.Lock()
	s.fx.reporting = on
	s.fx.mu.Unlock()
	for _, ns := range s.dbs.all() {
		if ns.rec != nil {
			ns.rec.SetReporting(on)
		}
	}
}

// Reporting reports whether the access-pattern report collects.
func (s *Service) Reporting() bool {
	s.fx.mu.Lock()
	defer s.fx.mu.Unlock()
	return s.fx.reporting
}

// SetDesign checks every namespace's traffic against d (nil: none).
func (s *Service) SetDesign(d *insights.Design) {
	s.fx.mu.Lock()
	s.fx.design = d
	s.fx.mu.Unlock()
	for _, ns := range s.dbs.all() {
		if ns.rec != nil {
			ns.rec.SetDesign(d)
		}
	}
}

// Design returns the design the traffic is checked against, or nil.
func (s *Service) Design() *insights.Design {
	s.fx.mu.Lock()
	defer s.fx.mu.Unlock()
	return s.fx.design
}

// Registered returns the namespace an access key and region select,
// registered (created) if need be.
func (s *Service) Registered(accessKey, region string) Space {
	return Space{ns: s.namespaceOf(accessKey, region)}
}

// namespaceOf returns the registered namespace of an access key and region.
func (s *Service) namespaceOf(accessKey, region string) *Namespace {
	if s.cfg.SharedDB {
		return s.dbs.get(nsKey{shared: true})
	}
	return s.dbs.get(nsKey{accessKey: accessKey, region: region})
}

// Indexes are the table's secondary indexes (GSIs, LSIs) in its
// published definition. Read them, never change them.
func (t Table) Indexes() (gsis, lsis []*tablespec.IndexDef) { return t.t.indexes() }
