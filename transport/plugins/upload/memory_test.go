package upload

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir/apierror"
)

// bilevelPNG is a w×h 1-bit grayscale PNG of vertical stripes: a few kilobytes of file
// that decode to w×h bytes (Go decodes 1-bit gray into image.Gray).
func bilevelPNG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	var raw, z bytes.Buffer
	row := make([]byte, 1+(w+7)/8)
	for i := 1; i < len(row); i++ {
		row[i] = 0xF0
	}
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	for y := 0; y < h; y++ {
		raw.Reset()
		raw.Write(row)
		zw.Write(raw.Bytes())
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		c := append([]byte(typ), data...)
		b.Write(c)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(c))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 1, 0 // bit depth 1, grayscale
	chunk("IHDR", ihdr)
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// peakHeap runs fn and reports the most heap memory in objects (live or not yet collected:
// what the process holds) seen while it ran, above what was in use before, sampling
// runtime/metrics every 100µs.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if v := read(); v > peak {
				peak = v
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	if v := read(); v > peak {
		peak = v
	}
	if peak < base {
		return 0
	}
	return peak - base
}

// benchPrepare measures preparing one upload of body: B/op is what it allocates,
// peak-MB/op the most heap it held at once (the order of the RSS it adds) and reserved-MB/op
// what it reserved of the image memory budget.
func benchPrepare(b *testing.B, body []byte, name, mime string, wantErr error) {
	dir := b.TempDir()
	s := &Service{Config: Config{Dir: dir, SizeLimit: DefaultSizeLimit, MaxFileBytes: DefaultMaxFileBytes,
		Breakpoints: DefaultBreakpoints, ResponsiveDimensions: true, SizeOptimization: true}}
	var reserved int64
	s.reserved = func(n int64) { reserved = n }
	b.ReportAllocs()
	b.ResetTimer() // the test image's making is not the upload's
	var peak uint64
	for i := 0; i < b.N; i++ {
		in, err := s.Stage(bytes.NewReader(body), name, mime)
		if err != nil {
			b.Fatal(err)
		}
		var p *prepared
		peak = max(peak, peakHeap(func() { p, err = s.prepare(context.Background(), in, FileInfo{}, "", "") }))
		if err != wantErr {
			b.Fatalf("got %v, want %v", err, wantErr)
		}
		if p != nil {
			p.cleanup()
		} else {
			in.Discard()
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB/op")
	b.ReportMetric(float64(reserved)/(1<<20), "reserved-MB/op")
}

// BenchmarkPrepareLargePhoto: one upload of a 24-megapixel JPEG (6000×4000) and its four
// formats.
func BenchmarkPrepareLargePhoto(b *testing.B) {
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, testImage(6000, 4000), &jpeg.Options{Quality: 80}); err != nil {
		b.Fatal(err)
	}
	benchPrepare(b, jb.Bytes(), "a.jpg", "image/jpeg", nil)
}

// BenchmarkPrepareLargeGray: a 12000×12000 1-bit PNG, the largest decoded size under the
// budget (144 MB of gray pixels), from a file of a few kilobytes.
func BenchmarkPrepareLargeGray(b *testing.B) {
	benchPrepare(b, bilevelPNG(b, 12000, 12000), "a.png", "image/png", nil)
}

// BenchmarkPrepareBombPNG: the 16000×16000 1-bit PNG of the abuse suite (256 MB decoded) is
// refused from its header.
func BenchmarkPrepareBombPNG(b *testing.B) {
	benchPrepare(b, bilevelPNG(b, 16000, 16000), "a.png", "image/png", errTooLargeImage)
}

// TestImageBudget: an image needing more than the whole image memory is refused; one that
// must wait for memory others hold waits as long as its context allows, then gives up with
// the context's error (a deadline: 503); the budget held is given back.
func TestImageBudget(t *testing.T) {
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, testImage(3000, 2000), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	s := &Service{Config: Config{Dir: t.TempDir(), SizeLimit: DefaultSizeLimit, MaxFileBytes: DefaultMaxFileBytes,
		Breakpoints: DefaultBreakpoints, ResponsiveDimensions: true, SizeOptimization: true, ImageMemory: 16 << 20}}
	prepare := func(ctx context.Context) error {
		in, err := s.Stage(bytes.NewReader(jb.Bytes()), "a.jpg", "image/jpeg")
		if err != nil {
			t.Fatal(err)
		}
		defer in.Discard()
		p, err := s.prepare(ctx, in, FileInfo{}, "", "")
		if p != nil {
			p.cleanup()
		}
		return err
	}
	var ae *apierror.Error
	if err := prepare(context.Background()); !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, "image memory") {
		t.Fatalf("over the whole budget: %v", err)
	}
	s.Config.ImageMemory = 256 << 20
	s = &Service{Config: s.Config} // a fresh budget of that size
	release, err := s.acquire(context.Background(), 200<<20)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := prepare(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting for memory past the deadline: %v", err)
	}
	release()
	if err := prepare(context.Background()); err != nil {
		t.Fatalf("after the memory was given back: %v", err)
	}
	// A deadline already passed stops the work before decoding.
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if err := prepare(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("past its deadline: %v", err)
	}
}

// TestImageWork: the budget an image reserves covers what preparing it allocates.
func TestImageWork(t *testing.T) {
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, testImage(3000, 2000), &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	// A GIF (palette) and a 16-bit PNG go through the other kinds of image shrink makes.
	src := testImage(3000, 2000)
	pal := image.NewPaletted(src.Bounds(), palette.WebSafe)
	draw.Draw(pal, pal.Bounds(), src, image.Point{}, draw.Src)
	var gb, pb bytes.Buffer
	if err := gif.Encode(&gb, pal, nil); err != nil {
		t.Fatal(err)
	}
	deep := image.NewNRGBA64(src.Bounds())
	draw.Draw(deep, deep.Bounds(), src, image.Point{}, draw.Src)
	if err := png.Encode(&pb, deep); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, mime string
		body       []byte
	}{
		{"a.jpg", "image/jpeg", jb.Bytes()},
		{"a.png", "image/png", bilevelPNG(t, 4500, 3000)},
		{"a.gif", "image/gif", gb.Bytes()},
		{"deep.png", "image/png", pb.Bytes()},
	} {
		s := &Service{Config: Config{Dir: t.TempDir(), SizeLimit: DefaultSizeLimit, MaxFileBytes: DefaultMaxFileBytes,
			Breakpoints: DefaultBreakpoints, ResponsiveDimensions: true, SizeOptimization: true}}
		in, err := s.Stage(bytes.NewReader(c.body), c.name, c.mime)
		if err != nil {
			t.Fatal(err)
		}
		var reserved int64
		s.reserved = func(n int64) { reserved = n }
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		p, err := s.prepare(context.Background(), in, FileInfo{}, "", "")
		runtime.ReadMemStats(&ms1)
		if err != nil {
			t.Fatal(err)
		}
		p.cleanup()
		alloc := int64(ms1.TotalAlloc - ms0.TotalAlloc)
		if reserved < alloc || reserved > 2*alloc {
			t.Errorf("%s: reserved %d MB, allocated %d MB", c.name, reserved>>20, alloc>>20)
		}
		t.Logf("%s: reserved %.1f MB, allocated %.1f MB", c.name, float64(reserved)/(1<<20), float64(alloc)/(1<<20))
		// Made from the shrunk copy, the formats keep sharp's sizes.
		for key, want := range map[string][2]int{"large": {1000, 667}, "medium": {750, 500}, "small": {500, 333}, "thumbnail": {234, 156}} {
			if f := p.formats[key]; f == nil || f.Width != want[0] || f.Height != want[1] {
				t.Errorf("%s %s: %+v", c.name, key, f)
			}
		}
	}
}

// TestShrink: each pixel is the premultiplied mean of its block, whatever the image's type;
// the leftover column and row are left out.
func TestShrink(t *testing.T) {
	src := image.NewNRGBA(image.Rect(10, 20, 15, 25)) // 5×5, offset bounds
	for y := 20; y < 25; y++ {
		for x := 10; x < 15; x++ {
			src.SetNRGBA(x, y, color.NRGBA{200, 100, 0, 255})
		}
	}
	src.SetNRGBA(10, 20, color.NRGBA{0, 0, 0, 0}) // one transparent pixel in the first block
	got, err := shrink(context.Background(), src, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got.Bounds() != image.Rect(0, 0, 2, 2) {
		t.Fatalf("bounds %v", got.Bounds())
	}
	// Premultiplied: three opaque pixels and a transparent one, 3/4 of the color and alpha.
	if c := got.RGBAAt(0, 0); c != (color.RGBA{150, 75, 0, 191}) {
		t.Errorf("first block %v", c)
	}
	if c := got.RGBAAt(1, 1); c != (color.RGBA{200, 100, 0, 255}) {
		t.Errorf("last block %v", c)
	}
	gray := image.NewGray(image.Rect(0, 0, 4, 2))
	copy(gray.Pix, []byte{0, 100, 10, 20, 50, 150, 30, 40})
	got, _ = shrink(context.Background(), gray, 2)
	if c := got.RGBAAt(0, 0); c != (color.RGBA{75, 75, 75, 255}) {
		t.Errorf("gray %v", c)
	}
	if c := got.RGBAAt(1, 0); c != (color.RGBA{25, 25, 25, 255}) {
		t.Errorf("gray %v", c)
	}
}

// TestImageMemoryConfig: QUARRY_IMAGE_MEMORY takes a size with its unit; a bad one stops
// the start.
func TestImageMemoryConfig(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "QUARRY_IMAGE_MEMORY" {
				return v
			}
			return ""
		}
	}
	c, err := ParseConfig(t.TempDir(), nil, env("256MiB"))
	if err != nil || c.ImageMemory != 256<<20 || c.imageMemory() != 256<<20 {
		t.Fatalf("256MiB: %d %v", c.ImageMemory, err)
	}
	if c, _ := ParseConfig(t.TempDir(), nil, env("")); c.imageMemory() != DefaultImageMemory {
		t.Fatalf("default: %d", c.imageMemory())
	}
	for _, bad := range []string{"lots", "0", "-1MB"} {
		if _, err := ParseConfig(t.TempDir(), nil, env(bad)); err == nil || !strings.Contains(err.Error(), "QUARRY_IMAGE_MEMORY") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
