package expr

import "slices"

// What an update reads. Apply reads of the old item only the attributes
// it writes (an ADD, a nested SET or REMOVE starts from the current value)
// and those its SET values name (a = b + :x, if_not_exists(c, :v),
// list_append(d, :l)); so applied to just those attributes of an item, it
// gives the same values for the attributes it writes as applied to the
// whole item. A caller that keeps items encoded (storage.WritePatch)
// decodes only Reads, and writes back only SortedAttributes.

// setAttributes lists the program's attributes: attrs (the targets in
// source order), targets (sorted) and reads (targets and every attribute a
// value reads, sorted). Called once, when the program is built.
func (p *updateProgram) setAttributes() {
	p.attrs = topAttributes(p.paths)
	p.targets = slices.Sorted(slices.Values(p.attrs))
	reads := slices.Clone(p.targets)
	for _, a := range p.actions {
		if a.value == nil {
			continue
		}
		walk(a.value, func(x Expr) bool {
			if path, ok := x.(*PathExpr); ok && len(path.resolved) > 0 {
				reads = append(reads, path.resolved[0].Name)
			}
			return true
		})
	}
	slices.Sort(reads)
	p.reads = slices.Compact(reads)
}

// SortedAttributes returns the distinct top-level attributes the update
// writes or removes, in ascending byte order. The slice is shared: do not
// modify it.
func (u *Update) SortedAttributes() []string { return u.targets }

// Reads returns the distinct top-level attributes the update reads of the
// old item, in ascending byte order: SortedAttributes and those its values
// name. Apply on an item with only these attributes gives the same result
// for SortedAttributes as on the whole item. The slice is shared: do not
// modify it.
func (u *Update) Reads() []string { return u.reads }

// Reads returns the top-level attributes the condition reads, in
// ascending byte order: Eval on an item with only these attributes answers
// as on the whole item. Unlike Attributes, the slice is shared: do not
// modify it.
func (cond *Condition) Reads() []string { return cond.attrs }
