// Package lex holds what the parsers of expr and partiql share: the one
// token [Scanner], the token stream a parser walks ([Stream]), DynamoDB's
// way of counting characters (UTF-16 code units, as Java counts them:
// [UTF16Len], [Position]) and the ASCII character classes both languages
// build on.
//
// Each language keeps its own token kinds, keywords and grammar, and
// states its lexical rules as data ([Rules]: which bytes are space, how
// words, numbers, #placeholders and quoted text run, its comments and
// operators); the scanner follows them. expr has #names and :values and
// no strings; PartiQL has quoted identifiers, strings, comments and ?
// parameters.
//
// Files: scan.go (the scanner and its rules), stream.go (the token
// stream), text.go (character classes, UTF-16 lengths and line:column
// places).
package lex
