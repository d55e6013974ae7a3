package expr

// Attribute name limits. AWS documents that an attribute name is at least
// one character and less than 64 KB (the developer guide's naming rules;
// key attribute names, checked where tables are defined, at most 255
// bytes). The messages are DynamoDB Local's ("Empty attribute name" and
// "Attribute name is too large, must be less than 65536 bytes", the latter
// observed for ExpressionAttributeNames); AWS's own wording for legacy
// parameters is not on record.
const (
	// MaxAttributeNameBytes is the longest attribute name: 64 KB - 1.
	MaxAttributeNameBytes = 65535

	// MsgEmptyAttributeName is the message for an empty attribute name.
	MsgEmptyAttributeName = "Empty attribute name"
	// MsgAttributeNameTooLarge is the message for a name of 64 KB or more.
	MsgAttributeNameTooLarge = "Attribute name is too large, must be less than 65536 bytes"

	msgNamesValueTooLarge = "ExpressionAttributeNames contains invalid value: " + MsgAttributeNameTooLarge + " for key %s"
)

// checkAttributeName refuses an attribute name given as a plain string
// (AttributesToGet, AttributeUpdates) that is empty or too large.
func checkAttributeName(name string) *Error {
	switch {
	case name == "":
		return errPlain(MsgEmptyAttributeName)
	case len(name) > MaxAttributeNameBytes:
		return errPlain(MsgAttributeNameTooLarge)
	}
	return nil
}
