module github.com/dynamoemu/dynamoemu

go 1.26.8

require github.com/cockroachdb/apd/v3 v3.2.3
