package service

import (
	"errors"
	"io/fs"
	"os"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
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
func importFromMissingBucket(c *call, in *ImportTableInput, create *CreateTableInput, bucketDir string, req []byte) (out *ImportTableOutput, done bool, err error) {
	if st, err := os.Stat(bucketDir); err == nil && st.IsDir() || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	def, err := validateCreateTable(create)
	if err != nil {
		return nil, true, err
	}
	if def.throughput != nil {
		if err := c.checkTableMaxThroughput(def.throughput.read, def.throughput.write); err != nil {
			return nil, true, err
		}
	}
	if c.ns.getTable(def.name) != nil {
		return nil, true, apierr.ResourceInUse(apierr.MsgTableExistsPrefix + def.name)
	}
	j := newImportJob(c, in, req, c.tableARN(def.name), newUUID(), def.name)
	j.desc.ImportStatus, j.desc.FailureCode, j.desc.FailureMessage = "FAILED", s3NoSuchBucket, msgS3NoSuchBucket
	return c.recordImport(j), true, nil
}
