package tablespec

import "time"

// Identity is what names a table, fixed when it is made: its name,
// TableId, ARN, creation time and key schema.
type Identity struct {
	Name    string
	ID      string // TableId, a UUID
	ARN     string
	Created time.Time
	Keys    []KeyElem // the key schema as given, partition key first; shared: read it, never change it
}

// KeyNames are the names of the table's key attributes, partition key
// first.
func (id Identity) KeyNames() []string {
	names := make([]string, len(id.Keys))
	for i, k := range id.Keys {
		names[i] = k.Name
	}
	return names
}
