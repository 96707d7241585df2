package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// entry is one file of an archive or image layer. A directory has Dir set; a symbolic link
// has Link set; otherwise Src is a file on disk, or Data the content.
type entry struct {
	Name     string // slash-separated path inside the archive
	Src      string
	Data     []byte
	Mode     int64
	Dir      bool
	Link     string
	UID, GID int
}

// archiveEntries lists what an archive carries under its top folder: the binary, the README
// and licence, the documentation and the example app, so that the README's first command
// (quarry serve --app ./examples/blog) runs from the unpacked folder.
func archiveEntries(o options, top string, t target, bin string) ([]entry, error) {
	es := []entry{{Name: top, Dir: true, Mode: 0o755}}
	es = append(es, entry{Name: top + "/" + t.exe(), Src: bin, Mode: 0o755})
	for _, f := range []string{"README.md", "LICENSE"} {
		if _, err := os.Stat(filepath.Join(o.Root, f)); err == nil {
			es = append(es, entry{Name: top + "/" + f, Src: filepath.Join(o.Root, f), Mode: 0o644})
		}
	}
	// The notices of the modules this binary links (writeNotices, beside the binary).
	if n := filepath.Join(filepath.Dir(bin), noticesName); fileExists(n) {
		es = append(es, entry{Name: top + "/" + noticesName, Src: n, Mode: 0o644})
	}
	for _, d := range []string{"docs", "examples/blog/config", "examples/blog/src"} {
		more, err := treeEntries(filepath.Join(o.Root, d), top+"/"+d)
		if err != nil {
			return nil, err
		}
		es = append(es, more...)
	}
	return es, nil
}

// treeEntries lists a folder's files (skipping what a run leaves behind: .tmp, uploads).
func treeEntries(src, name string) ([]entry, error) {
	var es []entry
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && (d.Name() == ".tmp" || d.Name() == "uploads" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		n := name
		if rel != "." {
			n = name + "/" + filepath.ToSlash(rel)
		}
		switch {
		case d.IsDir():
			es = append(es, entry{Name: n, Dir: true, Mode: 0o755})
		case d.Type().IsRegular():
			es = append(es, entry{Name: n, Src: p, Mode: 0o644})
		}
		return nil
	})
	return es, err
}

func writeArchive(o options, top string, t target, bin, path string) error {
	es, err := archiveEntries(o, top, t, bin)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if strings.HasSuffix(path, ".zip") {
		err = writeZip(f, es, o.Date)
	} else {
		err = writeTarGz(f, es, o.Date)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func writeZip(w io.Writer, es []entry, date time.Time) error {
	zw := zip.NewWriter(w)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: date}
		if e.Dir {
			h.Name += "/"
			h.Method = zip.Store
		}
		h.SetMode(fs.FileMode(e.Mode))
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if e.Dir {
			continue
		}
		if err := copyContent(fw, e); err != nil {
			return err
		}
	}
	return zw.Close()
}

func writeTarGz(w io.Writer, es []entry, date time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := writeTar(gz, es, date); err != nil {
		return err
	}
	return gz.Close()
}

// writeTar writes the entries in order with fixed times and owners, so that the same inputs
// give the same bytes (the image's layer digests depend on it).
func writeTar(w io.Writer, es []entry, date time.Time) error {
	tw := tar.NewWriter(w)
	for _, e := range es {
		h := &tar.Header{Name: e.Name, Mode: e.Mode, ModTime: date, Uid: e.UID, Gid: e.GID, Format: tar.FormatPAX}
		switch {
		case e.Dir:
			h.Typeflag = tar.TypeDir
			h.Name += "/"
		case e.Link != "":
			h.Typeflag = tar.TypeSymlink
			h.Linkname = e.Link
		default:
			h.Typeflag = tar.TypeReg
			n, err := contentSize(e)
			if err != nil {
				return err
			}
			h.Size = n
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if h.Typeflag == tar.TypeReg {
			if err := copyContent(tw, e); err != nil {
				return err
			}
		}
	}
	return tw.Close()
}

func contentSize(e entry) (int64, error) {
	if e.Src == "" {
		return int64(len(e.Data)), nil
	}
	fi, err := os.Stat(e.Src)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

func copyContent(w io.Writer, e entry) error {
	if e.Src == "" {
		_, err := w.Write(e.Data)
		return err
	}
	f, err := os.Open(e.Src)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// writeSums writes SHA256SUMS in the format sha256sum -c reads.
func writeSums(path string, as []artifact) error {
	var lines []string
	for _, a := range as {
		sum, err := fileSHA256(a.Path)
		if err != nil {
			return err
		}
		lines = append(lines, sum+"  "+filepath.Base(a.Path))
	}
	sort.Strings(lines)
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
