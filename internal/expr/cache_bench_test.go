package expr

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// BenchmarkCompile compiles one expression of each kind per request,
// without a cache (compile) and from a warm cache (hit): what a request
// pays for its expressions, the Compiler included.
func BenchmarkCompile(b *testing.B) {
	names := map[string]string{"#st": "status", "#c": "count"}
	vals := benchValues()
	vals[":z"], vals[":pk"], vals[":sk"] = storage.N("0"), storage.S("user#1"), storage.N("5")
	ks := oracleKeySchema
	kinds := []struct {
		name string
		run  func(c *Compiler) error
	}{
		{"condition", func(c *Compiler) error { _, err := c.Condition("ConditionExpression", benchCondition); return err }},
		{"filter", func(c *Compiler) error { _, err := c.Condition("FilterExpression", "#c = :z"); return err }},
		{"keycondition", func(c *Compiler) error { _, err := c.KeyCondition("pk = :pk AND sk > :sk", ks); return err }},
		{"projection", func(c *Compiler) error { _, err := c.Projection("pk, sk, #st, tags[0], address.city"); return err }},
		{"update", func(c *Compiler) error { _, err := c.Update("SET #c = #c + :n, title = :p REMOVE #st"); return err }},
	}
	for _, k := range kinds {
		for _, mode := range []string{"compile", "hit"} {
			b.Run(k.name+"/"+mode, func(b *testing.B) {
				var cache *Cache
				if mode == "hit" {
					cache = NewCache(0, 0)
				}
				b.ReportAllocs()
				for b.Loop() {
					if err := k.run(NewCachedCompiler(cache, names, vals)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// scanBenchItem is the emulator benchmarks' 10-attribute, 240-byte item
// (emulator/internal/benchmarks benchItem) of partition p: count is p%10.
func scanBenchItem(p int) storage.Item {
	it := storage.Item{"pk": storage.S(fmt.Sprintf("user#%07d", p))}
	it["status"] = storage.S("active")
	it["count"] = storage.N(storage.Number(strconv.Itoa(p % 10)))
	it["price"] = storage.N("1234.5")
	it["flag"] = storage.Bool(p%2 == 0)
	it["tags"] = storage.SS([]string{"red", "green"})
	it["email"] = storage.S(fmt.Sprintf("someone.%d@example.com", p))
	for i := 0; len(it) < 10; i++ {
		it["f"+strconv.Itoa(i)] = storage.S("")
	}
	it["f0"] = storage.S(strings.Repeat("x", 240-storage.ItemSize(it)))
	return it
}

// BenchmarkFilteredScan is the storage and expr share of the emulator's
// filtered Scan (emulator/internal/benchmarks BenchmarkOps/ScanFiltered): a page
// of 500 items of a 1000-item table, filter #c = :z (one in ten passes),
// compiled per request from a warm cache. decode-eval is what the emulator
// does today (decode the filter's attributes into a map, Eval); match
// evaluates on the records (Matcher); match-project adds a projection of
// the passing items, written into a page buffer (Projector). ns/item is
// per scanned item.
func BenchmarkFilteredScan(b *testing.B) {
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}
	tbl := storage.NewTable(ks)
	for p := range 1000 {
		it := scanBenchItem(p)
		if _, err := tbl.Put(ks.KeyOf(it), it); err != nil {
			b.Fatal(err)
		}
	}
	names := map[string]string{"#c": "count"}
	values := map[string]storage.Value{":z": storage.N("0")}
	const limit = 500
	cache := NewCache(0, 0)
	for _, mode := range []string{"decode-eval", "match", "match-project"} {
		b.Run(mode, func(b *testing.B) {
			var page []byte
			b.ReportAllocs()
			for b.Loop() {
				comp := NewCachedCompiler(cache, names, values)
				cond, err := comp.Condition("FilterExpression", "#c = :z")
				if err != nil {
					b.Fatal(err)
				}
				var proj *Projection
				if mode == "match-project" {
					if proj, err = comp.Projection("pk, #c, email"); err != nil {
						b.Fatal(err)
					}
				}
				scanned, count := 0, 0
				switch mode {
				case "decode-eval":
					attrs := cond.Attributes()
					tbl.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
						scanned++
						if ok, _ := cond.Eval(e.Attributes(attrs)); ok {
							count++
						}
						return scanned < limit
					})
				default:
					m := cond.Matcher()
					var pr *Projector
					if proj != nil {
						pr = proj.Projector()
					}
					page = page[:0]
					tbl.ScanEncoded(storage.ScanRange{}, func(e storage.EncodedItem) bool {
						scanned++
						if m.Match(e) {
							count++
							if pr != nil {
								page = pr.Append(page, e)
							}
						}
						return scanned < limit
					})
				}
				if scanned != limit || count < 30 {
					b.Fatalf("scanned %d, matched %d", scanned, count)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*limit), "ns/item")
		})
	}
}
