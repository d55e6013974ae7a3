// Package vectorsearch is SearchVectors, a table-level feature behind
// the service core's seam (service.Config.Features): the TopK items of a vector
// index nearest a search vector, with the checks of its condition and
// projection. The vector indexes are the core's (CreateTable and
// UpdateTable define them, DescribeTable shows them, storage keeps
// their vectors on the one write path): this package reads an index
// through service.VectorIndexView and searches it in the table's
// storage (service.Table.Storage), its eventual view first.
package vectorsearch
