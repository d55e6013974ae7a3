// Package lex holds what the scanners and parsers of expr and partiql
// share: the token stream a parser walks ([Stream]), DynamoDB's way of
// counting characters (UTF-16 code units, as Java counts them: [UTF16Len],
// [Position]) and the ASCII character classes both languages build on.
//
// Each language keeps its own token kinds, keywords, scanner rules and
// grammar: those differ (expr has #names and :values and no strings;
// PartiQL has quoted identifiers, strings, comments and ? parameters), so
// a shared scanner would be a switch over two languages. What is the same
// to the letter is here.
//
// Files: stream.go (the token stream), text.go (character classes, UTF-16
// lengths and line:column places).
package lex
