package iac

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseDotenv(t *testing.T) {
	src := "# a comment\n" +
		"PLAIN=value\n" +
		"SPACED =  padded value   # a comment\n" +
		"export EXPORTED=yes\n" +
		"COLON: colon value\n" +
		"SINGLE='single # not a comment $PLAIN'\n" +
		"DOUBLE=\"line one\\nline two\" # a comment\n" +
		"MULTI=\"first\n" +
		"second\"\n" +
		"BACKTICK=`it's \"quoted\"`\n" +
		"EMPTY=\n" +
		"DUP=first\n" +
		"DUP=last\n" +
		"not a variable line\n" +
		"WIN=crlf\r\n" +
		"UNCLOSED='open\n" +
		"ARN=arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2024-01-02T02:49:43.692\n"
	got := ParseDotenv([]byte(src))
	want := map[string]string{
		"PLAIN": "value", "SPACED": "padded value", "EXPORTED": "yes", "COLON": "colon value",
		"SINGLE": "single # not a comment $PLAIN", "DOUBLE": "line one\nline two", "MULTI": "first\nsecond",
		"BACKTICK": `it's "quoted"`, "EMPTY": "", "DUP": "last", "WIN": "crlf", "UNCLOSED": "'open",
		"ARN": "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2024-01-02T02:49:43.692",
	}
	values := map[string]string{}
	for k, v := range got {
		values[k] = v.Value
	}
	require.Equal(t, want, values)
}

func TestExpandDotenv(t *testing.T) {
	vars := ParseDotenv([]byte("BASE_URL=my.api.com\nPROTOCOL=https\nURL=$PROTOCOL://${BASE_URL}/\n" +
		"DEFAULTED=${UNSET:-fallback}\nDASH=${UNSET-other}\nLITERAL='$PROTOCOL'\nESCAPED=\\$PROTOCOL\n" +
		"FROM_ENV=$HOME_DIR/x\nOVERRIDDEN=file\nA=$B\nB=$A\n"))
	env := map[string]string{"HOME_DIR": "/home/u", "OVERRIDDEN": "env"}
	got, err := ExpandDotenv(vars, func(k string) string { return env[k] })
	require.NoError(t, err)
	require.Equal(t, "https://my.api.com/", got["URL"])
	require.Equal(t, "fallback", got["DEFAULTED"])
	require.Equal(t, "other", got["DASH"])
	require.Equal(t, "$PROTOCOL", got["LITERAL"], "single quotes: no expansion")
	require.Equal(t, "$PROTOCOL", got["ESCAPED"])
	require.Equal(t, "/home/u/x", got["FROM_ENV"])
	require.Equal(t, "env", got["OVERRIDDEN"], "the environment wins, as dotenv does not override")
	require.Equal(t, "", got["A"], "a cycle ends empty")

	// Values that name the next four times, nine deep: 4^9 copies of a
	// kilobyte, stopped at the budget.
	var b strings.Builder
	for i := range 10 {
		if i < 9 {
			n := strconv.Itoa(i + 1)
			b.WriteString("V" + strconv.Itoa(i) + "=${V" + n + "}${V" + n + "}${V" + n + "}${V" + n + "}\n")
		} else {
			b.WriteString("V9=" + strings.Repeat("x", 1000) + "\n")
		}
	}
	_, err = ExpandDotenv(ParseDotenv([]byte(b.String())), nil)
	require.ErrorContains(t, err, "expand past")
}

func TestReadDotenv(t *testing.T) {
	dir := t.TempDir()
	vars, file, err := ReadDotenv(dir, "", nil)
	require.NoError(t, err)
	require.Empty(t, file, "no file: nothing read")
	require.Empty(t, vars)

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("WHICH=default\nONLY_DEFAULT=1\n"), 0o600))
	vars, file, err = ReadDotenv(dir, "", nil)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, ".env"), file)
	require.Equal(t, "default", vars["WHICH"])

	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env.dev"), []byte("WHICH=dev\n"), 0o600))
	vars, file, err = ReadDotenv(dir, "dev", nil)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, ".env.dev"), file)
	require.Equal(t, map[string]string{"WHICH": "dev"}, vars, ".env.STAGE found: .env is not read")

	_, _, err = ReadDotenv(dir, "../x", nil)
	require.Error(t, err)
}

// FuzzParseDotenv: any file is read without a panic, and its expansion
// stays within its budget.
func FuzzParseDotenv(f *testing.F) {
	f.Add([]byte("A=1\nB=\"x\\ny\"\nC='$A'\nD=${A:-2}$B\n"))
	f.Add([]byte("export K: `v`\n# c\nM=\"open\nN=$M$M$M\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		vars := ParseDotenv(src)
		for k := range vars {
			require.NotEmpty(t, k)
		}
		got, err := ExpandDotenv(vars, func(k string) string { return "" })
		if err == nil {
			require.Len(t, got, len(vars))
		}
	})
}
