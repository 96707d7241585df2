package graphql

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/plugins/upload"
)

// The upload plugin over GraphQL: multipart requests (the GraphQL multipart request spec
// as graphql-upload implements it), the upload, multipleUpload, updateFileInfo and
// removeFile mutations, and the `related` entries of files.

// specURL ends graphql-upload's error messages.
const specURL = "https://github.com/jaydenseric/graphql-multipart-request-spec"

func isMultipart(r *http.Request) bool {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && ct == "multipart/form-data"
}

// badMultipart is graphql-upload's refusal of a malformed multipart request, which Strapi's
// error middleware answers with its REST envelope.
func badMultipart(status int, format string, args ...any) *apierror.Error {
	name := "BadRequestError"
	if status == http.StatusRequestEntityTooLarge {
		name = "PayloadTooLargeError"
	}
	return &apierror.Error{Status: status, Name: name, Message: fmt.Sprintf(format, args...), NoDetails: true}
}

// serveMultipart serves a multipart request: the operation in the `operations` field, the
// `map` from file parts to variable paths, and the file parts. The caller is identified
// first, so nothing is received for a refused token.
func (h *Handler) serveMultipart(w http.ResponseWriter, r *http.Request) {
	caller, err := h.authenticate(r)
	if err != nil {
		h.authError(w, err)
		return
	}
	if h.upload == nil {
		writeAPIError(w, badMultipart(http.StatusBadRequest, "Multipart requests are not supported: the upload plugin is not configured"))
		return
	}
	form, err := h.upload.ReadForm(w, r)
	if err != nil {
		var ae *apierror.Error
		if u := h.db.Unavailable(h.log, err); u != nil {
			ae = u
		} else if !errors.As(err, &ae) {
			h.log.Error("graphql multipart", "err", err)
			ae = &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error", NoDetails: true}
		}
		writeAPIError(w, ae)
		return
	}
	defer form.Discard()
	req, files, ae := h.multipartRequest(form)
	if ae != nil {
		writeAPIError(w, ae)
		return
	}
	resp := h.execute(r.Context(), caller, req, false, files)
	writeResponse(w, resp)
}

// multipartRequest reads the operation and puts a pg.Upload at every variable path the map
// names; the files are returned by map key.
func (h *Handler) multipartRequest(form *upload.Form) (pg.Request, map[string]*upload.Incoming, *apierror.Error) {
	var req pg.Request
	// graphql-upload reads the parts in order and complains about the first one out of
	// place; the form no longer has the order, so a present part counts as misplaced.
	_, hasMap := form.Field("map")
	ops, ok := form.Field("operations")
	switch {
	case !ok && hasMap:
		return req, nil, badMultipart(400, "Misordered multipart fields; ‘map’ should follow ‘operations’ (%s).", specURL)
	case !hasMap && len(form.Files) > 0:
		return req, nil, badMultipart(400, "Misordered multipart fields; files should follow ‘map’ (%s).", specURL)
	case !ok:
		return req, nil, badMultipart(400, "Missing multipart field ‘operations’ (%s).", specURL)
	}
	if int64(len(ops)) > h.maxBody {
		return req, nil, badMultipart(413, "The ‘operations’ multipart field value exceeds the %d byte size limit.", h.maxBody)
	}
	operations, err := decodeJSON(ops)
	if err != nil {
		return req, nil, badMultipart(400, "Invalid JSON in the ‘operations’ multipart field (%s).", specURL)
	}
	obj, isObj := operations.(map[string]any)
	if !isObj {
		if _, isList := operations.([]any); isList {
			return req, nil, badMultipart(400, "Batched operations are not supported (%s).", specURL)
		}
		return req, nil, badMultipart(400, "Invalid type for the ‘operations’ multipart field (%s).", specURL)
	}
	rawMap, ok := form.Field("map")
	if !ok {
		return req, nil, badMultipart(400, "Missing multipart field ‘map’ (%s).", specURL)
	}
	var paths map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(rawMap)))
	if err := dec.Decode(&paths); err != nil || dec.More() {
		var m any
		if json.Unmarshal([]byte(rawMap), &m) == nil {
			return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field (%s).", specURL)
		}
		return req, nil, badMultipart(400, "Invalid JSON in the ‘map’ multipart field (%s).", specURL)
	}
	if paths == nil {
		return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field (%s).", specURL)
	}
	files := map[string]*upload.Incoming{}
	for _, in := range form.Files {
		if _, named := paths[in.Field]; named && files[in.Field] == nil {
			files[in.Field] = in // extraneous parts are ignored, as graphql-upload does
		}
	}
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		list, ok := paths[key].([]any)
		if !ok {
			return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field entry key ‘%s’ array (%s).", key, specURL)
		}
		for i, p := range list {
			path, ok := p.(string)
			if !ok {
				return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field entry key ‘%s’ array index ‘%d’ value (%s).", key, i, specURL)
			}
			if !setPath(obj, path, pg.Upload{Part: key}) {
				return req, nil, badMultipart(400, "Invalid object path for the ‘map’ multipart field entry key ‘%s’ array index ‘%d’ value ‘%s’ (%s).", key, i, path, specURL)
			}
		}
	}
	if req, err = requestFrom(obj); err != nil {
		return req, nil, badMultipart(400, "%s", err.Error())
	}
	return req, files, nil
}

func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// setPath sets the value at a dotted object path as object-path's set does: missing or
// null segments become objects (arrays before a numeric segment), a segment of digits
// indexes an array. It fails (false) on a path through a scalar, an index out of range or
// a prototype key.
func setPath(root map[string]any, path string, v any) bool {
	if path == "" {
		return false
	}
	segs := strings.Split(path, ".")
	var cur any = root
	for i, seg := range segs {
		switch seg {
		case "__proto__", "constructor", "prototype":
			return false
		}
		last := i == len(segs)-1
		var next any
		if !last {
			if _, err := strconv.Atoi(segs[i+1]); err == nil {
				next = []any{}
			} else {
				next = map[string]any{}
			}
		}
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[seg] = v
				return true
			}
			if c[seg] == nil {
				c[seg] = next
			}
			cur = c[seg]
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) {
				return false
			}
			if last {
				c[n] = v
				return true
			}
			if c[n] == nil {
				c[n] = next
			}
			cur = c[n]
		default:
			return false
		}
	}
	return false
}

// notImplemented answers resolvers whose service the handler was built without.
func notImplemented() error {
	return &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "This feature is not implemented yet"}
}

// uploadMutation runs upload, multipleUpload, updateFileInfo and removeFile, and answers
// with the file(s) read back through the planner.
func (x *execution) uploadMutation(ctx context.Context, rf *pg.RootField, path []any) (any, error) {
	svc := x.h.upload
	if svc == nil {
		return nil, notImplemented()
	}
	args := rf.Args
	switch rf.Action {
	case gqlschema.ActionUpload, gqlschema.ActionMultipleUpload:
		var parts []any
		var infos []upload.FileInfo
		if rf.Action == gqlschema.ActionUpload {
			parts = []any{args.Map["file"]}
			info, _ := args.Map["info"].(*pg.Obj)
			infos = []upload.FileInfo{fileInfo(info)}
		} else {
			parts, _ = args.Map["files"].([]any)
		}
		req := upload.UploadRequest{Infos: infos, Target: &upload.Target{
			Ref: pg.ArgString(args.Map["ref"]), RefID: pg.ArgString(args.Map["refId"]), Field: pg.ArgString(args.Map["field"])}}
		for _, p := range parts {
			in, err := x.file(p)
			if err != nil {
				return nil, err
			}
			req.Files = append(req.Files, in)
		}
		ids, err := svc.Upload(ctx, req)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(ids))
		for i, id := range ids {
			v, err := x.readFile(ctx, rf, id, extend(path, i))
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		if rf.Action == gqlschema.ActionUpload {
			return out[0], nil
		}
		return out, nil
	case gqlschema.ActionUpdateFileInfo:
		info, _ := args.Map["info"].(*pg.Obj)
		id, err := planner.ParseID(rf.ID)
		if err != nil {
			return nil, &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
		}
		if err := svc.UpdateInfo(ctx, id, fileInfo(info)); err != nil {
			return nil, err
		}
		return x.readFile(ctx, rf, id, path)
	case gqlschema.ActionRemoveFile:
		id, err := planner.ParseID(rf.ID)
		if err != nil {
			return nil, nil // no such file: null, as Strapi answers
		}
		// The file's related entries are resolved after its links are gone: none.
		x.emptyPopulate = true
		defer func() { x.emptyPopulate = false }()
		q := *rf.Query
		q.ID = strconv.FormatInt(id, 10)
		pl, e, err := x.readOne(ctx, x.h.db, &q)
		if err != nil || e == nil {
			return nil, err
		}
		found, err := svc.Remove(ctx, id)
		if err != nil || !found {
			return nil, err
		}
		return x.entityResponse(rf.Object, stepOf(pl), e, path), nil
	}
	return nil, fmt.Errorf("unknown upload mutation %s", rf.Name)
}

// file resolves an Upload argument to the file part of the request. A part is stored
// once: a second use of it is refused.
func (x *execution) file(v any) (*upload.Incoming, error) {
	u, ok := v.(pg.Upload)
	if !ok || x.files[u.Part] == nil {
		return nil, &apierror.Error{Status: 400, Name: "BadRequestError", Message: "File missing in the request.", NoDetails: true}
	}
	if x.used[u.Part] {
		return nil, &apierror.Error{Status: 400, Name: "BadRequestError", Message: fmt.Sprintf("File ‘%s’ is used more than once in the request.", u.Part)}
	}
	if x.used == nil {
		x.used = map[string]bool{}
	}
	x.used[u.Part] = true
	return x.files[u.Part], nil
}

// readFile reads back one file and shapes it as the mutation's EntityResponse.
func (x *execution) readFile(ctx context.Context, rf *pg.RootField, id int64, path []any) (any, error) {
	q := *rf.Query
	q.ID = strconv.FormatInt(id, 10)
	pl, e, err := x.readOne(ctx, x.h.db, &q)
	if err != nil {
		return nil, err
	}
	if e == nil {
		return nil, fmt.Errorf("upload: file %d vanished", id)
	}
	return x.entityResponse(rf.Object, stepOf(pl), e, path), nil
}

// fileInfo is a FileInfoInput as the upload service takes it.
func fileInfo(o *pg.Obj) upload.FileInfo {
	if o == nil {
		return upload.FileInfo{}
	}
	get := func(k string) *string {
		if s, ok := o.Map[k].(string); ok {
			return &s
		}
		return nil
	}
	return upload.FileInfo{Name: get("name"), AlternativeText: get("alternativeText"), HasAlternativeText: true,
		Caption: get("caption"), HasCaption: true, Seen: true}
}

// loadRelated reads, for a root field that selects UploadFile.related, the related entries
// of every file in a result (one statement for the links, one per related type).
func (x *execution) loadRelated(ctx context.Context, db exec.Queryer, root *plan.Select, entries []*exec.Entry) error {
	rf := x.cur
	if rf == nil || rf.Related == nil || x.h.upload == nil || x.emptyPopulate {
		return nil
	}
	var ids []int64
	var walk func(s *plan.Select, e *exec.Entry)
	walk = func(s *plan.Select, e *exec.Entry) {
		if s.Model == x.h.gs.Content.Files {
			ids = append(ids, e.ID)
		}
		for _, k := range e.Kids {
			for i, ke := range k.Entries {
				if i < len(k.Steps) {
					walk(k.Steps[i], ke)
				}
			}
		}
	}
	for _, e := range entries {
		walk(root, e)
	}
	if len(ids) == 0 {
		return nil
	}
	rel, err := x.h.upload.Related(ctx, db, ids, x.caller.CanFind, rf.Related)
	if err != nil {
		return err
	}
	x.stmts += 1 + len(relatedTypes(rel))
	if x.related == nil {
		x.related = map[int64][]*upload.Related{}
	}
	for id, list := range rel {
		x.related[id] = list
	}
	return nil
}

func relatedTypes(rel map[int64][]*upload.Related) map[*schemas.Model]bool {
	out := map[*schemas.Model]bool{}
	for _, list := range rel {
		for _, r := range list {
			out[r.Model] = true
		}
	}
	return out
}

// morphs shapes UploadFile.related of file id: each entry as its GenericMorph member, with
// the scalar attributes read (others answer null).
func (x *execution) morphs(f *pg.Field, id int64, path []any) []any {
	out := []any{}
	if x.emptyPopulate {
		return out
	}
	for i, r := range x.related[id] {
		o := f.Union[x.h.gs.TypeName(r.Model)]
		if o == nil {
			out = append(out, &omap{})
			continue
		}
		m, ok := x.fields(o, extend(path, i), func(mf *pg.Field, _ []any) (any, bool) {
			for j, a := range r.Columns {
				if a == mf.Attr {
					return x.scalar(a, r.Values[j]), true
				}
			}
			return nil, true
		})
		out = append(out, nilIfFailed(m, ok)) // [GenericMorph] items are nullable
	}
	return out
}
