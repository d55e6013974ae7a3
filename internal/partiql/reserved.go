package partiql

import (
	"strings"
	"sync"
)

// reservedWords are the words DynamoDB's PartiQL parser reserves: a plain
// (unquoted) identifier may not be one of them, neither as a name (WHERE
// key = 1) nor after a dot in a path (m.inner), where a quoted identifier
// ("key", m."inner") or a bracket (m['inner']) is fine. TRUE, FALSE, NULL
// and MISSING are reserved too (they are literal tokens).
//
// The list is DynamoDB Local 3.3.0's, observed word by word: for exactly
// these 238 words SELECT * FROM t WHERE m.<word> = 1 and WHERE <word> = 1
// are refused as not well formed. They are PartiQL's SQL-92 keywords and
// its own (PIVOT, TUPLE, REMOVE, RETURNING, the Ion type names, ...). AWS
// refuses m.inner with "Invalid path dot component" (a public record of
// AWS answers); its parser is newer than DynamoDB Local's and also takes
// INT2, INT4, INT8, INTEGER2, INTEGER4, INTEGER8 and BIGINT as type names
// after IS, which are not reserved here because DynamoDB Local accepts
// them as names.
var reservedWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"absolute", "action", "add", "all", "allocate", "alter", "and", "any",
		"are", "as", "asc", "assertion", "at", "authorization", "avg", "bag",
		"begin", "between", "bit", "bit_length", "blob", "bool", "boolean", "by",
		"cascade", "cascaded", "case", "cast", "catalog", "char", "char_length",
		"character", "character_length", "check", "clob", "close", "coalesce",
		"collate", "collation", "column", "commit", "conflict", "connect",
		"connection", "constraint", "constraints", "continue", "convert",
		"corresponding", "count", "create", "cross", "current", "current_date",
		"current_time", "current_timestamp", "current_user", "cursor", "date",
		"date_add", "date_diff", "deallocate", "dec", "decimal", "declare",
		"default", "deferrable", "deferred", "delete", "desc", "describe",
		"descriptor", "diagnostics", "disconnect", "distinct", "do", "domain",
		"double", "drop", "else", "end", "escape", "except", "exception", "exec",
		"execute", "exists", "external", "extract", "fetch", "first", "float",
		"for", "foreign", "found", "from", "full", "get", "global", "go", "goto",
		"grant", "group", "having", "identity", "immediate", "in", "index",
		"indicator", "initially", "inner", "input", "insensitive", "insert", "int",
		"integer", "intersect", "interval", "into", "is", "isolation", "join",
		"key", "language", "last", "left", "let", "level", "like", "limit", "list",
		"local", "lower", "match", "max", "min", "modified", "module", "names",
		"national", "natural", "nchar", "new", "next", "no", "not", "nothing",
		"nullif", "numeric", "octet_length", "of", "old", "on", "only", "open",
		"option", "or", "order", "outer", "output", "overlaps", "pad", "partial",
		"pivot", "position", "precision", "prepare", "preserve", "primary",
		"prior", "privileges", "procedure", "public", "read", "real", "references",
		"relative", "remove", "restrict", "returning", "revoke", "right",
		"rollback", "rows", "schema", "scroll", "section", "select", "session",
		"session_user", "set", "sexp", "size", "smallint", "some", "space", "sql",
		"sqlcode", "sqlerror", "sqlstate", "string", "struct", "substring", "sum",
		"symbol", "system_user", "table", "temporary", "then", "time", "timestamp",
		"to", "transaction", "translate", "translation", "trim", "tuple", "union",
		"unique", "unknown", "unpivot", "update", "upper", "usage", "user",
		"using", "value", "values", "varchar", "varying", "view", "when",
		"whenever", "where", "with", "work", "write", "zone",
	} {
		m[strings.ToUpper(w)] = true
	}
	return m
})

// IsReserved reports whether word (any case) is reserved: as a plain
// identifier it does not scan as IDENT but as a keyword token (RESERVED
// when the grammar has no token of its own for it).
func IsReserved(word string) bool { return reservedWords()[strings.ToUpper(word)] }
