package e2e

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateTxFlow = flag.Bool("update-txflow", false, "record testdata/txflow_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/txflow and ORACLE_GRANTS=testdata/projects/txflow/config/permissions.json)")

// txFlowSteps place orders in strapi.db.transaction: one the stock covers, one it does not
// (the order it created rolled back with it), a manual transaction rolled back and one
// committed, a nested transaction that is the outer one, and the knex transaction itself.
var txFlowSteps = []ownCodeStep{
	{Name: "a product with two in stock", Method: "POST", Path: "/api/products", Body: `{"data":{"name":"Mug","price":12,"stock":2}}`},
	{Name: "an order the stock covers", Method: "POST", Path: "/api/orders/place", As: "public", Body: `{"product":1,"qty":2}`},
	{Name: "an order it does not: rolled back", Method: "POST", Path: "/api/orders/place", As: "public", Body: `{"product":1,"qty":1}`},
	{Name: "an order of no product", Method: "POST", Path: "/api/orders/place", As: "public", Body: `{"product":99,"qty":1}`},
	{Name: "only the first order is there", Path: "/api/orders?populate=product&fields[0]=qty&fields[1]=total", As: "public"},
	{Name: "the stock taken once", Path: "/api/products/1?fields[0]=stock", As: "public"},
	{Name: "a manual transaction rolled back", Method: "POST", Path: "/api/orders/draft", As: "public", Body: `{}`},
	{Name: "a manual transaction committed", Method: "POST", Path: "/api/orders/draft", As: "public", Body: `{"keep":true}`},
	{Name: "a nested transaction is the outer one", Method: "POST", Path: "/api/orders/twice", As: "public", Body: `{}`},
	{Name: "the outer one failing undoes the inner's commit", Method: "POST", Path: "/api/orders/twice", As: "public", Body: `{"fail":true}`},
	// Without ids: a rolled-back insert uses up its id on PostgreSQL and MariaDB, not on SQLite.
	{Name: "the orders after", Method: "POST", Path: "/graphql", As: "public",
		Body: `{"query":"{ orders(sort: \"id\") { data { attributes { qty note } } meta { pagination { total } } } }"}`},
	{Name: "the locales through i18n's services", Path: "/api/orders/locales", As: "public"},
	{Name: "the knex transaction itself", Path: "/api/orders/knex", As: "public",
		Instead: &instead{Status: 501, Strapi: 200, Why: "trx, the knex transaction, is not provided: the route answers NotImplementedError naming it",
			Body: `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"strapi.db.transaction's trx (a knex transaction) is not provided by Quarry","details":{}}}`}},
}

// TestTransactionFlow serves the txflow project (strapi.db.transaction in a controller) on
// Quarry alone, on every database, against the answers Strapi 4.26.2 gave
// (-update-txflow).
func TestTransactionFlow(t *testing.T) {
	replayProject(t, "txflow", txFlowSteps, *updateTxFlow, "-update-txflow")
}

// TestUploadFileHooksRefused: a project subscribing to the upload plugin's file model
// (here beforeCreate, captioning every upload) keeps the plugin's uploads refused, REST and
// GraphQL, and the upload service's upload from its own code, since Quarry's upload plugin
// stores its files without the model's hooks: they answered as if the hook were not there.
func TestUploadFileHooksRefused(t *testing.T) {
	app := copyProject(t, filepath.Join("testdata", "projects", "txflow"))
	mustWrite(t, filepath.Join(app, "src", "index.js"), `'use strict';
module.exports = {
  register() {},
  bootstrap({ strapi }) {
    strapi.db.lifecycles.subscribe({
      models: ['plugin::upload.file'],
      beforeCreate(event) {
        event.params.data.caption = 'captioned by a hook';
      },
    });
  },
};
`)
	writeReceiptRoute(t, app, "caption")
	srv := start(t, backends()[0], app)
	routesOut := quarry(t, srv.Env, "routes", "--app", app)
	for _, want := range []string{"POST     /api/upload ", "GRAPHQL  Mutation.upload ", "GRAPHQL  Mutation.multipleUpload "} {
		line := ""
		for _, l := range strings.Split(routesOut, "\n") {
			if strings.HasPrefix(l, want) {
				line = l
			}
		}
		if !strings.Contains(line, " refused ") || !strings.Contains(line, "beforeCreate") {
			t.Errorf("%s is not refused for the file model's hook: %q", strings.TrimSpace(want), line)
		}
	}
	png, err := os.ReadFile(filepath.Join("testdata", "projects", "red.png"))
	if err != nil {
		t.Fatal(err)
	}
	form, ctype := multipartBody(t, filepart("files", "red.png", "image/png", png))
	if st, b, _ := srv.send(t, srv.Token, "POST", "/api/upload", ctype, form); st != 501 || !strings.Contains(string(b), "NotImplementedError") {
		t.Errorf("POST /api/upload: %d %s", st, b)
	}
	if st, b, _ := srv.send(t, "", "POST", "/api/orders/receipt", ctype, form); st != 501 || !strings.Contains(string(b), "beforeCreate") {
		t.Errorf("the upload service's upload: %d %s", st, b)
	}
}

// writeReceiptRoute adds to a copy of the txflow project POST /api/orders/receipt, whose
// controller stores the request's files with the upload service and answers each stored
// file's field.
func writeReceiptRoute(t *testing.T, app, field string) {
	t.Helper()
	mustWrite(t, filepath.Join(app, "src", "api", "order", "routes", "02-files.js"), `'use strict';
module.exports = { routes: [{ method: 'POST', path: '/orders/receipt', handler: 'receipt.attach', config: { auth: false } }] };
`)
	mustWrite(t, filepath.Join(app, "src", "api", "order", "controllers", "receipt.js"), `'use strict';
module.exports = {
  async attach(ctx) {
    const files = await strapi.plugin('upload').service('upload').upload({ data: {}, files: ctx.request.files.files });
    ctx.body = files.map((f) => f.`+field+`);
  },
};
`)
}
