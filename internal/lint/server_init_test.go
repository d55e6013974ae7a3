package lint

import (
	"strings"
	"testing"
)

// TestServerWithoutHeavyInit: the server links none of the packages whose
// initialisation ran at every start for something the server never does
// (start-up time): oklog/ulid (ULIDs are made by conventions/ids, for
// tests and library users), apd (numbers are compared without it),
// database/sql, and klauspost/compress (its zstd builds a Castagnoli CRC
// table at init, 0.43 ms a start; ZSTD objects are read by zstdread).
func TestServerWithoutHeavyInit(t *testing.T) {
	banned := []string{"github.com/oklog/ulid", "github.com/cockroachdb/apd", "database/sql", "github.com/klauspost/compress"}
	for _, p := range goList(t, "-deps", "./cmd/dynamoemu") {
		for _, b := range banned {
			if strings.HasPrefix(p.ImportPath, b) {
				t.Errorf("cmd/dynamoemu depends on %s (go list -deps ./cmd/dynamoemu)", p.ImportPath)
			}
		}
	}
}
