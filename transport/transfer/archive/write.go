package archive

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// WriteOptions say how Create writes: gzip'ed (Compress) and encrypted (Key, when not "").
type WriteOptions struct {
	Compress bool
	Key      string
	// MaxLines bounds the bytes of one JSON-lines file (Strapi's maxSizeJsonl, which
	// defaults to 256 MB): a stage's lines are kept in memory until then. Zero: 16 MB.
	MaxLines int
}

// Writer writes a data file. Nothing shows under the final name until Close: the archive is
// written to a temporary file beside it and renamed, so an interrupted export leaves no
// half-written archive.
type Writer struct {
	Path string // the final name: base + .tar[.gz][.enc]
	tmp  *os.File
	buf  *bufio.Writer
	enc  *ecbWriter
	gz   *gzip.Writer
	tw   *tar.Writer
	max  int
	now  time.Time
	// lines are the open JSON-lines files per stage folder.
	lines map[string]*LineWriter
}

// ArchiveName is the name `strapi export -f base` writes.
func ArchiveName(base string, o WriteOptions) string {
	p := base + ".tar"
	if o.Compress {
		p += ".gz"
	}
	if o.Key != "" {
		p += ".enc"
	}
	return p
}

// Create starts the archive base.tar[.gz][.enc].
func Create(base string, o WriteOptions) (*Writer, error) {
	w := &Writer{Path: ArchiveName(base, o), max: o.MaxLines, now: time.Now(), lines: map[string]*LineWriter{}}
	if w.max <= 0 {
		w.max = 16 << 20
	}
	dir := filepath.Dir(w.Path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(w.Path)+".*.partial")
	if err != nil {
		return nil, err
	}
	w.tmp = tmp
	w.buf = bufio.NewWriterSize(tmp, 256<<10)
	var out io.Writer = w.buf
	if o.Key != "" {
		if w.enc, err = newECBWriter(out, o.Key); err != nil {
			w.Abort()
			return nil, err
		}
		out = w.enc
	}
	if o.Compress {
		w.gz = gzip.NewWriter(out)
		out = w.gz
	}
	w.tw = tar.NewWriter(out)
	return w, nil
}

// File adds one file of size bytes read from r.
func (w *Writer) File(name string, size int64, r io.Reader) error {
	h := &tar.Header{Name: name, Size: size, Mode: 0o644, ModTime: time.Now(), Typeflag: tar.TypeReg}
	if err := w.tw.WriteHeader(h); err != nil {
		return err
	}
	n, err := io.Copy(w.tw, io.LimitReader(r, size))
	if err != nil {
		return err
	}
	if n != size {
		return fmt.Errorf("%s: %d bytes read, %d announced", name, n, size)
	}
	return nil
}

// Bytes adds one file holding b.
func (w *Writer) Bytes(name string, b []byte) error {
	return w.File(name, int64(len(b)), bytes.NewReader(b))
}

// LineWriter writes one JSON value per line into a stage folder's numbered files
// (<dir>/<dir>_00001.jsonl, _00002 ...), starting a new file past the size bound.
type LineWriter struct {
	w     *Writer
	dir   string
	buf   bytes.Buffer
	index int
}

// Lines returns the JSON-lines writer of a stage folder.
func (w *Writer) Lines(dir string) *LineWriter {
	if l, ok := w.lines[dir]; ok {
		return l
	}
	l := &LineWriter{w: w, dir: dir}
	w.lines[dir] = l
	return l
}

// Write adds v as one line (encoded with encoding/json; a json.RawMessage as it is).
func (l *LineWriter) Write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return l.WriteRaw(b)
}

// WriteRaw adds one line of JSON text.
func (l *LineWriter) WriteRaw(b []byte) error {
	if l.buf.Len() > 0 && l.buf.Len()+len(b)+1 > l.w.max {
		if err := l.Flush(); err != nil {
			return err
		}
	}
	l.buf.Write(b)
	l.buf.WriteByte('\n')
	return nil
}

// Flush writes the lines kept so far as the next numbered file.
func (l *LineWriter) Flush() error {
	if l.buf.Len() == 0 {
		return nil
	}
	l.index++
	name := fmt.Sprintf("%s/%s_%05d.jsonl", l.dir, l.dir, l.index)
	err := l.w.Bytes(name, l.buf.Bytes())
	l.buf.Reset()
	return err
}

// Close flushes every stage, writes metadata.json (last, as Strapi does), finishes the
// archive and gives it its final name.
func (w *Writer) Close(md Metadata) error {
	for _, d := range []string{Schemas, Entities, Links, Configuration} {
		if l, ok := w.lines[d]; ok {
			if err := l.Flush(); err != nil {
				w.Abort()
				return err
			}
		}
	}
	b, err := json.MarshalIndent(md, "", "  ")
	if err == nil {
		err = w.Bytes(MetadataFile, b)
	}
	if err == nil {
		err = w.tw.Close()
	}
	if err == nil && w.gz != nil {
		err = w.gz.Close()
	}
	if err == nil && w.enc != nil {
		err = w.enc.Close()
	}
	if err == nil {
		err = w.buf.Flush()
	}
	if err == nil {
		err = w.tmp.Sync()
	}
	if err == nil {
		err = w.tmp.Chmod(0o644)
	}
	if err == nil {
		err = w.tmp.Close()
	}
	if err == nil {
		err = os.Rename(w.tmp.Name(), w.Path)
	}
	if err != nil {
		w.Abort()
		return fmt.Errorf("write %s: %w", w.Path, err)
	}
	return nil
}

// Abort removes the partial archive.
func (w *Writer) Abort() {
	if w.tmp != nil {
		w.tmp.Close()
		os.Remove(w.tmp.Name())
	}
}
