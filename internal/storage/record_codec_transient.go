package storage

// ParseRecordTransient is ParseRecord for a caller that copies what it
// keeps: nothing of the record may be kept past b being changed (the
// contract leaves room for a view of b). A snapshot being loaded hands a
// commit's images to a TableBuilder, whose Add stores each in the
// table's own memory. Nor does it check a commit's item images, as
// ParseRecord does: the TableBuilder checks each one it is handed (Add),
// and checking them twice was a tenth of such a load.
//
// The record's strings are one copy of b. A view of b instead (an
// unsafe string) saved at most 0.7% of BenchmarkOpen's bytes (43.65 ->
// 43.36 MB/op at 100k items, snapshot+log; a snapshot's items come as
// chunks, not commits), under the performance budget's 5%.
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
	_, err := parseRecordWith(string(b), false, r)
	return err
}
