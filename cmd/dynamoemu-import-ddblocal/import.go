package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/ddblocal"
)

// source is one DynamoDB Local file, opened, with its tables.
type source struct {
	file   *ddblocal.File
	ns     ddblocal.Namespace
	tables []ddblocal.Table
}

// importAll imports every DynamoDB Local file of from (a directory or one
// file) into dbPath: first every file is opened and read, and the
// destination checked for tables of the same names, then the tables are
// made and filled.
func importAll(from, dbPath string, out io.Writer) error {
	paths, err := sourceFiles(from)
	if err != nil {
		return err
	}
	var srcs []*source
	defer func() {
		for _, s := range srcs {
			s.file.Close()
		}
	}()
	for _, p := range paths {
		ns, _ := ddblocal.ParseFileName(filepath.Base(p))
		f, err := ddblocal.Open(p)
		if err != nil {
			return err
		}
		s := &source{file: f, ns: ns}
		srcs = append(srcs, s)
		if s.tables, err = f.Tables(); err != nil {
			return err
		}
	}
	// One emulator for the shared database, one for the others, one after
	// the other: -sharedDb decides which databases a server loads.
	for _, shared := range []bool{true, false} {
		var group []*source
		for _, s := range srcs {
			if s.ns.Shared == shared {
				group = append(group, s)
			}
		}
		if len(group) == 0 {
			continue
		}
		if err := checkFree(dbPath, shared, group); err != nil {
			return err
		}
	}
	for _, shared := range []bool{true, false} {
		var group []*source
		for _, s := range srcs {
			if s.ns.Shared == shared {
				group = append(group, s)
			}
		}
		if len(group) == 0 {
			continue
		}
		if err := importGroup(dbPath, shared, group, out); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "not carried over: creation times and stream ARNs (made anew), stream records (streams start empty); DynamoDB Local keeps no tags, table class or encryption settings")
	return nil
}

// sourceFiles lists DynamoDB Local's files in from, or from itself if it
// is a file.
func sourceFiles(from string) ([]string, error) {
	st, err := os.Stat(from)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		if _, ok := ddblocal.ParseFileName(filepath.Base(from)); !ok {
			return nil, fmt.Errorf("%s: DynamoDB Local names its files %s or <access key>_<region>.db: rename it so that its name says whose database it is", from, ddblocal.SharedFileName)
		}
		return []string{from}, nil
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range entries {
		if _, ok := ddblocal.ParseFileName(e.Name()); ok && e.Type().IsRegular() {
			paths = append(paths, filepath.Join(from, e.Name()))
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s holds no DynamoDB Local files (%s, <access key>_<region>.db)", from, ddblocal.SharedFileName)
	}
	sort.Strings(paths)
	return paths, nil
}

// openEmulator opens dbPath as the server would with -sharedDb or without.
func openEmulator(dbPath string, shared bool) (*emulator.Emulator, error) {
	emu, err := emulator.New(emulator.Options{SharedDB: shared, DataDir: dbPath})
	if err != nil {
		return nil, fmt.Errorf("opening -dbPath %s: %w", dbPath, err)
	}
	return emu, nil
}

// checkFree fails if a table of group exists in its database in dbPath.
func checkFree(dbPath string, shared bool, group []*source) error {
	emu, err := openEmulator(dbPath, shared)
	if err != nil {
		return err
	}
	defer emu.Close()
	for _, s := range group {
		c := client{h: emu.Handler(), ns: s.ns}
		var have []string
		var start string
		for {
			in := map[string]any{}
			if start != "" {
				in["ExclusiveStartTableName"] = start
			}
			var lt struct {
				TableNames             []string
				LastEvaluatedTableName string
			}
			if err := c.call("ListTables", in, &lt); err != nil {
				return err
			}
			have = append(have, lt.TableNames...)
			if start = lt.LastEvaluatedTableName; start == "" {
				break
			}
		}
		for _, t := range s.tables {
			for _, h := range have {
				if h == t.Name {
					return fmt.Errorf("table %s already exists in %s's database (%s) in -dbPath %s: nothing was imported (import into a new -dbPath, or delete the table there first)",
						t.Name, s.ns, s.file.Path(), dbPath)
				}
			}
		}
	}
	return nil
}

// importGroup makes group's tables in dbPath and fills them.
func importGroup(dbPath string, shared bool, group []*source, out io.Writer) error {
	emu, err := openEmulator(dbPath, shared)
	if err != nil {
		return err
	}
	for _, s := range group {
		c := client{h: emu.Handler(), ns: s.ns}
		for _, t := range s.tables {
			if err := importTable(c, s, t, out); err != nil {
				emu.Close()
				return err
			}
		}
	}
	return emu.Close()
}

// importTable makes t, turns on its TTL, writes its items 25 at a time
// and counts them.
func importTable(c client, s *source, t ddblocal.Table, out io.Writer) error {
	if err := c.call("CreateTable", t.CreateTableInput(), nil); err != nil {
		return fmt.Errorf("%s: table %s: %w", s.file.Path(), t.Name, err)
	}
	if t.TTLAttribute != "" {
		spec := map[string]any{"TableName": t.Name, "TimeToLiveSpecification": map[string]any{"Enabled": true, "AttributeName": t.TTLAttribute}}
		if err := c.call("UpdateTimeToLive", spec, nil); err != nil {
			return fmt.Errorf("%s: table %s: TimeToLive: %w", s.file.Path(), t.Name, err)
		}
	}
	var batch []json.RawMessage
	var n int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		reqs := make([]map[string]any, len(batch))
		for i, item := range batch {
			reqs[i] = map[string]any{"PutRequest": map[string]any{"Item": item}}
		}
		var res struct{ UnprocessedItems map[string][]json.RawMessage }
		if err := c.call("BatchWriteItem", map[string]any{"RequestItems": map[string]any{t.Name: reqs}}, &res); err != nil {
			return fmt.Errorf("%s: table %s: writing items %d to %d: %w", s.file.Path(), t.Name, n-int64(len(batch))+1, n, err)
		}
		if len(res.UnprocessedItems) > 0 {
			return fmt.Errorf("%s: table %s: %d items were left unprocessed", s.file.Path(), t.Name, len(res.UnprocessedItems[t.Name]))
		}
		batch = batch[:0]
		return nil
	}
	err := s.file.Items(t.Name, func(item json.RawMessage) error {
		batch = append(batch, item)
		n++
		if len(batch) == 25 {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return err
	}
	want, err := s.file.ItemCount(t.Name)
	if err != nil {
		return err
	}
	got, err := c.count(t.Name)
	if err != nil {
		return err
	}
	if got != want || n != want {
		return fmt.Errorf("%s: table %s: DynamoDB Local's file holds %d items, %d were read and the imported table holds %d", s.file.Path(), t.Name, want, n, got)
	}
	fmt.Fprintf(out, "%s: %s: %d items%s\n", s.ns, t.Name, got, describe(t))
	return nil
}

// describe lists t's settings for the import's line.
func describe(t ddblocal.Table) string {
	var parts []string
	if len(t.LocalSecondaryIndexes) > 0 {
		parts = append(parts, fmt.Sprintf("%d LSI", len(t.LocalSecondaryIndexes)))
	}
	if len(t.GlobalSecondaryIndexes) > 0 {
		parts = append(parts, fmt.Sprintf("%d GSI", len(t.GlobalSecondaryIndexes)))
	}
	if t.TTLAttribute != "" {
		parts = append(parts, "TTL on "+t.TTLAttribute)
	}
	if t.StreamViewType != "" {
		parts = append(parts, "stream "+t.StreamViewType)
	}
	if t.DeletionProtection {
		parts = append(parts, "deletion protection")
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

// client sends DynamoDB requests to an emulator's handler in process, as
// the namespace's access key and region.
type client struct {
	h  http.Handler
	ns ddblocal.Namespace
}

// call sends op with in and decodes the answer into out (nil: ignore it).
func (c client) call(op string, in, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	key, region := c.ns.AccessKey, c.ns.Region
	if c.ns.Shared {
		key, region = "shared", "us-east-1"
	}
	r := httptest.NewRequest(http.MethodPost, "http://localhost/", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/x-amz-json-1.0")
	r.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+key+"/20260101/"+region+"/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		var e struct {
			Type    string `json:"__type"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(w.Body.Bytes(), &e)
		if e.Type == "" {
			return fmt.Errorf("%s: %d %s", op, w.Code, strings.TrimSpace(w.Body.String()))
		}
		return fmt.Errorf("%s: %s: %s", op, e.Type[strings.LastIndexByte(e.Type, '#')+1:], e.Message)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(w.Body.Bytes(), out)
}

// count is the number of items of table (a Scan with Select COUNT).
func (c client) count(table string) (int64, error) {
	var total int64
	var start json.RawMessage
	for {
		in := map[string]any{"TableName": table, "Select": "COUNT", "ConsistentRead": true}
		if start != nil {
			in["ExclusiveStartKey"] = start
		}
		var res struct {
			Count            int64
			LastEvaluatedKey json.RawMessage
		}
		if err := c.call("Scan", in, &res); err != nil {
			return 0, err
		}
		total += res.Count
		if len(res.LastEvaluatedKey) == 0 || string(res.LastEvaluatedKey) == "null" {
			return total, nil
		}
		start = res.LastEvaluatedKey
	}
}
