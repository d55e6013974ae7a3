package service

import "github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"

// The parts of a table's definition the core keeps because the core's
// own operations need them (CreateTable sets them, DescribeTable shows
// them, the write path or a stage reads them), and which a
// feature's operations read and change: tags here; Time to Live through
// Definition.Settings and Edit.Settings (feature_define.go). Each change goes
// through the core's one funnel of definition changes (changeMeta), so it
// is recorded where it always was and records on disk read as before.

// Tags returns the table's tags, in the order first added.
func (t Table) Tags() []TagDesc { return tagDescs(t.t.snapshot().Tags) }

// ChangeTags changes the table's tags: fn gets them and returns the new
// ones or an error, which leaves the definition as it was. The
// CheckDefinition hooks see the new tags (one may refuse them with a
// ValidationException, stage_check.go); they take effect once the change
// is recorded.
func (t Table) ChangeTags(c Call, fn func(cur []TagDesc) ([]TagDesc, error)) error {
	tt := t.t
	return tt.changeMeta(func(m *tableMeta) (func(bool) error, error) {
		next, err := fn(tagDescs(m.Tags))
		if err != nil {
			return nil, err
		}
		var tags []tablespec.TagPair // a new slice: snapshots keep the old one
		for _, d := range next {
			tags = append(tags, tablespec.TagPair(d))
		}
		done, err := c.c.checkDefinition(tt, DefinitionTagged, tagDescs(tags))
		if err != nil {
			return nil, err
		}
		m.Tags = tags
		return func(recorded bool) error {
			if recorded {
				done()
			}
			return nil
		}, nil
	})
}

// tagDescs returns tags as a feature sees them.
func tagDescs(tags []tablespec.TagPair) []TagDesc {
	out := make([]TagDesc, len(tags))
	for i, tp := range tags {
		out[i] = TagDesc(tp)
	}
	return out
}
