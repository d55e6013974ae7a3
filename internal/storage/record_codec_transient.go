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
	r := new(Record)
	if err := ParseRecordTransientInto(b, r); err != nil {
		return nil, err
	}
	return r, nil
}

// ParseRecordTransientInto is ParseRecordTransient parsing into r, whose
// Writes' array it reuses: a snapshot being loaded parses a thousand
// frames of a thousand writes each into one record, instead of
// allocating (and the collector clearing) a quarter of a megabyte a
// frame.
func ParseRecordTransientInto(b []byte, r *Record) error {
	if len(b) == 0 {
		_, err := ParseRecord(b)
		return err
	}
	_, err := parseRecordWith(unsafe.String(unsafe.SliceData(b), len(b)), false, r)
	return err
}
