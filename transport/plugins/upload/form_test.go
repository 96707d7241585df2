package upload

import (
	"bytes"
	"errors"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/ir/apierror"
)

func formRequest(t *testing.T, build func(mw *multipart.Writer)) (body []byte, ctype string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	build(mw)
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

func TestReadForm(t *testing.T) {
	dir := t.TempDir()
	s := &Service{Config: Config{Dir: dir, MaxFileBytes: 1000, SizeLimit: 1000}}
	read := func(body []byte, ctype string) (*Form, error) {
		r := httptest.NewRequest("POST", "/api/upload", bytes.NewReader(body))
		r.Header.Set("Content-Type", ctype)
		return s.ReadForm(httptest.NewRecorder(), r)
	}
	status := func(err error) int {
		var ae *apierror.Error
		if errors.As(err, &ae) {
			return ae.Status
		}
		return 0
	}
	leftovers := func() {
		t.Helper()
		entries, _ := os.ReadDir(dir)
		if len(entries) != 0 {
			t.Fatalf("%d temporary files left", len(entries))
		}
	}

	body, ct := formRequest(t, func(mw *multipart.Writer) {
		mw.WriteField("fileInfo", `{"name":"x"}`)
		w, _ := mw.CreateFormFile("files", `C:\Users\me\a.txt`)
		w.Write([]byte("hello"))
		w, _ = mw.CreateFormFile("files", "")
		w, _ = mw.CreateFormFile("files.cover", "b.png")
		w.Write([]byte("png"))
	})
	f, err := read(body, ct)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Files) != 2 || f.Files[0].Filename != "a.txt" || f.Files[0].Size != 5 || f.Files[1].Field != "files.cover" ||
		len(f.FilesOf("files")) != 1 || f.Fields["fileInfo"][0] != `{"name":"x"}` {
		t.Fatalf("form %+v", f)
	}
	f.Discard()
	leftovers()

	// Cut off before the closing boundary: 400, nothing kept.
	_, err = read(body[:len(body)-30], ct)
	if status(err) != 400 || !strings.Contains(err.Error(), "Invalid multipart body") {
		t.Fatalf("truncated: %v", err)
	}
	leftovers()

	// More file data than a request may carry: 413 FileTooBig.
	body, ct = formRequest(t, func(mw *multipart.Writer) {
		w, _ := mw.CreateFormFile("files", "a.bin")
		w.Write(bytes.Repeat([]byte{1}, 600))
		w, _ = mw.CreateFormFile("files", "b.bin")
		w.Write(bytes.Repeat([]byte{1}, 600))
	})
	_, err = read(body, ct)
	if status(err) != 413 || !strings.Contains(err.Error(), "FileTooBig") {
		t.Fatalf("too big: %v", err)
	}
	leftovers()

	// A JSON body gives fields; anything else gives an empty form.
	f, err = read([]byte(`{"fileInfo":{"name":"n"}}`), "application/json")
	if err != nil || f.Fields["fileInfo"][0] != `{"name":"n"}` || len(f.Files) != 0 {
		t.Fatalf("json: %+v %v", f, err)
	}
	f, err = read([]byte(`x`), "text/plain")
	if err != nil || len(f.Files) != 0 {
		t.Fatalf("text: %+v %v", f, err)
	}
}
