package upload

import (
	"context"
	"fmt"
	"net/http"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	gqltransport "github.com/quarrycms/quarry/transport/graphql"
	"github.com/quarrycms/quarry/transport/graphql/execute"
)

// GraphQL is the plugin's part of the GraphQL executor: the upload, multipleUpload,
// updateFileInfo and removeFile mutations, answered with the files read back through the
// field's selection, and the `related` entries of files. Multipart requests are read by the
// HTTP handler (transport/graphql), which hands their file parts (*Incoming) over with the
// request.
func (s *Service) GraphQL() execute.Plugin {
	r := map[string]execute.Resolver{}
	for _, a := range []string{gqlschema.ActionUpload, gqlschema.ActionMultipleUpload, gqlschema.ActionUpdateFileInfo, gqlschema.ActionRemoveFile} {
		r[a] = s.resolve
	}
	return execute.Plugin{Resolvers: r, Related: s.Related}
}

// resolve runs one of the plugin's mutations.
func (s *Service) resolve(ctx context.Context, c *execute.Call) (any, error) {
	rf := c.Field
	args := rf.Args
	switch rf.Action {
	case gqlschema.ActionUpload, gqlschema.ActionMultipleUpload:
		var parts []any
		var infos []FileInfo
		if rf.Action == gqlschema.ActionUpload {
			parts = []any{args.Map["file"]}
			info, _ := args.Map["info"].(*pg.Obj)
			infos = []FileInfo{fileInfo(info)}
		} else {
			parts, _ = args.Map["files"].([]any)
		}
		req := UploadRequest{Infos: infos, Target: &Target{
			Ref: pg.ArgString(args.Map["ref"]), RefID: pg.ArgString(args.Map["refId"]), Field: pg.ArgString(args.Map["field"])}}
		for _, part := range parts {
			f, err := c.File(part)
			if err != nil {
				return nil, err
			}
			in, ok := f.(*Incoming)
			if !ok {
				return nil, fmt.Errorf("upload: the request's file part is a %T", f)
			}
			req.Files = append(req.Files, in)
		}
		ids, err := s.Upload(ctx, req)
		if err != nil {
			return nil, err
		}
		if rf.Action == gqlschema.ActionUpload {
			return c.Entity(ctx, ids[0])
		}
		return c.Entities(ctx, ids)
	case gqlschema.ActionUpdateFileInfo:
		info, _ := args.Map["info"].(*pg.Obj)
		id, err := planner.ParseID(rf.ID)
		if err != nil {
			return nil, &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
		}
		if err := s.UpdateInfo(ctx, id, fileInfo(info)); err != nil {
			return nil, err
		}
		return c.Entity(ctx, id)
	case gqlschema.ActionRemoveFile:
		id, err := planner.ParseID(rf.ID)
		if err != nil {
			return nil, nil // no such file: null, as Strapi answers
		}
		// The file's related entries are resolved after its links are gone: none.
		gone, err := c.BeforeRemoval(ctx, id)
		if err != nil || gone == nil {
			return nil, err
		}
		found, err := s.Remove(ctx, id)
		if err != nil || !found {
			return nil, err
		}
		return gone.Answer(), nil
	}
	return nil, fmt.Errorf("unknown upload mutation %s", rf.Name)
}

// fileInfo is a FileInfoInput as the service takes it.
func fileInfo(o *pg.Obj) FileInfo {
	if o == nil {
		return FileInfo{}
	}
	get := func(k string) *string {
		if s, ok := o.Map[k].(string); ok {
			return &s
		}
		return nil
	}
	return FileInfo{Name: get("name"), AlternativeText: get("alternativeText"), HasAlternativeText: true,
		Caption: get("caption"), HasCaption: true, Seen: true}
}

// GraphQLMultipart reads the GraphQL endpoint's multipart requests (the multipart request
// spec's operations, map and file parts) with the plugin's limits and staging; the file
// parts reach the plugin's resolvers as *Incoming.
func (s *Service) GraphQLMultipart() gqltransport.Multipart { return graphQLMultipart{s} }

type graphQLMultipart struct{ s *Service }

func (m graphQLMultipart) ReadMultipart(w http.ResponseWriter, r *http.Request) (gqltransport.Form, error) {
	f, err := m.s.ReadForm(w, r)
	if err != nil {
		return nil, err
	}
	return graphQLForm{f}, nil
}

// graphQLForm is a Form as the GraphQL handler reads it.
type graphQLForm struct{ *Form }

func (f graphQLForm) Parts() []gqltransport.FilePart {
	out := make([]gqltransport.FilePart, len(f.Files))
	for i, in := range f.Files {
		out[i] = gqltransport.FilePart{Field: in.Field, Part: in}
	}
	return out
}
