package sqlgen

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/quarrycms/quarry/schemas"
)

// TestLayoutLinkMatrix: the link tables of schemas/testdata/linkmatrix (owners naming
// attributes that do not map them back, owners shadowed by later ones, attributes naming
// themselves) are the ones Strapi 4.26.2's metadata makes, with their columns in its order,
// and no others.
func TestLayoutLinkMatrix(t *testing.T) {
	data, err := os.ReadFile("../schemas/testdata/linkmatrix/strapi_links.json")
	if err != nil {
		t.Fatal(err)
	}
	var want struct{ Tables map[string][]string }
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	s, err := schemas.Load("../schemas/testdata/linkmatrix")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range Dialects() {
		got := map[string][]string{}
		for _, tb := range Layout(d, s) {
			if !strings.HasSuffix(tb.Name, "_links") {
				continue
			}
			var cols []string
			for _, c := range tb.Columns {
				cols = append(cols, c.Name)
			}
			got[tb.Name] = cols
		}
		for name, cols := range want.Tables {
			if !slices.Equal(got[name], cols) {
				t.Errorf("%s: %s has %v, Strapi %v", d.Name(), name, got[name], cols)
			}
		}
		for name := range got {
			system := slices.ContainsFunc([]string{"files_", "up_", "admin_", "i18n_", "upload_", "strapi_"}, func(p string) bool { return strings.HasPrefix(name, p) })
			if _, ok := want.Tables[name]; !ok && !system {
				t.Errorf("%s: %s made, Strapi makes no such table", d.Name(), name)
			}
		}
	}
}
