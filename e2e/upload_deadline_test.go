package e2e

import (
	"bytes"
	"compress/zlib"
	"context"
	be32 "encoding/binary"
	"hash/crc32"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bilevelPNG is a w×h 1-bit grayscale PNG of stripes: a file of kilobytes whose processing
// (decoding w×h bytes of pixels, re-encoding, the formats) takes a second or more.
func bilevelPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	var z bytes.Buffer
	row := bytes.Repeat([]byte{0xF0}, 1+(w+7)/8)
	row[0] = 0 // filter: none
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	for range h {
		zw.Write(row)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		be32.Write(&b, be32.BigEndian, uint32(len(data)))
		c := append([]byte(typ), data...)
		b.Write(c)
		be32.Write(&b, be32.BigEndian, crc32.ChecksumIEEE(c))
	}
	ihdr := make([]byte, 13)
	be32.BigEndian.PutUint32(ihdr[0:], uint32(w))
	be32.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 1 // bit depth 1, grayscale
	chunk("IHDR", ihdr)
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// trickle is a body that arrives slowly: its bytes in pieces of n, pause apart.
type trickle struct {
	rest  []byte
	n     int
	pause time.Duration
}

func (t *trickle) Read(p []byte) (int, error) {
	if len(t.rest) == 0 {
		return 0, io.EOF
	}
	time.Sleep(t.pause)
	k := min(len(p), len(t.rest), t.n)
	copy(p, t.rest[:k])
	t.rest = t.rest[k:]
	return k, nil
}

// TestUploadDeadline: a multipart upload's body may take longer than the request deadline
// (QUARRY_REQUEST_TIMEOUT) to arrive, but the work after it may not: processing that
// outlasts the deadline ends with a 503 and nothing stored, on the REST upload route, in an
// entry's creation and through GraphQL. An image whose decoded size is over the budget is
// refused at once.
func TestUploadDeadline(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyApp(t, "../examples/blog", `{}`)
			env := append(be.Env(t), "API_TOKEN_SALT=quarry-e2e-salt", "LOG_LEVEL=warn")
			token := strings.TrimSpace(quarry(t, env, "tokens", "create", "--app", app, "--name", "e2e", "--type", "full-access"))
			s := serve(t, append(env, "QUARRY_REQUEST_TIMEOUT=400ms"), app, token)
			uploads := filepath.Join(app, "public", "uploads")
			if st, b := s.do(t, "GET", "/api/upload/files", nil); st != 200 {
				t.Fatalf("files: %d %s", st, b)
			}

			// A body trickling in over twice the deadline is received and stored.
			body, ct := multipartBody(t, filepart("files", "slow.txt", "text/plain", bytes.Repeat([]byte("slow "), 2000)))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", s.URL+"/api/upload", &trickle{rest: body, n: len(body)/10 + 1, pause: 100 * time.Millisecond})
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Authorization", "Bearer "+s.Token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(got), `"name":"slow.txt"`) {
				t.Fatalf("slow body: %d %s", resp.StatusCode, got)
			}
			before := strings.Join(settledDir(t, uploads), ",")

			// The abuse suite's 16000×16000 1-bit PNG (256 MB decoded) is refused from its
			// header, well within the deadline.
			st, b := s.upload(t, "/api/upload", filepart("files", "bomb.png", "image/png", bilevelPNG(t, 16000, 16000)))
			if st != 400 || !strings.Contains(string(b), "its decoded size exceeds 192 MB") {
				t.Errorf("16000x16000 PNG: %d %s", st, b)
			}

			// Processing longer than the deadline: 503, nothing stored.
			big := bilevelPNG(t, 12000, 12000)
			unavailable := func(what string, st int, b string) {
				t.Helper()
				if st != 503 || !strings.Contains(b, `"ServiceUnavailableError"`) {
					t.Errorf("%s: %d %.300s", what, st, b)
				}
			}
			st, b = s.upload(t, "/api/upload", filepart("files", "big.png", "image/png", big))
			unavailable("REST upload", st, string(b))
			st, b = s.upload(t, "/api/articles", field("data", `{"title":"Late article"}`), filepart("files.cover", "big.png", "image/png", big))
			unavailable("entry creation", st, string(b))
			st, gb := s.gqlMultipart(t, s.Token, `mutation($file: Upload!) { upload(file: $file) { data { id } } }`,
				map[string]any{"file": nil}, gqlFile{key: "0", filename: "big.png", ctype: "image/png", body: big, paths: []string{"variables.file"}})
			unavailable("GraphQL upload", st, gb)

			if after := strings.Join(settledDir(t, uploads), ","); after != before {
				t.Errorf("files left: %s, before %s", after, before)
			}
			if st, b := s.do(t, "GET", "/api/upload/files", nil); st != 200 || strings.Contains(string(b), "big.png") || strings.Contains(string(b), "bomb.png") || !strings.Contains(string(b), "slow.txt") {
				t.Errorf("files after: %d %.500s", st, b)
			}
			if st, b := s.do(t, "GET", "/api/articles?filters[title][$eq]=Late%20article&publicationState=preview", nil); st != 200 || strings.Contains(string(b), "Late") {
				t.Errorf("articles after: %d %.500s", st, b)
			}
		})
	}
}
