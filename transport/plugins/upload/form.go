package upload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/transport/plugins"
)

// Incoming is one received file, held in a temporary file of the uploads folder until it is
// stored (renamed into place) or discarded.
type Incoming struct {
	Field    string // form field: "files", or "files.cover" for inline uploads
	Filename string
	Declared string // the Content-Type the client gave the part
	Size     int64
	path     string
}

// Open opens the received content (its temporary file) for reading.
func (in *Incoming) Open() (*os.File, error) {
	if in == nil || in.path == "" {
		return nil, errors.New("upload: the file was discarded")
	}
	return os.Open(in.path)
}

// TempPath is where the received content waits (formidable's file.path, as the project's
// code reads it); empty once discarded.
func (in *Incoming) TempPath() string { return in.path }

// Discard removes the temporary file.
func (in *Incoming) Discard() {
	if in != nil && in.path != "" {
		os.Remove(in.path)
		in.path = ""
	}
}

// Form is a parsed upload request: its files and its other fields.
type Form struct {
	Files  []*Incoming
	Fields map[string][]string
	// Names are the fields' names in the order they first came (a multipart body's order,
	// which the project's code sees as ctx.request.body's key order).
	Names []string
	// Multipart tells a multipart body from a JSON one.
	Multipart bool
}

// Discard removes every temporary file of the form.
func (f *Form) Discard() {
	if f == nil {
		return
	}
	for _, in := range f.Files {
		in.Discard()
	}
}

// FilesOf lists the files sent under one field name, in order.
func (f *Form) FilesOf(field string) []*Incoming {
	var out []*Incoming
	for _, in := range f.Files {
		if in.Field == field {
			out = append(out, in)
		}
	}
	return out
}

// Field returns the first value of a field.
func (f *Form) Field(name string) (string, bool) {
	v, ok := f.Fields[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[0], true
}

const (
	uploadReadTimeout = 30 * time.Minute
	maxFieldBytes     = 20 << 20 // formidable's maxFieldsSize
	maxParts          = 1000
	maxPartHeader     = 4 << 10 // a part's boundary and headers, generously
	maxJSONBody       = 1 << 20
)

// ErrFileTooBig is the 413 Strapi answers when a request carries more file data than the
// body parser takes.
var ErrFileTooBig = &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "FileTooBig"}

func malformed(format string, args ...any) error {
	return apierror.Validation("Invalid multipart body: "+format, args...)
}

// ReadForm reads a multipart/form-data request (or a JSON object body, whose keys become
// fields), streaming each file into a temporary file. On error nothing is left behind.
func (s *Service) ReadForm(w http.ResponseWriter, r *http.Request) (*Form, error) {
	return s.ReadFormChecked(w, r, nil)
}

// ReadFormChecked is ReadForm with check called on each file part as soon as its header
// arrives (value is empty) and on each other field once read: an error refuses the
// request there, without reading the rest of a body that can only be refused.
func (s *Service) ReadFormChecked(w http.ResponseWriter, r *http.Request, check func(field string, isFile bool, value string) error) (*Form, error) {
	ct, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(ct, "multipart/") {
		return readJSONForm(w, r, ct)
	}
	boundary := params["boundary"]
	if boundary == "" {
		return nil, malformed("no boundary")
	}
	// A declared length that all the files, fields and part headers allowed cannot fill is
	// refused at once, unread, as Strapi's body parser refuses a JSON body over its limit.
	if r.ContentLength > s.Config.MaxFileBytes+maxFieldBytes+maxParts*maxPartHeader {
		return nil, ErrFileTooBig
	}
	// Large files take longer than the server's read timeout for ordinary requests, and
	// than the request's deadline, which bounds the work once the body is in.
	if w != nil {
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(uploadReadTimeout))
	}
	plugins.ReceivingBody(r.Context())
	defer plugins.BodyReceived(r.Context())
	if err := os.MkdirAll(s.storage().stagingDir(), 0o755); err != nil {
		return nil, err
	}
	form := &Form{Fields: map[string][]string{}, Multipart: true}
	ok := false
	defer func() {
		if !ok {
			form.Discard()
		}
	}()
	mr := multipart.NewReader(r.Body, boundary)
	remaining := s.Config.MaxFileBytes
	fieldBytes := 0
	for parts := 0; ; parts++ {
		p, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, partError(err)
		}
		// A part is not closed on the way out of a refusal: Close reads it to its end,
		// and the refusal must not wait for a body that may never end.
		if parts >= maxParts {
			return nil, malformed("more than %d parts", maxParts)
		}
		name, filename, isFile := disposition(p.Header.Get("Content-Disposition"))
		if check != nil && isFile {
			if err := check(name, true, ""); err != nil {
				return nil, err
			}
		}
		if !isFile {
			var b bytes.Buffer
			n, err := io.Copy(&b, io.LimitReader(p, int64(maxFieldBytes-fieldBytes)+1))
			if err != nil {
				return nil, partError(err)
			}
			fieldBytes += int(n)
			if fieldBytes > maxFieldBytes {
				return nil, &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true}
			}
			p.Close()
			if check != nil {
				if err := check(name, false, b.String()); err != nil {
					return nil, err
				}
			}
			if _, seen := form.Fields[name]; !seen {
				form.Names = append(form.Names, name)
			}
			form.Fields[name] = append(form.Fields[name], b.String())
			continue
		}
		in := &Incoming{Field: name, Filename: filename, Declared: p.Header.Get("Content-Type")}
		f, err := os.CreateTemp(s.storage().stagingDir(), ".quarry-upload-*")
		if err != nil {
			p.Close()
			return nil, err
		}
		in.path = f.Name()
		form.Files = append(form.Files, in)
		n, err := io.Copy(f, io.LimitReader(p, remaining+1))
		if err == nil && n <= remaining {
			p.Close()
		}
		if cerr := f.Close(); err == nil && cerr != nil {
			return nil, cerr
		}
		if err != nil {
			return nil, partError(err)
		}
		if n > remaining {
			return nil, ErrFileTooBig
		}
		remaining -= n
		in.Size = n
	}
	// Parts with an empty file name and no content are file inputs left empty.
	kept := form.Files[:0]
	for _, in := range form.Files {
		if in.Filename == "" && in.Size == 0 {
			in.Discard()
			continue
		}
		kept = append(kept, in)
	}
	form.Files = kept
	ok = true
	return form, nil
}

func partError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return ErrFileTooBig
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return malformed("the body ends before its closing boundary")
	}
	return malformed("%v", strings.TrimPrefix(err.Error(), "multipart: "))
}

// disposition reads a part's field name and file name (formidable's rules: the name after
// the last backslash or slash); isFile is true when the part has a filename parameter.
func disposition(v string) (name, filename string, isFile bool) {
	_, params, err := mime.ParseMediaType(v)
	if err != nil {
		return "", "", false
	}
	filename, isFile = params["filename"]
	if i := strings.LastIndexAny(filename, `\/`); i >= 0 {
		filename = filename[i+1:]
	}
	return params["name"], filename, isFile
}

// readJSONForm reads a JSON object body as fields (Strapi's body parser accepts one on the
// upload route: `{"fileInfo": {...}}` updates a file's information).
func readJSONForm(w http.ResponseWriter, r *http.Request, ct string) (*Form, error) {
	form := &Form{Fields: map[string][]string{}}
	if ct != "application/json" {
		io.Copy(io.Discard, io.LimitReader(r.Body, maxJSONBody))
		return form, nil
	}
	raw, err := []byte(nil), error(&http.MaxBytesError{Limit: maxJSONBody})
	if r.ContentLength <= maxJSONBody { // a declared length over the limit is refused unread
		raw, err = io.ReadAll(http.MaxBytesReader(w, r.Body, maxJSONBody))
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &apierror.Error{Status: 413, Name: "PayloadTooLargeError", Message: "request entity too large", NoDetails: true}
		}
		return nil, apierror.Validation("Unreadable request body")
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return form, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, &apierror.Error{Status: 400, Name: "SyntaxError", Message: fmt.Sprintf("Invalid JSON body: %v", err), NoDetails: true}
	}
	for k, v := range obj {
		var str string
		if json.Unmarshal(v, &str) == nil {
			form.Fields[k] = []string{str}
		} else {
			form.Fields[k] = []string{string(v)}
		}
	}
	return form, nil
}
