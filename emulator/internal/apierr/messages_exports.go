package apierr

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Exports and imports (emulator/internal/transfers), after
// AWS's API reference (API_ExportTableToPointInTime, API_DescribeExport,
// API_ListExports, API_ImportTable, API_DescribeImport, API_ListImports).
// DynamoDB Local has none of these operations; each message says its
// source, and where no record of AWS's wording was found it is ours.
var (
	// ErrExportNotFound: no export has that ARN.
	ErrExportNotFound = &Class{"ExportNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrExportConflict: a ClientToken reused with other parameters.
	ErrExportConflict = &Class{"ExportConflictException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrInvalidExportTime: an ExportTime outside the PITR window.
	ErrInvalidExportTime = &Class{"InvalidExportTimeException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrImportNotFound: no import has that ARN.
	ErrImportNotFound = &Class{"ImportNotFoundException", nsDynamoDB, http.StatusBadRequest, false}
	// ErrImportConflict: a ClientToken reused with other parameters.
	ErrImportConflict = &Class{"ImportConflictException", nsDynamoDB, http.StatusBadRequest, false}
)

// The records named below are ack-api-quirks' findings (services/dynamodb,
// export.md and import.md, verified against AWS 2026-10-09): a public
// test suite run against AWS, quoting its answers.

// MsgExportNotFound answers DescribeExport of an unknown export ARN:
// AWS's, prefix doubled as it is (DDB-EXPORT-006: "Export not found:
// Export not found: arn:aws:dynamodb:...:table/t/export/0").
func MsgExportNotFound(arn string) string { return "Export not found: Export not found: " + arn }

// MsgImportNotFound answers DescribeImport of an unknown import ARN. The
// records give the type only (DDB-IMPORT-010); the text follows
// DescribeExport's (ours).
func MsgImportNotFound(arn string) string { return "Import not found: Import not found: " + arn }

// MsgExportARNInvalid and MsgImportARNInvalid answer DescribeExport and
// DescribeImport of an ARN that is not an export's (an import's): a
// table ARN, the other kind's ARN, any other text (DDB-EXPORT-006,
// DDB-IMPORT-010), as ValidationException.
const (
	MsgExportARNInvalid = "Invalid Export ARN"
	MsgImportARNInvalid = "Invalid Import ARN"
)

// MsgExportTimeInvalid: an ExportTime outside the recovery window
// (DDB-EXPORT-001: "Export Time is invalid", for a time in the future
// and one before point-in-time recovery was enabled).
const MsgExportTimeInvalid = "Export Time is invalid"

// Incremental exports' checks (DDB-EXPORT-003, ValidationException, and
// DDB-EXPORT-004, InvalidExportTimeException), in AWS's words.
const (
	MsgExportIncrementalSpecMissing = "Invalid Request: Incremental Export Specification expected when export type is set as Incremental Export"
	MsgExportIncrementalTypeMissing = "Invalid Request: Export Type expected to be Incremental Export when incremental export specification is provided"
	MsgExportFullWithIncremental    = "Invalid Request: When Export Type is Full Export , Incremental Export Specification should not be provided"
	MsgExportFromTimeMissing        = "Invalid Request: ExportFromTime must be provided in IncrementalExportSpecification"
	MsgExportPeriodTooShort         = "Difference between export period from time and export period to time is less than 15 minutes"
	// MsgExportPeriodTooLong: a window over 24 hours. The record's
	// over-24-hour cases hit the creation-time check first; this text
	// follows the under-15-minute one (ours).
	MsgExportPeriodTooLong = "Difference between export period from time and export period to time is more than 24 hours"
)

// MsgExportFromTimeEarly: an incremental window starting before the
// table's history (or after its end), quoting where the history starts
// (DDB-EXPORT-004).
func MsgExportFromTimeEarly(earliest time.Time) string {
	return "Incremental export period from time cannot be less than the table creation time : " + earliest.UTC().Format("2006-01-02T15:04:05Z")
}

// MsgExportToTimeLate: an incremental window ending in the future,
// quoting now (DDB-EXPORT-004).
func MsgExportToTimeLate(now time.Time) string {
	return "Incremental export period to time cannot be greater than the current time : " + now.UTC().Format("2006-01-02T15:04:05Z")
}

// MsgExportTableARNInvalid: a TableArn that is not an ARN (a bare table
// name; DDB-EXPORT-001).
const MsgExportTableARNInvalid = "One or more parameter values were invalid: tableArn is not a valid ARN"

// MsgExportKMSKeyWithoutKMS: S3SseKmsKeyId without S3SseAlgorithm KMS
// (DDB-EXPORT-005).
const MsgExportKMSKeyWithoutKMS = "Invalid Request: KMS Key Id is not supported for this encryption type"

// MsgExportConflict and MsgImportConflict: a ClientToken reused with
// other parameters (DDB-EXPORT-009, DDB-IMPORT-017).
const (
	MsgExportConflict = "Export conflict: Duplicate request detected with conflicting parameters"
	MsgImportConflict = "Import conflict: Duplicate request detected with conflicting parameters"
)

// MsgTransferNextTokenInvalid: a ListExports or ListImports NextToken
// that names nothing (DDB-EXPORT-006: "Invalid Request: Provided
// nextToken is invalid: <token>").
func MsgTransferNextTokenInvalid(token string) string {
	return "Invalid Request: Provided nextToken is invalid: " + token
}

// MsgImportFormatOptionsUnsupported: InputFormatOptions for a format that
// takes none (DDB-IMPORT-009).
func MsgImportFormatOptionsUnsupported(format string) string {
	return "Invalid Request: Unsupported InputFormatOptions for the given input format: " + format + "."
}

// The end of an import some of whose items were refused: FAILED with
// these (DDB-IMPORT-020); the valid items stay imported.
const (
	ImportItemValidationError    = "ItemValidationError"
	MsgImportItemValidationError = "Some of the items failed validation checks and were not imported. Please check CloudWatch error logs for more details."
)

// MsgImportFirstRefusal is the emulator's addition to an import's
// ItemValidationError message: how many items were refused and the
// first one's error, which AWS logs to CloudWatch instead.
func MsgImportFirstRefusal(n int64, first string) string {
	return fmt.Sprintf("The emulator refused %d item(s); the first: %s", n, first)
}

// ConstraintTransferClientToken is the ClientToken pattern of
// ExportTableToPointInTime and ImportTable (AWS API reference).
const ConstraintTransferClientToken = "Member must satisfy regular expression pattern: ^[^\\$]+$"

// ConstraintCsvDelimiter is CsvOptions.Delimiter's pattern (AWS API
// reference, CsvOptions).
const ConstraintCsvDelimiter = "Member must satisfy regular expression pattern: [,;:|\\t ]"

// MsgS3PathInvalid: a bucket or prefix the emulator cannot map to its
// export directory ("." and ".." segments; ours).
func MsgS3PathInvalid(what, value string) string {
	return "Invalid " + what + ": " + value
}

// MsgImportTableExists: ImportTable to an existing table.
func MsgImportTableExists(name string) string { return "Table already exists: " + name }

// MsgS3NoSuchBucket is the FailureMessage of an export whose bucket does
// not exist, in S3's words as AWS reports them (ack-api-quirks
// DDB-EXPORT-010, verified 2026-10-09: "The specified bucket does not
// exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket;
// Request ID: ...; S3 Extended Request ID: ...", the record cut there;
// the "; Proxy: null)" tail as DDB-EXPORT-005's S3 message ends). The
// request IDs are derived from the export's ARN, so a description reads
// the same each time.
func MsgS3NoSuchBucket(exportARN string) string {
	sum := sha256.Sum256([]byte(exportARN))
	id := strings.ToUpper(hex.EncodeToString(sum[:8]))
	return "The specified bucket does not exist (Service: Amazon S3; Status Code: 404; Error Code: NoSuchBucket; Request ID: " +
		id + "; S3 Extended Request ID: " + base64.StdEncoding.EncodeToString(sum[8:]) + "; Proxy: null)"
}
