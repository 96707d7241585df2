package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/jmoiron/sqlx"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
	"github.com/quarrycms/quarry/transport/plugins/upload"
	"github.com/quarrycms/quarry/transport/webhook"
)

// The upload plugin's content API (Strapi v4 @strapi/plugin-upload, local provider):
//
//	POST   /api/upload               upload files (optionally attached to an entry's media field)
//	POST   /api/upload?id=X          replace file X's content, or update its information
//	GET    /api/upload/files         list files (filters, sort, fields, populate, start, limit)
//	GET    /api/upload/files/:id     one file
//	DELETE /api/upload/files/:id     delete a file
//	GET    /uploads/<name>           the stored files
//
// Answers are raw file objects, not the {data, meta} envelope, as Strapi's plugin answers.

const uploadAction = "plugin::upload.content-api."

// mountUpload adds the media library's routes when the server has an upload service.
func (s *Server) mountUpload(r chi.Router) {
	if s.Upload == nil {
		return
	}
	r.HandleFunc("/api/upload", s.uploadRoute(map[string]http.HandlerFunc{http.MethodPost: s.uploadPost}))
	r.HandleFunc("/api/upload/files", s.uploadRoute(map[string]http.HandlerFunc{http.MethodGet: s.uploadFind}))
	r.HandleFunc("/api/upload/files/{id}", s.uploadRoute(map[string]http.HandlerFunc{
		http.MethodGet: s.uploadFindOne, http.MethodDelete: s.uploadDestroy}))
	r.Get("/uploads/*", s.serveUpload)
	r.Head("/uploads/*", s.serveUpload)
}

func (s *Server) uploadRoute(byMethod map[string]http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h, ok := byMethod[r.Method]
		if !ok {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				writeAPIError(w, apierror.NotFound()) // as Strapi's router answers GET /api/upload
				return
			}
			methodNotAllowed(w, r)
			return
		}
		h(w, r)
	}
}

// uploadCaller authenticates the request and checks an upload action.
func (s *Server) uploadCaller(r *http.Request, action string) (*ir.Caller, error) {
	c, err := s.Authenticate(r)
	if err != nil {
		return nil, err
	}
	if !c.Can(uploadAction + action) {
		return nil, apierror.Forbidden()
	}
	return c, nil
}

func (s *Server) uploadPost(w http.ResponseWriter, r *http.Request) {
	if err := s.uploadPostErr(w, r); err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) uploadPostErr(w http.ResponseWriter, r *http.Request) error {
	who, err := s.uploadCaller(r, "upload")
	if err != nil {
		return err
	}
	ctx := r.Context()
	up := s.Upload
	form, err := up.ReadForm(w, r)
	if err != nil {
		return err
	}
	defer form.Discard()
	files := form.FilesOf("files")
	if len(files) == 1 && files[0].Size == 0 {
		files = nil
	}
	idStr, hasID := r.URL.Query()["id"]
	if hasID && len(idStr) > 0 && idStr[0] != "" {
		id, err := planner.ParseID(idStr[0])
		if err != nil {
			return badID()
		}
		if len(files) > 1 {
			return apierror.Validation("Cannot replace a file with multiple ones")
		}
		infos, err := up.ParseInfos(form.Fields["fileInfo"], false)
		if err != nil {
			return err
		}
		var info upload.FileInfo
		if len(infos) > 0 {
			info = infos[0]
		}
		if len(files) == 0 {
			err = up.UpdateInfo(ctx, id, info)
		} else {
			err = up.Replace(ctx, id, files[0], info)
		}
		if err != nil {
			return err
		}
		return s.writeFiles(ctx, w, []int64{id}, false, who, webhook.MediaUpdate)
	}
	if len(files) == 0 {
		return upload.ErrFilesEmpty
	}
	infos, err := up.ParseInfos(form.Fields["fileInfo"], len(files) > 1)
	if err != nil {
		return err
	}
	req := upload.UploadRequest{Files: files, Infos: infos}
	ref, _ := form.Field("ref")
	refID, _ := form.Field("refId")
	field, _ := form.Field("field")
	req.Target = &upload.Target{Ref: ref, RefID: refID, Field: field}
	ids, err := up.Upload(ctx, req)
	if err != nil {
		return err
	}
	return s.writeFiles(ctx, w, ids, true, who, webhook.MediaCreate)
}

// fileQuery is a read of the files model by id.
func fileQuery(id int64) *ir.Query {
	return &ir.Query{Model: "plugin::upload.file", Op: ir.FindOne, ID: strconv.FormatInt(id, 10)}
}

// writeFiles answers with the files as stored: an array, or one object; event is the media
// webhook event the write fires for each file.
func (s *Server) writeFiles(ctx context.Context, w http.ResponseWriter, ids []int64, list bool, who *ir.Caller, event string) error {
	var b buf
	if list {
		b.WriteByte('[')
	}
	for i, id := range ids {
		pl, e, err := s.readOne(ctx, s.DB, fileQuery(id), who)
		if err != nil {
			return err
		}
		if e == nil {
			return fmt.Errorf("upload: file %d vanished", id)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		start := b.Len()
		b.file(pl.Root, e, nil, false)
		s.mediaEvent(event, b.Bytes()[start:])
	}
	if list {
		b.WriteByte(']')
	}
	writeJSON(w, http.StatusOK, &b)
	return nil
}

// file writes one file as the upload plugin does: {"id":…, scalars…[, "related":[…]]}.
func (b *buf) file(sel *plan.Select, e *exec.Entry, related []*upload.Related, withRelated bool) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	for i, a := range sel.Columns {
		b.WriteByte(',')
		b.Key(a.Name)
		b.value(a.Type, e.Values[i])
	}
	if withRelated {
		b.WriteString(`,"related":[`)
		for i, r := range related {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"__type":`)
			b.Str(r.Model.UID)
			b.WriteString(`,"id":`)
			b.Int(r.ID)
			for j, a := range r.Columns {
				b.WriteByte(',')
				b.Key(a.Name)
				b.value(a.Type, r.Values[j])
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
}

// uploadQuery parses the query of the files routes. Strapi's upload service reads filters,
// sort, fields and populate, and top-level start and limit; it ignores pagination[...],
// page and pageSize.
func uploadQuery(raw string, op ir.Op, id string) (*ir.Query, int, int, error) {
	keep := func(k string) bool {
		switch k {
		case "page", "pageSize", "pagination", "publicationState", "locale":
			return false
		}
		return true
	}
	// 0 and negative limits read everything, as Strapi's query does.
	limitOf := func(n int) int {
		if n > 0 {
			return n
		}
		return -1
	}
	return pluginQuery(raw, "plugin::upload.file", op, id, keep, limitOf)
}

// wantsRelated reports whether populate asks for the files' `related` entries.
func wantsRelated(p *ir.Populate) bool {
	return p != nil && (p.All || p.Find("related") != nil)
}

func (s *Server) uploadFind(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		who, err := s.uploadCaller(r, "find")
		if err != nil {
			return err
		}
		q, start, limit, err := uploadQuery(r.URL.RawQuery, ir.FindMany, "")
		if err != nil {
			return err
		}
		pl, res, err := s.pluginList(r, q, start, limit, who)
		if err != nil {
			return err
		}
		related, err := s.relatedOf(r.Context(), q, res.Entries, who)
		if err != nil {
			return err
		}
		var b buf
		b.WriteByte('[')
		for i, e := range res.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			b.file(pl.Root, e, related[e.ID], related != nil)
		}
		b.WriteByte(']')
		writeJSON(w, http.StatusOK, &b)
		return nil
	}()
	if err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) relatedOf(ctx context.Context, q *ir.Query, entries []*exec.Entry, who *ir.Caller) (map[int64][]*upload.Related, error) {
	if !wantsRelated(q.Populate) {
		return nil, nil
	}
	ids := make([]int64, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	var fields []string
	if f := q.Populate.Find("related"); f != nil {
		fields = f.Fields
	}
	rel, err := s.Upload.Related(ctx, s.DB, ids, who.CanFind, fields)
	if err != nil {
		return nil, err
	}
	if rel == nil {
		rel = map[int64][]*upload.Related{}
	}
	return rel, nil
}

// notFoundFile is the plugin's 404 for an unknown file id.
func notFoundFile() error {
	return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "file.notFound"}
}

func (s *Server) uploadFindOne(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		who, err := s.uploadCaller(r, "findOne")
		if err != nil {
			return err
		}
		id := chi.URLParam(r, "id")
		if _, err := planner.ParseID(id); err != nil {
			return badID()
		}
		q, _, _, err := uploadQuery(r.URL.RawQuery, ir.FindOne, id)
		if err != nil {
			return err
		}
		q.Filters, q.Sort, q.Fields = nil, nil, nil // findOne reads populate only
		pl, e, err := s.readOne(r.Context(), s.DB, q, who)
		if err != nil {
			return err
		}
		if e == nil {
			return notFoundFile()
		}
		related, err := s.relatedOf(r.Context(), q, []*exec.Entry{e}, who)
		if err != nil {
			return err
		}
		var b buf
		b.file(pl.Root, e, related[e.ID], related != nil)
		writeJSON(w, http.StatusOK, &b)
		return nil
	}()
	if err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) uploadDestroy(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		who, err := s.uploadCaller(r, "destroy")
		if err != nil {
			return err
		}
		id, err := planner.ParseID(chi.URLParam(r, "id"))
		if err != nil {
			return badID()
		}
		pl, e, err := s.readOne(r.Context(), s.DB, fileQuery(id), who)
		if err != nil {
			return err
		}
		if e == nil {
			return notFoundFile()
		}
		found, err := s.Upload.Remove(r.Context(), id)
		if err != nil {
			return err
		}
		if !found {
			return notFoundFile()
		}
		var b buf
		b.file(pl.Root, e, nil, false)
		s.mediaEvent(webhook.MediaDelete, b.Bytes())
		writeJSON(w, http.StatusOK, &b)
		return nil
	}()
	if err != nil {
		s.writeError(w, r, err)
	}
}

// serveUpload serves a stored file of the uploads folder, with Range and conditional
// requests. Uploaded content is untrusted: it is never sniffed into another type and runs
// sandboxed if opened as a document.
func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "*")
	f, st, err := s.Upload.Open(name)
	if err != nil {
		if !errors.Is(err, upload.ErrNoSuchFile) {
			s.Log.Error("serve upload", "name", name, "err", err)
		}
		s.notFound(w, r) // a file Strapi stored elsewhere (another uploads folder, a provider)
		return
	}
	defer f.Close()
	h := w.Header()
	ct := mime.TypeByExtension(strings.ToLower(filepath.Ext(name)))
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", fmt.Sprintf("max-age=%d", s.Upload.Config.MaxAge))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox")
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// ---- files sent with an entry (multipart create and update) ----

// inlineKey holds the inline uploads in a payload map; the writer ignores keys that are not
// attributes, and hands the payload back to RecordInline.
const inlineKey = "\x00quarry.inline-files"

// inlineFiles are the processed files of one multipart request, by attribute path
// ("cover", "seo.image", "links.0.image").
type inlineFiles struct {
	paths   []string
	batches map[string]*upload.Batch
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

// inlineOf is the set of files sent with a payload, nil when there is none.
func inlineOf(data map[string]any) *inlineFiles {
	set, _ := data[inlineKey].(*inlineFiles)
	return set
}

// pendingFiles are batches recorded in a transaction that is still open, by transaction,
// with the ids of the files they recorded.
var pendingFiles = struct {
	sync.Mutex
	m   map[*sqlx.Tx][]*upload.Batch
	ids map[*sqlx.Tx][]int64
}{m: map[*sqlx.Tx][]*upload.Batch{}, ids: map[*sqlx.Tx][]int64{}}

// afterTx puts the files recorded in tx in place once it committed, or drops them.
func (s *Server) afterTx(ctx context.Context, tx *sqlx.Tx, committed bool) error {
	pendingFiles.Lock()
	bs, ids := pendingFiles.m[tx], pendingFiles.ids[tx]
	delete(pendingFiles.m, tx)
	delete(pendingFiles.ids, tx)
	pendingFiles.Unlock()
	var errs []error
	for _, b := range bs {
		if committed {
			errs = append(errs, b.Commit(ctx))
		}
		b.Discard()
	}
	if committed && s.Webhooks != nil {
		// Files sent with an entry are media the upload plugin created, as in Strapi.
		for _, id := range ids {
			if pl, e, err := s.readOne(ctx, s.DB, fileQuery(id), nil); err == nil && e != nil {
				var b buf
				b.file(pl.Root, e, nil, false)
				s.mediaEvent(webhook.MediaCreate, b.Bytes())
			}
		}
	}
	return errors.Join(errs...)
}

// inlineBody reads a multipart create or update: the entry in the JSON `data` field and
// files under `files.<attribute path>`, as Strapi's parseMultipartData. ok is false when the
// request is not multipart.
func (s *Server) inlineBody(w http.ResponseWriter, r *http.Request, m *schemas.Model) (data map[string]any, ok bool, err error) {
	ct, _, perr := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if s.Upload == nil || perr != nil || ct != "multipart/form-data" {
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
	set := &inlineFiles{batches: map[string]*upload.Batch{}}
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
	groups := map[string][]*upload.Incoming{}
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
		b, err := s.Upload.Prepare(r.Context(), upload.UploadRequest{Files: groups[path]})
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

// RecordInline implements write.InlineMedia: it links the files sent with a payload to the
// media attributes their paths name, walking components and dynamic zones of entry id.
func (s *Server) RecordInline(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, data map[string]any) error {
	set, _ := data[inlineKey].(*inlineFiles)
	if set == nil || s.Upload == nil {
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
		ids, err := b.Record(ctx, tx)
		if err != nil {
			return err
		}
		pendingFiles.Lock()
		pendingFiles.m[tx] = append(pendingFiles.m[tx], b)
		pendingFiles.ids[tx] = append(pendingFiles.ids[tx], ids...)
		pendingFiles.Unlock()
	}
	return nil
}

// inlineTarget resolves "seo.image" or "links.0.image" from entry id of m to the model,
// media attribute and row id the files belong to.
func (s *Server) inlineTarget(ctx context.Context, tx *sqlx.Tx, m *schemas.Model, id int64, path string) (*schemas.Model, *schemas.Attribute, int64, error) {
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
			if errors.Is(err, errNoRows) {
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
