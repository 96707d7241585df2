package upload

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/sqlgen/database"
	"github.com/quarrycms/quarry/transport/envelope"
	"github.com/quarrycms/quarry/transport/plugins"
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

// Routes are the media library's content API, mounted on the server's Host.
type Routes struct {
	Host   plugins.Host
	Upload *Service
	DB     *database.DB
	Log    *slog.Logger
}

// Mount adds the routes.
func (s *Routes) Mount(r chi.Router) {
	r.HandleFunc("/api/upload", s.uploadRoute(map[string]http.HandlerFunc{http.MethodPost: s.uploadPost}))
	r.HandleFunc("/api/upload/files", s.uploadRoute(map[string]http.HandlerFunc{http.MethodGet: s.uploadFind}))
	r.HandleFunc("/api/upload/files/{id}", s.uploadRoute(map[string]http.HandlerFunc{
		http.MethodGet: s.uploadFindOne, http.MethodDelete: s.uploadDestroy}))
	r.Get("/uploads/*", s.serveUpload)
	r.Head("/uploads/*", s.serveUpload)
}

func (s *Routes) uploadRoute(byMethod map[string]http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h, ok := byMethod[r.Method]
		if !ok {
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				envelope.WriteAPIError(w, apierror.NotFound()) // as Strapi's router answers GET /api/upload
				return
			}
			envelope.MethodNotAllowed(w, r, envelope.RoutedMethods(byMethod)...)
			return
		}
		h(w, r)
	}
}

// uploadCaller authenticates the request and checks an upload action.
func (s *Routes) uploadCaller(r *http.Request, action string) (*ir.Caller, error) {
	c, err := s.Host.Authenticate(r)
	if err != nil {
		return nil, err
	}
	if !c.Can(uploadAction + action) {
		return nil, apierror.Forbidden()
	}
	return c, nil
}

func (s *Routes) uploadPost(w http.ResponseWriter, r *http.Request) {
	if err := s.uploadPostErr(w, r); err != nil {
		s.Host.WriteError(w, r, err)
	}
}

func (s *Routes) uploadPostErr(w http.ResponseWriter, r *http.Request) error {
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
			return plugins.BadID()
		}
		if len(files) > 1 {
			return apierror.Validation("Cannot replace a file with multiple ones")
		}
		infos, err := up.ParseInfos(form.Fields["fileInfo"], false)
		if err != nil {
			return err
		}
		var info FileInfo
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
		return s.writeFiles(ctx, w, []int64{id}, false, who)
	}
	if len(files) == 0 {
		return ErrFilesEmpty
	}
	infos, err := up.ParseInfos(form.Fields["fileInfo"], len(files) > 1)
	if err != nil {
		return err
	}
	req := UploadRequest{Files: files, Infos: infos}
	ref, _ := form.Field("ref")
	refID, _ := form.Field("refId")
	field, _ := form.Field("field")
	req.Target = &Target{Ref: ref, RefID: refID, Field: field}
	ids, err := up.Upload(ctx, req)
	if err != nil {
		return err
	}
	return s.writeFiles(ctx, w, ids, true, who)
}

// FileQuery is a read of the files model by id.
func FileQuery(id int64) *ir.Query {
	return &ir.Query{Model: "plugin::upload.file", Op: ir.FindOne, ID: strconv.FormatInt(id, 10)}
}

// writeFiles answers with the files as stored: an array, or one object.
func (s *Routes) writeFiles(ctx context.Context, w http.ResponseWriter, ids []int64, list bool, who *ir.Caller) error {
	var b envelope.Buf
	if list {
		b.WriteByte('[')
	}
	for i, id := range ids {
		pl, e, err := s.Host.ReadOne(ctx, s.DB, FileQuery(id), who)
		if err != nil {
			return err
		}
		if e == nil {
			return fmt.Errorf("upload: file %d vanished", id)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		WriteFile(&b, pl.Root, e, nil, false)
	}
	if list {
		b.WriteByte(']')
	}
	envelope.WriteJSON(w, http.StatusOK, &b)
	return nil
}

// WriteFile writes one file as the upload plugin does: {"id":…, scalars…[, "related":[…]]}.
func WriteFile(b *envelope.Buf, sel *plan.Select, e *exec.Entry, related []*Related, withRelated bool) {
	b.WriteString(`{"id":`)
	b.Int(e.ID)
	for i, a := range sel.Columns {
		b.WriteByte(',')
		b.Key(a.Name)
		b.Value(a.Type, e.Values[i])
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
				b.Value(a.Type, r.Values[j])
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
	return plugins.Query(raw, "plugin::upload.file", op, id, keep, limitOf)
}

// wantsRelated reports whether populate asks for the files' `related` entries.
func wantsRelated(p *ir.Populate) bool {
	return p != nil && (p.All || p.Find("related") != nil)
}

func (s *Routes) uploadFind(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		who, err := s.uploadCaller(r, "find")
		if err != nil {
			return err
		}
		q, start, limit, err := uploadQuery(r.URL.RawQuery, ir.FindMany, "")
		if err != nil {
			return err
		}
		pl, res, err := plugins.List(s.Host, r, s.DB, q, start, limit, who)
		if err != nil {
			return err
		}
		related, err := s.relatedOf(r.Context(), q, res.Entries, who)
		if err != nil {
			return err
		}
		var b envelope.Buf
		b.WriteByte('[')
		for i, e := range res.Entries {
			if i > 0 {
				b.WriteByte(',')
			}
			WriteFile(&b, pl.Root, e, related[e.ID], related != nil)
		}
		b.WriteByte(']')
		envelope.WriteJSON(w, http.StatusOK, &b)
		return nil
	}()
	if err != nil {
		s.Host.WriteError(w, r, err)
	}
}

func (s *Routes) relatedOf(ctx context.Context, q *ir.Query, entries []*exec.Entry, who *ir.Caller) (map[int64][]*Related, error) {
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
		rel = map[int64][]*Related{}
	}
	return rel, nil
}

// notFoundFile is the plugin's 404 for an unknown file id.
func notFoundFile() error {
	return &apierror.Error{Status: 404, Name: "NotFoundError", Message: "file.notFound"}
}

func (s *Routes) uploadFindOne(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		who, err := s.uploadCaller(r, "findOne")
		if err != nil {
			return err
		}
		id := chi.URLParam(r, "id")
		if _, err := planner.ParseID(id); err != nil {
			return plugins.BadID()
		}
		q, _, _, err := uploadQuery(r.URL.RawQuery, ir.FindOne, id)
		if err != nil {
			return err
		}
		q.Filters, q.Sort, q.Fields = nil, nil, nil // findOne reads populate only
		pl, e, err := s.Host.ReadOne(r.Context(), s.DB, q, who)
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
		var b envelope.Buf
		WriteFile(&b, pl.Root, e, related[e.ID], related != nil)
		envelope.WriteJSON(w, http.StatusOK, &b)
		return nil
	}()
	if err != nil {
		s.Host.WriteError(w, r, err)
	}
}

func (s *Routes) uploadDestroy(w http.ResponseWriter, r *http.Request) {
	err := func() error {
		who, err := s.uploadCaller(r, "destroy")
		if err != nil {
			return err
		}
		id, err := planner.ParseID(chi.URLParam(r, "id"))
		if err != nil {
			return plugins.BadID()
		}
		pl, e, err := s.Host.ReadOne(r.Context(), s.DB, FileQuery(id), who)
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
		var b envelope.Buf
		WriteFile(&b, pl.Root, e, nil, false)
		envelope.WriteJSON(w, http.StatusOK, &b)
		return nil
	}()
	if err != nil {
		s.Host.WriteError(w, r, err)
	}
}

// serveUpload serves a stored file of the uploads folder, with Range and conditional
// requests. Uploaded content is untrusted: it is never sniffed into another type and runs
// sandboxed if opened as a document.
func (s *Routes) serveUpload(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "*")
	f, st, err := s.Upload.Open(name)
	if err != nil {
		if !errors.Is(err, ErrNoSuchFile) {
			s.Log.Error("serve upload", "name", name, "err", err)
		}
		s.Host.NotFound(w, r) // a file Strapi stored elsewhere (another uploads folder, a provider)
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
	if rng := r.Header.Get("Range"); rng != "" {
		r.Header.Set("Range", boundRanges(rng, st.Size()))
		if r.Header.Get("Range") == "" {
			r.Header.Del("Range")
		}
	}
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// maxRanges caps the ranges of one request once coalesced; browsers and media players ask
// for one, download managers for a few.
const maxRanges = 16

// partOverhead is about what a multipart/byteranges part adds to its bytes: boundary,
// Content-Type and Content-Range lines.
const partOverhead = 120

// boundRanges rewrites a Range header so the answer stays within about twice the file:
// overlapping and adjacent ranges are coalesced (RFC 9110 lets a server do so), and a set
// still over maxRanges, or whose multipart answer would outgrow twice the file, is dropped
// ("" : the whole file, 200). A header it cannot read is returned as is for
// http.ServeContent to judge (it ignores or refuses it with 416).
func boundRanges(h string, size int64) string {
	const prefix = "bytes="
	if !strings.HasPrefix(h, prefix) || size <= 0 {
		return h
	}
	type span struct{ start, end int64 } // inclusive
	var spans []span
	for _, spec := range strings.Split(h[len(prefix):], ",") {
		spec = strings.TrimSpace(spec)
		if spec == "" {
			continue
		}
		a, b, ok := strings.Cut(spec, "-")
		if !ok {
			return h
		}
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		var sp span
		if a == "" {
			n, err := strconv.ParseInt(b, 10, 64)
			if err != nil || n < 0 {
				return h
			}
			if n == 0 {
				continue // unsatisfiable, as net/http treats it
			}
			sp = span{max(size-n, 0), size - 1}
		} else {
			start, err := strconv.ParseInt(a, 10, 64)
			if err != nil || start < 0 {
				return h
			}
			end := size - 1
			if b != "" {
				if end, err = strconv.ParseInt(b, 10, 64); err != nil || end < start {
					return h
				}
				end = min(end, size-1)
			}
			if start >= size {
				continue // out of the file: net/http skips it
			}
			sp = span{start, end}
		}
		spans = append(spans, sp)
	}
	if len(spans) == 0 {
		return h // nothing satisfiable: net/http answers 416
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		last := &merged[len(merged)-1]
		if sp.start <= last.end+1 {
			last.end = max(last.end, sp.end)
			continue
		}
		merged = append(merged, sp)
	}
	if len(merged) > 1 {
		total := int64(0)
		for _, sp := range merged {
			total += sp.end - sp.start + 1 + partOverhead
		}
		if len(merged) > maxRanges || total > 2*size {
			return ""
		}
	}
	var b strings.Builder
	b.WriteString(prefix)
	for i, sp := range merged {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d-%d", sp.start, sp.end)
	}
	return b.String()
}
