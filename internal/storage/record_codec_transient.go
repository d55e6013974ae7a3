package storage

import "unsafe"

// ParseRecordTransient is ParseRecord without its copy of b: the
// record's strings and item images share b's memory, so they are valid
// only while b is not changed, and nothing of the record may be kept
// past that. It is for a caller that copies what it keeps: a snapshot
// being loaded hands a commit's images to a TableBuilder, whose Add
// stores each in the table's own memory (a load of 1M items, 300 MB of
// images, copied them twice without it). Nor does it check a commit's
// item images, as ParseRecord does: the TableBuilder checks each one it
// is handed (Add), and checking them twice was a tenth of such a load.
func ParseRecordTransient(b []byte) (*Record, error) {
	if len(b) == 0 {
		return ParseRecord(b)
	}
	return parseRecordWith(unsafe.String(unsafe.SliceData(b), len(b)), false)
}
