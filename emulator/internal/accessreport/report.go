package accessreport

import (
	"cmp"
	"maps"
	"slices"

	"github.com/dynamoemu/dynamoemu/emulator/report"
	"github.com/dynamoemu/dynamoemu/internal/insights"
)

// Catalog is what the report reads from the emulator's tables when it is
// built: the tables and their indexes, their sizes, and their largest
// partitions. The emulator implements it over storage.
type Catalog interface {
	// Tables returns every table with its indexes (GSIs and LSIs).
	Tables() []CatalogTable
	// LargestPartitions returns the n largest partitions (item
	// collections) of a table, or of an index's partitions, largest first.
	LargestPartitions(table, index string, n int) []PartitionSize
}

// CatalogTable is one table as the catalog describes it.
type CatalogTable struct {
	Name      string
	Indexes   []string
	ItemCount int64
	SizeBytes int64
}

// The report's types are the public package emulator/report's, so that a
// Go user of the emulator reads the one declaration (report.Report and
// the types below it).
type (
	Report           = report.Report
	TableReport      = report.TableReport
	ResourceReport   = report.ResourceReport
	OpReport         = report.OpReport
	KeyShare         = report.KeyShare
	PartitionSize    = report.PartitionSize
	DesignReport     = report.DesignReport
	PatternReport    = report.PatternReport
	UnmatchedRequest = report.UnmatchedRequest
	CostlyRequest    = report.CostlyRequest
)

// hotKeysShown is how many hot keys a resource's report lists, and
// largest partitions it asks the catalog for.
const hotKeysShown = 10

// Report builds the report from the counts so far and cat (nil: without
// table sizes, partitions, or indexes nothing touched).
func (r *Recorder) Report(cat Catalog) *Report {
	var tables []CatalogTable
	if cat != nil {
		tables = cat.Tables()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := &Report{Since: r.since, Tables: []TableReport{}, Costliest: r.costly.sorted()}
	// Every table and index: the catalog's, the design's, the traffic's.
	byTable := map[string]*TableReport{}
	indexes := map[string]map[string]bool{}
	addTable := func(name string) *TableReport {
		if tr := byTable[name]; tr != nil {
			return tr
		}
		byTable[name] = &TableReport{Table: name}
		indexes[name] = map[string]bool{}
		return byTable[name]
	}
	for _, ct := range tables {
		tr := addTable(ct.Name)
		tr.ItemCount, tr.SizeBytes = ct.ItemCount, ct.SizeBytes
		for _, ix := range ct.Indexes {
			indexes[ct.Name][ix] = true
		}
	}
	if r.design != nil && cat == nil {
		for _, dt := range r.design.Tables {
			addTable(dt.Name)
			for _, x := range dt.Indexes {
				indexes[dt.Name][x.Name] = true
			}
		}
	}
	for k := range r.res {
		addTable(k.table)
		if k.index != "" {
			indexes[k.table][k.index] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byTable)) {
		tr := byTable[name]
		tr.Resources = append(tr.Resources, r.resourceLocked(cat, name, ""))
		for _, ix := range slices.Sorted(maps.Keys(indexes[name])) {
			rr := r.resourceLocked(cat, name, ix)
			tr.Resources = append(tr.Resources, rr)
			if rr.Gets+rr.Queries+rr.Scans == 0 {
				tr.UnusedIndexes = append(tr.UnusedIndexes, ix)
			}
		}
		rep.Tables = append(rep.Tables, *tr)
	}
	if r.design != nil {
		rep.Design = r.designReportLocked()
	}
	return rep
}

// resourceLocked builds one table's or index's report.
func (r *Recorder) resourceLocked(cat Catalog, table, index string) ResourceReport {
	rr := ResourceReport{Index: index, Operations: []OpReport{}}
	if cat != nil {
		rr.LargestPartitions = cat.LargestPartitions(table, index, hotKeysShown)
	}
	st := r.res[resKey{table, index}]
	if st == nil {
		return rr
	}
	rr.Gets, rr.Queries, rr.Scans = st.byAccess[insights.Get], st.byAccess[insights.Query], st.byAccess[insights.Scan]
	rr.Writes = st.byAccess[insights.Put] + st.byAccess[insights.Update] + st.byAccess[insights.Delete]
	rr.ItemsRead, rr.ItemsReturned = st.itemsRead, st.itemsReturned
	if st.filterRead > 0 {
		rr.FilterWaste = float64(st.filterRead-st.filterReturned) / float64(st.filterRead)
	}
	rr.ReadUnits, rr.WriteUnits, rr.Throttled = st.readUnits, st.writeUnits, st.throttled
	rr.VectorSearchBytes, rr.VectorWriteBytes = st.vectorSearch, st.vectorWrite
	for _, op := range slices.Sorted(maps.Keys(st.ops)) {
		o := st.ops[op]
		rr.Requests += o.requests
		rr.Operations = append(rr.Operations, OpReport{
			Op: op, Requests: o.requests, ItemsRead: o.itemsRead, ItemsReturned: o.itemsReturned,
			ReadUnits: o.readUnits, WriteUnits: o.writeUnits, Throttled: o.throttled,
			VectorSearchBytes: o.vectorSearch, VectorWriteBytes: o.vectorWrite,
		})
	}
	for _, c := range st.hotPK.top(hotKeysShown) {
		rr.HotKeys = append(rr.HotKeys, KeyShare{Key: c.key.text()[0], Units: c.count, Share: c.count / st.hotPK.total, Overcount: c.overcount})
	}
	return rr
}

// designReportLocked checks the counts against the design.
func (r *Recorder) designReportLocked() *DesignReport {
	dr := &DesignReport{Patterns: []PatternReport{}, Findings: reportFindings(r.static), UnmatchedDropped: r.dropped}
	dr.Findings = append(dr.Findings, reportFindings(r.design.TrafficFindings())...)
	for _, t := range r.design.Tables {
		for _, pt := range t.Patterns {
			pr := PatternReport{
				Table: t.Name, Name: pt.Name, Description: pt.Description, Access: pt.Access.String(),
				Entities: pt.Entities, ServedBy: pt.ServedBy(), Condition: pt.Condition(), Order: pt.Order,
				FromTraffic: pt.FromTraffic,
			}
			if ps := r.patterns[pt]; ps != nil {
				pr.Requests, pr.ItemsRead, pr.ItemsReturned = ps.requests, ps.itemsRead, ps.itemsReturned
				pr.ReadUnits, pr.WriteUnits, pr.Throttled = ps.readUnits, ps.writeUnits, ps.throttled
			} else {
				dr.Findings = append(dr.Findings, report.Finding{Kind: insights.FindingUnexercisedPattern, Table: t.Name, Index: pt.Index, Pattern: pt.Name,
					Detail: "no request used pattern " + quote(pt.Name)})
			}
			dr.Patterns = append(dr.Patterns, pr)
		}
	}
	// Pointers are sorted, not the keys: the server has the sort of
	// pointers already, and a sort of shapeKey would add its own copy.
	keys := make([]*shapeKey, 0, len(r.unmatched))
	for k := range r.unmatched {
		keys = append(keys, &k)
	}
	slices.SortFunc(keys, func(a, b *shapeKey) int {
		return cmp.Or(cmp.Compare(a.table, b.table), cmp.Compare(a.index, b.index), cmp.Compare(a.access, b.access),
			cmp.Compare(a.sortOp, b.sortOp), cmpBool(a.filter, b.filter))
	})
	for _, kp := range keys {
		k := *kp
		u := r.unmatched[k]
		ur := UnmatchedRequest{
			Table: k.table, Index: k.index, Access: k.access.String(), Op: u.op, SortCondition: k.sortOp.String(),
			Filter: k.filter, Example: u.example, Requests: u.requests, ItemsRead: u.itemsRead, ItemsReturned: u.itemsReturned,
			ReadUnits: u.readUnits, WriteUnits: u.writeUnits,
		}
		dr.Unmatched = append(dr.Unmatched, ur)
		where := "table " + quote(k.table)
		if k.index != "" {
			where = "index " + quote(k.index) + " of " + where
		}
		kind := insights.FindingUnmatchedRequest
		if k.access == insights.Scan {
			kind = insights.FindingScanRequest
		}
		detail := itoa(u.requests) + " " + u.op + " request(s) (" + k.access.String()
		if k.sortOp != insights.SortNone {
			detail += ", sk " + k.sortOp.String()
		}
		if k.filter {
			detail += ", with a filter"
		}
		detail += ") on " + where + " match no pattern"
		if u.example != "" {
			detail += ", such as " + u.example
		}
		dr.Findings = append(dr.Findings, report.Finding{Kind: kind, Table: k.table, Index: k.index, Detail: detail})
	}
	return dr
}

// reportFindings copies findings into the report's type (nil stays nil:
// a report without findings writes "findings": null, as before).
func reportFindings(fs []insights.Finding) []report.Finding {
	if fs == nil {
		return nil
	}
	out := make([]report.Finding, len(fs))
	for i, f := range fs {
		out[i] = report.Finding(f)
	}
	return out
}
