package projectcode

import (
	"context"
	"time"
)

// File is one file of a multipart request as the project's code receives it in
// ctx.request.files: Strapi's body parser (koa-body over formidable 1) gives each a size,
// its temporary path, the client's name and type, and when it was written.
type File struct {
	Field    string
	Path     string
	Name     string
	Type     string
	Size     int64
	Modified time.Time
}

type filesKey struct{}

// WithFiles hands a multipart request's files to the project's code that serves it.
func WithFiles(ctx context.Context, files []File) context.Context {
	return context.WithValue(ctx, filesKey{}, files)
}

// filesJSON is ctx.request.files as koa-body builds it: by field, in the order the fields
// first came, one file as an object and several under one field as an array. "" when the
// request carried none (ctx.request.files is then undefined, as for a JSON body).
func filesJSON(ctx context.Context) string {
	files, _ := ctx.Value(filesKey{}).([]File)
	if files == nil {
		return ""
	}
	var order []string
	byField := map[string][]File{}
	for _, f := range files {
		if _, seen := byField[f.Field]; !seen {
			order = append(order, f.Field)
		}
		byField[f.Field] = append(byField[f.Field], f)
	}
	type jsFile struct {
		Size  int64  `json:"size"`
		Path  string `json:"path"`
		Name  string `json:"name"`
		Type  string `json:"type,omitempty"`
		Mtime string `json:"mtime"`
	}
	one := func(f File) jsFile {
		return jsFile{Size: f.Size, Path: f.Path, Name: f.Name, Type: f.Type, Mtime: f.Modified.UTC().Format("2006-01-02T15:04:05.000Z")}
	}
	out := &ordered{}
	for _, field := range order {
		if list := byField[field]; len(list) == 1 {
			out.vals = append(out.vals, one(list[0]))
		} else {
			all := make([]jsFile, len(list))
			for j, f := range list {
				all[j] = one(f)
			}
			out.vals = append(out.vals, all)
		}
		out.keys = append(out.keys, field)
	}
	b, _ := out.MarshalJSON() // strings, numbers and their arrays: cannot fail
	return string(b)
}
