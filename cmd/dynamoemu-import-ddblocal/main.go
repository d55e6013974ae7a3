package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "dynamoemu-import-ddblocal:", err)
		os.Exit(1)
	}
}

// run parses the flags and imports.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("dynamoemu-import-ddblocal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "DynamoDB Local's -dbPath directory (its shared-local-instance.db and <access key>_<region>.db files), or one such file")
	dbPath := fs.String("dbPath", "", "dynamoemu's data directory to make the tables in (the server's -dbPath; created if need be)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: dynamoemu-import-ddblocal -from DIR -dbPath DIR")
		fmt.Fprintln(stderr, "Makes DynamoDB Local's tables and items (read from its SQLite files, never changed) in a dynamoemu -dbPath directory.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" || *dbPath == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("give -from and -dbPath, nothing else")
	}
	return importAll(*from, *dbPath, stdout)
}
