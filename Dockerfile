# dynamoemu's container images: the static server binary and a small
# static tools binary on an empty (scratch) base, listening on
# 0.0.0.0:8000, running as the owner of its data directory (never as root
# unless that directory is root's and holds files). The server's binary is
# also the conventions check ("check"), the MCP server over stdio ("mcp")
# and the health check ("healthcheck").
#
# Two images from this file, by the stage built (docs/containers.md says
# which to use where):
#
#   docker build -t dynamoemu .                              # dynamoemu's own
#   docker build --target ddblocal -t dynamoemu:ddblocal .   # DynamoDB Local's entrypoint and command
#   podman build -t dynamoemu .    # or buildah build: the health check is a label then (below)
#   docker run --rm -p 8000:8000 dynamoemu -sharedDb
#   docker run --rm -p 8000:8000 dynamoemu:ddblocal          # as amazon/dynamodb-local runs
#   docker run --rm -v "$PWD:/cfg" dynamoemu check \
#       --endpoint http://host.docker.internal:8000 --config /cfg/conventions.json
#
# dynamoemu's own image: its ENTRYPOINT is "/dynamoemu -host 0.0.0.0" and
# the arguments after the image name are dynamoemu's flags (a later -host
# wins). Command lines written for amazon/dynamodb-local ("-jar
# DynamoDBLocal.jar -sharedDb ...", or an entrypoint replaced by java) run
# unchanged, with DynamoDB Local's meaning.
# The ddblocal image (stage ddblocal) is the same files with DynamoDB
# Local's ENTRYPOINT (java) and CMD (-jar DynamoDBLocal.jar -inMemory), for
# harnesses that swap the image name and give no command (Testcontainers
# for .NET, Rust's testcontainers-modules). The stage is chosen by
# --target, not a build argument: podman 4.3's builder (buildah 1.28) does
# not resolve a stage named through a build argument (FROM image-${X}).
#
# The images have no real shell: java, curl, wget, sh, bash, awslocal and
# dynamoemu-conventions are links to /dynamoemu-tools (cmd/internal/tools),
# which the server's binary does not contain; the HEALTHCHECK is the
# server's binary asking the server for ListTables.

FROM docker.io/library/golang:1.26-bookworm AS build
WORKDIR /src
# Static binaries: no C toolchain, no libc in the final image. With a vendor/
# directory in the build context (CI builds offline that way) modules come from
# it; without one, from the Go module proxy. GOTOOLCHAIN=auto: if the image's Go
# is older than go.mod's go line, the go command fetches that release.
ENV CGO_ENABLED=0 GOTOOLCHAIN=auto
# VERSION is what -version, the start-up log and the Dynamoemu-Version
# header say. Without --build-arg VERSION=... it is the checkout's: the
# tag on its commit, else devel- and the commit, read from the .git/HEAD
# and refs that .dockerignore lets into the build context (go run
# ./cmd/internal/release version); "devel" only where the context has no .git.
ARG VERSION=
COPY . .
# -trimpath -ldflags="-s -w": no build paths, no symbol table or DWARF;
# -tags nethttpomithttp2: net/http without its HTTP/2 code (0.56 MB), which
# the server never speaks (plain HTTP/1.1, no TLS) and its clients (stream
# handlers, the health check) do not need (docs/containers.md, "Size", says
# what the rest of the binary is); cmd/dynamoemu/cold.gcflags: no inlining
# in code no API call runs through (0.42 MB). The tools: no inlining at all
# (-gcflags=all=-l: nothing in them is hot; 57 kB).
# A shell without sed would build without the flags and say nothing.
RUN sed '/^#/d' cmd/dynamoemu/cold.gcflags >/dev/null
RUN v="${VERSION}"; [ -n "$v" ] || v=$(go run ./cmd/internal/release version .) || exit 1; \
	echo "version $v"; \
	go build -tags nethttpomithttp2 $(sed '/^#/d' cmd/dynamoemu/cold.gcflags) -trimpath -buildvcs=false -ldflags="-s -w -X github.com/dynamoemu/dynamoemu/emulator.version=$v" -o /out/dynamoemu ./cmd/dynamoemu
RUN go build -gcflags=all=-l -trimpath -buildvcs=false -ldflags="-s -w" -o /out/dynamoemu-tools ./cmd/dynamoemu-tools
# -dbPath's home, where DynamoDB Local's image keeps its data: compose files
# written for it say "-dbPath ./data" with working_dir /home/dynamodblocal and
# mount a volume on /home/dynamodblocal/data. It is made here, owned by the
# image's user, so that a named volume mounted on it starts writable. RUN
# mkdir, not WORKDIR: a directory made only by WORKDIR is not kept in the
# stage's layers by podman/buildah (4.3) with their default --layers, and the
# COPY below would not find it.
RUN mkdir -p /out/home/dynamodblocal/data
# The names the tools' binary answers to (cmd/internal/tools): java for
# DynamoDB Local's command line (its image's entrypoint; testcontainers
# replaces the entrypoint with it), curl, wget and sh for health checks
# copied from compose files, bash and awslocal for LocalStack's init
# scripts ("#!/bin/bash", "awslocal dynamodb create-table ..."),
# dynamoemu-conventions for the conventions check's old command name.
# Links to /dynamoemu-tools.
RUN mkdir -p /out/links/usr/bin && ln -s usr/bin /out/links/bin && \
	for n in java curl wget sh bash awslocal dynamoemu-conventions; do ln -s /dynamoemu-tools /out/links/usr/bin/$n; done

# What both images hold. .ci/release builds the stages from here on alone,
# for linux/amd64 and linux/arm64 without emulation (docs/release.md): it
# takes each COPY --from=build /out/X from a context holding, per
# TARGETARCH, the cross-compiled binaries and what the RUN lines above
# make (the data directory, and the links of the "for n in ...; do ln -s
# /dynamoemu-tools" line, whose names it reads). Keep every file of these
# stages coming from the build stage's /out.
FROM scratch AS image
COPY --from=build /out/dynamoemu /dynamoemu
COPY --from=build /out/dynamoemu-tools /dynamoemu-tools
COPY --from=build --chown=65532:65532 /out/home/dynamodblocal /home/dynamodblocal
# The server starts as root only to choose whom to run as: the owner of
# -dbPath (a host directory bind-mounted by a compose file written for
# amazon/dynamodb-local keeps the host user's uid), or 65532 (no -dbPath, the
# image's own data directory, or one the engine just made, which it is given).
# It drops root before it opens anything (cmd/dynamoemu/runas_unix.go). Numeric ids:
# no /etc/passwd needed on scratch.
USER 0:0
ENV DYNAMOEMU_RUN_AS_DATA_OWNER=1
# A relative -dbPath (./data) lands in /home/dynamodblocal/data, as in
# DynamoDB Local's image.
WORKDIR /home/dynamodblocal
EXPOSE 8000
# -healthcheck probes 127.0.0.1:8000; a container started with another -port
# needs its healthcheck to say the same -port (docs/containers.md, "Health
# checks copied from DynamoDB Local's docs" and the paragraph before it).
# HEALTHCHECK is Docker's format: podman build and buildah build write the
# OCI format by default, which has no health check and drops it (with a
# warning); build with --format docker to keep it, or give it in compose
# (healthcheck: test: ["CMD", "/dynamoemu", "-healthcheck"]) or podman run
# --health-cmd. The label says the same to whoever inspects an OCI image.
LABEL io.dynamoemu.healthcheck='["CMD", "/dynamoemu", "-healthcheck"]'
HEALTHCHECK --interval=5s --timeout=5s --start-period=5s --retries=3 \
	CMD ["/dynamoemu", "-healthcheck"]
# java, curl, wget, sh, bash, awslocal and dynamoemu-conventions: links
# to /dynamoemu-tools (made above).
COPY --from=build /out/links/ /
ENV PATH=/usr/bin:/bin

# DynamoDB Local's image, as amazon/dynamodb-local starts: java (the
# tools' java, which starts /dynamoemu with DynamoDB Local's command line)
# with -jar DynamoDBLocal.jar -inMemory. Its start-up block on stdout, GET
# / answering 400 and its flags are DynamoDB Local's (ddblocal_mode.go).
FROM image AS ddblocal
ENTRYPOINT ["java"]
CMD ["-jar", "DynamoDBLocal.jar", "-inMemory"]

# dynamoemu's own image, the default (the last stage).
FROM image AS dynamoemu
ENTRYPOINT ["/dynamoemu", "-host", "0.0.0.0"]
