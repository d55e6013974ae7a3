package expr

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

type evalCase struct {
	kind, item, names, values, expr, want string
	line                                  int
}

func readEvalCases(t testing.TB, path string) []evalCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var cases []evalCase
	for i := 0; i < len(lines); {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		c := evalCase{line: i + 1}
		fields := strings.Fields(lines[i])
		c.kind = fields[0]
		for _, f := range fields[1:] {
			k, v, _ := strings.Cut(f, "=")
			switch k {
			case "item":
				c.item = v
			case "names":
				c.names = v
			case "values":
				c.values = v
			}
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &c.expr); err != nil {
			t.Fatalf("line %d: %v", i+2, err)
		}
		c.want = lines[i+3]
		cases = append(cases, c)
		i += 4
	}
	return cases
}

// TestEvalOracle replays evaluations and updates recorded from DynamoDB
// Local (testdata/eval.txt): a filter's verdict on an item, or the item
// after an update (ALL_NEW without the key) or the update's error. Where
// AWS words an error differently the file holds AWS's text: a sum that
// needs more than 38 digits is worded as an overflow (storage's
// arithmetic; DynamoDB Local: "DynamoDB only supports precision up to 38
// digits").
func TestEvalOracle(t *testing.T) {
	for _, c := range readEvalCases(t, "testdata/eval.txt") {
		var names map[string]string
		if c.names != "" {
			json.Unmarshal([]byte(c.names), &names)
		}
		comp := NewCompiler(names, decodeValues(t, c.values))
		item := decodeItem(t, c.item)
		if c.item == "null" {
			item = nil
		}
		var got string
		switch c.kind {
		case "eval":
			cond, err := comp.Condition("FilterExpression", c.expr)
			if err != nil {
				got = err.Error()
				break
			}
			ok, err := cond.Eval(item)
			if err != nil {
				got = err.Error()
			} else if ok {
				got = "true"
			} else {
				got = "false"
			}
		case "apply":
			upd, err := comp.Update(c.expr)
			if err != nil {
				got = err.Error()
				break
			}
			before := encodeItem(item)
			out, err := upd.Apply(item)
			if after := encodeItem(item); after != before {
				t.Errorf("line %d: Apply modified its input", c.line)
			}
			if err != nil {
				got = err.Error()
			} else {
				got = encodeItem(out)
			}
		}
		if got != c.want {
			t.Errorf("line %d: %s %q on %s\n got %s\nwant %s", c.line, c.kind, c.expr, c.item, got, c.want)
		}
	}
}
