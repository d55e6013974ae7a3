module github.com/dynamoemu/dynamoemu/emulator/internal/benchmarks/httpexp

go 1.26.8

require (
	github.com/dynamoemu/dynamoemu v0.0.0
	github.com/valyala/fasthttp v1.77.0
)

require (
	github.com/gorilla/mux v1.8.1 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/molecule-man/go-brrr v1.3.0 // indirect
	github.com/oklog/ulid/v2 v2.1.2 // indirect
	github.com/tidwall/btree v1.8.2 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
)

replace github.com/dynamoemu/dynamoemu => ../../../..
