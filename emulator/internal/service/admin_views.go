package service

import "slices"

// Read-only views for the emulator's admin endpoints (the console's
// namespace list): which namespaces exist. Nothing here changes one.

// NamespaceIDs returns the IDs of the namespaces kept so far (something
// was made in each at some point; reads make nothing) and of the forks
// (Service.Fork), sorted.
func (s *Service) NamespaceIDs() []string {
	var ids []string
	for _, ns := range s.dbs.All() {
		ids = append(ids, ns.key)
	}
	slices.Sort(ids)
	return ids
}

// TableDescriptions returns the descriptions, as DescribeTable gives
// them, of at most limit tables of the namespace accessKey and region
// select, in name order from the first name after start ("" from the
// first), and the last name given when more follow (ListTables'
// LastEvaluatedTableName). The console's table list reads a page of
// tables with it in one request instead of a DescribeTable per table.
// Tables being deleted are left out. It reads; it creates no namespace.
func (s *Service) TableDescriptions(accessKey, region, start string, limit int) ([]*TableDescription, string) {
	ns := s.namespaceFor(accessKey, region, false)
	names := ns.tableNames()
	if start != "" {
		i, found := slices.BinarySearch(names, start)
		if found {
			i++
		}
		names = names[i:]
	}
	last := ""
	if limit > 0 && len(names) > limit {
		names = names[:limit]
		last = names[limit-1]
	}
	out := make([]*TableDescription, 0, len(names))
	for _, name := range names {
		if t := ns.getTable(name); t != nil {
			out = append(out, t.describe())
		}
	}
	return out, last
}
