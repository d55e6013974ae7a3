// Package tablespec holds the wire shapes of the control-plane
// operations (CreateTable, UpdateTable, DescribeTable and their kin,
// vector indexes among them), the timestamp they carry, and the checks
// of a request that are a function of its wire form alone: the model
// constraints AWS reports all at once, before anything the catalog
// knows. The service names these shapes as its own (aliases), so its
// operations and the features read them as before; what needs the
// catalog, or the core's own definition types, stays in the service.
package tablespec
