package iac

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestParseDotenv: dotenv's lines, quotes, comments and dotenv-expand's
// references, as the mbc-cqrs-serverless template's .env has them.
func TestParseDotenv(t *testing.T) {
	text := "# comment\n" +
		"NODE_ENV=local # local, dev, stg, prod\n" +
		"APP_NAME=myapp\n" +
		"export PREFIX=${NODE_ENV}-$APP_NAME\n" +
		"DATABASE_URL=\"mysql://root:RootCqrs@localhost:3306/cqrs?schema=public&connection_limit=1\"\n" +
		"SINGLE='$NOT_EXPANDED # kept'\n" +
		"MULTI=\"a\nb\"\n" +
		"NL=\"x\\ny\"\n" +
		"DEFAULTED=${UNSET:-fallback}\n" +
		"ESCAPED=\\$HOME\n" +
		"FROM_ENV=$HOME\n" +
		"SELF=${SELF}x\n" +
		"bad line\n" +
		"LOCAL_DDB_SAMPLE_STREAM=arn:aws:dynamodb:ddblocal:000000000000:table/local-test-cli-sample-command/stream/2025-01-14T12:05:57.881\n" +
		"APP_NAME=last\r\n"
	got := ParseDotenv(text, func(k string) string {
		if k == "HOME" {
			return "/home/me"
		}
		return ""
	})
	require.Equal(t, map[string]string{
		"NODE_ENV":                "local",
		"APP_NAME":                "last",
		"PREFIX":                  "local-last",
		"DATABASE_URL":            "mysql://root:RootCqrs@localhost:3306/cqrs?schema=public&connection_limit=1",
		"SINGLE":                  "$NOT_EXPANDED # kept",
		"MULTI":                   "a\nb",
		"NL":                      "x\ny",
		"DEFAULTED":               "fallback",
		"ESCAPED":                 "$HOME",
		"FROM_ENV":                "/home/me",
		"SELF":                    "x",
		"LOCAL_DDB_SAMPLE_STREAM": "arn:aws:dynamodb:ddblocal:000000000000:table/local-test-cli-sample-command/stream/2025-01-14T12:05:57.881",
	}, got)
}

// TestDotenvFile: .env.STAGE wins over .env, the stage dev by default.
func TestDotenvFile(t *testing.T) {
	dir := t.TempDir()
	require.Equal(t, filepath.Join(dir, ".env"), DotenvFile(dir, ""))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env.dev"), []byte("A=1\n"), 0o644))
	require.Equal(t, filepath.Join(dir, ".env.dev"), DotenvFile(dir, ""))
	require.Equal(t, filepath.Join(dir, ".env"), DotenvFile(dir, "prod"))
	vars, err := ReadDotenv(filepath.Join(dir, ".env"), nil)
	require.NoError(t, err)
	require.Empty(t, vars, "a file that does not exist holds nothing")
	vars, err = ReadDotenv(DotenvFile(dir, "dev"), nil)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"A": "1"}, vars)
}

// FuzzParseDotenv: any text parses, without a panic, into keys without
// spaces.
func FuzzParseDotenv(f *testing.F) {
	for _, s := range []string{"A=1\nB=\"x\ny\"\n", "A=${B:-c}$D\\$E", "export X='a'\n#c\nY=\"", "A=${", "A=$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for k := range ParseDotenv(s, func(string) string { return "" }) {
			require.NotContains(t, k, " ")
		}
	})
}
