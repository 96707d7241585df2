package archive

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestECBMatchesNode: the ciphertext is what Node's crypto gives for aes-128-ecb with
// scryptSync(key, "", 16), as @strapi/data-transfer encrypts (the vector was made with Node).
func TestECBMatchesNode(t *testing.T) {
	const want = "0e18ad84c2c207b80466139593a580aaee436ae3f3f1382cfc65dec79c4ad8a7508c03f8dc53db94b81fbce9c79862cd"
	var buf bytes.Buffer
	w, err := newECBWriter(&buf, "quarry-key")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "exported by strapi, read by quarry")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(buf.Bytes()); got != want {
		t.Fatalf("ciphertext\n got %s\nwant %s", got, want)
	}
	ct, _ := hex.DecodeString(want)
	r, err := newECBReader(bytes.NewReader(ct), "quarry-key")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(r)
	if err != nil || string(plain) != "exported by strapi, read by quarry" {
		t.Fatalf("decrypt: %q %v", plain, err)
	}
	r, _ = newECBReader(bytes.NewReader(ct), "wrong")
	if _, err := io.ReadAll(r); !errors.Is(err, ErrBadKey) {
		t.Errorf("wrong key: %v", err)
	}
}

func write(t *testing.T, base string, o WriteOptions) string {
	t.Helper()
	w, err := Create(base, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := w.Lines(Entities).Write(map[string]any{"type": "api::a.a", "id": i + 1, "data": map[string]any{"t": strings.Repeat("x", 40)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Lines(Entities).Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.Bytes("assets/uploads/a.png", []byte("png bytes")); err != nil {
		t.Fatal(err)
	}
	md := Metadata{CreatedAt: "2024-01-01T00:00:00.000Z"}
	md.Strapi.Version = "4.26.2"
	if err := w.Close(md); err != nil {
		t.Fatal(err)
	}
	return w.Path
}

// TestRoundTrip: what the writer writes the reader reads, plain, gzip'ed and encrypted, with
// JSON-lines files split at the size bound, metadata.json last; a wrong key is refused.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, o := range []WriteOptions{{}, {Compress: true}, {Compress: true, Key: "k"}, {Key: "k"}} {
		o.MaxLines = 170 // two lines per file
		p := write(t, filepath.Join(t.TempDir(), "x"), o)
		a, err := Open(p, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		lines := 0
		err = a.Walk(ctx, func(e *Entry) error {
			names = append(names, e.Name)
			if e.IsJSONL(Entities) {
				return Lines(e, func(json.RawMessage) error { lines++; return nil })
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		want := "entities/entities_00001.jsonl entities/entities_00002.jsonl assets/uploads/a.png metadata.json"
		if got := strings.Join(names, " "); got != want || lines != 3 {
			t.Errorf("%s: entries %q, %d lines", p, got, lines)
		}
		md, err := a.ReadMetadata(ctx)
		if err != nil || md.Strapi.Version != "4.26.2" {
			t.Errorf("%s: metadata %+v %v", p, md, err)
		}
		if o.Key != "" {
			bad, _ := Open(p, "other")
			if err := bad.Walk(ctx, func(*Entry) error { return nil }); !errors.Is(err, ErrInvalid) {
				t.Errorf("%s with a wrong key: %v", p, err)
			}
		}
	}
}

// TestUnpackedFolder: a folder holding the archive's files is read in stage order.
func TestUnpackedFolder(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"metadata.json":                 `{"createdAt":"x","strapi":{"version":"4.26.2"}}`,
		"links/links_00001.jsonl":       "{}\n",
		"entities/entities_00001.jsonl": "{}\n",
		"schemas/schemas_00001.jsonl":   "{}\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	a, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	a.Walk(context.Background(), func(e *Entry) error { names = append(names, e.Name); return nil })
	if got := strings.Join(names, " "); got != "schemas/schemas_00001.jsonl entities/entities_00001.jsonl links/links_00001.jsonl metadata.json" {
		t.Errorf("order: %s", got)
	}
}

// FuzzWalk: any bytes as an archive (plain or gzip'ed) are read or refused, never a panic.
func FuzzWalk(f *testing.F) {
	dir := f.TempDir()
	for _, o := range []WriteOptions{{}, {Compress: true}} {
		w, _ := Create(filepath.Join(dir, "seed"), o)
		w.Lines(Entities).Write(map[string]any{"type": "x", "id": 1})
		w.Close(Metadata{})
		b, _ := os.ReadFile(w.Path)
		f.Add(b, o.Compress)
	}
	f.Fuzz(func(t *testing.T, data []byte, gz bool) {
		name := "f.tar"
		if gz {
			name += ".gz"
		}
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, data, 0o644)
		a, err := Open(p, "")
		if err != nil {
			return
		}
		a.Walk(context.Background(), func(e *Entry) error {
			if e.IsJSONL(Entities) {
				return Lines(e, func(raw json.RawMessage) error {
					var v map[string]any
					Decode(raw, &v)
					return nil
				})
			}
			_, err := io.Copy(io.Discard, e)
			return err
		})
	})
}
