package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteText prints the report for people (at shutdown, in a test's log):
// per table and index the traffic, hot keys, partitions and unused
// indexes; the costliest requests; and the design's patterns and
// findings.
func (rep *Report) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	p("Access-pattern report since %s\n", rep.Since.UTC().Format("2006-01-02T15:04:05Z"))
	for _, t := range rep.Tables {
		p("\nTable %s", t.Table)
		if t.ItemCount > 0 || t.SizeBytes > 0 {
			p(" (%d items, %d bytes)", t.ItemCount, t.SizeBytes)
		}
		p("\n")
		for _, r := range t.Resources {
			name := "  table"
			if r.Index != "" {
				name = "  index " + r.Index
			}
			p("%s: %d requests (%d gets, %d queries, %d scans, %d writes), items read %d returned %d",
				name, r.Requests, r.Gets, r.Queries, r.Scans, r.Writes, r.ItemsRead, r.ItemsReturned)
			if r.FilterWaste > 0 {
				p(" (filters dropped %.0f%% of what they read)", 100*r.FilterWaste)
			}
			p(", %s RCU %s WCU", num(r.ReadUnits), num(r.WriteUnits))
			p("%s", vectorBytes(r.VectorSearchBytes, r.VectorWriteBytes))
			if r.Throttled > 0 {
				p(", %d throttled", r.Throttled)
			}
			p("\n")
			for _, o := range r.Operations {
				p("    %-22s %6d requests  read %d returned %d  %s RCU %s WCU%s\n", o.Op, o.Requests, o.ItemsRead, o.ItemsReturned,
					num(o.ReadUnits), num(o.WriteUnits), vectorBytes(o.VectorSearchBytes, o.VectorWriteBytes))
			}
			for i, k := range r.HotKeys {
				if i == 0 {
					p("    hottest partition keys:")
				}
				p(" %s (%.0f%%)", k.Key, 100*k.Share)
			}
			if len(r.HotKeys) > 0 {
				p("\n")
			}
			for i, ps := range r.LargestPartitions {
				if i == 0 {
					p("    largest partitions:")
				}
				p(" %s (%d items, %d bytes)", ps.Key, ps.Items, ps.Bytes)
			}
			if len(r.LargestPartitions) > 0 {
				p("\n")
			}
		}
		if len(t.UnusedIndexes) > 0 {
			p("  unused indexes: %s\n", strings.Join(t.UnusedIndexes, ", "))
		}
	}
	if len(rep.Costliest) > 0 {
		p("\nCostliest requests (read request units, a write unit counted as %d):\n", WritePriceRatio)
		for _, c := range rep.Costliest {
			where := c.Table
			if c.Index != "" {
				where += "/" + c.Index
			}
			p("  %8s  %-18s %s %s", num(c.Cost), c.Op, where, c.Key)
			if c.Filter {
				p(" +filter")
			}
			p("  read %d returned %d", c.ItemsRead, c.ItemsReturned)
			if c.Pattern != "" {
				p("  [%s]", c.Pattern)
			}
			p("\n")
		}
	}
	if d := rep.Design; d != nil {
		p("\nDesign patterns:\n")
		for _, pt := range d.Patterns {
			p("  %-20s %-6s %-18s %-44s %5d requests", pt.Name, pt.Access, pt.ServedBy, pt.Condition, pt.Requests)
			if pt.Description != "" {
				p("  %s", pt.Description)
			}
			p("\n")
		}
		if len(d.Findings) == 0 {
			p("\nFindings: none\n")
		} else {
			p("\nFindings:\n")
		}
		for _, f := range d.Findings {
			p("  %-22s %s\n", f.Kind, f.Detail)
		}
	}
	return b.Flush()
}

// num prints capacity units without needless decimals.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// vectorBytes is the text of a resource's or operation's vector index
// bytes ("" when none).
func vectorBytes(search, write float64) string {
	out := ""
	if search > 0 {
		out += ", " + num(search) + " vector search bytes"
	}
	if write > 0 {
		out += ", " + num(write) + " vector write bytes"
	}
	return out
}
