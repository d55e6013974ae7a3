package lint

import (
	"strings"
	"testing"
)

// TestServerWithoutHeavyInit: the server links none of the packages whose
// initialisation ran at every start for something the server never does
// (start-up time): oklog/ulid (ULIDs are made by conventions/ids, for
// tests and library users), apd (numbers are compared without it),
// and database/sql with modernc.org/sqlite (DynamoDB Local's files are
// read by cmd/dynamoemu-import-ddblocal: linked into the server they add
// 3.7 MB, 29%, to its stripped linux/amd64 binary). klauspost/compress is linked for zstdread, the ZSTD
// objects of imports: about 0.4 ms of initialisation a start, measured
// in zstdread's package doc. Nor internal/capture, the capture format of
// record and replay (a binary of their own): the design readers word
// their errors with internal/jsonkind, and the capture reader linked for
// that alone was 16,384 bytes of the stripped server.
func TestServerWithoutHeavyInit(t *testing.T) {
	banned := []string{"github.com/oklog/ulid", "github.com/cockroachdb/apd", "database/sql", "modernc.org/", "github.com/dynamoemu/dynamoemu/internal/capture"}
	for _, p := range goList(t, "-deps", "./cmd/dynamoemu") {
		for _, b := range banned {
			if strings.HasPrefix(p.ImportPath, b) {
				t.Errorf("cmd/dynamoemu depends on %s (go list -deps ./cmd/dynamoemu)", p.ImportPath)
			}
		}
	}
}
