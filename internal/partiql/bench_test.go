package partiql

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParse parses statements of growing size: a key lookup, then
// INSERTs of 1 to 1000 attributes.
func BenchmarkParse(b *testing.B) {
	b.Run("select_key", func(b *testing.B) {
		src := `SELECT a, b.c[2] FROM "table" WHERE pk = ? AND sk BETWEEN 1 AND 9 AND x IS NOT MISSING`
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			if _, err := Parse(src); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, n := range []int{1, 10, 100, 1000} {
		fields := make([]string, n)
		for i := range fields {
			fields[i] = fmt.Sprintf("'attr%d': [%d, 'v%d', {'k': <<1, 2>>}]", i, i, i)
		}
		src := "INSERT INTO t VALUE {" + strings.Join(fields, ", ") + "}"
		b.Run(fmt.Sprintf("insert_%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				if _, err := Parse(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
