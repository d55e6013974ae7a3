package apierr

import "net/http"

// Exports and imports (service/exports.go, service/imports.go), after
// AWS's API reference (API_ExportTableToPointInTime, API_DescribeExport,
// API_ListExports, API_ImportTable, API_DescribeImport, API_ListImports).
// DynamoDB Local has none of these operations; where no record of AWS's
// wording was found, the message is ours.
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

// MsgExportNotFound answers DescribeExport of an unknown ARN (ours).
func MsgExportNotFound(arn string) string { return "Export not found: " + arn }

// MsgImportNotFound answers DescribeImport of an unknown ARN (ours).
func MsgImportNotFound(arn string) string { return "Import not found: " + arn }

// MsgExportTimeInvalid: an ExportTime outside the recovery window (ours).
const MsgExportTimeInvalid = "Export time is outside the point in time recovery window of the table"

// MsgExportIncrementalSpec: an incremental export's window is missing or wrong (ours).
const MsgExportIncrementalSpec = "IncrementalExportSpecification must give ExportFromTime before ExportToTime, at least 15 minutes and at most 24 hours apart, within the point in time recovery window"

// MsgExportConflict: a ClientToken reused with other parameters (ours).
const MsgExportConflict = "An export with this ClientToken and different parameters already exists"

// MsgImportConflict: a ClientToken reused with other parameters (ours).
const MsgImportConflict = "An import with this ClientToken and different parameters already exists"

// MsgS3PathInvalid: a bucket or prefix the emulator cannot map to its
// export directory ("." and ".." segments; ours).
func MsgS3PathInvalid(what, value string) string {
	return "Invalid " + what + ": " + value
}

// MsgImportTableExists: ImportTable to an existing table.
func MsgImportTableExists(name string) string { return "Table already exists: " + name }
