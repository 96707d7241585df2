package upload

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// pngHeader is a PNG signature and IHDR chunk: all image.DecodeConfig reads of a gray or
// truecolor PNG, so a huge image costs a few bytes here.
func pngHeader(w, h uint32, depth, colorType byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	data := make([]byte, 13)
	binary.BigEndian.PutUint32(data[0:], w)
	binary.BigEndian.PutUint32(data[4:], h)
	data[8], data[9] = depth, colorType
	binary.Write(&b, binary.BigEndian, uint32(len(data)))
	chunk := append([]byte("IHDR"), data...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

// TestDecodedSizeBudget: an image whose decoded pixels exceed the budget is refused from its
// header, before decoding, even under sharp's pixel limit; ordinary large photos pass.
func TestDecodedSizeBudget(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		w, h    uint32
		depth   byte
		ctype   byte
		refused bool
	}{
		{"16000x16000 1-bit gray", 16000, 16000, 1, 0, true},
		{"8000x8000 RGBA", 8000, 8000, 8, 6, true},
		{"6000x4000 RGB", 6000, 4000, 8, 2, false},
		{"12000x12000 8-bit gray", 12000, 12000, 8, 0, false},
		{"6000x6000 16-bit RGBA", 6000, 6000, 16, 6, true},
	} {
		path := filepath.Join(dir, "a.png")
		if err := os.WriteFile(path, pngHeader(c.w, c.h, c.depth, c.ctype), 0o600); err != nil {
			t.Fatal(err)
		}
		ii, err := probe(path, "image/png")
		if c.refused != (err == errTooLargeImage) {
			t.Errorf("%s: got %v %v, refused %v wanted", c.name, ii, err, c.refused)
		}
		if !c.refused && (ii == nil || ii.width != int(c.w)) {
			t.Errorf("%s: got %v %v", c.name, ii, err)
		}
	}
}
