package envelope

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/ir/apierror"
	"github.com/quarrycms/quarry/schemas"
)

func TestWriteAPIError(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteAPIError(rec, &apierror.Error{Status: 503, Name: "ServiceUnavailableError", Message: "down", RetryAfter: 5, NoDetails: true})
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "5" || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("%d %v", rec.Code, rec.Header())
	}
	if got := rec.Body.String(); got != `{"data":null,"error":{"status":503,"name":"ServiceUnavailableError","message":"down"}}` {
		t.Errorf("body %s", got)
	}
}

// Values are written as Strapi's JavaScript server prints them, the same on every database.
func TestValue(t *testing.T) {
	for _, c := range []struct {
		t    schemas.AttrType
		v    any
		want string
	}{
		{schemas.BigInteger, int64(9007199254740993), `"9007199254740993"`},
		{schemas.Integer, int64(3), `3`},
		{schemas.Decimal, 1.005, `1`},
		{schemas.Time, "10:20:30.120", `"10:20:30.12"`},
		{schemas.Time, "10:20:30.000", `"10:20:30"`},
		{schemas.Timestamp, time.UnixMilli(1700000000123).UTC(), `"1700000000123"`},
		{schemas.String, nil, `null`},
	} {
		var b Buf
		b.Value(c.t, c.v)
		if got := string(b.Bytes()); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.t, c.v, got, c.want)
		}
	}
}

// A JSON answer declares its length, as Strapi's does: a large page is not sent chunked.
func TestWriteJSONContentLength(t *testing.T) {
	body := `{"data":[` + strings.Repeat(`{"id":1},`, 20000) + `{"id":2}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b Buf
		b.WriteString(body)
		WriteJSON(w, http.StatusOK, &b)
	}))
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.ContentLength != int64(len(body)) || len(res.TransferEncoding) != 0 || string(got) != body {
		t.Errorf("Content-Length %d, Transfer-Encoding %v, %d bytes; want %d bytes, not chunked",
			res.ContentLength, res.TransferEncoding, len(got), len(body))
	}
}
