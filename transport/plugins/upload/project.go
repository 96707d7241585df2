package upload

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/planner/write"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/sqlgen"
)

type formKey struct{}

// WithForm keeps a multipart request's form while the project's code serves it: its files
// are what the code may hand to the upload service (ctx.request.files), and what Quarry's
// own create or update at the end of its chain receives.
func WithForm(ctx context.Context, form *Form) context.Context {
	return context.WithValue(ctx, formKey{}, form)
}

// FormOf is the form WithForm kept; nil when the request is not multipart.
func FormOf(ctx context.Context) *Form {
	f, _ := ctx.Value(formKey{}).(*Form)
	return f
}

// ProjectService is the upload plugin's service (strapi.plugin('upload').service('upload'))
// as the project's code calls it, as Strapi 4.26.2's upload service does:
//   - upload({ data, files }) stores files of the request being served, as POST /api/upload
//     stores them, and answers the stored files;
//   - remove(file) deletes the file's row through the one write path (its links to entries
//     and folders with it, the file model's lifecycle hooks run) and answers the row as it
//     was; once that commits, the stored file and its formats go (for a file of the
//     provider in use, as Strapi decides by file.provider) and the media.delete webhook
//     is sent;
//   - update(id, values) and updateFileInfo(id, { name, alternativeText, caption, folder })
//     update the row through the one write path (entry.update) and send the media.update
//     webhook.
//
// findOne, findMany and findPage are the entity service's reads of the file model, made in
// the sandbox (strapi.js). The other methods answer 501 naming them. The { user } option
// (the admin user Strapi records as createdBy and updatedBy, which the content API has
// none of) is not read.
type ProjectService struct {
	Upload *Service
	Read   func(ctx context.Context, ids []int64) (json.RawMessage, error)
	// Write runs a write of the file model through the one write path as the system and
	// answers the entry flat, as the entity service returns it ("null" when there is none).
	Write func(ctx context.Context, q *ir.Query) (json.RawMessage, error)
	// AfterCommit runs fn once the write transaction ctx carries has committed (dropped if
	// it rolls back), or at once when ctx carries none: a call from a before hook runs
	// inside the write that fired it.
	AfterCommit func(ctx context.Context, fn func(context.Context) error) error
}

// Methods are the service's methods the project's code may call; the others answer 501
// naming them.
func (ProjectService) Methods() []string {
	return []string{"upload", "remove", "update", "updateFileInfo"}
}

// Call runs one of Methods.
func (p ProjectService) Call(ctx context.Context, _ *ir.Caller, method string, args []json.RawMessage) (any, error) {
	switch method {
	case "upload":
		return p.upload(ctx, args)
	case "remove":
		return p.remove(ctx, args)
	case "update", "updateFileInfo":
		return p.update(ctx, method, args)
	}
	return nil, notProvided(method)
}

func notProvided(what string) error {
	return &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError", Message: "strapi.plugin('upload').service('upload')." + what + " is not provided by Quarry"}
}

// upload runs upload({ data: { fileInfo, ref, refId, field }, files }).
func (p ProjectService) upload(ctx context.Context, args []json.RawMessage) (any, error) {
	var in struct {
		Data struct {
			FileInfo json.RawMessage `json:"fileInfo"`
			Ref      string          `json:"ref"`
			RefID    json.RawMessage `json:"refId"`
			Field    string          `json:"field"`
		} `json:"data"`
		Files json.RawMessage `json:"files"`
	}
	if len(args) == 0 || json.Unmarshal(args[0], &in) != nil {
		return nil, apierror.Validation("upload({ data, files }): the argument must be an object")
	}
	for _, raw := range listOf(in.Data.FileInfo) {
		var info struct {
			Folder any `json:"folder"`
		}
		if json.Unmarshal(raw, &info) == nil && info.Folder != nil && info.Folder != false && info.Folder != "" && info.Folder != 0.0 {
			return nil, notProvided("upload with a fileInfo.folder")
		}
	}
	incoming, err := requestFiles(ctx, in.Files)
	if err != nil {
		return nil, err
	}
	var infos []FileInfo
	for i, raw := range listOf(in.Data.FileInfo) {
		if i >= len(incoming) {
			break
		}
		fi, err := p.Upload.ParseInfos([]string{string(raw)}, false)
		if err != nil {
			return nil, err
		}
		infos = append(infos, fi...)
	}
	// Strapi's service files nothing in a folder: the content-API controller does.
	req := UploadRequest{Files: incoming, Infos: infos, NoFolder: true}
	if in.Data.Ref != "" || in.Data.Field != "" || len(in.Data.RefID) > 0 {
		refID := string(in.Data.RefID)
		var s string
		if json.Unmarshal(in.Data.RefID, &s) == nil {
			refID = s
		}
		req.Target = &Target{Ref: in.Data.Ref, RefID: refID, Field: in.Data.Field}
	}
	ids, err := p.Upload.Upload(ctx, req)
	if err != nil {
		return nil, err
	}
	return p.Read(ctx, ids)
}

// fileID reads a file id the project's code gives: a number or a string of one.
func fileID(raw json.RawMessage) (int64, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return id, err == nil && id > 0
}

// queryer is the database a read inside ctx's write sees: its transaction, when it
// carries one (a before hook's call), else the database.
func (p ProjectService) queryer(ctx context.Context) exec.Queryer {
	if tx, ok := write.TxFrom(ctx); ok {
		return tx
	}
	return p.Upload.DB
}

// remove runs remove(file), as Strapi's: the provider is told to delete the file's objects
// when file.provider is the provider in use; the row of file.id goes through the query
// engine (the model's hooks run), answering it as it was, or null when there is none.
// The objects deleted are the stored row's, never paths the code's object names: a file
// whose row is gone leaves nothing to delete.
func (p ProjectService) remove(ctx context.Context, args []json.RawMessage) (any, error) {
	var file struct {
		ID       json.RawMessage `json:"id"`
		Provider *string         `json:"provider"`
	}
	if len(args) == 0 || json.Unmarshal(args[0], &file) != nil || string(args[0]) == "null" {
		return nil, apierror.Validation("remove(file): the argument must be a file")
	}
	id, ok := fileID(file.ID)
	if !ok {
		return nil, apierror.Validation("remove(file): the file's id must be a positive integer")
	}
	s := p.Upload
	db := p.queryer(ctx)
	old, err := s.loadWith(ctx, db, id)
	if err != nil {
		return nil, err
	}
	if old == nil {
		// Strapi's service announces the file it found: none.
		return json.RawMessage("null"), p.AfterCommit(ctx, func(ctx context.Context) error {
			s.webhooks(ctx, s.noFile(write.MediaDelete))
			return nil
		})
	}
	ev, err := s.fileEvent(ctx, db, write.MediaDelete, id)
	if err != nil {
		return nil, err
	}
	out, err := p.Write(ctx, &ir.Query{Model: schemas.FileUID, Op: ir.Delete, ID: strconv.FormatInt(id, 10), Via: ir.ViaQueryEngine})
	if err != nil {
		return nil, err
	}
	var gone []object
	if file.Provider != nil && *file.Provider == s.Config.Provider && deref(old.Provider) == s.Config.Provider {
		gone = old.objects()
	}
	return out, p.AfterCommit(ctx, func(ctx context.Context) error {
		s.removeStored(ctx, gone)
		s.webhooks(ctx, ev)
		return nil
	})
}

// folder resolves updateFileInfo's folder as the plugin's file service does: a falsy value
// is the root ("/", no folder), an id the folder's path. Strapi crashes on a folder that
// does not exist; Quarry answers a validation error.
func (p ProjectService) folder(ctx context.Context, v any) (any, string, error) {
	switch x := v.(type) {
	case nil, bool:
		if x == nil || x == false {
			return nil, "/", nil
		}
	case string:
		if x == "" {
			return nil, "/", nil
		}
	case json.Number:
		if f, err := x.Float64(); err == nil && f == 0 {
			return nil, "/", nil
		}
	}
	raw, _ := json.Marshal(v)
	id, ok := fileID(raw)
	if !ok {
		return nil, "", apierror.Validation("updateFileInfo: folder must be a folder's id")
	}
	st := sqlgen.FolderPath(p.Upload.DB.Dialect, id)
	for i, a := range st.Args {
		st.Args[i] = p.Upload.DB.Dialect.Bind(a)
	}
	var path string
	err := p.queryer(ctx).QueryRowxContext(ctx, st.SQL, st.Args...).Scan(&path)
	if isNoRows(err) {
		return nil, "", apierror.Validation("updateFileInfo: there is no folder %d", id)
	}
	if err != nil {
		return nil, "", fmt.Errorf("read folder %d: %w", id, err)
	}
	// The write path reads ids as decoded JSON does.
	return json.Number(strconv.FormatInt(id, 10)), path, nil
}

// update runs update(id, values), the entity service's update of the file, and
// updateFileInfo(id, { name, alternativeText, caption, folder }), which keeps the stored
// values of those that are null or absent (a folder given moves the file, null to the
// root) and answers NotFoundError for a missing file. Both
// announce media.update with the file as it was written.
func (p ProjectService) update(ctx context.Context, method string, args []json.RawMessage) (any, error) {
	if len(args) == 0 {
		return nil, apierror.Validation("%s(id, values): the file's id must be a positive integer", method)
	}
	id, ok := fileID(args[0])
	if !ok {
		return nil, apierror.Validation("%s(id, values): the file's id must be a positive integer", method)
	}
	var data map[string]any
	if len(args) > 1 && string(args[1]) != "null" {
		dec := json.NewDecoder(bytes.NewReader(args[1]))
		dec.UseNumber()
		if dec.Decode(&data) != nil {
			return nil, apierror.Validation("%s(id, values): values must be an object", method)
		}
	}
	if method == "updateFileInfo" {
		old, err := p.Upload.loadWith(ctx, p.queryer(ctx), id)
		if err != nil {
			return nil, err
		}
		if old == nil {
			return nil, errEntityNotFound()
		}
		info := map[string]any{}
		for _, k := range []string{"name", "alternativeText", "caption"} {
			if v := data[k]; v != nil {
				info[k] = v
			}
		}
		if folder, ok := data["folder"]; ok {
			// The file moves to the folder (none: the root), its folderPath with it.
			id, path, err := p.folder(ctx, folder)
			if err != nil {
				return nil, err
			}
			info["folder"], info["folderPath"] = id, path
		}
		data = info
	}
	if data == nil {
		data = map[string]any{}
	}
	out, err := p.Write(ctx, &ir.Query{Model: schemas.FileUID, Op: ir.Update, ID: strconv.FormatInt(id, 10), Data: data, Via: ir.ViaEntityService})
	if err != nil {
		return nil, err
	}
	s := p.Upload
	if string(out) == "null" {
		// The entity service updated nothing; Strapi's service announces that: no file.
		return out, p.AfterCommit(ctx, func(ctx context.Context) error {
			s.webhooks(ctx, s.noFile(write.MediaUpdate))
			return nil
		})
	}
	return out, p.AfterCommit(ctx, func(ctx context.Context) error {
		ev, err := s.fileEvent(ctx, s.DB, write.MediaUpdate, id)
		if err != nil {
			return err
		}
		s.webhooks(ctx, ev)
		return nil
	})
}

// requestFiles finds the files of the request being served that files (a file of
// ctx.request.files, as JSON, or an array of them) names by its temporary path: the
// project's code may upload what its request received, and nothing else on the disk.
func requestFiles(ctx context.Context, files json.RawMessage) ([]*Incoming, error) {
	form := FormOf(ctx)
	var out []*Incoming
	for _, raw := range listOf(files) {
		var f struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(raw, &f) != nil || f.Path == "" {
			return nil, apierror.Validation("upload({ data, files }): files must be files of ctx.request.files")
		}
		var found *Incoming
		if form != nil {
			for _, in := range form.Files {
				if in.path != "" && in.path == f.Path {
					found = in
				}
			}
		}
		if found == nil {
			return nil, apierror.Validation("upload({ data, files }): %s is not a file of this request", f.Path)
		}
		out = append(out, found)
	}
	if len(out) == 0 {
		return nil, ErrFilesEmpty
	}
	return out, nil
}

// listOf reads a JSON value that is one item or an array of them.
func listOf(raw json.RawMessage) []json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	return []json.RawMessage{raw}
}
