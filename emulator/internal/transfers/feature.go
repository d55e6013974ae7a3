package transfers

import (
	"cmp"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
)

// Feature is the transfers feature (service.Config.Features): exports to and imports
// from the directory standing for Amazon S3, and bulk operations. Its
// per-namespace state is the list of each kind of operation
// (transfers.go); with persistence it is saved in the namespace's DB
// metadata and put back when the namespace is loaded
// (transfers_persist.go).
type Feature struct{}

// Name is the feature's name.
func (Feature) Name() string { return "transfers" }

// moves is every namespace's transfers.
var moves = service.NewState[transferSet]()

// Register installs the export, import and bulk operations.
func (Feature) Register(r service.Registrar) {
	service.Op(r, "ExportTableToPointInTime", exportTable)
	service.Op(r, "DescribeExport", describeExport)
	service.Op(r, "ListExports", listExports)
	service.Op(r, "ImportTable", importTable)
	service.Op(r, "DescribeImport", describeImport)
	service.Op(r, "ListImports", listImports)
	service.Op(r, "StartBulkPutItems", startBulkPutItems)
	service.Op(r, "DescribeBulkOperation", describeBulkOperation)
	service.Op(r, "ListBulkOperations", listBulkOperations)
	service.Op(r, "CancelBulkOperation", cancelBulkOperation)
}

// Hooks put back a namespace's transfers when it is loaded.
func (Feature) Hooks() service.Hooks { return service.Hooks{Loaded: loaded} }

// str is *p, or "" for nil.
func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// cmpOr is s, or def when s is empty.
func cmpOr(s, def string) string { return cmp.Or(s, def) }
