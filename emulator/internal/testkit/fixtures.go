package testkit

// Item240 is a typical 240-byte item in DynamoDB's JSON form, of eight
// attributes: strings, numbers, a string set, a boolean and a map.
const Item240 = `{"pk":{"S":"TENANT#acme#ORDER"},"sk":{"S":"ORDER#2026-01-01#000123@3"},` +
	`"version":{"N":"3"},"amount":{"N":"1234.50"},"status":{"S":"SHIPPED"},` +
	`"tags":{"SS":["gift","priority"]},"active":{"BOOL":true},` +
	`"address":{"M":{"city":{"S":"Tokyo"},"zip":{"S":"100-0001"}}}}`
