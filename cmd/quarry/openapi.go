package main

import (
	"io"

	"github.com/quarrycms/quarry/schemas"
	"github.com/quarrycms/quarry/transport"
	"github.com/quarrycms/quarry/transport/openapi"
)

// printOpenAPI prints the OpenAPI document of an app's REST API, as the server serves it with
// its plugins on (it reads only the schemas: no database).
func printOpenAPI(args []string, stdout io.Writer) error {
	fs := newFlags("openapi")
	dir := appFlag(fs)
	if _, err := parseFlags(fs, args, 0, stdout); err != nil {
		return err
	}
	if err := checkAppDir(*dir); err != nil {
		return err
	}
	s, err := schemas.Load(*dir)
	if err != nil {
		return err
	}
	doc, err := openapi.Generate(s, openapi.Options{I18n: true, Upload: true, Users: true})
	if err != nil {
		return err
	}
	_, err = stdout.Write(append(doc, '\n'))
	return err
}

// serveOpenAPI has the server serve the document of the routes it mounts.
func serveOpenAPI(srv *transport.Server) error {
	opt := openapi.Options{I18n: srv.I18n != nil && !srv.I18nOff, Upload: srv.Upload != nil, Users: srv.Auth != nil && !srv.UsersPermissionsOff}
	if t := srv.Routes; t != nil && t.Files {
		opt.Routers = map[string]openapi.Router{}
		for uid, r := range t.Core {
			opt.Routers[uid] = openapi.Router{Prefix: r.Prefix, Actions: r.Action}
		}
	}
	doc, err := openapi.Generate(srv.Schema, opt)
	if err != nil {
		return err
	}
	srv.OpenAPI = doc
	return nil
}
