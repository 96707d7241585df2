package upload

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestBoundRanges(t *testing.T) {
	for _, c := range []struct {
		in   string
		size int64
		want string
	}{
		{"bytes=0-9", 100, "bytes=0-9"},
		{"bytes=-10", 100, "bytes=90-99"},
		{"bytes=50-", 100, "bytes=50-99"},
		{"bytes=0-9,5-20,21-30", 1000, "bytes=0-30"},
		{"bytes=500-600,0-10", 1000, "bytes=0-10,500-600"},
		{"bytes=0-0,2-2", 100, ""}, // two parts of one byte outweigh the file
		{"bytes=0-9999", 100, "bytes=0-99"},
		{"bytes=200-300", 100, "bytes=200-300"}, // unsatisfiable: left for the 416
		{"bytes=x-1", 100, "bytes=x-1"},
		{"items=0-1", 100, "items=0-1"},
	} {
		if got := boundRanges(c.in, c.size); got != c.want {
			t.Errorf("boundRanges(%q, %d) = %q, want %q", c.in, c.size, got, c.want)
		}
	}
}

// TestRangeAmplification: 600 one-byte ranges of a 1.5 KB file, and overlapping ranges,
// never answer more than about twice the file.
func TestRangeAmplification(t *testing.T) {
	file := bytes.Repeat([]byte("0123456789abcdef"), 96) // 1536 bytes
	serve := func(rng string) (int, int) {
		r := httptest.NewRequest("GET", "/uploads/f.bin", nil)
		r.Header.Set("Range", rng)
		if h := boundRanges(rng, int64(len(file))); h != "" {
			r.Header.Set("Range", h)
		} else {
			r.Header.Del("Range")
		}
		w := httptest.NewRecorder()
		http.ServeContent(w, r, "f.bin", time.Unix(0, 0), bytes.NewReader(file))
		return w.Code, w.Body.Len()
	}
	var ones, overlapping []string
	for i := 0; i < 600; i++ {
		ones = append(ones, fmt.Sprintf("%d-%d", i*2, i*2))
		overlapping = append(overlapping, "0-1535")
	}
	for name, rng := range map[string]string{
		"600 one-byte ranges": "bytes=" + strings.Join(ones, ","),
		"600 whole ranges":    "bytes=" + strings.Join(overlapping, ","),
		"20 spread ranges":    "bytes=0-0,100-100,200-200,300-300,400-400,500-500,600-600,700-700,800-800,900-900,1000-1000,1100-1100,1200-1200,1300-1300,1400-1400,1500-1500,10-10,20-20,30-30,40-40",
	} {
		code, n := serve(rng)
		if n > 2*len(file) || (code != 200 && code != 206) {
			t.Errorf("%s: %d with %d bytes for a file of %d", name, code, n, len(file))
		}
	}
	if code, n := serve("bytes=10-19"); code != 206 || n != 10 {
		t.Errorf("one range: %d %d", code, n)
	}
	if code, _ := serve("bytes=5000-6000"); code != http.StatusRequestedRangeNotSatisfiable {
		t.Errorf("out of the file: %d", code)
	}
}
