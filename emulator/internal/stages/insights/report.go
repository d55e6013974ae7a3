package insights

import (
	"cmp"
	"slices"
	"sort"

	"github.com/dynamoemu/dynamoemu/emulator/internal/accessreport"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The report read over a service's namespaces, for the emulator's
// facade and admin endpoints: each namespace's recorder
// (RecorderOf) with the namespace's tables as its catalog.

// NamespaceReport is one namespace's access-pattern report.
type NamespaceReport = report.NamespaceReport

// Reports returns the report of every namespace of s, by namespace ID.
func Reports(s *service.Service) []NamespaceReport {
	var out []NamespaceReport
	for _, sp := range s.Spaces() {
		out = append(out, NamespaceReport{Namespace: sp.ID(), Report: RecorderOf(sp).Report(catalog{sp})})
	}
	compare := func(a, b NamespaceReport) int { return cmp.Compare(a.Namespace, b.Namespace) }
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

// ReportOf returns the report of the namespace an access key and region
// select (created if need be).
func ReportOf(s *service.Service, accessKey, region string) *accessreport.Report {
	sp := s.SpaceFor(accessKey, region)
	return RecorderOf(sp).Report(catalog{sp})
}

// Recorder returns the recorder of the namespace an access key and
// region select (created if need be).
func Recorder(s *service.Service, accessKey, region string) *accessreport.Recorder {
	return RecorderOf(s.SpaceFor(accessKey, region))
}

// ResetReport forgets every namespace's counts.
func ResetReport(s *service.Service) {
	for _, sp := range s.Spaces() {
		if rec := Existing(sp); rec != nil {
			rec.Reset()
		}
	}
}

// Contributors returns Contributor Insights' top n keys of a table or GSI
// in the namespace with ID nsID ("": every namespace's, merged by rule).
func Contributors(s *service.Service, nsID, table, index string, n int) []report.ContributorRule {
	var out []report.ContributorRule
	for _, sp := range s.Spaces() {
		if rec := Existing(sp); rec != nil && (nsID == "" || sp.ID() == nsID) {
			out = append(out, rec.Contributors(table, index, n)...)
		}
	}
	return out
}

// catalog is the report's view of a namespace's tables (accessreport.Catalog).
type catalog struct{ sp service.Space }

// Tables lists the namespace's tables with their indexes and sizes.
func (c catalog) Tables() []accessreport.CatalogTable {
	var out []accessreport.CatalogTable
	for _, name := range c.sp.TableNames() {
		t, ok := c.sp.Table(name)
		if !ok {
			continue
		}
		data := t.Storage()
		ct := accessreport.CatalogTable{Name: name, ItemCount: int64(data.ItemCount()), SizeBytes: data.SizeBytes()}
		gsis, lsis := t.Indexes()
		for _, x := range slices.Concat(gsis, lsis) {
			ct.Indexes = append(ct.Indexes, x.Name)
		}
		out = append(out, ct)
	}
	return out
}

// LargestPartitions walks a table's items (or an index's entries) once,
// at report time, and returns its n largest partitions by bytes.
func (c catalog) LargestPartitions(table, index string, n int) []accessreport.PartitionSize {
	t, ok := c.sp.Table(table)
	if !ok || n <= 0 {
		return nil
	}
	data := t.Storage()
	sizes := map[string]*accessreport.PartitionSize{}
	values := map[string]storage.Value{}
	add := func(pk storage.Value, size int) {
		if !pk.IsValid() {
			return
		}
		k := pk.Str()
		p := sizes[k]
		if p == nil {
			p = &accessreport.PartitionSize{Key: k}
			sizes[k], values[k] = p, pk
		}
		p.Items++
		p.Bytes += int64(size)
	}
	gsis, lsis := t.Indexes()
	if index == "" {
		data.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
			add(e.Key().Partition, e.Size())
			return true
		})
	} else {
		var x *tablespec.IndexDef
		for _, d := range slices.Concat(gsis, lsis) {
			if d.Name == index {
				x = d
			}
		}
		if x == nil {
			return nil
		}
		attr := []string{x.Schema.Partition.Name}
		_ = data.ScanIndex(x.Name, storage.IndexScanRange{}, func(e storage.EncodedItem) bool {
			add(e.Attributes(attr)[attr[0]], e.Size())
			return true
		})
	}
	out := make([]accessreport.PartitionSize, 0, len(sizes))
	for _, p := range sizes {
		if index == "" && len(lsis) > 0 {
			p.CollectionSize = data.CollectionSize(values[p.Key])
		}
		out = append(out, *p)
	}
	compare := func(a, b accessreport.PartitionSize) int {
		if c := cmp.Compare(b.Bytes, a.Bytes); c != 0 {
			return c
		}
		return cmp.Compare(a.Key, b.Key)
	}
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out[:min(n, len(out))]
}
