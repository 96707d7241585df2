package upload

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/HugoSmits86/nativewebp"
	"golang.org/x/image/draw"
	"golang.org/x/image/tiff"
	_ "golang.org/x/image/webp" // registers the WebP decoder (dimensions, validation)

	"github.com/quarrycms/quarry/ir/apierror"
)

// The image handling follows Strapi's upload plugin (which uses sharp): every image sharp
// reads gets width and height; JPEG, PNG, WebP, TIFF and GIF larger than a box get resized
// copies ("formats"); JPEG and PNG are re-encoded when sizeOptimization is on. Resizing uses
// golang.org/x/image/draw's Catmull-Rom kernel (a bicubic close to sharp's Lanczos3).

// maxPixels is sharp's default limitInputPixels: larger images are refused as invalid.
const maxPixels = 0x3FFF * 0x3FFF

// thumbnail is Strapi's THUMBNAIL_RESIZE_OPTIONS box.
const thumbWidth, thumbHeight = 245, 156

var errNotImage = apierror.Application("File is not a valid image")

// maxDecodedBytes is the memory budget of one image's decoded pixels: 48 megapixels in
// RGBA, 192 in 1-byte gray or palette. Beyond it an upload is refused before decoding.
const maxDecodedBytes = 192 << 20

var errTooLargeImage = apierror.Application(fmt.Sprintf("File is not a valid image: its decoded size exceeds %d MB", maxDecodedBytes>>20))

// errImageBudget refuses an image whose processing needs more memory than the server's
// whole image budget (a budget set below what the largest images need, or breakpoints
// so large that the formats themselves do).
func errImageBudget(budget int64) error {
	return apierror.Application(fmt.Sprintf("File is not a valid image: making its formats needs more than the %d MB of image memory", budget>>20))
}

// decodedSize is what decoding an image allocates for its pixels, from its header: width ×
// height × the bytes per pixel of the decoder's color model.
func decodedSize(cfg image.Config) int64 {
	bpp := int64(4)
	switch cfg.ColorModel {
	case color.GrayModel, color.AlphaModel:
		bpp = 1
	case color.Gray16Model, color.Alpha16Model:
		bpp = 2
	case color.YCbCrModel:
		bpp = 3 // 4:4:4 at worst
	case color.RGBA64Model, color.NRGBA64Model:
		bpp = 8
	default:
		if _, ok := cfg.ColorModel.(color.Palette); ok {
			bpp = 1
		}
	}
	return int64(cfg.Width) * int64(cfg.Height) * bpp
}

// imageInfo is what probing found out about an image file.
type imageInfo struct {
	format        string // png, jpeg, gif, webp, tiff, svg
	width, height int
	decoded       int64 // decodedSize
	// deep is 16 bits per channel: Go's PNG and TIFF encoders read such an image a pixel
	// at a time through At, 8 bytes of garbage per pixel.
	deep bool
}

// resizable formats get thumbnail and responsive formats (Strapi's FORMATS_TO_RESIZE).
func (ii *imageInfo) resizable() bool {
	switch ii.format {
	case "jpeg", "png", "gif", "tiff", "webp":
		return true
	}
	return false
}

// probe reads an image's format and dimensions from its content (mimeType is the type the
// content sniffs as); nil when the file is not an image sharp would read (BMP and AVIF are
// not, for Strapi's sharp build either).
func probe(path, mimeType string) (*imageInfo, error) {
	if !strings.HasPrefix(mimeType, "image/") {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if mimeType == "image/svg+xml" {
		w, h, ok := svgSize(io.LimitReader(f, 1<<20))
		if !ok {
			return nil, nil
		}
		return &imageInfo{format: "svg", width: w, height: h}, nil
	}
	cfg, format, err := image.DecodeConfig(bufio.NewReader(f))
	if err != nil {
		if decodable[mimeType] && mimeType != "image/bmp" {
			return nil, errNotImage
		}
		return nil, nil
	}
	switch format {
	case "png", "jpeg", "gif", "webp", "tiff":
	default:
		return nil, nil
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return nil, errNotImage
	}
	if decodedSize(cfg) > maxDecodedBytes {
		// Decided from the header alone: a 31 KB 1-bit PNG of 16000×16000 decodes to
		// 256 MB before any format is made.
		return nil, errTooLargeImage
	}
	deep := false
	switch cfg.ColorModel {
	case color.Gray16Model, color.Alpha16Model, color.RGBA64Model, color.NRGBA64Model:
		deep = true
	}
	return &imageInfo{format: format, width: cfg.Width, height: cfg.Height, decoded: decodedSize(cfg), deep: deep}, nil
}

// decode reads the whole image (the first frame of a GIF); a file whose header reads but
// whose data does not is "not a valid image", as Strapi's sharp check says. Decoding stops
// when ctx ends (the request's deadline passed): the decoder's reads fail.
func decode(ctx context.Context, path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, _, err := image.Decode(bufio.NewReader(ctxReader{ctx, f}))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, fmt.Errorf("decoding an image: %w", cerr)
		}
		return nil, errNotImage
	}
	return m, nil
}

// ctxReader fails its reads once ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// ctxWriter fails its writes once ctx is done (an encoder writing a format stops there).
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// fitInside is sharp's resize with fit "inside": the largest size within the box that keeps
// the aspect ratio, the other side rounded half up.
func fitInside(w, h, bw, bh int) (int, int) {
	if int64(w)*int64(bh) > int64(h)*int64(bw) {
		return bw, max(1, int((2*int64(h)*int64(bw)+int64(w))/(2*int64(w))))
	}
	return max(1, int((2*int64(w)*int64(bh)+int64(h))/(2*int64(h)))), bh
}

// resize scales src to w×h into an image of the kind made for like (the decoded file's
// type: gray stays gray, 16 bits stay 16 bits), whatever src's own type.
func resize(src, like image.Image, w, h int) image.Image {
	var dst draw.Image
	switch like.(type) {
	case *image.Gray:
		dst = image.NewGray(image.Rect(0, 0, w, h))
	case *image.NRGBA, *image.Paletted:
		dst = image.NewNRGBA(image.Rect(0, 0, w, h))
	case *image.NRGBA64:
		dst = image.NewNRGBA64(image.Rect(0, 0, w, h))
	case *image.RGBA64, *image.Gray16:
		dst = image.NewRGBA64(image.Rect(0, 0, w, h))
	default:
		dst = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

// blank is an empty image of the same type as m: what resize needs to know of the decoded
// file once its pixels are let go.
func blank(m image.Image) image.Image {
	switch m := m.(type) {
	case *image.Gray:
		return &image.Gray{}
	case *image.NRGBA:
		return &image.NRGBA{}
	case *image.Paletted:
		return &image.Paletted{Palette: m.Palette}
	case *image.NRGBA64:
		return &image.NRGBA64{}
	case *image.RGBA64:
		return &image.RGBA64{}
	case *image.Gray16:
		return &image.Gray16{}
	}
	return &image.RGBA{}
}

// The quality scaler (x/image/draw's Catmull-Rom) holds a buffer of 32 bytes per pixel of
// the destination's width times the source's height: 128 MB for a 1000 px wide format of a
// 4000 px high photo, and as much again for each format made from the photo itself. So the
// photo is first box-averaged down by an integer factor to at most twice the largest
// format (shrink, 4 bytes per pixel of the result and one pass over the photo), and the
// formats are made from that.

// shrinkFactor is the factor a w×h image is box-averaged down by before the largest format,
// tw×th, is made of it: the result is at most twice the format (about), never smaller.
func shrinkFactor(w, h, tw, th int) int {
	k := max((w+2*tw-1)/(2*tw), (h+2*th-1)/(2*th))
	for k > 1 && (w/k < tw || h/k < th) {
		k--
	}
	return max(k, 1)
}

// shrink box-averages src down by k into an 8-bit RGBA image (the type the quality scaler
// reads fastest, without an allocation per pixel): each pixel of the result is the mean of a
// k×k block (premultiplied, so transparent pixels do not darken their neighbours); the last
// src.Dx() mod k columns and rows, less than a pixel of the result, are left out. It stops
// when ctx ends.
func shrink(ctx context.Context, src image.Image, k int) (*image.RGBA, error) {
	b := src.Bounds()
	w, h := b.Dx()/k, b.Dy()/k
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	at := rgba64At(src)
	n := uint64(k * k)
	for oy := 0; oy < h; oy++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("resizing an image: %w", err)
		}
		y0 := b.Min.Y + oy*k
		row := dst.Pix[oy*dst.Stride : oy*dst.Stride+4*w]
		for ox := 0; ox < w; ox++ {
			x0 := b.Min.X + ox*k
			var r, g, bl, a uint64
			for y := y0; y < y0+k; y++ {
				for x := x0; x < x0+k; x++ {
					c := at(x, y)
					r, g, bl, a = r+uint64(c.R), g+uint64(c.G), bl+uint64(c.B), a+uint64(c.A)
				}
			}
			// The mean of 16-bit values, rounded to 8 bits.
			d := 257 * n
			row[4*ox], row[4*ox+1], row[4*ox+2], row[4*ox+3] = uint8((r+d/2)/d), uint8((g+d/2)/d), uint8((bl+d/2)/d), uint8((a+d/2)/d)
		}
	}
	return dst, nil
}

// rgba64At reads m's pixels as premultiplied 16-bit colors, without an allocation per
// pixel for the standard library's image types (all implement image.RGBA64Image).
func rgba64At(m image.Image) func(x, y int) color.RGBA64 {
	if m, ok := m.(image.RGBA64Image); ok {
		return m.RGBA64At
	}
	return func(x, y int) color.RGBA64 {
		r, g, b, a := m.At(x, y).RGBA()
		return color.RGBA64{uint16(r), uint16(g), uint16(b), uint16(a)}
	}
}

// encode writes m in the given format with sharp's default output settings.
func encode(w io.Writer, m image.Image, format string, like image.Image) error {
	switch format {
	case "jpeg":
		return jpeg.Encode(w, m, &jpeg.Options{Quality: 80})
	case "png":
		return (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(w, m)
	case "gif":
		opts := &gif.Options{NumColors: 256, Drawer: draw.FloydSteinberg}
		if p, ok := like.(*image.Paletted); ok {
			opts.Quantizer = fixedPalette(p.Palette)
		}
		return gif.Encode(w, m, opts)
	case "tiff":
		return tiff.Encode(w, m, &tiff.Options{Compression: tiff.Deflate, Predictor: true})
	case "webp":
		// Go has no lossy WebP encoder; copies are lossless WebP.
		return nativewebp.Encode(w, m, nil)
	}
	return errors.New("upload: no encoder for " + format)
}

// fixedPalette keeps a GIF's own palette for its resized copies.
type fixedPalette color.Palette

func (p fixedPalette) Quantize(_ color.Palette, _ image.Image) color.Palette {
	return color.Palette(p)
}

// optimize re-encodes a JPEG (quality 80) or PNG (best compression) for sizeOptimization.
func optimize(w io.Writer, m image.Image, format string) error {
	switch format {
	case "jpeg":
		return jpeg.Encode(w, m, &jpeg.Options{Quality: 80})
	case "png":
		return (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(w, m)
	}
	return errors.New("upload: nothing to optimize")
}

// svgSize reads the size librsvg gives an SVG: width and height in px (or in absolute units
// at 72 dpi), else the viewBox.
func svgSize(r io.Reader) (int, int, bool) {
	dec := xml.NewDecoder(r)
	dec.Strict = false
	for {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if se.Name.Local != "svg" {
			return 0, 0, false
		}
		var w, h float64
		var wOK, hOK bool
		var vb []float64
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "width":
				w, wOK = svgLength(a.Value)
			case "height":
				h, hOK = svgLength(a.Value)
			case "viewBox":
				for _, f := range strings.FieldsFunc(a.Value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
					if v, err := strconv.ParseFloat(f, 64); err == nil {
						vb = append(vb, v)
					}
				}
			}
		}
		if len(vb) == 4 && vb[2] > 0 && vb[3] > 0 {
			switch {
			case wOK && !hOK:
				h, hOK = w*vb[3]/vb[2], true
			case hOK && !wOK:
				w, wOK = h*vb[2]/vb[3], true
			case !wOK && !hOK:
				w, h, wOK, hOK = vb[2], vb[3], true, true
			}
		}
		if !wOK || !hOK || w <= 0 || h <= 0 {
			return 0, 0, false
		}
		return int(math.Round(w)), int(math.Round(h)), true
	}
}

func svgLength(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		px     float64
	}{{"px", 1}, {"pt", 1}, {"pc", 12}, {"in", 72}, {"cm", 72 / 2.54}, {"mm", 72 / 25.4}}
	mul := 1.0
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mul = strings.TrimSuffix(s, u.suffix), u.px
			break
		}
	}
	if strings.HasSuffix(s, "%") || strings.HasSuffix(s, "em") || strings.HasSuffix(s, "ex") {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v <= 0 {
		return 0, false
	}
	return v * mul, true
}

// breakpointsInOrder lists the configured breakpoints from the largest down.
func breakpointsInOrder(bp map[string]int) []string {
	keys := make([]string, 0, len(bp))
	for k := range bp {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if bp[a] != bp[b] {
			return bp[b] - bp[a]
		}
		return strings.Compare(a, b)
	})
	return keys
}
