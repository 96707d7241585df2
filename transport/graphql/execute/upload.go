package execute

import (
	"context"
	"fmt"
	"strconv"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/parser/gqlschema"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/planner"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport/plugins/upload"
)

// The upload plugin over GraphQL: the upload, multipleUpload, updateFileInfo and removeFile
// mutations, and the `related` entries of files. Multipart requests are read by the HTTP
// handler (package graphql), which hands the file parts over with the request.

// notImplemented answers resolvers whose service the handler was built without.
func notImplemented() error {
	return &apierror.Error{Status: 501, Name: "NotImplementedError", Message: "This feature is not implemented yet"}
}

// uploadMutation runs upload, multipleUpload, updateFileInfo and removeFile, and answers
// with the file(s) read back through the planner.
func (x *execution) uploadMutation(ctx context.Context, rf *pg.RootField, p *path) (any, error) {
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
		for _, part := range parts {
			in, err := x.file(part)
			if err != nil {
				return nil, err
			}
			req.Files = append(req.Files, in)
		}
		ids, err := svc.Upload(ctx, req)
		if err != nil {
			return nil, err
		}
		if rf.Action == gqlschema.ActionUpload {
			ip := p.at(0)
			d, err := x.readFile(ctx, rf, ids[0], &ip)
			if err != nil {
				return nil, err
			}
			return result(d), nil
		}
		x.w.WriteByte('[')
		for i, id := range ids {
			if i > 0 {
				x.w.WriteByte(',')
			}
			ip, mark := p.at(i), x.w.Len()
			d, err := x.readFile(ctx, rf, id, &ip)
			if err != nil {
				return nil, err
			}
			if d == failed {
				x.nullAt(mark)
			}
		}
		x.w.WriteByte(']')
		return written{}, nil
	case gqlschema.ActionUpdateFileInfo:
		info, _ := args.Map["info"].(*pg.Obj)
		id, err := planner.ParseID(rf.ID)
		if err != nil {
			return nil, &apierror.Error{Status: 404, Name: "NotFoundError", Message: "Entity not found"}
		}
		if err := svc.UpdateInfo(ctx, id, fileInfo(info)); err != nil {
			return nil, err
		}
		d, err := x.readFile(ctx, rf, id, p)
		if err != nil {
			return nil, err
		}
		return result(d), nil
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
		return result(x.entityResponse(rf.Object, stepOf(pl), e, p)), nil
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

// readFile reads back one file and writes it as the mutation's EntityResponse.
func (x *execution) readFile(ctx context.Context, rf *pg.RootField, id int64, p *path) (done, error) {
	q := *rf.Query
	q.ID = strconv.FormatInt(id, 10)
	pl, e, err := x.readOne(ctx, x.h.db, &q)
	if err != nil {
		return failed, err
	}
	if e == nil {
		return failed, fmt.Errorf("upload: file %d vanished", id)
	}
	return x.entityResponse(rf.Object, stepOf(pl), e, p), nil
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

// morphs writes UploadFile.related of file id: each entry as its GenericMorph member, with
// the scalar attributes read (others answer null).
func (x *execution) morphs(f *pg.Field, id int64, p *path) done {
	x.w.WriteByte('[')
	if !x.emptyPopulate {
		var ip path // outside the loop, to stay on the stack (see path)
		for i, r := range x.related[id] {
			if i > 0 {
				x.w.WriteByte(',')
			}
			o := f.Union[x.h.gs.TypeName(r.Model)]
			if o == nil {
				x.w.WriteString("{}")
				continue
			}
			ip = p.at(i)
			mark := x.w.Len()
			if x.morph(o, r, &ip) == failed {
				x.nullAt(mark) // [GenericMorph] items are nullable
			}
		}
	}
	x.w.WriteByte(']')
	return wrote
}

// morph writes one related entry of a file as its GenericMorph member o.
func (x *execution) morph(o *pg.Object, r *upload.Related, p *path) done {
	x.w.WriteByte('{')
	var fp path // outside the loop, to stay on the stack (see path)
	for i, f := range o.Fields {
		fp = p.field(f.Key)
		start, mark := x.now(), x.member(i, f.Key)
		var d done
		if f.Name == "__typename" {
			d = x.str(o.Type.Name)
		} else {
			d = x.relatedValue(f, r)
		}
		if x.settled(o.Type.Name, f, &fp, start, mark, d) == failed {
			return failed
		}
	}
	x.w.WriteByte('}')
	return wrote
}

// relatedValue writes the value of field f of a related entry: its scalar attribute's, or
// null.
func (x *execution) relatedValue(f *pg.Field, r *upload.Related) done {
	for j, a := range r.Columns {
		if a == f.Attr {
			return x.scalar(a, r.Values[j])
		}
	}
	return x.null()
}
