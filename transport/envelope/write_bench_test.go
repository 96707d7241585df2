package envelope

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir/plan"
	"github.com/quarrycms/quarry/planner/exec"
	"github.com/quarrycms/quarry/schemas"
)

// BenchmarkEntries writes a page of 100 entries of the attribute types a list page holds:
// the envelope's and jsonw's own CPU, without a database.
func BenchmarkEntries(b *testing.B) {
	s, entries := page(100)
	buf := Get()
	defer Put(buf)
	for b.Loop() {
		buf.Reset()
		buf.WriteString(`{"data":[`)
		for i, e := range entries {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Entry(s, e)
		}
		buf.WriteString(`]}`)
	}
	b.SetBytes(int64(buf.Len()))
}

// page is a select of typical columns and n entries for it.
func page(n int) (*plan.Select, []*exec.Entry) {
	cols := []*schemas.Attribute{
		{Name: "title", Type: schemas.String}, {Name: "slug", Type: schemas.UID},
		{Name: "body", Type: schemas.RichText}, {Name: "summary", Type: schemas.Text},
		{Name: "views", Type: schemas.Integer}, {Name: "rating", Type: schemas.Decimal},
		{Name: "score", Type: schemas.Float}, {Name: "big", Type: schemas.BigInteger},
		{Name: "publishDate", Type: schemas.Date}, {Name: "startTime", Type: schemas.Time},
		{Name: "eventAt", Type: schemas.DateTime}, {Name: "featured", Type: schemas.Boolean},
		{Name: "category", Type: schemas.Enumeration}, {Name: "meta", Type: schemas.JSON},
		{Name: "createdAt", Type: schemas.DateTime}, {Name: "updatedAt", Type: schemas.DateTime},
		{Name: "publishedAt", Type: schemas.DateTime},
	}
	for _, a := range cols {
		a.JSONKey = schemas.JSONKey(a.Name) // as Load sets it
	}
	s := &plan.Select{Model: &schemas.Model{UID: "api::article.article"}, Columns: cols}
	at := time.Date(2024, 2, 29, 10, 20, 30, 123e6, time.UTC)
	var entries []*exec.Entry
	for i := range n {
		entries = append(entries, &exec.Entry{ID: int64(i + 1), Values: []any{
			"Article number " + string(rune('a'+i%26)) + " about things", "article-number-about-things",
			"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. \"Quoted\" and a newline\nat the end of the body text here.",
			"A short summary of the article, with ünïcödé.", int64(i * 37), 4.25, 0.1 * float64(i), int64(9007199254740993),
			"2024-02-29", "10:20:30.12", at, i%2 == 0, "news", json.RawMessage(`{"a": [1, 2.5, "x"], "b": 1}`),
			at, at, at,
		}})
	}
	return s, entries
}
