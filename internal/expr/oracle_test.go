package expr

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// oracleCase is one entry of testdata/oracle.txt: an expression and the
// verdict DynamoDB Local gave for it ("ok" or the error message).
type oracleCase struct {
	kind, names, values string
	expr                string
	want                string
	line                int
}

// readOracle parses the datadriven file: a header line "kind [names=..]
// [values=..]", the expression as a JSON string, "----", the verdict.
func readOracle(t testing.TB, path string) []oracleCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []oracleCase
	lines := strings.Split(string(data), "\n")
	for i := 0; i+3 < len(lines)+1; {
		if strings.TrimSpace(lines[i]) == "" {
			i++
			continue
		}
		c := oracleCase{line: i + 1}
		fields := strings.Fields(lines[i])
		c.kind = fields[0]
		for _, f := range fields[1:] {
			switch {
			case strings.HasPrefix(f, "names="):
				c.names = strings.TrimPrefix(f, "names=")
			case strings.HasPrefix(f, "values="):
				c.values = strings.TrimPrefix(f, "values=")
			}
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &c.expr); err != nil {
			t.Fatalf("line %d: %v", i+2, err)
		}
		if lines[i+2] != "----" {
			t.Fatalf("line %d: want ----", i+3)
		}
		c.want = lines[i+3]
		cases = append(cases, c)
		i += 4
	}
	return cases
}

var oracleKeySchema = storage.KeySchema{
	Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS},
	Sort:      storage.KeyAttr{Name: "sk", Kind: storage.KindN},
}

// verdict compiles c as the emulator would and returns "ok" or the message.
func verdict(t testing.TB, c oracleCase) string {
	var names map[string]string
	if c.names != "" {
		if err := json.Unmarshal([]byte(c.names), &names); err != nil {
			t.Fatal(err)
		}
	}
	comp := NewCompiler(names, decodeValues(t, c.values))
	var err error
	switch c.kind {
	case "condition":
		_, err = comp.Condition("ConditionExpression", c.expr)
	case "filter":
		_, err = comp.Condition("FilterExpression", c.expr)
	case "update":
		_, err = comp.Update(c.expr)
	case "projection":
		_, err = comp.Projection(c.expr)
	case "keycond":
		_, err = comp.KeyCondition(c.expr, oracleKeySchema)
	default:
		t.Fatalf("unknown kind %q", c.kind)
	}
	if err == nil {
		err = comp.Unused()
	}
	if err != nil {
		if _, ok := err.(*Error); !ok {
			t.Errorf("error %T is not *expr.Error", err)
		}
		return err.Error()
	}
	return "ok"
}

// TestOracle checks every verdict recorded from DynamoDB Local.
func TestOracle(t *testing.T) {
	for _, c := range readOracle(t, "testdata/oracle.txt") {
		if got := verdict(t, c); got != c.want && !awsDiffers(got, c.want) {
			t.Errorf("line %d: %s %q\n got %s\nwant %s", c.line, c.kind, c.expr, got, c.want)
		}
	}
}

// awsDiffers reports whether got is AWS's answer where DynamoDB Local's
// recorded verdict want differs from AWS's: AWS names the missed element in
// "Query condition missed key schema element: pk", prefixes the one
// condition per key message with "Invalid KeyConditionExpression: " and
// counts the conditions against the key's attributes where Local says
// "Conditions can be of length 1 or 2 only" (keycond.go's msgKeyCount).
func awsDiffers(got, want string) bool {
	switch want {
	case msgKeyMissed:
		return strings.HasPrefix(got, msgKeyMissed+": ")
	case msgKeyOnePerKey:
		return got == "Invalid "+paramKeyCondition+": "+msgKeyOnePerKey
	case msgKeyLength:
		return strings.HasPrefix(got, "The number of query conditions (")
	}
	return false
}
