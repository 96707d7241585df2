package graphql

// Multipart requests, the GraphQL multipart request spec as graphql-upload implements it: the
// operation in the `operations` field, the `map` from file parts to variable paths, and the
// file parts, handed to the executor with the request.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/quarrycms/quarry/ir/apierror"
	pg "github.com/quarrycms/quarry/parser/graphql"
	"github.com/quarrycms/quarry/transport/graphql/execute"
)

// Multipart reads multipart requests for the upload plugin, which keeps their limits and
// stages their files (upload.Service): the handler needs only the form's fields and, for
// each file part, its field name; the parts go to the plugin's resolvers unopened.
type Multipart interface {
	ReadMultipart(w http.ResponseWriter, r *http.Request) (Form, error)
}

// Form is a multipart request read by Multipart.
type Form interface {
	// Field is a non-file field's value.
	Field(name string) (string, bool)
	// Parts are the file parts, in order, each with its field name.
	Parts() []FilePart
	// Discard removes what was staged and not used.
	Discard()
}

// FilePart is one file part of a Form.
type FilePart struct {
	Field string
	Part  any
}

// specURL ends graphql-upload's error messages.
const specURL = "https://github.com/jaydenseric/graphql-multipart-request-spec"

func isMultipart(r *http.Request) bool {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && ct == "multipart/form-data"
}

// badMultipart is graphql-upload's refusal of a malformed multipart request, which Strapi's
// error middleware answers with its REST envelope.
func badMultipart(status int, format string, args ...any) *apierror.Error {
	name := "BadRequestError"
	if status == http.StatusRequestEntityTooLarge {
		name = "PayloadTooLargeError"
	}
	return &apierror.Error{Status: status, Name: name, Message: fmt.Sprintf(format, args...), NoDetails: true}
}

// serveMultipart serves a multipart request: the operation in the `operations` field, the
// `map` from file parts to variable paths, and the file parts. The caller is identified
// first, so nothing is received for a refused token.
func (h *Handler) serveMultipart(w http.ResponseWriter, r *http.Request) {
	caller, err := h.authenticate(r)
	if err != nil {
		h.authError(w, err)
		return
	}
	if h.upload == nil {
		writeAPIError(w, badMultipart(http.StatusBadRequest, "Multipart requests are not supported: the upload plugin is not configured"))
		return
	}
	form, err := h.upload.ReadMultipart(w, r)
	if err != nil {
		var ae *apierror.Error
		if u := h.db.Unavailable(h.log, err); u != nil {
			ae = u
		} else if !errors.As(err, &ae) {
			h.log.Error("graphql multipart", "err", err)
			ae = &apierror.Error{Status: 500, Name: "InternalServerError", Message: "Internal Server Error", NoDetails: true}
		}
		writeAPIError(w, ae)
		return
	}
	defer form.Discard()
	req, files, ae := h.multipartRequest(form)
	if ae != nil {
		writeAPIError(w, ae)
		return
	}
	resp := h.exec.Execute(r.Context(), caller, execute.Request{Request: req, Files: files})
	writeResponse(w, resp)
}

// multipartRequest reads the operation and puts a pg.Upload at every variable path the map
// names; the files are returned by map key.
func (h *Handler) multipartRequest(form Form) (pg.Request, map[string]any, *apierror.Error) {
	var req pg.Request
	// graphql-upload reads the parts in order and complains about the first one out of
	// place; the form no longer has the order, so a present part counts as misplaced.
	_, hasMap := form.Field("map")
	ops, ok := form.Field("operations")
	switch {
	case !ok && hasMap:
		return req, nil, badMultipart(400, "Misordered multipart fields; ‘map’ should follow ‘operations’ (%s).", specURL)
	case !hasMap && len(form.Parts()) > 0:
		return req, nil, badMultipart(400, "Misordered multipart fields; files should follow ‘map’ (%s).", specURL)
	case !ok:
		return req, nil, badMultipart(400, "Missing multipart field ‘operations’ (%s).", specURL)
	}
	if int64(len(ops)) > h.maxBody {
		return req, nil, badMultipart(413, "The ‘operations’ multipart field value exceeds the %d byte size limit.", h.maxBody)
	}
	operations, err := decodeJSON(ops)
	if err != nil {
		return req, nil, badMultipart(400, "Invalid JSON in the ‘operations’ multipart field (%s).", specURL)
	}
	obj, isObj := operations.(map[string]any)
	if !isObj {
		if _, isList := operations.([]any); isList {
			return req, nil, badMultipart(400, "Batched operations are not supported (%s).", specURL)
		}
		return req, nil, badMultipart(400, "Invalid type for the ‘operations’ multipart field (%s).", specURL)
	}
	rawMap, ok := form.Field("map")
	if !ok {
		return req, nil, badMultipart(400, "Missing multipart field ‘map’ (%s).", specURL)
	}
	var paths map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(rawMap)))
	if err := dec.Decode(&paths); err != nil || dec.More() {
		var m any
		if json.Unmarshal([]byte(rawMap), &m) == nil {
			return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field (%s).", specURL)
		}
		return req, nil, badMultipart(400, "Invalid JSON in the ‘map’ multipart field (%s).", specURL)
	}
	if paths == nil {
		return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field (%s).", specURL)
	}
	files := map[string]any{}
	for _, in := range form.Parts() {
		if _, named := paths[in.Field]; named && files[in.Field] == nil {
			files[in.Field] = in.Part // extraneous parts are ignored, as graphql-upload does
		}
	}
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		list, ok := paths[key].([]any)
		if !ok {
			return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field entry key ‘%s’ array (%s).", key, specURL)
		}
		for i, p := range list {
			path, ok := p.(string)
			if !ok {
				return req, nil, badMultipart(400, "Invalid type for the ‘map’ multipart field entry key ‘%s’ array index ‘%d’ value (%s).", key, i, specURL)
			}
			if !setPath(obj, path, pg.Upload{Part: key}) {
				return req, nil, badMultipart(400, "Invalid object path for the ‘map’ multipart field entry key ‘%s’ array index ‘%d’ value ‘%s’ (%s).", key, i, path, specURL)
			}
		}
	}
	if req, err = requestFrom(obj); err != nil {
		return req, nil, badMultipart(400, "%s", err.Error())
	}
	return req, files, nil
}

func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// setPath sets the value at a dotted object path as object-path's set does: missing or
// null segments become objects (arrays before a numeric segment), a segment of digits
// indexes an array. It fails (false) on a path through a scalar, an index out of range or
// a prototype key.
func setPath(root map[string]any, path string, v any) bool {
	if path == "" {
		return false
	}
	segs := strings.Split(path, ".")
	var cur any = root
	for i, seg := range segs {
		switch seg {
		case "__proto__", "constructor", "prototype":
			return false
		}
		last := i == len(segs)-1
		var next any
		if !last {
			if _, err := strconv.Atoi(segs[i+1]); err == nil {
				next = []any{}
			} else {
				next = map[string]any{}
			}
		}
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[seg] = v
				return true
			}
			if c[seg] == nil {
				c[seg] = next
			}
			cur = c[seg]
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) {
				return false
			}
			if last {
				c[n] = v
				return true
			}
			if c[n] == nil {
				c[n] = next
			}
			cur = c[n]
		default:
			return false
		}
	}
	return false
}
