package userspermissions

import (
	"encoding/json"
	"testing"
)

func fields(t *testing.T, js string) []field {
	t.Helper()
	f, err := decodeFields([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRenderTemplate(t *testing.T) {
	data := fields(t, `{"URL":null,"SERVER_URL":"http://localhost:1337","USER":{"id":2,"username":"bob","confirmed":false,
		"score":1.5,"meta":{"team":"blue"},"tags":["a"],"empty":{},"bio":null},"TOKEN":"abc"}`)
	cases := []struct{ layout, want string }{
		{`"<p><%= URL %>?code=<%= TOKEN %></p>"`, "<p>?code=abc</p>"},
		{`"<%=SERVER_URL%> <%=   USER.username   %> <%= USER.id %> <%= USER.confirmed %> <%= USER.score %>"`, "http://localhost:1337 bob 2 false 1.5"},
		{`"<%= USER.meta.team %> <%= USER.bio %>|"`, "blue |"},
		// Only <%= known %> is interpolated: unknown names, other tags and ES templates stay.
		{`"<%= CODE %> <%- TOKEN %> <% TOKEN %> ${TOKEN} <%= USER.password %> <%= USER %> <%= USER.empty %>"`,
			"<%= CODE %> <%- TOKEN %> <% TOKEN %> ${TOKEN} <%= USER.password %> <%= USER %> <%= USER.empty %>"},
		{`null`, ""},
		{`42`, "42"},
	}
	for _, c := range cases {
		got, err := renderTemplate(json.RawMessage(c.layout), data)
		if err != nil || got != c.want {
			t.Errorf("%s: %q %v, want %q", c.layout, got, err, c.want)
		}
	}
	// The allowed names are a RegExp whose dots match any character: USER_id matches and
	// fails as an undefined variable; an array index is not valid JavaScript either.
	for _, bad := range []string{`"<%= USER_id %>"`, `"<%= USER.tags.0 %>"`} {
		if _, err := renderTemplate(json.RawMessage(bad), data); err != errTemplate {
			t.Errorf("%s: %v, want the template error", bad, err)
		}
	}
}

func TestJSValues(t *testing.T) {
	for raw, want := range map[string]string{``: "undefined", `null`: "null", `"x"`: "x", `true`: "true", `1e3`: "1e3", `[1,"a",null]`: "1,a,", `{}`: "[object Object]"} {
		if got := jsString(json.RawMessage(raw)); got != want {
			t.Errorf("String(%s) = %q, want %q", raw, got, want)
		}
	}
	for raw, want := range map[string]bool{``: false, `null`: false, `""`: false, `0`: false, `false`: false, `" "`: true, `"0"`: true, `1`: true, `{}`: true} {
		if truthy(json.RawMessage(raw)) != want {
			t.Errorf("truthy(%s) != %v", raw, want)
		}
	}
	for parts, want := range map[[3]string]string{
		{"http://localhost:1337", "/api", "/auth/email-confirmation"}: "http://localhost:1337/api/auth/email-confirmation",
		{"https://x.example/cms/", "api/", "auth/email-confirmation"}: "https://x.example/cms/api/auth/email-confirmation",
		{"http://localhost:1337", "", "/auth/email-confirmation"}:     "http://localhost:1337/auth/email-confirmation",
	} {
		if got := joinURL(parts[:]...); got != want {
			t.Errorf("joinURL%v = %q, want %q", parts, got, want)
		}
	}
}

// FuzzRenderTemplate: templates are edited by hand in the core store; any text renders or
// fails with the template error, never panics.
func FuzzRenderTemplate(f *testing.F) {
	f.Add(`<p><%= URL %>?code=<%= TOKEN %></p>`)
	f.Add(`<%= USER.x %><%=`)
	data, _ := decodeFields([]byte(`{"URL":"u","USER":{"id":1,"x":"y"},"TOKEN":"t"}`))
	f.Fuzz(func(t *testing.T, layout string) {
		b, _ := json.Marshal(layout)
		out, err := renderTemplate(b, data)
		if err != nil && err != errTemplate {
			t.Fatal(err)
		}
		_ = out
	})
}
