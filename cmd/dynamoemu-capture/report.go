package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// writeText prints each departure (the request, both answers, the
// differences) and the summary by operation.
func (r *result) writeText(w io.Writer) {
	for i, d := range r.Departures {
		fmt.Fprintf(w, "departure %d: %s:%d: exchange %d, %s\n", i+1, r.File, d.Line, d.Seq, d.Target)
		fmt.Fprintf(w, "  request:  %s\n", d.Request)
		fmt.Fprintf(w, "  recorded: %d %s\n", d.Recorded.Status, d.Recorded.Body)
		fmt.Fprintf(w, "  replayed: %d %s\n", d.Replayed.Status, d.Replayed.Body)
		fmt.Fprintln(w, "  diff:")
		for _, df := range d.Diffs {
			fmt.Fprintf(w, "    %s\n", df)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%s: %d exchanges, %d sent, %d compared, %d departures (table prefix %s)\n",
		r.File, r.Exchanges, r.Sent, r.Compared, len(r.Departures), r.Prefix)
	if r.Stopped != "" {
		fmt.Fprintf(w, "stopped: %s\n", r.Stopped)
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\texchanges\tcompared\tdepartures\t")
	for _, o := range r.Operations {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", o.Operation, o.Exchanges, o.Compared, o.Departures)
	}
	_ = tw.Flush()
}

// writeJSON writes the result as one JSON object.
func (r *result) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
