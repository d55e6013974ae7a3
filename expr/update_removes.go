package expr

// OnlyRemoves reports whether every action of u takes something away
// (REMOVE, DELETE; AttributeUpdates' DELETE with or without a value) and
// u has at least one. Such an update of an absent item writes nothing:
// AWS does not create the item (ScyllaDB's test_item.py, run against AWS:
// "an update that only deletes an attribute on a non-existent item, does
// NOT create it", for AttributeUpdates DELETE and UpdateExpression REMOVE;
// the API reference of AttributeUpdates: "DELETE - Nothing happens; there
// is no attribute to delete").
func (u *Update) OnlyRemoves() bool {
	if u == nil || len(u.actions) == 0 {
		return false
	}
	for _, a := range u.actions {
		if a.op != REMOVE && a.op != DELETE {
			return false
		}
	}
	return true
}
