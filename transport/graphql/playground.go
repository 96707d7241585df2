package graphql

import (
	"compress/gzip"
	"embed"
	"io"
	"net/http"
	"strings"
)

// The playground is GraphiQL 3 with React 18 (MIT, see playground/LICENSES.txt), stored
// gzipped and embedded in the binary: users run behind firewalls, so nothing may come from
// a CDN. Assets are served from the endpoint itself (?playground_asset=NAME) because the
// handler is mounted at one exact path.
//
//go:embed playground/index.html playground/*.gz
var playgroundFS embed.FS

// playgroundAssets maps the names the page asks for to their content type.
var playgroundAssets = map[string]string{
	"graphiql.min.js":             "text/javascript; charset=utf-8",
	"graphiql.min.css":            "text/css; charset=utf-8",
	"react.production.min.js":     "text/javascript; charset=utf-8",
	"react-dom.production.min.js": "text/javascript; charset=utf-8",
}

func servePlayground(w http.ResponseWriter, r *http.Request) {
	page, err := playgroundFS.ReadFile("playground/index.html")
	if err != nil {
		http.Error(w, "playground missing", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}

func servePlaygroundAsset(w http.ResponseWriter, r *http.Request, name string) {
	ctype, ok := playgroundAssets[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := playgroundFS.Open("playground/" + name + ".gz")
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", ctype)
	// The assets change only with the binary; let browsers keep them for a day.
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("Vary", "Accept-Encoding")
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			io.Copy(w, f)
		}
		return
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		http.Error(w, "corrupt asset", http.StatusInternalServerError)
		return
	}
	defer zr.Close()
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		io.Copy(w, zr)
	}
}
