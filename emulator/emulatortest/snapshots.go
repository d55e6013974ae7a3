package emulatortest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// Fixtures loaded once, rewound between tests: a snapshot of the whole
// emulator (every namespace's tables, items, indexes and definitions)
// costs O(1) per table and a rewind O(1) per table plus one map entry
// per partition, sharing the items (copy-on-write) instead of copying
// them. See emulator.Branches.Snapshot.

// Checkpoint takes a snapshot of e now and returns a function that
// rewinds e to it, as often as it is called (from t's subtests too: a
// failed rewind is reported with t.Errorf). The snapshot is dropped when
// t ends.
func Checkpoint(t testing.TB, e *emulator.Emulator) (rewind func()) {
	t.Helper()
	id := e.Branches().Snapshot()
	t.Cleanup(func() { _ = e.Branches().DropSnapshot(id) })
	return func() {
		if err := e.Branches().Restore(id); err != nil {
			t.Errorf("emulatortest: rewind to %s: %v", id, err)
		}
	}
}

// snapshotsPath is the snapshots' admin endpoint (docs/backups.md).
const snapshotsPath = "/dynamoemu/snapshots"

// CheckpointURL is Checkpoint for an emulator serving at url (a separate
// process, or NewServer's), over its admin endpoint
// (POST /dynamoemu/snapshots).
func CheckpointURL(t testing.TB, url string) (rewind func()) {
	t.Helper()
	var took struct{ ID string }
	adminPost(t, http.MethodPost, url+snapshotsPath, &took)
	t.Cleanup(func() {
		req, err := http.NewRequest(http.MethodDelete, url+snapshotsPath+"/"+took.ID, nil)
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			if res, err := http.DefaultClient.Do(req); err == nil {
				res.Body.Close()
			}
		}
	})
	return func() {
		if err := adminRequest(http.MethodPost, url+snapshotsPath+"/"+took.ID+"/restore", nil); err != nil {
			t.Errorf("emulatortest: rewind to %s: %v", took.ID, err)
		}
	}
}

// adminPost is adminRequest, failing t on an error.
func adminPost(t testing.TB, method, url string, out any) {
	t.Helper()
	if err := adminRequest(method, url, out); err != nil {
		t.Fatalf("emulatortest: %v", err)
	}
}

// adminRequest sends an admin request with an empty JSON body and
// decodes the answer into out (nil: not decoded).
func adminRequest(method, url string, out any) error {
	req, err := http.NewRequest(method, url, strings.NewReader("{}"))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", method, url, res.StatusCode, body)
	}
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, url, err)
		}
	}
	return nil
}
