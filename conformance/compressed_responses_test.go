package conformance

// HTTP: compressed responses.

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"
)

// TestCompressedResponseSDK: an SDK that asks for gzip
// (aws-sdk-go-v2's EnableAcceptEncodingGzip) checks x-amz-crc32 over the
// compressed bytes and then decompresses; a large answer arrives whole and
// a small one too. Passes whether or not the endpoint compresses.
func TestCompressedResponseSDK(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	big := strings.Repeat("compressible ", 1000)
	mustPut(t, c, table, item{"pk": s("big"), "x": s(big)})
	mustPut(t, c, table, item{"pk": s("small"), "x": s("tiny")})
	gz := func(o *dynamodb.Options) { o.EnableAcceptEncodingGzip = true }
	for _, key := range []string{"big", "small"} {
		out, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: item{"pk": s(key)}, ConsistentRead: aws.Bool(true)}, gz)
		mustNoError(t, err)
		if got := render(out.Item["x"]); key == "big" && got != render(s(big)) {
			t.Errorf("%s: got %d characters back", key, len(got))
		}
	}
	out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table}, gz)
	mustNoError(t, err)
	if out.Count != 2 {
		t.Errorf("Scan: Count %d, want 2", out.Count)
	}
}

// TestCompressedResponseRaw: DynamoDB gzips an answer of 4096 bytes or
// more for a client that accepts gzip, with Content-Encoding: gzip and
// x-amz-crc32 of the compressed bytes; a smaller answer is not compressed
// (ScyllaDB's tests run against AWS, test_compressed_response.py; the CRC
// over the sent bytes: the SDKs' DynamoDB customizations, smithy-rs#129).
func TestCompressedResponseRaw(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local never compresses a response")
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("big"), "x": s(strings.Repeat("x", 5000))})
	mustPut(t, c, table, item{"pk": s("small"), "x": s("tiny")})
	for _, tc := range []struct{ key, wantCoding string }{{"big", "gzip"}, {"small", ""}} {
		r := rawSend(t, "GetItem", []byte(`{"TableName":"`+table+`","Key":{"pk":{"S":"`+tc.key+`"}}}`),
			map[string]string{"Accept-Encoding": "gzip"})
		if got := r.Header.Get("Content-Encoding"); r.Status != 200 || got != tc.wantCoding {
			t.Fatalf("%s: got %d, Content-Encoding %q, want 200 and %q", tc.key, r.Status, got, tc.wantCoding)
		}
		if got, want := r.Header.Get("x-amz-crc32"), strconv.FormatUint(uint64(crc32.ChecksumIEEE(r.Body)), 10); got != want {
			t.Errorf("%s: x-amz-crc32 %s, want %s (of the bytes sent)", tc.key, got, want)
		}
		if tc.wantCoding == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(r.Body))
			if err != nil {
				t.Fatal(err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil || !bytes.Contains(plain, []byte(strings.Repeat("x", 5000))) {
				t.Errorf("gzip body does not decode to the item (%v)", err)
			}
		}
	}
}

// TestAcceptEncodingWeights: how DynamoDB reads Accept-Encoding, every
// case of ScyllaDB's test_accept_encoding_header (test_compressed_response.py,
// run against DynamoDB, January 2026), on a GetItem answer over 4 KB. A
// weight is read from the first "q=" in an entry's parameters: "gzip;q
// =0;q=1" is compressed (no "q=" before the second), "gzip;nq=0;q=1" is not
// (the "q=" of "nq=0" counts).
func TestAcceptEncodingWeights(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local never compresses a response")
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("big"), "x": s(strings.Repeat("x", 4096))})
	body := []byte(`{"TableName":"` + table + `","Key":{"pk":{"S":"big"}}}`)
	for _, tc := range []struct{ accept, want string }{
		{"identity", ""}, {"", ""},
		{"br", ""}, {"zstd", ""}, {"compress", ""}, {"x-gzip", ""},
		{"gzip, deflate", "gzip"},
		{"br, identity, deflate, gzip", "deflate"},
		{"GZIP, identity", "gzip"},
		{"dog, gzip ,, cat", "gzip"},
		{"gzip;q=0.8, deflate;q=0.5", "gzip"},
		{"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", "deflate"},
		{"*", "gzip"},
		{"*, deflate;q=0.5", "gzip"},
		{"*, deflate", "deflate"},
		{"*, identity", "gzip"},
		{"*, gzip;q=0.5", "deflate"},
		{"gzip ;q=0", ""},
		{"identity;q=0", ""},
		{"*;q=0", ""},
		{"*;q=0.5,identity", "gzip"},
		{"gzip;q=0.5,identity;q=0.8", "gzip"},
		{"br;q=0.8,identity;q=0.5,*;q=0", ""},
		{`"gzip"`, ""},
		{"gzip br", ""},
		{"gzip:q=1", ""},
		{"deflate;q=0.5, gzip;q=31", "gzip"},
		{"gzip;q=31,deflate;q=51", "gzip"},
		{"deflate;q=0.5, gzip;q=0.2", "deflate"},
		{"deflate;q=0.5, gzip;q=1;q=0.2", "gzip"},
		{"deflate;q=0.5,gzip;q=0.", "deflate"},
		{"deflate;q=0.5,gzip;q=0.x", "gzip"},
		{"deflate;q=0.5,gzip;q=0. x", "gzip"},
		{"deflate;q=-0.5,gzip;q=0.2", "gzip"},
		{"gzip;q= 0;q=1", ""},
		{"gzip;q =0;q=1", "gzip"},
		{"gzip; q=0;q=1", ""},
		{"gzip;nq=0;q=1", ""},
		{"gzip;q=0, gzip;q=1, gzip;q=0", "gzip"},
		{"br,identity;q=0.5,gzip;q=0.0001", "gzip"},
	} {
		r := rawSend(t, "GetItem", body, map[string]string{"Accept-Encoding": tc.accept})
		require.Equal(t, 200, r.Status, "Accept-Encoding %q", tc.accept)
		require.Equal(t, tc.want, r.Header.Get("Content-Encoding"), "Accept-Encoding %q", tc.accept)
	}
}
