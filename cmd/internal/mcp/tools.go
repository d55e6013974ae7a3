package mcp

// allTools returns every tool, in the order tools/list gives them.
func (s *Server) allTools() []*tool {
	var all []*tool
	for _, group := range [][]*tool{s.tableTools(), s.itemTools(), s.readTools(), s.adminTools(), s.insightTools(), s.groupTools()} {
		all = append(all, group...)
	}
	return all
}
