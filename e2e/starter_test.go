package e2e

import (
	"flag"
	"testing"
)

var updateStarter = flag.Bool("update-starter", false, "record testdata/starter_rest.json from the Strapi at QUARRY_ORACLE_URL (started with --fresh on testdata/projects/starter and ORACLE_GRANTS=testdata/projects/starter/config/permissions.json)")

// starterSteps write and read both pairs of the starter project's relations, whose two sides
// each say inversedBy: connects, positions, disconnects and deletes from either side, filters
// through them, a oneToOne's target taken over, and GraphQL; and a relation to the admin
// panel's users (admin::user), which REST populates and filters without their private fields
// and GraphQL leaves out.
var starterSteps = []ownCodeStep{
	{Name: "an item", Method: "POST", Path: "/api/items", Body: `{"data":{"title":"Pen","price":1.5}}`},
	{Name: "another", Method: "POST", Path: "/api/items", Body: `{"data":{"title":"Ink"}}`},
	{Name: "a shelf holding both", Method: "POST", Path: "/api/shelves", Body: `{"data":{"name":"Top","items":[2,1]}}`},
	{Name: "an item on the shelf, from the item's side", Method: "POST", Path: "/api/items", Body: `{"data":{"title":"Pad","shelves":[1]}}`},
	{Name: "shelves with their items", Path: "/api/shelves?populate=items&sort=id", As: "public"},
	{Name: "items with their shelves", Path: "/api/items?populate=shelves&sort=id", As: "public"},
	{Name: "one moved first, one taken off", Method: "PUT", Path: "/api/shelves/1",
		Body: `{"data":{"items":{"disconnect":[1],"connect":[{"id":3,"position":{"start":true}}]}}}`},
	{Name: "the shelf after", Path: "/api/shelves/1?populate[items][fields][0]=title", As: "public"},
	{Name: "a second shelf", Method: "POST", Path: "/api/shelves", Body: `{"data":{"name":"Low"}}`},
	{Name: "an item put on it from its side", Method: "PUT", Path: "/api/items/2", Body: `{"data":{"shelves":{"connect":[2]}}}`},
	{Name: "that item's shelves", Path: "/api/items/2?populate[shelves][fields][0]=name", As: "public"},
	{Name: "the second shelf's items", Path: "/api/shelves/2?populate[items][fields][0]=title", As: "public"},
	{Name: "shelves by an item's title", Path: "/api/shelves?filters[items][title][$eq]=Ink&sort=id&fields[0]=name", As: "public"},
	{Name: "items by a shelf's name", Path: "/api/items?filters[shelves][name][$eq]=Top&sort=id&fields[0]=title", As: "public"},
	{Name: "an item deleted", Method: "DELETE", Path: "/api/items/3"},
	{Name: "the shelves after", Path: "/api/shelves?populate[items][fields][0]=title&sort=id&fields[0]=name", As: "public"},
	{Name: "the items' shelves counted", Path: "/api/items?populate[shelves][count]=true&sort=id&fields[0]=title"},
	{Name: "a gadget", Method: "POST", Path: "/api/gadgets", Body: `{"data":{"name":"G1"}}`},
	{Name: "a maker of it", Method: "POST", Path: "/api/makers", Body: `{"data":{"name":"M1","gadget":1}}`},
	{Name: "a gadget made by it, from the gadget's side", Method: "POST", Path: "/api/gadgets", Body: `{"data":{"name":"G2","maker":1}}`},
	{Name: "makers with their gadget", Path: "/api/makers?populate=gadget&sort=id", As: "public"},
	{Name: "gadgets with their maker", Path: "/api/gadgets?populate[maker][fields][0]=name&sort=id&fields[0]=name", As: "public"},
	{Name: "another maker takes the first gadget", Method: "POST", Path: "/api/makers", Body: `{"data":{"name":"M2","gadget":1}}`},
	{Name: "the makers after", Path: "/api/makers?populate[gadget][fields][0]=name&sort=id&fields[0]=name", As: "public"},
	{Name: "the gadgets after", Path: "/api/gadgets?populate[maker][fields][0]=name&sort=id&fields[0]=name", As: "public"},
	{Name: "a gadget's maker unset", Method: "PUT", Path: "/api/gadgets/2", Body: `{"data":{"maker":null}}`},
	{Name: "makers by their gadget's name", Path: "/api/makers?filters[gadget][name][$eq]=G1&fields[0]=name", As: "public"},
	{Name: "no curator yet", Path: "/api/shelves/1?populate=curator&fields[0]=name", As: "public"},
	{Name: "an admin panel user", SQL: "INSERT INTO admin_users (firstname, lastname, email, is_active, blocked) VALUES ('Ada', 'Lovelace', 'ada@example.com', true, false)"},
	{Name: "the shelf's curator set", Method: "PUT", Path: "/api/shelves/1?populate=curator&fields[0]=name", Body: `{"data":{"curator":1}}`},
	{Name: "everything populated: the curator without private fields", Path: "/api/shelves?populate=*&sort=id", As: "public"},
	{Name: "shelves by their curator's first name", Path: "/api/shelves?filters[curator][firstname][$eq]=Ada&fields[0]=name", As: "public"},
	{Name: "by a private field of the curator", Path: "/api/shelves?filters[curator][email][$eq]=ada@example.com&fields[0]=name", As: "public"},
	{Name: "a private field of the curator asked for", Path: "/api/shelves/1?populate[curator][fields][0]=email&populate[curator][fields][1]=lastname&fields[0]=name", As: "public"},
	{Name: "sorted by the curator's name", Path: "/api/shelves?sort=curator.firstname:desc&fields[0]=name", As: "public"},
	{Name: "a curator that does not exist", Method: "POST", Path: "/api/shelves", Body: `{"data":{"name":"Nobody's","curator":99}}`},
	{Name: "the curator connected on a new shelf", Method: "POST", Path: "/api/shelves?populate[curator][fields][0]=firstname&fields[0]=name", Body: `{"data":{"name":"Side","curator":{"connect":[1]}}}`},
	{Name: "no curator in GraphQL's shelf type", Method: "POST", Path: "/graphql", Body: `{"query":"{ __type(name: \"Shelf\") { fields { name } } }"}`},
	{Name: "nor in its input", Method: "POST", Path: "/graphql", Body: `{"query":"mutation { updateShelf(id: 1, data: { curator: 1 }) { data { id } } }"}`},
	{Name: "a helper register() hung on strapi", Path: "/api/items/2/label", As: "public"},
	{Name: "the helper on an entry that is not there", Path: "/api/items/99/label", As: "public"},
	{Name: "a client a local plugin's bootstrap() hung on strapi", Path: "/api/items-notes/ping", As: "public",
		Instead: &instead{Status: 501, Strapi: 200, Why: "Quarry does not run local plugins' register() and bootstrap(): what they set on strapi answers NotImplementedError where the project uses it",
			Body: `{"data":null,"error":{"status":501,"name":"NotImplementedError","message":"strapi.notesClient (set by bootstrap() of the local plugin notes (src/plugins/notes/strapi-server.js), which Quarry does not run) is not provided by Quarry","details":{}}}`}},
	{Name: "a rate-limited route, first request", Path: "/api/items-limited", As: "public", Headers: []string{"x-ratelimit-limit", "x-ratelimit-remaining", "retry-after"}},
	{Name: "second request", Path: "/api/items-limited", As: "public", Headers: []string{"x-ratelimit-limit", "x-ratelimit-remaining", "retry-after"}},
	{Name: "third request: too many", Path: "/api/items-limited", As: "public", Headers: []string{"x-ratelimit-limit", "x-ratelimit-remaining", "retry-after"}},
	{Name: "a query string is the same key", Path: "/api/items-limited?x=1", As: "public"},
	{Name: "the project's own Query.maker in place of Shadow CRUD's", Method: "POST", Path: "/graphql", As: "public", Body: `{"query":"{ maker(id: 7) }"}`},
	{Name: "the tutorials' item(title:) merged into Shadow CRUD's item", Method: "POST", Path: "/graphql", As: "public", Body: `{"query":"{ item(title: \"Ink\") { data { id attributes { title } } } }"}`},
	{Name: "the merged field's arguments", Method: "POST", Path: "/graphql", Body: `{"query":"{ __type(name: \"Query\") { fields { name args { name type { name kind } } } } }"}`},
	{Name: "both sides through GraphQL", Method: "POST", Path: "/graphql",
		Body: `{"query":"{ shelves(sort: \"id\") { data { id attributes { name items { data { id attributes { title shelves { data { id } } } } } } } } makers(sort: \"id\") { data { id attributes { name gadget { data { id attributes { name maker { data { id } } } } } } } } }"}`},
	{Name: "the project's Query.maker in the schema", Method: "POST", Path: "/graphql", Body: `{"query":"{ __type(name: \"Query\") { fields(includeDeprecated: true) { name type { name kind } args { name type { name } } } } }"}`},
}

// TestStarterTemplate serves a project written as Strapi's starter templates are (a seeding
// bootstrap() requiring fs and npm modules at the top of src/index.js; relations whose two
// sides both say inversedBy) on Quarry alone, on every database, against the answers Strapi
// 4.26.2 gave (-update-starter). Quarry refused every route of such a project (the require)
// or did not start (the relations).
func TestStarterTemplate(t *testing.T) {
	replayProject(t, "starter", starterSteps, *updateStarter, "-update-starter")
}
