// Command dynamoemu serves the DynamoDB API from memory, for local
// development and CI, with the flags of DynamoDB Local:
//
//	dynamoemu [-port 8000] [-host 127.0.0.1] [-sharedDb] [-cors '*'] [-inMemory | -dbPath DIR]
//
// Point an AWS SDK at http://localhost:8000 with any credentials, or a
// browser at http://localhost:8000/dynamoemu/console/ for the built-in web
// console (package console; -console=false turns it off). -version prints
// the version (emulator.Version) and exits; the start-up log shows it and
// the console's URL. Requests
// for a Host name that a web page could rebind to the server's address are
// refused with 403; -allowHost NAME (repeatable, comma-separated) answers
// more names (see docs/server.md, "Hosts and browsers"). Each
// access key id + region is its own database unless -sharedDb is given. Data
// lives in memory and, by default (-inMemory), is gone when the process
// ends; -dbPath DIR keeps it in DIR, logged before each write is
// acknowledged (-durability sync, group or none: persistence.go and docs/persistence.md,
// "Keeping data"), and loads it at start-up. A -dbPath holding DynamoDB
// Local's SQLite files and no data of dynamoemu's gets a warning at start
// naming the command that imports them, dynamoemu-import-ddblocal
// (ddblocal_files.go; the server links no SQLite). SIGINT or SIGTERM shuts
// down gracefully; SIGUSR1 makes it collect its heap and hand the free
// pages back to the operating system (memreturn.go).
//
// With -conventions FILE the tables the file names follow the
// mbc-cqrs-serverless conventions (package conventions): writes that break
// them are refused or reported, and GET /dynamoemu/conventions lists what
// was seen. The check of the tables of any endpoint is a command,
// "dynamoemu check ..." (also "dynamoemu conventions check ...";
// cmd/internal/conventionscheck), with its output and exit status. The binary
// links no AWS SDK: the check has a client of its own.
//
// The first argument names a command of main.go's table (serve, check,
// conventions, mcp, healthcheck, record, replay, import-ddblocal), also after the
// container image's entrypoint flags "-host 0.0.0.0"; without one the
// arguments are the server's flags ("dynamoemu -port 8001" serves).
//
// "dynamoemu import-ddblocal ..." runs the optional command
// dynamoemu-import-ddblocal (next to the binary or on PATH), which the
// image and the npm package leave out: its SQLite reader would add 3.7 MB
// (import.go). "dynamoemu record ..." and "dynamoemu replay ..." run the
// optional dynamoemu-capture the same way: it links the AWS SDK
// (capture.go).
//
// For the container image (../../Dockerfile): "dynamoemu -healthcheck" (or
// "dynamoemu healthcheck [URL]") asks the server at -host and -port for
// ListTables, or GETs URL, and exits 0 if it answers, 1 if not. With
// DynamoDB Local's Java arguments ("-jar DynamoDBLocal.jar" and the -D/-X
// options before it, as an image's command written for
// amazon/dynamodb-local gives them, or as the image's java starts the
// server), it takes DynamoDB Local's command line with its meaning and
// answers its harnesses' probes as DynamoDB Local 3.3 does
// (ddblocal_mode.go); with -localstack or LocalStack's environment it
// takes LocalStack's shape (localstack.go). The name the process was
// started by changes nothing: the image's sh, bash, curl, wget, awslocal,
// java and dynamoemu-conventions are another binary
// (../dynamoemu-tools, cmd/internal/tools). -load also reads CloudFormation,
// SAM, cdk synth and serverless.yml templates (package iac).
package main
