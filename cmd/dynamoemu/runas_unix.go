//go:build unix

package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"syscall"
)

// The container image starts the server as root only to choose whom to
// run as, then drops to that user before it opens anything else. A
// compose file written for amazon/dynamodb-local bind-mounts a host
// directory on the data folder (./docker-data/dynamodb-local ->
// /home/dynamodblocal/data): made by the host user, it is owned by that
// user's uid; made by the container engine, by root. DynamoDB Local's
// image runs as a fixed uid and cannot write either without `user: root`.
// This image runs as:
//   - the directory's owner, when that is not root (the host user's files
//     stay the host user's);
//   - uid and gid 65532 when the directory is root's and empty (the
//     engine just made it): it is handed to 65532 first;
//   - root, with a warning that says how to avoid it, when the directory
//     is root's and holds files (data written by a container run as root).
//
// Only the image sets runAsDataOwnerEnv; a server started by hand never
// changes its user.

// runAsDataOwnerEnv, set to 1, asks a server started as root to run as
// the owner of -dbPath (the Dockerfile sets it).
const runAsDataOwnerEnv = "DYNAMOEMU_RUN_AS_DATA_OWNER"

// imageUser is the image's unprivileged uid and gid.
const imageUser = 65532

// runAs is a uid and gid to run as.
type runAs struct{ uid, gid int }

// dataOwnerPlan decides whom to run as, given the data directory's owner
// and whether it holds anything: stay (root) is true when the server
// must stay root; chown is true when the directory is to be given to the
// image's user first.
func dataOwnerPlan(owner runAs, empty bool) (to runAs, chown, stay bool) {
	switch {
	case owner.uid != 0:
		return owner, false, false
	case empty:
		return runAs{imageUser, imageUser}, true, false
	default:
		return runAs{}, false, true
	}
}

// adoptDataOwner drops root for the owner of dbPath ("" : no data
// directory, the image's user), when the server runs as root and the
// image asked for it (runAsDataOwnerEnv). The directory is made if need
// be (as DynamoDB Local's -dbPath is not: the engine may not have made it).
func adoptDataOwner(dbPath string, log *slog.Logger) error {
	if os.Getenv(runAsDataOwnerEnv) != "1" || os.Geteuid() != 0 {
		return nil
	}
	to := runAs{imageUser, imageUser}
	if dbPath != "" {
		if err := os.MkdirAll(dbPath, 0o755); err != nil {
			return fmt.Errorf("-dbPath %s: %w", dbPath, err)
		}
		st, err := os.Stat(dbPath)
		if err != nil {
			return fmt.Errorf("-dbPath %s: %w", dbPath, err)
		}
		sys, ok := st.Sys().(*syscall.Stat_t)
		if !ok {
			return nil // not a Unix file system: stay as started
		}
		empty, err := dirEmpty(dbPath)
		if err != nil {
			return fmt.Errorf("-dbPath %s: %w", dbPath, err)
		}
		var chown, stay bool
		to, chown, stay = dataOwnerPlan(runAs{int(sys.Uid), int(sys.Gid)}, empty)
		if stay {
			log.Warn("running as root: -dbPath is owned by root and holds files; to run unprivileged, give it to a user on the host (chown -R 1000:1000 <the mounted directory>) and start again",
				"dbPath", dbPath)
			return nil
		}
		if chown {
			if err := os.Chown(dbPath, to.uid, to.gid); err != nil {
				return fmt.Errorf("-dbPath %s: handing it to uid %d: %w", dbPath, to.uid, err)
			}
		}
	}
	// Supplementary groups first, then the group, then the user: once the
	// uid is dropped nothing else may change. Go applies each to every
	// thread of the process.
	if err := syscall.Setgroups(nil); err != nil {
		return fmt.Errorf("dropping root: %w", err)
	}
	if err := syscall.Setgid(to.gid); err != nil {
		return fmt.Errorf("dropping root: gid %d: %w", to.gid, err)
	}
	if err := syscall.Setuid(to.uid); err != nil {
		return fmt.Errorf("dropping root: uid %d: %w", to.uid, err)
	}
	if dbPath == "" { // the image's user, for a server that keeps nothing on disk
		log.Debug("running as the image's user", "uid", to.uid, "gid", to.gid)
		return nil
	}
	log.Info("running as the data directory's owner", "uid", to.uid, "gid", to.gid, "dbPath", dbPath)
	return nil
}

// dirEmpty reports whether directory dir holds nothing.
func dirEmpty(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	if errors.Is(err, io.EOF) {
		return true, nil
	}
	return false, err
}
