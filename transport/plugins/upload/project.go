package upload

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/quarrycms/quarry/ir"
	"github.com/quarrycms/quarry/ir/apierror"
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
// as the project's code calls it: upload({ data, files }) stores files of the request
// being served, as POST /api/upload stores them, and answers the stored files. Read gives
// the files back as the query engine reads them.
type ProjectService struct {
	Upload *Service
	Read   func(ctx context.Context, ids []int64) (json.RawMessage, error)
}

// Methods are the service's methods the project's code may call; the others answer 501
// naming them.
func (ProjectService) Methods() []string { return []string{"upload"} }

// Call runs upload({ data: { fileInfo, ref, refId, field }, files }).
func (p ProjectService) Call(ctx context.Context, _ *ir.Caller, method string, args []json.RawMessage) (any, error) {
	if method != "upload" {
		return nil, &apierror.Error{Status: http.StatusNotImplemented, Name: "NotImplementedError", Message: "strapi.plugin('upload').service('upload')." + method + " is not provided by Quarry"}
	}
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
	req := UploadRequest{Files: incoming, Infos: infos}
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
