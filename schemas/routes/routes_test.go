package routes

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas/jseval"
)

func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoad(t *testing.T) {
	dir := project(t, map[string]string{
		"src/api/article/routes/01-custom.js": `module.exports = { routes: [
  { method: 'GET', path: '/articles/featured', handler: 'article.featured', config: { auth: false } },
  { method: 'post', path: '/articles/:id/like', handler: 'api::article.article.like' } ] };`,
		"src/api/article/routes/article.js": `'use strict';
const { createCoreRouter } = require('@strapi/strapi').factories;
module.exports = createCoreRouter('api::article.article', { only: ['find', 'findOne'], config: { find: { auth: false, middlewares: ['api::article.populate'] } } });`,
		"src/api/article/controllers/article.js": `const { createCoreController } = require('@strapi/strapi').factories;
module.exports = createCoreController('api::article.article', ({ strapi }) => ({
  async find(ctx) { const { data, meta } = await super.find(ctx); return { data, meta }; },
  async featured(ctx) { return strapi.service('api::article.article').featured(); },
}));`,
		"src/api/tag/routes/tag.ts": `import { factories } from '@strapi/strapi';
export default factories.createCoreRouter('api::tag.tag', { prefix: '/v2', except: ['delete'] });`,
		"src/api/tag/controllers/tag.ts": `import { factories } from '@strapi/strapi';
export default factories.createCoreController('api::tag.tag', { async delete(ctx) { return null; } });`,
		"src/api/misc/controllers/misc.js":                `module.exports = { async hello(ctx) { ctx.body = 'hi'; } };`,
		"src/api/writer/content-types/writer/schema.json": `{}`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Files {
		t.Error("Files = false")
	}
	a := m.Core["api::article.article"]
	if a == nil || a.File != "src/api/article/routes/article.js" || a.Order != 1 {
		t.Fatalf("article router: %+v", a)
	}
	for action, want := range map[string]bool{"find": true, "findOne": true, "create": false, "delete": false} {
		if got := m.IsCoreEnabled("api::article.article", action); got != want {
			t.Errorf("article %s enabled = %v", action, got)
		}
	}
	if !m.IsPublic("api::article.article", "find") || m.IsPublic("api::article.article", "findOne") {
		t.Error("auth: false not read")
	}
	if got := a.Config["find"].Middlewares; !reflect.DeepEqual(got, []any{"api::article.populate"}) {
		t.Errorf("middlewares: %v", got)
	}
	tag := m.Core["api::tag.tag"]
	if tag == nil || tag.Prefix != "/v2" || tag.Enabled("delete") || !tag.Enabled("create") {
		t.Errorf("tag router: %+v", tag)
	}
	if m.IsCoreEnabled("api::writer.writer", "find") {
		t.Error("a type without a router has core routes")
	}
	want := []Route{
		{API: "article", File: "src/api/article/routes/01-custom.js", Method: "GET", Path: "/articles/featured",
			Handler: "api::article.article.featured", Config: RouteConfig{Auth: ptr(false)}},
		{API: "article", File: "src/api/article/routes/01-custom.js", Pos: 1, Method: "POST", Path: "/articles/:id/like",
			Handler: "api::article.article.like"},
	}
	if !reflect.DeepEqual(m.Custom, want) {
		t.Errorf("custom:\n got %+v\nwant %+v", m.Custom, want)
	}
	if want := []string{"api::article.article.find", "api::tag.tag.delete"}; !reflect.DeepEqual(m.Overridden, want) {
		t.Errorf("overridden: %v", m.Overridden)
	}
	if got := m.Actions["api::misc.misc"]; !reflect.DeepEqual(got, []string{"hello"}) {
		t.Errorf("plain controller actions: %v", got)
	}
}

func TestNoRouteFiles(t *testing.T) {
	dir := project(t, map[string]string{"src/api/writer/content-types/writer/schema.json": `{}`})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if m.Files || !m.IsCoreEnabled("api::writer.writer", "delete") {
		t.Errorf("without route files every core action is served: %+v", m)
	}
}

func TestBadRouteFile(t *testing.T) {
	dir := project(t, map[string]string{
		"src/api/a/routes/a.js":      `module.exports = { routes: [{ handler: 'a.b' }] };`,
		"src/api/b/routes/b.js":      `const fs = require('fs'); module.exports = { routes: JSON.parse(fs.readFileSync('x')) };`,
		"src/api/b/controllers/b.js": `throw new Error('nope');`,
		"src/api/c/routes/c.js":      `const h = require('some-helper'); module.exports = h.merge({}, require('@strapi/strapi').factories.createCoreRouter('api::c.c'));`,
		// lodash is the sandbox's own, and copying the router as the file loads reads its
		// routes before Strapi has the content types: Strapi does not start.
		"src/api/d/routes/d.js":                 `const _ = require('lodash'); module.exports = _.merge({}, require('@strapi/strapi').factories.createCoreRouter('api::d.d', { only: ['find'] }));`,
		"src/api/d/content-types/d/schema.json": `{"kind": "collectionType", "info": {"singularName": "d", "pluralName": "ds"}}`,
		"src/api/e/routes/e.js":                 `const _ = require('lodash'); module.exports = { get routes() { return _.cloneDeep(require('@strapi/strapi').factories.createCoreRouter('api::e.e', { only: ['find'] }).routes); } };`,
		"src/api/e/content-types/e/schema.json": `{"kind": "collectionType", "info": {"singularName": "e", "pluralName": "es"}}`,
	})
	m, err := Load(context.Background(), dir, jseval.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Unreadable) != 5 || !strings.Contains(m.Unreadable[4], "src/api/d/routes/d.js (createCoreRouter('api::d.d').routes is read while the file loads") {
		t.Errorf("unreadable: %q", m.Unreadable)
	}
	if !m.IsCoreEnabled("api::b.b", "find") {
		t.Error("an api whose route file did not evaluate lost its core routes")
	}
	// An npm helper is a stub: c's file evaluates (its router is the stub's answer, not
	// a recorded router, so it counts as unreadable too, keeping its core routes).
	if !m.IsCoreEnabled("api::c.c", "find") {
		t.Error("api c lost its core routes")
	}
	if !m.IsCoreEnabled("api::d.d", "find") || len(m.CoreCode("api::d.d", "find")) == 0 {
		t.Error("api d, whose routes file Strapi does not start on, is not refused")
	}
	if !m.IsCoreEnabled("api::e.e", "find") || m.IsCoreEnabled("api::e.e", "create") || len(m.CoreCode("api::e.e", "find")) > 0 {
		t.Error("api e's core routes, copied by lodash when Strapi reads them, were not read")
	}
}

func ptr[T any](v T) *T { return &v }
