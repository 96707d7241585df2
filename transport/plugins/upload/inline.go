package upload

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/plugins"
)

// Files sent with an entry: the content API's multipart create and update, whose `files.<path>`
// parts the upload plugin receives and links to the entry's media attributes in the write's
// transaction.

// Inline receives the files sent with entries. The content API reads bodies through Body,
// the writer records the files through Record (write.InlineMedia), and the transaction's end
// calls AfterTx.
type Inline struct {
	Host   plugins.Host
	Upload *Service
	DB     *database.DB
	Schema *schemas.Schema

	// pending are batches recorded in a transaction that is still open, by transaction;
	// after are what AfterCommit put off until it commits.
	mu      sync.Mutex
	pending map[*sqlx.Tx][]*Batch
	after   map[*sqlx.Tx][]func(context.Context) error
}

// AfterCommit runs fn once the write transaction ctx carries has committed, and drops it if
// that one rolls back; without a transaction in ctx it runs fn at once. The upload
// service's removal and updates called by a before hook run in the write that fired the
// hook: the stored files go, and media events are announced, only once that write holds.
func (s *Inline) AfterCommit(ctx context.Context, fn func(context.Context) error) error {
	tx, ok := write.TxFrom(ctx)
	if !ok || s == nil {
		return fn(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.after == nil {
		s.after = map[*sqlx.Tx][]func(context.Context) error{}
	}
	s.after[tx] = append(s.after[tx], fn)
	return nil
}

// inlineKey holds the inline uploads in a payload map; the writer ignores keys that are not
// attributes, and hands the payload back to Record.
const inlineKey = "\x00quarry.inline-files"

// inlineFiles are the processed files of one multipart request, by attribute path
// ("cover", "seo.image", "links.0.image").
type inlineFiles struct {
	paths   []string
	batches map[string]*Batch
}

// discard takes back the files not committed (it does nothing for a nil set, and for
// files whose entry committed).
func (f *inlineFiles) discard() {
	if f == nil {
		return
	}
	for _, b := range f.batches {
		b.Discard()
	}
}

// DiscardInline takes back the files sent with a payload that were not committed with it.
func DiscardInline(data map[string]any) {
	set, _ := data[inlineKey].(*inlineFiles)
	set.discard()
}

// AfterTx puts the files recorded in tx in place once it committed, or drops them.
func (s *Inline) AfterTx(ctx context.Context, tx *sqlx.Tx, committed bool) error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	bs := s.pending[tx]
	delete(s.pending, tx)
	after := s.after[tx]
	delete(s.after, tx)
	s.mu.Unlock()
	var errs []error
	for _, b := range bs {
		if committed {
			errs = append(errs, b.Commit(ctx))
		}
		b.Discard()
	}
	if committed {
		// Files sent with an entry are media the upload plugin created, as in Strapi.
		for _, b := range bs {
			errs = append(errs, b.Announce(ctx))
		}
		for _, fn := range after {
			errs = append(errs, fn(ctx))
		}
	}
	return errors.Join(errs...)
}

// Body reads a multipart create or update: the entry in the JSON `data` field and
// files under `files.<attribute path>`, as Strapi's parseMultipartData. ok is false when the
// request is not multipart.
func (s *Inline) Body(w http.ResponseWriter, r *http.Request, m *schemas.Model) (data map[string]any, ok bool, err error) {
	ct, _, perr := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if s == nil || s.Upload == nil || perr != nil || ct != "multipart/form-data" {
		return nil, false, nil
	}
	// A file part that can only be refused is refused when its header arrives, before its
	// content (which can be hundreds of megabytes) is read.
	badRequest := func(msg string) error {
		return &apierror.Error{Status: 400, Name: "BadRequestError", Message: msg}
	}
	form, err := s.Upload.ReadFormChecked(w, r, func(field string, isFile bool, value string) error {
		if !isFile {
			if field == "data" && value != "" && !validData(value) {
				return badRequest(invalidData)
			}
			return nil
		}
		path, isFiles := strings.CutPrefix(field, "files.")
		if !isFiles || path == "" {
			return filesPrefixError()
		}
		if m != nil && !mediaPath(m, path) {
			return apierror.Validation("Invalid file key files.%s: it names no media attribute", path)
		}
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	set := &inlineFiles{batches: map[string]*Batch{}}
	done := false
	defer func() {
		if !done {
			form.Discard()
			set.discard()
		}
	}()
	raw, has := form.Field("data")
	if !has || raw == "" {
		return nil, true, badRequest("When using multipart/form-data you need to provide your data in a JSON 'data' field.")
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&data); err != nil || dec.More() || data == nil {
		return nil, true, badRequest(invalidData)
	}
	groups := map[string][]*Incoming{}
	for _, in := range form.Files {
		path, isFiles := strings.CutPrefix(in.Field, "files.")
		if !isFiles || path == "" {
			return nil, true, filesPrefixError()
		}
		if _, seen := groups[path]; !seen {
			set.paths = append(set.paths, path)
		}
		groups[path] = append(groups[path], in)
	}
	for _, path := range set.paths {
		b, err := s.Upload.Prepare(r.Context(), UploadRequest{Files: groups[path]})
		if err != nil {
			return nil, true, err
		}
		set.batches[path] = b
	}
	if len(set.paths) > 0 {
		data[inlineKey] = set
		// Whatever is not recorded and committed by the end of the request is removed.
		context.AfterFunc(r.Context(), func() {
			form.Discard()
			set.discard()
		})
	}
	done = true
	return data, true, nil
}

const invalidData = "Invalid 'data' field. 'data' should be a valid JSON."

// validData reports whether a multipart `data` field holds a JSON object, as the entry
// needs.
func validData(raw string) bool {
	var data map[string]any
	dec := json.NewDecoder(strings.NewReader(raw))
	return dec.Decode(&data) == nil && !dec.More() && data != nil
}

// filesPrefixError is Strapi's refusal of a file part not named files.<attribute path>.
func filesPrefixError() error {
	return &apierror.Error{Status: 400, Name: "BadRequestError", Message: "When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\n" +
		`For example, when a media file is named "avatar", make sure the form key name is "files.avatar"`}
}

// mediaPath reports whether a files.<path> key can name a media attribute of m: the
// schema part of inlineTarget's walk (which also needs the stored components).
func mediaPath(m *schemas.Model, path string) bool {
	parts := strings.Split(path, ".")
	for i := 0; i < len(parts); i++ {
		a, ok := m.Attr(parts[i])
		if !ok {
			return false
		}
		if i == len(parts)-1 {
			return a.Type == schemas.Media
		}
		switch a.Type {
		case schemas.ComponentT:
			if a.Repeatable {
				i++
				if n, err := strconv.Atoi(parts[i]); err != nil || n < 0 || i == len(parts)-1 {
					return false
				}
			}
			if len(a.Components) != 1 {
				return false
			}
			m = a.Components[0]
		case schemas.DynamicZone:
			// The item's component is only known from the stored entry; any listed
			// component with the rest of the path is enough here.
			i++
			if n, err := strconv.Atoi(parts[i]); err != nil || n < 0 || i == len(parts)-1 {
				return false
			}
			rest := strings.Join(parts[i+1:], ".")
			for _, c := range a.Components {
				if mediaPath(c, rest) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// Record implements write.InlineMedia: it links the files sent with a payload to the
// media attributes their paths name, walking components and dynamic zones of entry id.
func (s *Inline) Record(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error {
	set, _ := data[inlineKey].(*inlineFiles)
	if set == nil || s == nil || s.Upload == nil {
		return nil
	}
	delete(data, inlineKey) // recorded once, even if the writer is called again
	for _, path := range set.paths {
		model, attr, owner, err := s.inlineTarget(ctx, tx, m, id, path)
		if err != nil {
			return err
		}
		b := set.batches[path]
		if err := b.Attach(model, attr, owner); err != nil {
			return err
		}
		if _, err := b.Record(ctx, tx); err != nil {
			return err
		}
		s.mu.Lock()
		if s.pending == nil {
			s.pending = map[*sqlx.Tx][]*Batch{}
		}
		s.pending[tx] = append(s.pending[tx], b)
		s.mu.Unlock()
	}
	return nil
}

// inlineTarget resolves "seo.image" or "links.0.image" from entry id of m to the model,
// media attribute and row id the files belong to.
func (s *Inline) inlineTarget(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, path string) (*schemas.Model, *schemas.Attribute, int64, error) {
	bad := apierror.Validation("Invalid file key files.%s: it names no media attribute", path)
	parts := strings.Split(path, ".")
	d := s.DB.Dialect
	for i := 0; i < len(parts); i++ {
		a, ok := m.Attr(parts[i])
		if !ok {
			return nil, nil, 0, bad
		}
		if i == len(parts)-1 {
			if a.Type != schemas.Media {
				return nil, nil, 0, bad
			}
			return m, a, id, nil
		}
		if a.Type != schemas.ComponentT && a.Type != schemas.DynamicZone {
			return nil, nil, 0, bad
		}
		index := 0
		if a.Repeatable || a.Type == schemas.DynamicZone {
			i++
			n, err := strconv.Atoi(parts[i])
			if err != nil || n < 0 || i == len(parts)-1 {
				return nil, nil, 0, bad
			}
			index = n
		}
		var compID int64
		var compType string
		st := sqlgen.ComponentAt(d, m, id, a.Name, index)
		err := tx.QueryRowxContext(ctx, st.SQL, st.Args...).Scan(&compID, &compType)
		if err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return nil, nil, 0, bad
			}
			return nil, nil, 0, err
		}
		c := s.Schema.Models[compType]
		if c == nil {
			return nil, nil, 0, bad
		}
		m, id = c, compID
	}
	return nil, nil, 0, bad
}
