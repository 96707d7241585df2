package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updatePermTree = flag.String("update-permtree", "", "record testdata/permtree_<project>_rest.json for this project from the Strapi at QUARRY_ORACLE_URL (started on testdata/projects/<project>, with ORACLE_GRANTS=config/permissions.json where the project has one)")

// permTreeSteps read the users-permissions permission trees of a project.
var permTreeSteps = []ownCodeStep{
	{Name: "authenticated role", Path: "/api/users-permissions/roles/1"},
	{Name: "public role", Path: "/api/users-permissions/roles/2"},
	{Name: "permissions tree", Path: "/api/users-permissions/permissions"},
}

// TestPermissionTreeOrder: a role's permissions and the permissions tree list each
// controller's actions in the order Strapi 4.26.2 does (the controller's own keys: a core
// controller's extension keys first, then the core actions it leaves to Strapi, then i18n's
// createLocalization; a plugin's controllers in the plugin's order), compared with the answers
// real Strapi gave, on every database. owncode's controllers define custom actions (note:
// create, count, archive, whoami; product: findOne, stats, duplicate) and it has a local
// plugin; permorder has a localized type whose extension puts a custom action before find,
// and a single type. The order of the plugins themselves is left out of the comparison:
// Strapi's comes from the package.json it runs with (the oracle kit's, not the project's),
// and Quarry lists them by name.
func TestPermissionTreeOrder(t *testing.T) {
	for _, project := range []string{"owncode", "permorder"} {
		t.Run(project, func(t *testing.T) { permTreeOrder(t, project) })
	}
}

func permTreeOrder(t *testing.T, project string) {
	golden := filepath.Join("testdata", "permtree_"+project+"_rest.json")
	if *updatePermTree == project {
		u := os.Getenv("QUARRY_ORACLE_URL")
		if u == "" {
			t.Fatal("-update-permtree needs QUARRY_ORACLE_URL")
		}
		c := &ownCodeClient{srv: &server{URL: u, Token: "oracle0full0access0token0000000000000000000000000000000000000001"}, jwts: map[string]string{}}
		var out []frontendAnswer
		for _, st := range permTreeSteps {
			status, body := c.step(t, st)
			out = append(out, frontendAnswer{Name: st.Name, Status: status, Response: body})
		}
		writeAnswers(t, golden, out)
	}
	want := readAnswers(t, golden, len(permTreeSteps), "-update-permtree="+project)
	for i, w := range want {
		if w.Status != 200 {
			t.Fatalf("recorded step %q answered %d", permTreeSteps[i].Name, w.Status)
		}
	}
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			app := copyProject(t, filepath.Join("testdata", "projects", project))
			srv := start(t, be, app)
			c := &ownCodeClient{srv: srv, jwts: map[string]string{}}
			for i, st := range permTreeSteps {
				status, got := c.step(t, st)
				g, err := pluginsByName(got)
				if err != nil {
					t.Fatalf("step %q: %v in %s", st.Name, err, got)
				}
				w, err := pluginsByName(want[i].Response)
				if err != nil {
					t.Fatalf("step %q: recorded answer: %v", st.Name, err)
				}
				if status != want[i].Status || g != w {
					t.Errorf("step %q %s:\n got %d %s\nwant %d %s", st.Name, st.Path, status, g, want[i].Status, w)
				}
			}
		})
	}
}

// pluginsByName re-encodes a JSON body keeping every object's key order except that of the
// "permissions" object, whose members (api::note, plugin::upload, ...) it sorts by name.
func pluginsByName(body string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var b bytes.Buffer
	if err := copyOrdered(dec, &b, false); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", fmt.Errorf("trailing data")
	}
	return b.String(), nil
}

// copyOrdered copies the next JSON value from dec to b; sortKeys sorts an object's members.
func copyOrdered(dec *json.Decoder, b *bytes.Buffer, sortKeys bool) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('['):
		b.WriteByte('[')
		for n := 0; dec.More(); n++ {
			if n > 0 {
				b.WriteByte(',')
			}
			if err := copyOrdered(dec, b, false); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		b.WriteByte(']')
		return err
	case json.Delim('{'):
		type member struct{ key, value string }
		var members []member
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := k.(string)
			var v bytes.Buffer
			if err := copyOrdered(dec, &v, key == "permissions"); err != nil {
				return err
			}
			members = append(members, member{key, v.String()})
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		if sortKeys {
			sort.SliceStable(members, func(i, j int) bool { return members[i].key < members[j].key })
		}
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(m.key)
			b.Write(k)
			b.WriteByte(':')
			b.WriteString(m.value)
		}
		b.WriteByte('}')
		return nil
	}
	v, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	b.Write(v)
	return nil
}
