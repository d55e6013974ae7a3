package transfers

import (
	"errors"
	"io/fs"
	"os"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
)

// What AWS does with an ImportTable from a bucket that does not exist or
// a prefix that holds no object (ack-api-quirks DDB-IMPORT-012, verified
// against AWS 2026-10-09): a missing bucket is accepted, and the import
// ends FAILED with FailureCode S3NoSuchBucket and no table created, while
// DescribeImport keeps the TableArn and TableId it would have had; a
// prefix with no object ends COMPLETED with an empty ACTIVE table
// (importRun.run). A bucket is a directory under the export directory
// (s3dir.go).

// s3NoSuchBucket is the FailureCode and FailureMessage of an import from
// a missing bucket: AWS's, without S3's request IDs.
const (
	s3NoSuchBucket    = "S3NoSuchBucket"
	msgS3NoSuchBucket = "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket)"
)

// importFromMissingBucket answers an import whose bucket directory does
// not exist: the table's definition is checked as CreateTable checks it,
// then the import is recorded FAILED without a table. done is false when
// the bucket exists.
func importFromMissingBucket(c service.Call, in *ImportTableInput, create *service.CreateTableInput, bucketDir string, req []byte) (out *ImportTableOutput, done bool, err error) {
	if st, err := os.Stat(bucketDir); err == nil && st.IsDir() || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	name, err := checkCreateTable(c, create)
	if err != nil {
		return nil, true, err
	}
	j := newImportJob(c, in, req, c.TableARN(name), tablespec.NewUUID(), name)
	j.desc.ImportStatus, j.desc.FailureCode, j.desc.FailureMessage = "FAILED", s3NoSuchBucket, msgS3NoSuchBucket
	return recordImport(c, j), true, nil
}

// checkCreateTable checks in as CreateTable does before it creates
// anything (the definition, the account's throughput limits in the
// request's region, a table of that name) and returns the table's name.
func checkCreateTable(c service.Call, in *service.CreateTableInput) (string, error) {
	def, err := tablespec.ValidateCreateTable(in)
	if err != nil {
		return "", err
	}
	if def.Throughput != nil {
		if err := tablespec.CheckTableMaxThroughput(def.Throughput.Read, def.Throughput.Write, c.Region()); err != nil {
			return "", err
		}
	}
	if _, ok := c.Space().Table(def.Name); ok {
		return "", apierr.ResourceInUse(apierr.MsgTableExistsPrefix + def.Name)
	}
	return def.Name, nil
}
