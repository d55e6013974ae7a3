package accessreport

import (
	"cmp"
	"fmt"
	"sort"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/report"
)

// Contributor Insights: DynamoDB's CloudWatch Contributor Insights, from
// the recorder's counters. The emulator's DescribeContributorInsights,
// ListContributorInsights and UpdateContributorInsights answer from the
// states kept here, and Contributors returns what CloudWatch's rule
// reports would show.

// CIStatus is a ContributorInsightsStatus.
type CIStatus string

// Contributor Insights statuses.
const (
	CIEnabling  CIStatus = "ENABLING"
	CIEnabled   CIStatus = "ENABLED"
	CIDisabling CIStatus = "DISABLING"
	CIDisabled  CIStatus = "DISABLED"
	CIFailed    CIStatus = "FAILED"
)

// CIMode is a ContributorInsightsMode.
type CIMode string

// Contributor Insights modes.
const (
	// CIAccessedAndThrottledKeys: the most accessed and the most
	// throttled keys (the default).
	CIAccessedAndThrottledKeys CIMode = "ACCESSED_AND_THROTTLED_KEYS"
	// CIThrottledKeys: the most throttled keys only.
	CIThrottledKeys CIMode = "THROTTLED_KEYS"
)

// ContributorInsights is a table's or GSI's Contributor Insights as
// DescribeContributorInsights answers it (and, without RuleList and
// LastUpdate, as UpdateContributorInsights and ListContributorInsights
// do).
type ContributorInsights struct {
	TableName string
	IndexName string
	// RuleList names the CloudWatch rules, while ENABLING, ENABLED or
	// DISABLING.
	RuleList []string
	Status   CIStatus
	// Mode and LastUpdate are zero for a table or index never configured.
	Mode       CIMode
	LastUpdate time.Time
}

// ciEntry is one table's or index's Contributor Insights.
type ciEntry struct {
	status  CIStatus // as last changed: ENABLING, DISABLING (or settled)
	mode    CIMode
	changed time.Time
	created time.Time // the rules' creation time, in their names
	hasSort bool
}

// settledLocked returns e's status now, settling ENABLING and DISABLING
// once InsightsSettle has passed.
func (r *Recorder) settledLocked(e *ciEntry) CIStatus {
	if e.status == CIEnabling || e.status == CIDisabling {
		if !r.clock().Before(e.changed.Add(r.opts.InsightsSettle)) {
			if e.status == CIEnabling {
				e.status = CIEnabled
			} else {
				e.status = CIDisabled
			}
		}
	}
	return e.status
}

// collects reports whether a status collects counts.
func collects(s CIStatus) bool { return s == CIEnabling || s == CIEnabled }

// ciCollectingLocked reports whether Contributor Insights collects for k.
func (r *Recorder) ciCollectingLocked(k resKey) bool {
	e := r.ci[k]
	return e != nil && collects(e.status)
}

// UpdateContributorInsights enables or disables Contributor Insights on a
// table (index "") or a GSI and returns the state the update answers. The
// caller has checked the table and index exist (and that the index is a
// GSI); hasSort says whether that key has a sort key (for the rules).
// Enabling with mode "" means ACCESSED_AND_THROTTLED_KEYS; enabling what
// is ENABLED in the same mode changes nothing; enabling it in another
// mode goes through ENABLING again, keeping its rules' creation time;
// disabling keeps the mode. (AWS's behaviour as recorded by the
// ack-api-quirks findings DDB-TABLE-092 and neighbours.)
func (r *Recorder) UpdateContributorInsights(table, index string, hasSort, enable bool, mode CIMode) ContributorInsights {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := resKey{table, index}
	e := r.ci[k]
	now := r.clock()
	if e == nil {
		e = &ciEntry{status: CIDisabled}
	}
	wasCollecting := collects(e.status)
	cur := r.settledLocked(e)
	e.hasSort = hasSort
	if enable {
		if mode == "" {
			mode = CIAccessedAndThrottledKeys
		}
		if cur != CIEnabled || e.mode != mode {
			if cur != CIEnabled && cur != CIEnabling {
				e.created = now
			}
			e.status, e.mode, e.changed = CIEnabling, mode, now
		}
		r.ci[k] = e
	} else if cur != CIDisabled {
		e.status, e.changed = CIDisabling, now
	}
	if c := collects(e.status); c != wasCollecting {
		if c {
			r.watchers.Add(1)
		} else {
			r.watchers.Add(-1)
		}
	}
	return ContributorInsights{TableName: table, IndexName: index, Status: e.status, Mode: e.mode}
}

// DescribeContributorInsights returns a table's or GSI's Contributor
// Insights: DISABLED with no mode for one never configured.
func (r *Recorder) DescribeContributorInsights(table, index string) ContributorInsights {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.ci[resKey{table, index}]
	if e == nil {
		return ContributorInsights{TableName: table, IndexName: index, Status: CIDisabled}
	}
	return r.describeLocked(table, index, e)
}

func (r *Recorder) describeLocked(table, index string, e *ciEntry) ContributorInsights {
	d := ContributorInsights{TableName: table, IndexName: index, Status: r.settledLocked(e), Mode: e.mode, LastUpdate: e.changed}
	if d.Status != CIDisabled && d.Status != CIFailed {
		d.RuleList = ruleNames(table, index, e)
	}
	return d
}

// ruleNames returns the CloudWatch rules DynamoDB creates: AWS's
// developer guide, "CloudWatch Contributor Insights for DynamoDB: How it
// works": DynamoDBContributorInsights-{PKC,PKT,SKC,SKT}-[resource_name]-
// [creationtimestamp]: most accessed (C) and most throttled (T)
// partition keys (PK) and, with a sort key, full keys (SK); the resource
// is the table's name, or "<table>-<index>" for a GSI; the timestamp is
// in Unix milliseconds. THROTTLED_KEYS mode has the T rules only.
func ruleNames(table, index string, e *ciEntry) []string {
	res := table
	if index != "" {
		res += "-" + index
	}
	kinds := []string{"PKC", "PKT", "SKC", "SKT"}
	var out []string
	for _, k := range kinds {
		if k[2] == 'C' && e.mode == CIThrottledKeys || k[0] == 'S' && !e.hasSort {
			continue
		}
		out = append(out, fmt.Sprintf("DynamoDBContributorInsights-%s-%s-%d", k, res, e.created.UnixMilli()))
	}
	return out
}

// ListContributorInsights returns the Contributor Insights of a table
// and its GSIs (every table's, for table ""), leaving out the DISABLED
// ones: by table name, a table before its indexes, indexes by name.
func (r *Recorder) ListContributorInsights(table string) []ContributorInsights {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []ContributorInsights
	for k, e := range r.ci {
		if table != "" && k.table != table {
			continue
		}
		if s := r.settledLocked(e); s == CIDisabled {
			continue
		}
		out = append(out, ContributorInsights{TableName: k.table, IndexName: k.index, Status: e.status, Mode: e.mode})
	}
	compare := func(a, b ContributorInsights) int {
		if c := cmp.Compare(a.TableName, b.TableName); c != 0 {
			return c
		}
		return cmp.Compare(a.IndexName, b.IndexName)
	}
	sort.Slice(out, func(i, j int) bool { return compare(out[i], out[j]) < 0 })
	return out
}

// ForgetContributorInsights drops the state and counters of a table
// (index "": the table and all its indexes, for DeleteTable) or of one
// index (a GSI deleted).
func (r *Recorder) ForgetContributorInsights(table, index string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, e := range r.ci {
		if k.table == table && (index == "" || k.index == index) {
			if collects(e.status) {
				r.watchers.Add(-1)
			}
			delete(r.ci, k)
		}
	}
}

// Contributors returns the top n contributors of each rule of a table's
// or GSI's Contributor Insights (nil when it is not collecting). Values
// are totals since the counters were last reset, where CloudWatch graphs
// the maximum per minute.
func (r *Recorder) Contributors(table, index string, n int) []report.ContributorRule {
	r.mu.Lock()
	defer r.mu.Unlock()
	k := resKey{table, index}
	e := r.ci[k]
	if e == nil || !collects(r.settledLocked(e)) {
		return nil
	}
	st := r.res[k]
	var out []report.ContributorRule
	for _, rule := range ruleNames(table, index, e) {
		rc := report.ContributorRule{Rule: rule}
		if st != nil {
			var tk *topK
			switch rule[len("DynamoDBContributorInsights-"):][:3] {
			case "PKC":
				tk = st.hotPK
			case "PKT":
				tk = st.throttledPK
			case "SKC":
				tk = st.hotKey
			default:
				tk = st.throttledKey
			}
			for _, c := range tk.top(n) {
				rc.Contributors = append(rc.Contributors, report.Contributor{Keys: c.key.text(), Value: c.count})
			}
		}
		out = append(out, rc)
	}
	return out
}
