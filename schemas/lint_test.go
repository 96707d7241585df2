package schemas

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestLintNamesMisspelledKey(t *testing.T) {
	dir := t.TempDir()
	ct := filepath.Join(dir, "src", "api", "note", "content-types", "note")
	if err := os.MkdirAll(ct, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ct, "schema.json")
	schema := `{"kind": "collectionType", "collectionName": "notes",
  "info": {"singularName": "note", "pluralName": "notes", "displayName": "Note"},
  "pluginOptions": {"seo": {"anything": true}},
  "attributes": {"title": {"type": "string", "requried": true, "x-note": "kept"}}}`
	if err := os.WriteFile(file, []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err) // Strapi boots with it, so Quarry must
	}
	got := Lint(s)
	if len(got) != 1 {
		t.Fatalf("want one warning, got %q", got)
	}
	for _, want := range []string{file, `attribute "title"`, `"requried"`, `"required"`} {
		if !strings.Contains(got[0], want) {
			t.Errorf("warning %q does not name %s", got[0], want)
		}
	}
}

func TestJSONErrorHasLineAndColumn(t *testing.T) {
	dir := t.TempDir()
	ct := filepath.Join(dir, "src", "api", "note", "content-types", "note")
	if err := os.MkdirAll(ct, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(ct, "schema.json")
	if err := os.WriteFile(file, []byte("{\n  \"kind\": \"collectionType\",\n  \"info\": {,}\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), file+":3:12: invalid JSON") {
		t.Fatalf("want %s:3:12: invalid JSON, got %v", file, err)
	}
}

// Real projects' schema files carry keys Quarry does not read (pluginOptions of other
// plugins, displayName, options): none may be taken for a typo.
func TestLintRealProjectsQuiet(t *testing.T) {
	for _, repo := range []string{"/work/.mirror/strapi+foodadvisor/repo", "/work/.mirror/strapi+nextjs-corporate-starter/repo"} {
		if _, err := os.Stat(repo); err != nil {
			t.Skipf("%s not here", repo)
		}
		out, err := exec.Command("git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD").Output()
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range strings.Fields(string(out)) {
			if !strings.HasSuffix(f, ".json") || !(strings.Contains(f, "/content-types/") || strings.Contains(f, "/components/")) || strings.Contains(f, "node_modules") {
				continue
			}
			data, err := exec.Command("git", "-C", repo, "show", "HEAD:"+f).Output()
			if err != nil {
				t.Fatal(err)
			}
			n++
			if w := lintFile(f, data); len(w) > 0 {
				t.Errorf("%s: %q", repo, w)
			}
		}
		if n == 0 {
			t.Errorf("%s: no schema files found", repo)
		}
	}
}

// TestLintInverses: an owner whose inversedBy names an attribute that does not map it back
// (two owners naming a user's comments; a landlord's broker naming a broker's landlords, which
// target leases) is named, with what Strapi then reads; pairs that map each other back (and
// both-inversedBy pairs) are not.
func TestLintInverses(t *testing.T) {
	s, err := Load("../e2e/testdata/projects/inverses")
	if err != nil {
		t.Fatal(err)
	}
	got := lintInverses(s)
	if len(got) != 2 {
		t.Fatalf("want two warnings, got %q", got)
	}
	for i, want := range []string{
		`comment/schema.json: attribute "signedBy": inversedBy "comments" names plugin::users-permissions.user.comments, which does not map it back (mappedBy "writer", target api::comment.comment): Strapi boots and plugin::users-permissions.user.comments reads this attribute's link table`,
		`landlord/schema.json: attribute "broker": inversedBy "landlords" names api::broker.broker.landlords, which does not map it back (mappedBy "broker", target api::lease.lease): Strapi boots and api::broker.broker.landlords reads this attribute's link table`,
	} {
		if !strings.HasSuffix(got[i], want) {
			t.Errorf("warning %d:\n got %s\nwant …%s", i, got[i], want)
		}
	}
	s, err = Load("../e2e/testdata/projects/starter")
	if err != nil {
		t.Fatal(err)
	}
	if got := lintInverses(s); len(got) != 0 {
		t.Errorf("starter: %q", got)
	}
}
