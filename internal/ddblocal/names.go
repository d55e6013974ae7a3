package ddblocal

import "strings"

// SharedFileName is the file of DynamoDB Local's -sharedDb database.
const SharedFileName = "shared-local-instance.db"

// Namespace is whose database a file holds: an access key and region's,
// or (Shared) everyone's.
type Namespace struct {
	AccessKey string
	Region    string
	Shared    bool
}

// String names the namespace as a log line does: "shared", or
// "<access key>/<region>".
func (n Namespace) String() string {
	if n.Shared {
		return "shared"
	}
	return n.AccessKey + "/" + n.Region
}

// ParseFileName tells whose database a DynamoDB Local file of this base
// name holds: shared-local-instance.db, or <access key>_<region>.db (the
// region is after the last underscore: access keys may hold one, regions
// do not). ok is false for any other name.
func ParseFileName(base string) (n Namespace, ok bool) {
	if base == SharedFileName {
		return Namespace{Shared: true}, true
	}
	stem, found := strings.CutSuffix(base, ".db")
	if !found {
		return Namespace{}, false
	}
	i := strings.LastIndexByte(stem, '_')
	if i <= 0 || i == len(stem)-1 {
		return Namespace{}, false
	}
	key, region := stem[:i], stem[i+1:]
	for _, r := range region {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return Namespace{}, false
		}
	}
	return Namespace{AccessKey: key, Region: region}, true
}
