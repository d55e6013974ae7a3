package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/dynamoemu/dynamoemu/internal/capture"
)

// The kinds of departure, in the order the report gives them: what the
// user does about each differs.
var kinds = []string{"behaviour", "shape", "order", "capacity", "wording"}

// kindDoc says what each kind is.
var kindDoc = map[string]string{
	"behaviour": "another status, error type or value",
	"shape":     "a member present in one answer only, or of another JSON type",
	"order":     "the same elements in another order",
	"capacity":  "ConsumedCapacity alone",
	"wording":   "an error's message alone",
}

// kindOf is the kind of a departure of e whose replayed body is got.
func kindOf(e capture.Exchange, got []byte, diffs []capture.Diff, prefix string) string {
	all := func(f func(capture.Diff) bool) bool {
		for _, d := range diffs {
			if !f(d) {
				return false
			}
		}
		return true
	}
	last := func(p string) string {
		if i := strings.LastIndexAny(p, ".]"); i >= 0 {
			return p[i+1:]
		}
		return p
	}
	for _, d := range diffs {
		if d.Path == "status" || d.Path == "__type" || d.Path == "(body)" {
			return "behaviour"
		}
	}
	switch {
	case all(func(d capture.Diff) bool { return strings.HasPrefix(d.Path, "ConsumedCapacity") }):
		return "capacity"
	case all(func(d capture.Diff) bool { return last(d.Path) == "message" || last(d.Path) == "Message" }):
		return "wording"
	case capture.OrderOnly(e.Response, got, prefix, e.Ignore...):
		return "order"
	}
	for _, d := range diffs {
		if d.Recorded == "" || d.Replayed == "" || jsonType(d.Recorded) != jsonType(d.Replayed) {
			return "shape"
		}
	}
	return "behaviour"
}

// jsonType is the first byte's class of a JSON text.
func jsonType(s string) byte {
	if s == "" {
		return 0
	}
	switch c := s[0]; c {
	case '{', '[', '"', 't', 'f', 'n':
		if c == 'f' {
			return 't'
		}
		return c
	}
	return '0'
}

// byKind counts the departures of each kind.
func (r *result) byKind() map[string]int {
	m := map[string]int{}
	for _, d := range r.Departures {
		m[d.Kind]++
	}
	return m
}

// writeText prints the departures grouped by kind, each with its line,
// request, both answers and differences, then the summary.
func (r *result) writeText(w io.Writer) {
	n := 0
	for _, k := range kinds {
		var of []departure
		for _, d := range r.Departures {
			if d.Kind == k {
				of = append(of, d)
			}
		}
		if len(of) == 0 {
			continue
		}
		fmt.Fprintf(w, "== %s: %d (%s)\n\n", k, len(of), kindDoc[k])
		for _, d := range of {
			n++
			fmt.Fprintf(w, "departure %d (%s): %s:%d: exchange %d, %s\n", n, k, r.File, d.Line, d.Seq, d.Target)
			fmt.Fprintf(w, "  request:  %s\n", d.Request)
			fmt.Fprintf(w, "  recorded: %d %s\n", d.Recorded.Status, d.Recorded.Body)
			fmt.Fprintf(w, "  replayed: %d %s\n", d.Replayed.Status, d.Replayed.Body)
			fmt.Fprintln(w, "  diff:")
			for _, df := range d.Diffs {
				fmt.Fprintf(w, "    %s\n", df)
			}
			fmt.Fprintln(w)
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped: %s:%d: exchange %d, %s: %s\n", r.File, s.Line, s.Seq, s.Target, s.Why)
	}
	fmt.Fprintf(w, "%s: %d exchanges, %d sent, %d compared, %d departures, %d skipped (table prefix %s)\n",
		r.File, r.Exchanges, r.Sent, r.Compared, len(r.Departures), len(r.Skipped), r.Prefix)
	if len(r.Departures) > 0 {
		var parts []string
		bk := r.byKind()
		for _, k := range kinds {
			if bk[k] > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", k, bk[k]))
			}
		}
		fmt.Fprintf(w, "departures by kind: %s\n", strings.Join(parts, ", "))
	}
	if r.Paired > 0 {
		fmt.Fprintf(w, "%d answers of overlapping exchanges matched another's recorded answer (another order)\n", r.Paired)
	}
	if r.Ended != "" {
		fmt.Fprintf(w, "ended: %s\n", r.Ended)
	}
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

// jsonDiff is a difference with its values as JSON.
type jsonDiff struct {
	Path     string          `json:"path"`
	Recorded json.RawMessage `json:"recorded,omitempty"` // absent: the member is not in the recorded answer
	Replayed json.RawMessage `json:"replayed,omitempty"`
}

// jsonDeparture is a departure as -json writes it.
type jsonDeparture struct {
	departure
	Diffs []jsonDiff `json:"diffs"`
}

// summary is -json's summary member.
type summary struct {
	Exchanges  int            `json:"exchanges"`
	Sent       int            `json:"sent"`
	Compared   int            `json:"compared"`
	Departures int            `json:"departures"`
	Skipped    int            `json:"skipped"`
	Paired     int            `json:"pairedOutOfOrder"`
	ByKind     map[string]int `json:"byKind"`
	Operations []opCount      `json:"operations"`
}

// writeJSON writes the result as one JSON object: file, tablePrefix,
// summary, departures (bodies as JSON), skipped, ended, stopped.
func (r *result) writeJSON(w io.Writer) error {
	deps := make([]jsonDeparture, 0, len(r.Departures))
	for _, d := range r.Departures {
		jd := jsonDeparture{departure: d, Diffs: []jsonDiff{}}
		for _, df := range d.Diffs {
			jd.Diffs = append(jd.Diffs, jsonDiff{Path: df.Path, Recorded: rawOrNil(df.Recorded), Replayed: rawOrNil(df.Replayed)})
		}
		deps = append(deps, jd)
	}
	out := struct {
		File       string          `json:"file"`
		Prefix     string          `json:"tablePrefix"`
		Summary    summary         `json:"summary"`
		Departures []jsonDeparture `json:"departures"`
		Skipped    []skip          `json:"skipped"`
		Ended      string          `json:"ended,omitempty"`
		Stopped    string          `json:"stopped,omitempty"`
	}{r.File, r.Prefix, summary{r.Exchanges, r.Sent, r.Compared, len(r.Departures), len(r.Skipped), r.Paired, r.byKind(), r.Operations},
		deps, r.Skipped, r.Ended, r.Stopped}
	if out.Summary.Operations == nil {
		out.Summary.Operations = []opCount{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// rawOrNil is a diff's JSON text as a JSON value; nil when absent.
func rawOrNil(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return bodyJSON([]byte(s))
}
