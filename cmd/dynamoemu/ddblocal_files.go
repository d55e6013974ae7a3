package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// DynamoDB Local's data in -dbPath. A compose file written for
// amazon/dynamodb-local keeps its data in a bind-mounted -dbPath; once
// its image line names dynamoemu, the same directory holds DynamoDB
// Local's SQLite files (shared-local-instance.db, <key>_<region>.db),
// which the server does not read. When the directory holds such files
// and no data of dynamoemu's own (its databases are subdirectories), the
// server says so at start and gives the command that brings them over
// (cmd/dynamoemu-import-ddblocal: a binary of its own, so that the server
// links no SQLite). It only looks: the files are never opened for writing.

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// ddbLocalFiles lists the SQLite .db files of dir when it has no
// subdirectory (no dynamoemu database); nil otherwise, or if dir cannot
// be read.
func ddbLocalFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() {
			return nil // dynamoemu's own data is there
		}
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".db") {
			continue
		}
		if isSQLite(filepath.Join(dir, e.Name())) {
			files = append(files, e.Name())
		}
	}
	return files
}

// isSQLite tells whether the file at path starts with SQLite's header.
func isSQLite(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(sqliteMagic))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == sqliteMagic
}

// warnDDBLocalFiles logs, when dbPath holds DynamoDB Local's files and no
// data of dynamoemu's, that their tables are not served and the command
// that imports them.
func warnDDBLocalFiles(dbPath string, log *slog.Logger) {
	if dbPath == "" {
		return
	}
	files := ddbLocalFiles(dbPath)
	if len(files) == 0 {
		return
	}
	log.Warn("-dbPath holds DynamoDB Local's database files, which dynamoemu does not read: their tables are not served. "+
		"To bring them over (the files are only read), stop this server and run: "+importCommand(dbPath),
		"files", strings.Join(files, ","))
}

// importCommand is the command line that imports dbPath's DynamoDB
// Local files into dbPath itself.
func importCommand(dbPath string) string {
	q := dbPath
	if strings.ContainsAny(q, " \t'\"$\\") {
		q = "'" + strings.ReplaceAll(q, "'", `'\''`) + "'"
	}
	return "dynamoemu-import-ddblocal -from " + q + " -dbPath " + q
}
