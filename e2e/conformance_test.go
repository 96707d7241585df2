package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// step is one recorded request of testdata/blog_rest.json (see testdata/README.md).
type step struct {
	Name           string          `json:"name"`
	Method         string          `json:"method"`
	Path           string          `json:"path"`
	Body           json.RawMessage `json:"body"`
	BodyRaw        *string         `json:"body_raw"`
	Status         int             `json:"status"`
	ResponseRaw    string          `json:"response_raw"`
	Strapi500      bool            `json:"strapi_500"`
	QuarryDeviates bool            `json:"quarry_deviates"`
}

var maskRe = regexp.MustCompile(`"(createdAt|updatedAt|publishedAt)":"((?:[^"\\]|\\.)*)"`)

// mask applies the recording's timestamp rule to a raw body.
func mask(s string) string {
	return maskRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := maskRe.FindStringSubmatch(m)
		if sub[1] == "publishedAt" && strings.HasPrefix(sub[2], "2024-") {
			return m
		}
		return `"` + sub[1] + `":"<time>"`
	})
}

// refusedOnPurpose are steps Strapi accepts although they break the schema: a dynamic-zone
// item whose component the zone does not list is stored by Strapi; Quarry answers 400, so the
// entry never exists and reading it finds nothing.
var refusedOnPurpose = map[string]int{
	"DZ component not listed in the zone is ACCEPTED (no error)": 400,
	"article with unlisted DZ component populated":               200,
	// Strapi's i18n sync runs after the entry was written, without a transaction: it answers
	// 400 yet keeps the entry. Quarry answers the same 400 and writes nothing, so the reads
	// that follow (and, on SQLite, later ids) differ from the recording.
	"localization of a slug page with a new slug in the body":                   400,
	"pages with slug uniq* after that":                                          200,
	"PUT slug on 4 with populate=localizations: 400 from the sync":              400,
	"pages 4 and 10 after the slug PUT":                                         200,
	"create page linking a page of the same locale via localizations":           200,
	"page 5 after same-locale link":                                             200,
	"create en page linked to fr pages 2 and 14 with populate (group of three)": 200,
	"page 2 after group of three":                                               200,
	"page 14 after group of three":                                              200,
	// A single type with several locales answers "the first matching row" in PostgreSQL's
	// heap order; Quarry takes the lowest id.
	"footer GET locale[0]=en&locale[1]=fr": 200,
}

// TestConformanceBlog replays requests recorded from real Strapi v4 on examples/blog and
// compares status and body byte for byte (timestamps masked). Where Strapi answers 500,
// Quarry must answer 400 ValidationError; where Strapi silently widens a filter, 400.
func TestConformanceBlog(t *testing.T) { replay(t, "testdata/blog_rest.json") }

// TestConformanceI18n replays the recorded i18n requests (localized pages and footer).
func TestConformanceI18n(t *testing.T) { replay(t, "testdata/i18n_rest.json") }

func replay(t *testing.T, file string) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var steps []step
	if err := json.Unmarshal(raw, &steps); err != nil {
		t.Fatal(err)
	}
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			srv := start(t, be, "../examples/blog")
			failures := 0
			for i, st := range steps {
				var body []byte
				if st.BodyRaw != nil {
					body = []byte(*st.BodyRaw)
				} else if len(st.Body) > 0 && string(st.Body) != "null" {
					body = st.Body
				}
				status, got := srv.do(t, st.Method, st.Path, body)
				ok := true
				switch {
				case refusedOnPurpose[st.Name] != 0:
					ok = status == refusedOnPurpose[st.Name]
				case unordered[st.Name]:
					ok = status == st.Status && sameItems(mask(string(got)), st.ResponseRaw)
				case st.Strapi500 || (st.QuarryDeviates && st.Status == 200 && strings.Contains(st.Path, "[$")):
					var env struct {
						Error struct {
							Status int    `json:"status"`
							Name   string `json:"name"`
						} `json:"error"`
					}
					if status != 400 || json.Unmarshal(got, &env) != nil || env.Error.Name != "ValidationError" && env.Error.Name != "PaginationError" {
						ok = false
					}
				case st.QuarryDeviates:
					ok = status == st.Status
				default:
					ok = status == st.Status && mask(string(got)) == st.ResponseRaw
				}
				if !ok {
					failures++
					t.Errorf("step %d %q: %s %s\n got %d %s\nwant %d %s", i, st.Name, st.Method, st.Path, status, mask(string(got)), st.Status, st.ResponseRaw)
					if failures > 40 {
						t.Fatal("too many failures")
					}
				}
			}
		})
	}
}

// unordered are steps where Strapi's order is PostgreSQL's heap order (no ORDER BY); Quarry
// orders by id, so the items are compared as a set.
var unordered = map[string]bool{
	"footer GET locale=all": true,
}

// sameItems compares two {"data":[...]} bodies ignoring the order of data items.
func sameItems(a, b string) bool {
	var x, y struct {
		Data []json.RawMessage `json:"data"`
		Meta json.RawMessage   `json:"meta"`
	}
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil || len(x.Data) != len(y.Data) || string(x.Meta) != string(y.Meta) {
		return false
	}
	seen := map[string]int{}
	for _, d := range x.Data {
		seen[string(d)]++
	}
	for _, d := range y.Data {
		seen[string(d)]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}
