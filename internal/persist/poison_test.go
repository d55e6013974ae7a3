package persist

// Every load in these tests overwrites a record replayed as a view of
// its frame's buffer once it is applied (poisonViews): a DB that kept
// any of it would no longer render as its workload did.
func init() { poisonViews = true }
