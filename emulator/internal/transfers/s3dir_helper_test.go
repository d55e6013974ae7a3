package transfers

import (
	"os"
	"path/filepath"
	"testing"
)

// s3Dir is a directory standing for S3 holding the buckets named: as on
// AWS, an export to a bucket not made first FAILS (S3NoSuchBucket).
func s3Dir(t testing.TB, buckets ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, b := range buckets {
		if err := os.MkdirAll(filepath.Join(dir, b), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
