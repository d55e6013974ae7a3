package report

import "time"

// NamespaceReport is one namespace's access-pattern report.
type NamespaceReport struct {
	// Namespace is the access key and region the report is of ("shared"
	// with a shared database).
	Namespace string `json:"namespace"`
	// Report is the namespace's report.
	Report *Report `json:"report"`
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

// Report is the access-pattern report of one namespace: per table and
// index the traffic, hot keys, partitions and unused indexes; the
// costliest requests; and, with a design, its patterns and findings.
type Report struct {
	// Since is when the counts started: when the namespace's recorder was
	// made (the first use while reporting, or the first read of its
	// report), or the last reset.
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
	// LargestPartitions are its largest partitions, read when the report
	// is made.
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

// Finding is one thing a report says about a design or the traffic
// checked against it.
type Finding struct {
	Kind    string `json:"kind"`
	Table   string `json:"table"`
	Index   string `json:"index,omitempty"`
	Pattern string `json:"pattern,omitempty"`
	Entity  string `json:"entity,omitempty"`
	Detail  string `json:"detail"`
}

// WritePriceRatio is the price of a write request unit in read request
// units (on-demand, us-east-1, standard table class): CostlyRequest's
// Cost counts a write unit as this many read units.
const WritePriceRatio = 5

// CostlyRequest is one of the costliest requests.
type CostlyRequest struct {
	Op     string `json:"operation"`
	Access string `json:"access"`
	Table  string `json:"table"`
	Index  string `json:"index,omitempty"`
	// Key is the request's key condition ("pk=ORDER#1 sk begins_with 2024-").
	Key           string  `json:"key,omitempty"`
	Filter        bool    `json:"filter,omitempty"`
	ItemsRead     int     `json:"itemsRead"`
	ItemsReturned int     `json:"itemsReturned"`
	ReadUnits     float64 `json:"readUnits"`
	WriteUnits    float64 `json:"writeUnits"`
	// Cost ranks requests as AWS bills on-demand tables: read request
	// units plus write request units at their price ratio (us-east-1,
	// standard table class: $0.125 per million read request units, $0.625
	// per million write request units), in read request units.
	Cost float64 `json:"cost"`
	// Pattern is the design's pattern the request matched, if any.
	Pattern string `json:"pattern,omitempty"`
}
