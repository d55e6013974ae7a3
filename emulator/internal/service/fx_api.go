package service

import (
	"cmp"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/insights"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// What the facade (and its admin endpoints) reach of fault injection,
// throttling and the report.

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

// ResetReport forgets every namespace's counts.
func (s *Service) ResetReport() {
	for _, ns := range s.dbs.all() {
		if ns.rec != nil {
			ns.rec.Reset()
		}
	}
}

// NamespaceReport is one namespace's access-pattern report.
type NamespaceReport struct {
	Namespace string           `json:"namespace"`
	Report    *insights.Report `json:"report"`
}

// Reports returns the report of every namespace, by namespace ID.
func (s *Service) Reports() []NamespaceReport {
	var out []NamespaceReport
	for _, ns := range s.dbs.all() {
		if ns.rec == nil {
			continue
		}
		out = append(out, NamespaceReport{Namespace: ns.key, Report: ns.rec.Report(nsCatalog{ns})})
	}
	slices.SortFunc(out, func(a, b NamespaceReport) int { return cmp.Compare(a.Namespace, b.Namespace) })
	return out
}

// Recorder returns the recorder of the namespace an access key and
// region select (created if need be).
func (s *Service) Recorder(accessKey, region string) *insights.Recorder {
	return s.namespaceOf(accessKey, region).rec
}

// ReportOf returns the report of the namespace an access key and region
// select.
func (s *Service) ReportOf(accessKey, region string) *insights.Report {
	ns := s.namespaceOf(accessKey, region)
	return ns.rec.Report(nsCatalog{ns})
}

// namespaceOf returns the registered namespace of an access key and region.
func (s *Service) namespaceOf(accessKey, region string) *Namespace {
	if s.cfg.SharedDB {
		return s.dbs.get(nsKey{shared: true})
	}
	return s.dbs.get(nsKey{accessKey: accessKey, region: region})
}

// Contributors returns Contributor Insights' top n keys of a table or GSI
// in the namespace with ID nsID ("" : every namespace's, merged by rule).
func (s *Service) Contributors(nsID, table, index string, n int) []insights.RuleContributors {
	var out []insights.RuleContributors
	for _, ns := range s.dbs.all() {
		if ns.rec == nil || nsID != "" && ns.key != nsID {
			continue
		}
		out = append(out, ns.rec.Contributors(table, index, n)...)
	}
	return out
}

// nsCatalog is the report's view of a namespace's tables (insights.Catalog).
type nsCatalog struct{ ns *Namespace }

// Tables lists the namespace's tables with their indexes and sizes.
func (c nsCatalog) Tables() []insights.CatalogTable {
	var out []insights.CatalogTable
	for _, t := range c.ns.allTables() {
		ct := insights.CatalogTable{Name: t.name, ItemCount: int64(t.data.ItemCount()), SizeBytes: t.data.SizeBytes()}
		gsis, lsis := t.indexes()
		for _, x := range slices.Concat(gsis, lsis) {
			ct.Indexes = append(ct.Indexes, x.Name)
		}
		out = append(out, ct)
	}
	slices.SortFunc(out, func(a, b insights.CatalogTable) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// LargestPartitions walks a table's items (or an index's entries) once,
// at report time, and returns its n largest partitions by bytes.
func (c nsCatalog) LargestPartitions(table, index string, n int) []insights.PartitionSize {
	t := c.ns.getTable(table)
	if t == nil || n <= 0 {
		return nil
	}
	sizes := map[string]*insights.PartitionSize{}
	values := map[string]storage.Value{}
	add := func(pk storage.Value, size int) {
		if !pk.IsValid() {
			return
		}
		k := pk.Str()
		p := sizes[k]
		if p == nil {
			p = &insights.PartitionSize{Key: k}
			sizes[k], values[k] = p, pk
		}
		p.Items++
		p.Bytes += int64(size)
	}
	if index == "" {
		t.data.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
			add(e.Key().Partition, e.Size())
			return true
		})
	} else {
		var x *tablespec.IndexDef
		gsis, lsis := t.indexes()
		for _, d := range slices.Concat(gsis, lsis) {
			if d.Name == index {
				x = d
			}
		}
		if x == nil {
			return nil
		}
		attr := []string{x.Schema.Partition.Name}
		_ = t.data.ScanIndex(x.Name, storage.IndexScanRange{}, func(e storage.EncodedItem) bool {
			add(e.Attributes(attr)[attr[0]], e.Size())
			return true
		})
	}
	out := make([]insights.PartitionSize, 0, len(sizes))
	for _, p := range sizes {
		if index == "" && len(t.snapshot().LSIs) > 0 {
			p.CollectionSize = t.data.CollectionSize(values[p.Key])
		}
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b insights.PartitionSize) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out[:min(n, len(out))]
}
