package insights

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The design each format's reader makes of the same design, as a golden
// per file (testdata/views/FILE.txt; -rewrite writes them), and the
// parts the formats say alike compared across formats: one reader
// underneath them all (design_infer.go for what a format leaves to
// infer, design_derive.go and design_traffic.go for what it does not
// say at all).

// designFormats are the designs written in several formats: the design
// file first, the one the others are compared with.
var designFormats = map[string][]string{
	"blog": {"blog.design", "blog.workbench.json", "blog.workbench-plain.json", "blog.onetable.json", "blog.onetable-plain.json",
		"blog.electrodb.json", "blog.dynamoose.json", "blog.dynamodb-toolbox.json", "blog.dynamodb_data_model.json", "blog.cloudformation.yaml"},
	"usersblog": {"usersblog.design", "usersblog.workbench-plain.json", "usersblog.dynamodb_data_model.json"},
}

// renderDesign writes a design as its golden shows it.
func renderDesign(d *Design) string {
	var b strings.Builder
	fmt.Fprintf(&b, "format %s\n", d.Format)
	for _, tb := range d.Tables {
		fmt.Fprintf(&b, "table %q key %s %s", tb.Name, tb.Key.Partition, tb.Key.Sort)
		if tb.Unnamed {
			b.WriteString(" (unnamed)")
		}
		if tb.FromTraffic {
			b.WriteString(" (patterns from the traffic)")
		}
		b.WriteString("\n")
		for _, x := range tb.Indexes {
			fmt.Fprintf(&b, "  index %s %s %s\n", x.Name, x.Key.Partition, x.Key.Sort)
		}
		for _, e := range tb.Entities {
			fmt.Fprintf(&b, "  entity %s", e.Name)
			for _, a := range sortedKeys(e.Attrs) {
				fmt.Fprintf(&b, " %s=%s", a, e.Attrs[a])
			}
			b.WriteString("\n")
		}
		for _, p := range tb.Patterns {
			fmt.Fprintf(&b, "  pattern %s %s %v on %s: %s", p.Name, p.Access, p.Entities, p.ServedBy(), p.conditionText())
			if p.Order != "" {
				b.WriteString(" " + p.Order)
			}
			if p.Derived {
				b.WriteString(" (derived)")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestDesignGoldens: each file's design is its golden, and what two
// formats both say of a design is the same: every table's keys and
// indexes; an entity's template of every attribute both give it; of a
// pattern both name (or one derived from an entity's keys and the
// declared pattern of the same access, entities and index), its access,
// what serves it, its partition key and, when both give one, its sort
// key condition.
func TestDesignGoldens(t *testing.T) {
	for design, files := range designFormats {
		want := loadDesign(t, files[0])
		for _, file := range files {
			t.Run(file, func(t *testing.T) {
				d := loadDesign(t, file)
				got := renderDesign(d)
				path := filepath.Join("testdata", "views", file+".txt")
				if *rewrite {
					require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
					require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
				}
				golden, err := os.ReadFile(path)
				require.NoError(t, err, "-rewrite writes it")
				require.Equal(t, string(golden), got, "the design of %s", file)

				require.Len(t, d.Tables, len(want.Tables), design)
				for i, wt := range want.Tables {
					gt := d.Tables[i]
					require.Equal(t, wt.Key, gt.Key, "%s: the table's key", file)
					require.Equal(t, len(wt.Indexes), len(gt.Indexes), "%s: the indexes", file)
					for j, x := range wt.Indexes {
						require.Equal(t, x.Name, gt.Indexes[j].Name, file)
						require.Equal(t, x.Key, gt.Indexes[j].Key, "%s: index %s", file, x.Name)
					}
					for _, ge := range gt.Entities {
						we := wt.entity(ge.Name)
						if we == nil {
							continue
						}
						for attr, tpl := range ge.Attrs {
							if w, ok := we.Attrs[attr]; ok {
								require.Equal(t, w.String(), tpl.String(), "%s: entity %s's %s", file, ge.Name, attr)
							}
						}
					}
					for _, gp := range gt.Patterns {
						wp := wt.pattern(gp.Name)
						if wp == nil && gp.Derived {
							if i := slices.IndexFunc(wt.Patterns, func(wp *Pattern) bool {
								return wp.Access == gp.Access && wp.Index == gp.Index && slices.Equal(wp.Entities, gp.Entities)
							}); i >= 0 {
								wp = wt.Patterns[i]
							}
						}
						if wp == nil {
							continue // the design file declares no such pattern: nothing to compare
						}
						require.Equal(t, wp.Access, gp.Access, "%s: pattern %s, beside %s", file, gp.Name, wp.Name)
						require.Equal(t, wp.ServedBy(), gp.ServedBy(), "%s: pattern %s, beside %s", file, gp.Name, wp.Name)
						require.Equal(t, wp.PK.String(), gp.PK.String(), "%s: pattern %s, beside %s", file, gp.Name, wp.Name)
						// A sort key condition, where both say one (a
						// format that cannot say one, or needs none to
						// tell its entities apart, says none).
						if gp.SortOp != SortNone && wp.SortOp != SortNone {
							require.Equal(t, wp.SortOp, gp.SortOp, "%s: pattern %s, beside %s", file, gp.Name, wp.Name)
							require.Equal(t, wp.SK.String(), gp.SK.String(), "%s: pattern %s, beside %s", file, gp.Name, wp.Name)
							require.Equal(t, wp.SK2.String(), gp.SK2.String(), "%s: pattern %s, beside %s", file, gp.Name, wp.Name)
						}
					}
				}
			})
		}
	}
}
