package transfers

import (
	"errors"
	"fmt"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// The local directory that stands for Amazon S3 in exports and imports
// (S3Dir, the emulator's Options.ExportDir, cmd/dynamoemu's -exportDir):
// a bucket is a sub-directory, an object key a path below it, with "/"
// as the separator. "" means <os.TempDir()>/dynamoemu-s3.

// S3Dir is the directory standing for Amazon S3, a setting of the
// service's Config.Settings under S3DirSetting ("" or none:
// <os.TempDir()>/dynamoemu-s3).
type S3Dir string

// S3DirSetting is the key of the service's S3Dir.
var S3DirSetting service.SettingOf[S3Dir]

// s3Root returns the directory standing for S3.
func s3Root(c service.Call) string {
	if d, _ := S3DirSetting.Of(c.Space()); d != "" {
		return string(d)
	}
	return filepath.Join(os.TempDir(), "dynamoemu-s3")
}

// s3Bucket checks an S3Bucket member (AWS's model: at most 255
// characters of [a-zA-Z0-9.-_], starting and ending with a letter or a
// digit) and returns the bucket's directory.
func s3Bucket(c service.Call, cs *apierr.Constraints, bucket, path string) string {
	if len(bucket) > 255 {
		cs.Add(apierr.Quote(bucket), path, apierr.LenLE(255))
		return ""
	}
	ok := len(bucket) >= 2 && alnum(bucket[0]) && alnum(bucket[len(bucket)-1])
	for i := 0; ok && i < len(bucket); i++ {
		c := bucket[i]
		ok = alnum(c) || c == '.' || c == '-' || c == '_'
	}
	if !ok {
		cs.Add(apierr.Quote(bucket), path, "Member must satisfy regular expression pattern: ^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$")
		return ""
	}
	return filepath.Join(s3Root(c), bucket)
}

func alnum(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// s3Key checks an object key or prefix for the directory mapping: no
// "." or ".." segment and no NUL (S3 allows them; a directory cannot
// hold them safely), at most 1024 bytes.
func s3Key(cs *apierr.Constraints, key, path string) bool {
	if len(key) > 1024 {
		cs.Add(apierr.Quote(key), path, apierr.LenLE(1024))
		return false
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "." || seg == ".." || strings.ContainsRune(seg, 0) || strings.ContainsRune(seg, '\\') {
			return false
		}
	}
	return true
}

// joinKey joins S3 key parts with "/", skipping empty ones.
func joinKey(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p = strings.Trim(p, "/"); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "/")
}

// listObjects returns the keys of the objects under prefix in the
// bucket's directory, sorted; none is an error naming the prefix.
// errNoObjects: no object has the prefix (an import then COMPLETES with
// an empty table: imports_bucket.go).
var errNoObjects = errors.New("no objects found")

func listObjects(bucketDir, prefix string) ([]string, error) {
	var keys []string
	err := filepath.WalkDir(bucketDir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if e.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(bucketDir, path)
		if err != nil {
			return err
		}
		if key := filepath.ToSlash(rel); strings.HasPrefix(key, prefix) {
			keys = append(keys, key)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w under the S3 key prefix %s", errNoObjects, prefix)
	}
	slices.Sort(keys)
	return keys, nil
}
