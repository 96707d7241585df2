package upload

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/HugoSmits86/nativewebp"
	"golang.org/x/image/tiff"
)

func testImage(w, h int) image.Image {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, color.NRGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	return m
}

// Every resizable format gets its formats in its own encoding, with sharp's sizes.
func TestPrepareFormats(t *testing.T) {
	dir := t.TempDir()
	s := &Service{Config: Config{Dir: dir, SizeLimit: DefaultSizeLimit, MaxFileBytes: DefaultMaxFileBytes,
		Breakpoints: DefaultBreakpoints, ResponsiveDimensions: true, SizeOptimization: true}}
	src := testImage(600, 400)
	var gifB, webpB, tiffB, jpegB bytes.Buffer
	pal := image.NewPaletted(src.Bounds(), palette.WebSafe)
	for y := 0; y < 400; y++ {
		for x := 0; x < 600; x++ {
			pal.Set(x, y, src.At(x, y))
		}
	}
	gif.Encode(&gifB, pal, nil)
	nativewebp.Encode(&webpB, src, nil)
	tiff.Encode(&tiffB, src, nil)
	jpeg.Encode(&jpegB, src, nil)
	for _, c := range []struct {
		name, mime, format string
		body               []byte
	}{
		{"a.gif", "image/gif", "gif", gifB.Bytes()},
		{"a.webp", "image/webp", "webp", webpB.Bytes()},
		{"a.tiff", "image/tiff", "tiff", tiffB.Bytes()},
		{"a.jpg", "image/jpeg", "jpeg", jpegB.Bytes()},
	} {
		in, err := s.Stage(bytes.NewReader(c.body), c.name, c.mime)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.prepare(context.Background(), in, FileInfo{}, "", "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if *p.width != 600 || *p.height != 400 || len(p.formats) != 2 {
			t.Fatalf("%s: %d×%d formats %v", c.name, *p.width, *p.height, p.formats)
		}
		if err := s.put(context.Background(), []*prepared{p}); err != nil {
			t.Fatal(err)
		}
		if err := s.publish([]*prepared{p}); err != nil {
			t.Fatal(err)
		}
		for key, want := range map[string][2]int{"small": {500, 333}, "thumbnail": {234, 156}} {
			f := p.formats[key]
			b, err := os.ReadFile(filepath.Join(dir, f.Hash+f.Ext))
			if err != nil {
				t.Fatal(err)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
			if err != nil || format != c.format || cfg.Width != want[0] || cfg.Height != want[1] || f.SizeInBytes != int64(len(b)) {
				t.Fatalf("%s %s: %v %s %d×%d", c.name, key, err, format, cfg.Width, cfg.Height)
			}
		}
		p.cleanup()
	}
	// Only the final files are left.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4*3 {
		t.Fatalf("%d files in the uploads folder", len(entries))
	}
}
