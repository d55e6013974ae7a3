package service

import "slices"

// Read-only views for the emulator's admin endpoints (the console's
// namespace list): which namespaces exist. Nothing here changes one.

// NamespaceIDs returns the IDs of the namespaces created so far (a table
// was added to each at some point; reads create none), sorted.
func (s *Service) NamespaceIDs() []string {
	all := s.dbs.all()
	ids := make([]string, 0, len(all))
	for _, ns := range all {
		ids = append(ids, ns.key)
	}
	slices.Sort(ids)
	return ids
}
