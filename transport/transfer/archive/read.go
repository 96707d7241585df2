// Package archive reads and writes the data files of Strapi v4's data transfer (`strapi
// export` / `strapi import`, @strapi/data-transfer 4.26): a tar archive, optionally gzip'ed,
// optionally encrypted with aes-128-ecb, holding
//
//	metadata.json                      {"createdAt": ..., "strapi": {"version": ...}}
//	schemas/schemas_00001.jsonl        one content-type or component schema per line
//	entities/entities_00001.jsonl      {"type": uid, "id": n, "data": {...}} per line
//	links/links_00001.jsonl            {"kind", "relation", "left": {...}, "right": {...}} per line
//	configuration/configuration_00001.jsonl   {"type": "core-store"|"webhook", "value": {...}}
//	assets/metadata/<hash><ext>.json   the upload row of a file (or of one of its formats)
//	assets/uploads/<hash><ext>         the file's bytes
//
// The same layout unpacked into a folder is read too. The package knows the format only; what
// the lines mean to a database is package transfer's.
package archive

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The folders of an archive, one per transfer stage.
const (
	Schemas       = "schemas"
	Entities      = "entities"
	Links         = "links"
	Configuration = "configuration"
	Assets        = "assets"
	MetadataFile  = "metadata.json"
)

// Metadata is metadata.json.
type Metadata struct {
	CreatedAt string `json:"createdAt"`
	Strapi    struct {
		Version string `json:"version"`
	} `json:"strapi"`
}

// Archive is a data file (or unpacked folder) to read. Each Walk reads it from the start.
type Archive struct {
	Path       string
	dir        bool
	compressed bool
	encrypted  bool
	key        string
}

// Open checks path and says how to read it: a folder is read as an unpacked archive; a file's
// extensions say whether it is encrypted (.enc, which needs key) and compressed (.gz), as
// `strapi import` decides. A file whose name says neither is sniffed (a gzip or a tar header;
// otherwise, with a key, an encrypted one).
func Open(p, key string) (*Archive, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	a := &Archive{Path: p, key: key}
	if st.IsDir() {
		a.dir = true
		return a, nil
	}
	name := strings.ToLower(filepath.Base(p))
	switch {
	case strings.HasSuffix(name, ".enc"):
		a.encrypted = true
		name = strings.TrimSuffix(name, ".enc")
		a.compressed = strings.HasSuffix(name, ".gz")
	case strings.HasSuffix(name, ".gz"), strings.HasSuffix(name, ".tgz"):
		a.compressed = true
	case strings.HasSuffix(name, ".tar"):
	default:
		if err := a.sniff(); err != nil {
			return nil, err
		}
	}
	if a.encrypted && key == "" {
		return nil, fmt.Errorf("%s is encrypted: give its key with --key", p)
	}
	return a, nil
}

func (a *Archive) sniff() error {
	f, err := os.Open(a.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case n >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		a.compressed = true
	case n >= 262 && bytes.Equal(head[257:262], []byte("ustar")):
	case a.key != "":
		a.encrypted = true
		a.compressed = true // what `strapi export` writes by default; checked when read
	default:
		return fmt.Errorf("%s does not look like a Strapi data file (.tar, .tar.gz or .tar.gz.enc)", a.Path)
	}
	return nil
}

// Encrypted says whether the file is read through the key.
func (a *Archive) Encrypted() bool { return a.encrypted }

// Entry is one file of the archive, read once, in archive order.
type Entry struct {
	// Name is the posix path inside the archive (a path written with Windows separators
	// is converted, as Strapi's reader does).
	Name string
	Size int64
	io.Reader
}

// Dir is the entry's top folder ("entities"), "" for a file at the root.
func (e *Entry) Dir() string {
	if i := strings.IndexByte(e.Name, '/'); i >= 0 {
		return e.Name[:i]
	}
	return ""
}

// IsJSONL says whether the entry is a JSON-lines file of a stage folder (schemas/...jsonl).
func (e *Entry) IsJSONL(dir string) bool {
	return path.Dir(e.Name) == dir && strings.HasSuffix(e.Name, ".jsonl")
}

// ErrInvalid wraps every error that says the file is not a readable data file.
var ErrInvalid = errors.New("not a valid Strapi data file")

// Walk calls fn for each file of the archive in its order, until fn returns an error or
// SkipAll. A folder is walked in the order `strapi export` writes: schemas, entities,
// assets, links, configuration, then metadata.json (each folder's files by name).
func (a *Archive) Walk(ctx context.Context, fn func(*Entry) error) error {
	if a.dir {
		return a.walkDir(ctx, fn)
	}
	f, err := os.Open(a.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = bufio.NewReaderSize(f, 256<<10)
	if a.encrypted {
		if r, err = newECBReader(r, a.key); err != nil {
			return err
		}
	}
	if a.compressed {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return a.invalid(err)
		}
		defer zr.Close()
		r = zr
	} else if a.encrypted {
		r = bufio.NewReader(r)
	}
	tr := tar.NewReader(r)
	seen := 0
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		h, err := tr.Next()
		if err == io.EOF {
			if seen == 0 {
				return a.invalid(errors.New("empty archive"))
			}
			return nil
		}
		if err != nil {
			return a.invalid(err)
		}
		seen++
		if h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeRegA {
			continue
		}
		e := &Entry{Name: posixName(h.Name), Size: h.Size, Reader: tr}
		if err := fn(e); err != nil {
			if errors.Is(err, fs.SkipAll) {
				return nil
			}
			return err
		}
	}
}

func (a *Archive) invalid(err error) error {
	if errors.Is(err, ErrBadKey) || a.encrypted {
		return fmt.Errorf("%s: %w (%w: %v)", a.Path, ErrInvalid, ErrBadKey, err)
	}
	return fmt.Errorf("%s: %w (%v)", a.Path, ErrInvalid, err)
}

// posixName converts a Windows path (one with no forward slash) and drops a leading "./".
func posixName(n string) string {
	if !strings.Contains(n, "/") {
		n = strings.ReplaceAll(n, `\`, "/")
	}
	n = path.Clean(strings.TrimPrefix(n, "./"))
	return strings.TrimPrefix(n, "/")
}

var dirOrder = []string{Schemas, Entities, Assets + "/metadata", Assets + "/uploads", Links, Configuration}

func (a *Archive) walkDir(ctx context.Context, fn func(*Entry) error) error {
	visit := func(rel string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := os.Open(filepath.Join(a.Path, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		return fn(&Entry{Name: rel, Size: st.Size(), Reader: bufio.NewReaderSize(f, 64<<10)})
	}
	for _, d := range dirOrder {
		list, err := os.ReadDir(filepath.Join(a.Path, filepath.FromSlash(d)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		names := make([]string, 0, len(list))
		for _, e := range list {
			if e.Type().IsRegular() {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		for _, n := range names {
			if err := visit(d + "/" + n); err != nil {
				if errors.Is(err, fs.SkipAll) {
					return nil
				}
				return err
			}
		}
	}
	if _, err := os.Stat(filepath.Join(a.Path, MetadataFile)); err != nil {
		return fmt.Errorf("%s: %w (no %s)", a.Path, ErrInvalid, MetadataFile)
	}
	if err := visit(MetadataFile); err != nil && !errors.Is(err, fs.SkipAll) {
		return err
	}
	return nil
}

// ReadMetadata reads metadata.json (a whole pass over a file: Strapi writes it last).
func (a *Archive) ReadMetadata(ctx context.Context) (*Metadata, error) {
	var md *Metadata
	err := a.Walk(ctx, func(e *Entry) error {
		if e.Name != MetadataFile {
			return nil
		}
		if e.Size > 1<<20 {
			return fmt.Errorf("%w: metadata.json of %d bytes", ErrInvalid, e.Size)
		}
		md = &Metadata{}
		if err := json.NewDecoder(e).Decode(md); err != nil {
			return fmt.Errorf("%w: metadata.json: %v", ErrInvalid, err)
		}
		return fs.SkipAll
	})
	if err != nil {
		return nil, err
	}
	if md == nil {
		return nil, fmt.Errorf("%s: %w (no %s)", a.Path, ErrInvalid, MetadataFile)
	}
	return md, nil
}

// Lines decodes the JSON lines of r one value at a time into fn, numbers kept as
// json.Number. Blank lines are skipped.
func Lines(r io.Reader, fn func(raw json.RawMessage) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	line := 0
	for {
		b, err := readLine(br)
		if len(b) > 0 {
			line++
			if t := bytes.TrimSpace(b); len(t) > 0 {
				if !json.Valid(t) {
					return fmt.Errorf("%w: line %d is not JSON", ErrInvalid, line)
				}
				if ferr := fn(json.RawMessage(t)); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line of any length (without its newline).
func readLine(br *bufio.Reader) ([]byte, error) {
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil {
			return out[:len(out)-1], nil
		}
		return out, err
	}
}

// Decode decodes one line into v with numbers kept exact (json.Number in interfaces).
func Decode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

// Now is the metadata's createdAt format (JavaScript's toISOString).
func Now(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
