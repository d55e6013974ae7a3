package transfers

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
)

// report writes the output report of a bulk operation into the output
// bucket's directory: for each OutputType asked for that has lines,
// <S3KeyPrefix>/AWSDynamoDB/bulk/<id>/error.json (ERROR) or
// condition-check-failure.json (CONDITION_CHECK_FAILURE), a JSON line
// per item not written; and manifest.json, naming the operation, its
// counts and the files. The layout is ours (bulk_ops.go).
func (r *bulkRun) report(bucketDir string, out *OutputS3Configuration, id string) error {
	key := joinKey(str(out.S3KeyPrefix), "AWSDynamoDB", "bulk", id)
	dir := filepath.Join(bucketDir, filepath.FromSlash(key))
	type file struct {
		OutputType string `json:"OutputType"`
		S3Key      string `json:"S3Key"`
		ItemCount  int    `json:"ItemCount"`
	}
	manifest := struct {
		BulkOperationArn   string `json:"BulkOperationArn"`
		ProcessedItemCount int64  `json:"ProcessedItemCount"`
		FailedItemCount    int64  `json:"FailedItemCount"`
		Files              []file `json:"Files"`
	}{r.d.BulkOperationArn, r.d.ProcessedItemCount, r.d.FailedItemCount, []file{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, kind := range []struct {
		typ, name string
		lines     []json.RawMessage
	}{{"ERROR", "error.json", r.failed}, {"CONDITION_CHECK_FAILURE", "condition-check-failure.json", r.unmet}} {
		if !slices.Contains(out.OutputType, kind.typ) || len(kind.lines) == 0 {
			continue
		}
		var b bytes.Buffer
		for _, l := range kind.lines {
			b.Write(l)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(dir, kind.name), b.Bytes(), 0o644); err != nil {
			return err
		}
		manifest.Files = append(manifest.Files, file{kind.typ, key + "/" + kind.name, len(kind.lines)})
	}
	b, _ := json.Marshal(manifest)
	return os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644)
}
