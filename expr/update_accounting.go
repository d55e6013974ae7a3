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

// Charges of UpdateItem's item size accounting (see SizeCharge).
const (
	chargeUpdate    = 3  // every update
	chargeSetAdd    = 19 // each SET or ADD action (AttributeUpdates PUT, ADD)
	chargeRemoveDel = 2  // each REMOVE or DELETE action
)

// SizeCharge is what UpdateItem adds to the size of the item it produces,
// less the key attributes, before comparing it with the 400 KB limit: a
// fixed charge for the update and one per action, by kind. The figures are
// AWS's as captured against DynamoDB (eu-west-2) and published with the
// tests of two other DynamoDB-compatible projects (dynoxide's item-size
// tests: "the key attributes come out of the figure and each action adds a
// fixed cost, three bytes for the update plus nineteen for a SET"; floci's
// DynamoDbItemSizeServiceTest: two for a REMOVE or DELETE, an ADD like a
// SET, an if_not_exists call or an AttributeUpdates PUT charged as a plain
// SET). That test also charges one byte per list index of a SET's path,
// but it sizes a list one byte smaller than DynamoDB does (storage.ItemSize:
// 3 + 1 per element), which accounts for that byte: no charge is made for
// it here. AWS documents none of it. 0 for a nil update.
func (u *Update) SizeCharge() int {
	if u == nil {
		return 0
	}
	n := chargeUpdate
	for _, a := range u.actions {
		switch a.op {
		case REMOVE, DELETE:
			n += chargeRemoveDel
		default:
			n += chargeSetAdd
		}
	}
	return n
}
