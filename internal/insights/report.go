package insights

import (
	"cmp"
	"maps"
	"slices"
	"time"
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

// PartitionSize is one partition key's items: their count and size and,
// for a table with LSIs, the item collection's size (items plus LSI
// entries, what ItemCollectionMetrics measures).
type PartitionSize struct {
	Key            string `json:"key"`
	Items          int64  `json:"items"`
	Bytes          int64  `json:"bytes"`
	CollectionSize int64  `json:"collectionBytes,omitempty"`
}

// Report is the access-pattern report.
type Report struct {
	// Since is when the counts started (New, or the last Reset).
	Since  time.Time     `json:"since"`
	Tables []TableReport `json:"tables"`
	// Costliest are the costliest requests, costliest first.
	Costliest []CostlyRequest `json:"costliest"`
	// Design is the traffic checked against the declared design, if one
	// is set.
	Design *DesignReport `json:"design,omitempty"`
}

// TableReport is one table's traffic.
type TableReport struct {
	Table     string `json:"table"`
	ItemCount int64  `json:"itemCount,omitempty"`
	SizeBytes int64  `json:"sizeBytes,omitempty"`
	// Resources are the table (Index "") and its indexes, in that order.
	Resources []ResourceReport `json:"resources"`
	// UnusedIndexes are the indexes nothing read (Query, Scan).
	UnusedIndexes []string `json:"unusedIndexes,omitempty"`
}

// ResourceReport is the traffic of a table or one of its indexes.
type ResourceReport struct {
	Index    string `json:"index,omitempty"`
	Requests int64  `json:"requests"`
	Gets     int64  `json:"gets"`
	Queries  int64  `json:"queries"`
	Scans    int64  `json:"scans"`
	Writes   int64  `json:"writes"`
	// ItemsRead and ItemsReturned: items examined and returned; FilterWaste
	// is the share of the items read by requests with a filter that the
	// filter dropped (read, paid for, thrown away).
	ItemsRead     int64   `json:"itemsRead"`
	ItemsReturned int64   `json:"itemsReturned"`
	FilterWaste   float64 `json:"filterWaste"`
	ReadUnits     float64 `json:"readUnits"`
	WriteUnits    float64 `json:"writeUnits"`
	// VectorSearchBytes and VectorWriteBytes: what searches and writes
	// consumed in the units AWS bills vector indexes in
	// (VectorSearchRequestBytes, VectorWriteRequestBytes).
	VectorSearchBytes float64 `json:"vectorSearchBytes,omitempty"`
	VectorWriteBytes  float64 `json:"vectorWriteBytes,omitempty"`
	Throttled         int64   `json:"throttled,omitempty"`
	// Operations are the counts per API operation, by name.
	Operations []OpReport `json:"operations"`
	// HotKeys are the partition keys that consumed the most
	// (ConsumedThroughputUnits: 3 x write units + read units) and their
	// share of the resource's total.
	HotKeys []KeyShare `json:"hotKeys,omitempty"`
	// LargestPartitions come from the catalog.
	LargestPartitions []PartitionSize `json:"largestPartitions,omitempty"`
}

// OpReport is one operation's traffic on a table or index.
type OpReport struct {
	Op            string  `json:"operation"`
	Requests      int64   `json:"requests"`
	ItemsRead     int64   `json:"itemsRead"`
	ItemsReturned int64   `json:"itemsReturned"`
	ReadUnits     float64 `json:"readUnits"`
	WriteUnits    float64 `json:"writeUnits"`
	// VectorSearchBytes and VectorWriteBytes: as ResourceReport's.
	VectorSearchBytes float64 `json:"vectorSearchBytes,omitempty"`
	VectorWriteBytes  float64 `json:"vectorWriteBytes,omitempty"`
	Throttled         int64   `json:"throttled,omitempty"`
}

// KeyShare is a hot key: its consumed throughput units and their share
// of its table's or index's; Overcount bounds how much of Units may
// belong to keys counted before it (the counters keep a bounded number of
// keys: space-saving).
type KeyShare struct {
	Key       string  `json:"key"`
	Units     float64 `json:"units"`
	Share     float64 `json:"share"`
	Overcount float64 `json:"overcount,omitempty"`
}

// DesignReport is the traffic checked against the declared design.
type DesignReport struct {
	Patterns  []PatternReport    `json:"patterns"`
	Unmatched []UnmatchedRequest `json:"unmatched,omitempty"`
	// UnmatchedDropped counts unmatched requests of shapes beyond the
	// bound (Options.UnmatchedShapes).
	UnmatchedDropped int64 `json:"unmatchedDropped,omitempty"`
	// Findings: the design's own (Design.Check) and the traffic's.
	Findings []Finding `json:"findings"`
}

// PatternReport is one pattern and the requests that matched it.
type PatternReport struct {
	Table       string   `json:"table"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Access      string   `json:"access"`
	Entities    []string `json:"entities"`
	// ServedBy is "table key", "index NAME", or "Scan of ..."
	ServedBy      string  `json:"servedBy"`
	Condition     string  `json:"condition,omitempty"`
	Order         string  `json:"order,omitempty"`
	Requests      int64   `json:"requests"`
	ItemsRead     int64   `json:"itemsRead"`
	ItemsReturned int64   `json:"itemsReturned"`
	ReadUnits     float64 `json:"readUnits"`
	WriteUnits    float64 `json:"writeUnits"`
	Throttled     int64   `json:"throttled,omitempty"`
	// FromTraffic: the design's format declares no patterns; this one is
	// the shape of requests the traffic made.
	FromTraffic bool `json:"fromTraffic,omitempty"`
}

// UnmatchedRequest is a kind of request that matched no pattern.
type UnmatchedRequest struct {
	Table         string  `json:"table"`
	Index         string  `json:"index,omitempty"`
	Access        string  `json:"access"`
	Op            string  `json:"operation"`
	SortCondition string  `json:"sortCondition,omitempty"`
	Filter        bool    `json:"filter,omitempty"`
	Example       string  `json:"example,omitempty"`
	Requests      int64   `json:"requests"`
	ItemsRead     int64   `json:"itemsRead"`
	ItemsReturned int64   `json:"itemsReturned"`
	ReadUnits     float64 `json:"readUnits"`
	WriteUnits    float64 `json:"writeUnits"`
}

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
	rr.Gets, rr.Queries, rr.Scans = st.byAccess[Get], st.byAccess[Query], st.byAccess[Scan]
	rr.Writes = st.byAccess[Put] + st.byAccess[Update] + st.byAccess[Delete]
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
	dr := &DesignReport{Patterns: []PatternReport{}, Findings: slices.Clone(r.static), UnmatchedDropped: r.dropped}
	dr.Findings = append(dr.Findings, r.design.fromTraffic()...)
	for _, t := range r.design.Tables {
		for _, pt := range t.Patterns {
			pr := PatternReport{
				Table: t.Name, Name: pt.Name, Description: pt.Description, Access: pt.Access.String(),
				Entities: pt.Entities, ServedBy: pt.servedBy(), Condition: pt.conditionText(), Order: pt.Order,
				FromTraffic: pt.FromTraffic,
			}
			if ps := r.patterns[pt]; ps != nil {
				pr.Requests, pr.ItemsRead, pr.ItemsReturned = ps.requests, ps.itemsRead, ps.itemsReturned
				pr.ReadUnits, pr.WriteUnits, pr.Throttled = ps.readUnits, ps.writeUnits, ps.throttled
			} else {
				dr.Findings = append(dr.Findings, Finding{Kind: FindingUnexercisedPattern, Table: t.Name, Index: pt.Index, Pattern: pt.Name,
					Detail: "no request used pattern " + quote(pt.Name)})
			}
			dr.Patterns = append(dr.Patterns, pr)
		}
	}
	keys := slices.SortedFunc(maps.Keys(r.unmatched), func(a, b shapeKey) int {
		return cmp.Or(cmp.Compare(a.table, b.table), cmp.Compare(a.index, b.index), cmp.Compare(a.access, b.access),
			cmp.Compare(a.sortOp, b.sortOp), cmpBool(a.filter, b.filter))
	})
	for _, k := range keys {
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
		kind := FindingUnmatchedRequest
		if k.access == Scan {
			kind = FindingScanRequest
		}
		detail := itoa(u.requests) + " " + u.op + " request(s) (" + k.access.String()
		if k.sortOp != SortNone {
			detail += ", sk " + k.sortOp.String()
		}
		if k.filter {
			detail += ", with a filter"
		}
		detail += ") on " + where + " match no pattern"
		if u.example != "" {
			detail += ", such as " + u.example
		}
		dr.Findings = append(dr.Findings, Finding{Kind: kind, Table: k.table, Index: k.index, Detail: detail})
	}
	return dr
}
