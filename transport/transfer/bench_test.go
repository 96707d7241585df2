package transfer

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/transport/transfer/archive"
)

// peakRSS is the process's peak resident set (VmHWM), in bytes; 0 where /proc is not there.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkImportLarge imports a generated archive of QUARRY_BENCH_IMPORT_N articles (default
// 20 000), each with a component, a repeatable component, a dynamic-zone item, a link to a
// writer and a 2 KB body, into SQLite, and reports the archive's size and the process's peak
// RSS: the archive is streamed, so the peak stays near the id map's size whatever the
// archive's.
func BenchmarkImportLarge(b *testing.B) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("QUARRY_BENCH_IMPORT_N")); err == nil && v > 0 {
		n = v
	}
	a := openBlog(b)
	w, err := archive.Create(filepath.Join(b.TempDir(), "large"), archive.WriteOptions{Compress: true})
	if err != nil {
		b.Fatal(err)
	}
	ex := &Export{DB: a.DB, Schema: a.Schema, Filter: Filter{Only: []string{GroupConfig}}}
	if _, err := ex.Run(context.Background(), w); err != nil {
		b.Fatal(err)
	}
	body := strings.Repeat("lorem ipsum ", 170)
	ents, links := w.Lines(archive.Entities), w.Lines(archive.Links)
	for i := 1; i <= 100; i++ {
		ents.WriteRaw([]byte(fmt.Sprintf(`{"type":"api::writer.writer","id":%d,"data":{"name":"w%d","createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z"}}`, i, i)))
	}
	for i := 1; i <= n; i++ {
		ents.WriteRaw([]byte(fmt.Sprintf(`{"type":"api::article.article","id":%d,"data":{"title":"Article %d","body":%q,"views":%d,"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z","publishedAt":"2024-01-01T00:00:00.000Z","seo":{"id":%d,"metaTitle":"seo %d","keywords":[]},"links":[{"id":%d,"label":"l"}],"blocks":[{"__component":"shared.quote","id":%d,"text":"q"}]}}`,
			i, i, body, i, i, i, i, i)))
	}
	ents.Flush()
	for i := 1; i <= n; i++ {
		links.WriteRaw([]byte(fmt.Sprintf(`{"kind":"relation.basic","relation":"manyToOne","left":{"type":"api::article.article","field":"author","ref":%d},"right":{"type":"api::writer.writer","field":"articles","ref":%d,"pos":%d}}`, i, i%100+1, i)))
	}
	if err := w.Close(ex.Metadata()); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(w.Path)
	ar, err := archive.Open(w.Path, "")
	if err != nil {
		b.Fatal(err)
	}
	before := peakRSS()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := (&Import{DB: a.DB, Schema: a.Schema}).Run(context.Background(), ar); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(st.Size())/(1<<20), "archive-MB")
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
	b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(before)/(1<<20), "RSS-before-MB")
}
