package emulatortest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Seed is what a base namespace is filled with, once, before the tests
// fork it (Fork): tables, items, then a script. The npm helpers read the
// same files (docs/backups.md, "Seed once").
type Seed struct {
	// Tables is a JSON file of CreateTable inputs (one, or a list) or a
	// directory of such files; a table that exists is left as it is.
	Tables string
	// Items is a directory of TABLE.json files, each a JSON list of the
	// items of table TABLE: in DynamoDB JSON ({"pk": {"S": "a"}}) when
	// every attribute of every item is an object of one type key (S, N,
	// B, BOOL, NULL, M, L, SS, NS, BS), plain JSON otherwise (strings S,
	// numbers N as written, booleans BOOL, null NULL, lists L, objects M).
	// Written with BatchWriteItem, 25 items a call.
	Items string
	// Script runs last, with a client of the base.
	Script func(ctx context.Context, c *dynamodb.Client) error
}

// Seeded returns an emulator and a client of a base namespace filled
// with s, once: the base every test of the suite forks.
//
//	e, base := emulatortest.Seeded(t, emulator.Options{}, emulatortest.Seed{Tables: "testdata/tables", Items: "testdata/items"})
//	t.Run("refund", func(t *testing.T) {
//		t.Parallel()
//		client := emulatortest.Fork(t, e, base) // the seed, O(1); dropped when the test ends
//	})
func Seeded(t testing.TB, opts emulator.Options, s Seed) (*emulator.Emulator, *dynamodb.Client) {
	t.Helper()
	e, base := NewWith(t, opts)
	if err := LoadSeed(context.Background(), base, s); err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
	return e, base
}

// LoadSeed fills the namespace c reaches with s (TestMain can call it
// with a client of its own).
func LoadSeed(ctx context.Context, c *dynamodb.Client, s Seed) error {
	if s.Tables != "" {
		inputs, err := readTableInputs(s.Tables)
		if err != nil {
			return err
		}
		for _, in := range inputs {
			if err := rawCall(ctx, c, "CreateTable", in); err != nil && !strings.Contains(err.Error(), "ResourceInUseException") {
				return fmt.Errorf("seed: CreateTable: %w", err)
			}
		}
	}
	if s.Items != "" {
		if err := loadItems(ctx, c, s.Items); err != nil {
			return err
		}
	}
	if s.Script != nil {
		if err := s.Script(ctx, c); err != nil {
			return fmt.Errorf("seed: the script: %w", err)
		}
	}
	return nil
}

// readTableInputs reads the CreateTable inputs of a file or directory.
func readTableInputs(at string) ([]json.RawMessage, error) {
	files := []string{at}
	if st, err := os.Stat(at); err != nil {
		return nil, fmt.Errorf("seed: tables: %w", err)
	} else if st.IsDir() {
		if files, err = filepath.Glob(filepath.Join(at, "*.json")); err != nil {
			return nil, err
		}
		slices.Sort(files)
	}
	var out []json.RawMessage
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("seed: tables: %w", err)
		}
		b = bytes.TrimSpace(b)
		if len(b) > 0 && b[0] == '[' {
			var list []json.RawMessage
			if err := json.Unmarshal(b, &list); err != nil {
				return nil, fmt.Errorf("seed: tables: %s: %w", f, err)
			}
			out = append(out, list...)
			continue
		}
		if !json.Valid(b) {
			return nil, fmt.Errorf("seed: tables: %s is not JSON", f)
		}
		out = append(out, b)
	}
	return out, nil
}

// loadItems writes the items of dir's TABLE.json files.
func loadItems(ctx context.Context, c *dynamodb.Client, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("seed: items: %s holds no TABLE.json file", dir)
	}
	slices.Sort(files)
	for _, f := range files {
		table := strings.TrimSuffix(filepath.Base(f), ".json")
		items, err := readItems(f)
		if err != nil {
			return err
		}
		for len(items) > 0 {
			n := min(len(items), 25)
			reqs := make([]map[string]any, n)
			for i, it := range items[:n] {
				reqs[i] = map[string]any{"PutRequest": map[string]any{"Item": it}}
			}
			if err := rawCall(ctx, c, "BatchWriteItem", map[string]any{"RequestItems": map[string]any{table: reqs}}); err != nil {
				return fmt.Errorf("seed: items of %s: %w", table, err)
			}
			items = items[n:]
		}
	}
	return nil
}

// readItems reads one TABLE.json file as DynamoDB JSON items.
func readItems(f string) ([]map[string]any, error) {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil, fmt.Errorf("seed: items: %w", err)
	}
	items, err := decodeItems(b)
	if err != nil {
		return nil, fmt.Errorf("seed: items: %s: %w", f, err)
	}
	return items, nil
}

// decodeItems decodes a JSON list of items, DynamoDB JSON or plain JSON,
// into DynamoDB JSON.
func decodeItems(b []byte) ([]map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var items []map[string]any
	if err := d.Decode(&items); err != nil {
		return nil, fmt.Errorf("want a JSON list of items: %w", err)
	}
	if isDynamoDBJSON(items) {
		return items, nil
	}
	for i, it := range items {
		av := make(map[string]any, len(it))
		for k, v := range it {
			av[k] = plainToAV(v)
		}
		items[i] = av
	}
	return items, nil
}

var avTypes = []string{"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"}

// isDynamoDBJSON reports whether every attribute of every item is an
// object of one type key.
func isDynamoDBJSON(items []map[string]any) bool {
	for _, it := range items {
		for _, v := range it {
			m, ok := v.(map[string]any)
			if !ok || len(m) != 1 {
				return false
			}
			for k := range m {
				if !slices.Contains(avTypes, k) {
					return false
				}
			}
		}
	}
	return true
}

// plainToAV is the DynamoDB JSON of a plain JSON value.
func plainToAV(v any) any {
	switch v := v.(type) {
	case string:
		return map[string]any{"S": v}
	case json.Number:
		return map[string]any{"N": v.String()}
	case bool:
		return map[string]any{"BOOL": v}
	case nil:
		return map[string]any{"NULL": true}
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = plainToAV(e)
		}
		return map[string]any{"L": l}
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = plainToAV(e)
		}
		return map[string]any{"M": m}
	}
	panic(fmt.Sprintf("emulatortest: a JSON value of type %T", v)) // json.Decoder makes no other
}

// rawCall sends one DynamoDB JSON request through c's endpoint, HTTP
// client and credentials (signed, so a server with Credentials takes
// it): what the seed's JSON files are, without the SDK's types.
func rawCall(ctx context.Context, c *dynamodb.Client, op string, in any) error {
	body, ok := in.(json.RawMessage)
	if !ok {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	o := c.Options()
	endpoint := "http://dynamoemu.invalid"
	if o.BaseEndpoint != nil {
		endpoint = *o.BaseEndpoint
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint+"/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	cred, err := o.Credentials.Retrieve(ctx)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(body)
	if err := v4.NewSigner().SignHTTP(ctx, cred, req, hex.EncodeToString(sum[:]), "dynamodb", o.Region, time.Now()); err != nil {
		return err
	}
	var hc dynamodb.HTTPClient = http.DefaultClient
	if o.HTTPClient != nil {
		hc = o.HTTPClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %d %s", op, res.StatusCode, out)
	}
	var answer struct {
		UnprocessedItems map[string][]any
	}
	if op == "BatchWriteItem" && json.Unmarshal(out, &answer) == nil && len(answer.UnprocessedItems) > 0 {
		return fmt.Errorf("%s: unprocessed items: %s", op, out)
	}
	return nil
}
