package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/quarrycms/quarry/transport/plugins/email/emailtest"
)

// The users-permissions e-mails go through the project's email plugin configuration to a real
// SMTP server the test starts on loopback; the codes they carry complete the flows.

// received is one e-mail as a client shows it: decoded headers and the text and HTML bodies.
type received struct {
	hdr        map[string]string
	text, html string
	raw        emailtest.Message
}

func readMail(t *testing.T, m emailtest.Message) received {
	t.Helper()
	p, err := m.Parsed()
	if err != nil {
		t.Fatal(err)
	}
	r := received{hdr: map[string]string{}, raw: m}
	dec := new(mime.WordDecoder)
	for k := range p.Header {
		r.hdr[k], _ = dec.DecodeHeader(p.Header.Get(k))
	}
	mt, params, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q: %v", p.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(p.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(part)
		switch ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type")); ct {
		case "text/plain":
			r.text = string(b)
		case "text/html":
			r.html = string(b)
		}
	}
	return r
}

func waitMail(t *testing.T, s *emailtest.Server, n int) received {
	t.Helper()
	msgs, err := s.Wait(n, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return readMail(t, msgs[n-1])
}

func (r received) check(t *testing.T, headers map[string]string, body *regexp.Regexp) string {
	t.Helper()
	for k, want := range headers {
		if r.hdr[k] != want {
			t.Errorf("%s: %q, want %q", k, r.hdr[k], want)
		}
	}
	if r.text != r.html {
		t.Errorf("text and HTML differ:\n%s\n%s", r.text, r.html)
	}
	m := body.FindStringSubmatch(r.html)
	if m == nil {
		t.Fatalf("body does not match %s:\n%s", body, r.html)
	}
	return m[len(m)-1]
}

// TestEmailFlows: confirmation, resending it and password reset, over STARTTLS with AUTH,
// each completed with the code from the e-mail.
func TestEmailFlows(t *testing.T) {
	for _, be := range backends() {
		t.Run(be.Name, func(t *testing.T) {
			mail, err := emailtest.Start(emailtest.Options{User: "mailer", Pass: "mail-s3cret", STARTTLS: true})
			if err != nil {
				t.Fatal(err)
			}
			defer mail.Close()
			ca, _ := json.Marshal(mail.CAPEM)
			app := authApp(t, map[string]string{"plugins.json": fmt.Sprintf(`{
				"users-permissions": {"config": {"jwtSecret": %q, "advanced": {"email_confirmation": true,
					"email_reset_password": "https://front.example/reset", "email_confirmation_redirection": "https://front.example/welcome"}}},
				"email": {"config": {"provider": "nodemailer",
					"providerOptions": {"host": "127.0.0.1", "port": %d, "auth": {"user": "mailer", "pass": "mail-s3cret"}, "tls": {"ca": %s}},
					"settings": {"defaultFrom": "Blog <blog@example.org>", "defaultReplyTo": "help@example.org"}}}}`, testJWTSecret, mail.Port, ca)})
			srv := start(t, be, app)
			db := openDB(t, srv)
			port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]

			// Registration sends the confirmation e-mail; the link is the server's own
			// (development: 127.0.0.1 reads as localhost).
			r := srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"dee","email":"Dee@Example.com","password":"dee-password"}`)
			expect(t, r, 200, `{"user":{"id":1,"username":"dee","email":"dee@example.com","provider":"local","confirmed":false`)
			refute(t, r, `"jwt"`)
			m := waitMail(t, mail, 1)
			if !m.raw.TLS || m.raw.AuthUser != "mailer" || m.raw.From != "no-reply@strapi.io" || strings.Join(m.raw.To, ",") != "dee@example.com" {
				t.Fatalf("envelope: tls %v auth %q from %q to %v", m.raw.TLS, m.raw.AuthUser, m.raw.From, m.raw.To)
			}
			link := regexp.MustCompile(`<p>http://localhost:` + port + `/api/auth/email-confirmation\?confirmation=([0-9a-f]{40})</p>`)
			first := m.check(t, map[string]string{"From": `"Administration Panel" <no-reply@strapi.io>`, "To": "<dee@example.com>",
				"Reply-To": "<help@example.org>", "Subject": "Account confirmation"}, link)
			if !strings.HasPrefix(m.html, "<p>Thank you for registering!</p>") {
				t.Fatalf("body %q", m.html)
			}

			// Asking again sends a new code; the first one no longer confirms.
			expect(t, srv.call(t, "", "POST", "/api/auth/send-email-confirmation", `{"email":"DEE@example.com"}`), 200, `{"email":"dee@example.com","sent":true}`)
			second := waitMail(t, mail, 2).check(t, map[string]string{"Subject": "Account confirmation"}, link)
			if second == first {
				t.Fatal("same confirmation code twice")
			}
			expect(t, srv.call(t, "", "GET", "/api/auth/email-confirmation?confirmation="+first, ""), 400, `"message":"Invalid token"`)
			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			res, err := client.Get(srv.URL + "/api/auth/email-confirmation?confirmation=" + second)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 302 || res.Header.Get("Location") != "https://front.example/welcome" {
				t.Fatalf("confirmation: %d %s", res.StatusCode, res.Header.Get("Location"))
			}
			expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"dee","password":"dee-password"}`), 200, `"confirmed":true`)

			// Forgot password: the e-mail carries the reset link with the code.
			expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"dee@example.com"}`), 200, `{"ok":true}`)
			code := waitMail(t, mail, 3).check(t, map[string]string{"Subject": "Reset password", "To": "<dee@example.com>"},
				regexp.MustCompile(`<p>https://front\.example/reset\?code=([0-9a-f]{128})</p>`))
			expect(t, srv.call(t, "", "POST", "/api/auth/reset-password", fmt.Sprintf(`{"code":%q,"password":"n3w-password","passwordConfirmation":"n3w-password"}`, code)),
				200, `"jwt":"`, `"username":"dee"`)
			expect(t, srv.call(t, "", "POST", "/api/auth/local", `{"identifier":"dee","password":"n3w-password"}`), 200)
			expect(t, srv.call(t, "", "POST", "/api/auth/reset-password", fmt.Sprintf(`{"code":%q,"password":"again-pw","passwordConfirmation":"again-pw"}`, code)),
				400, `"message":"Incorrect code provided"`)
			// Unknown and blocked users get {ok: true} and no e-mail.
			expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"nobody@example.com"}`), 200, `{"ok":true}`)
			time.Sleep(200 * time.Millisecond)
			if n := len(mail.Messages()); n != 3 {
				t.Fatalf("%d e-mails, want 3", n)
			}

			// The templates are in the core store as Strapi keeps them.
			var value string
			var env, tag any
			if err := db.QueryRow(rebind(srv, `SELECT value, environment, tag FROM strapi_core_store_settings WHERE "key" = 'plugin_users-permissions_email'`)).Scan(&value, &env, &tag); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(value, `{"reset_password":{"display":"Email.template.reset_password","icon":"sync","options":{"from":{"name":"Administration Panel","email":"no-reply@strapi.io"},"response_email":"","object":"Reset password","message":"<p>We heard`) ||
				env != nil || tag != nil {
				t.Fatalf("core store: %s %v %v", value, env, tag)
			}
			// So is i18n's default locale (a Strapi beside Quarry finds it only with NULLs).
			if err := db.QueryRow(rebind(srv, `SELECT environment, tag FROM strapi_core_store_settings WHERE "key" = 'plugin_i18n_default_locale'`)).Scan(&env, &tag); err != nil || env != nil || tag != nil {
				t.Fatalf("i18n default locale row: %v %v %v", err, env, tag)
			}
			if strings.Contains(srv.log.String(), code) || strings.Contains(srv.log.String(), second) {
				t.Fatal("a code is in the server log")
			}
		})
	}
}

// TestEmailTemplates: templates edited in the core store render as Strapi renders them
// (lodash interpolation of exactly the known variables, everything else left as written),
// with server.url in the links.
func TestEmailTemplates(t *testing.T) {
	be := backends()[0]
	app, mail := mailApp(t, map[string]string{
		"plugins.json": `{"users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `"}}}`,
		"server.json":  `{"url": "https://api.example.com/cms/"}`})
	srv := start(t, be, app)
	db := openDB(t, srv)
	expect(t, srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"ann","email":"ann@example.com","password":"ann-password"}`), 200)
	tpl := `{"reset_password":{"options":{"from":{"name":"","email":"reset@front.example"},"response_email":"help@front.example",
		"object":"Reset for <%= USER.username %> <%= TOKEN %>",
		"message":"A <%= URL %> B <%= SERVER_URL %> C <%= ADMIN_URL %> D <%=USER.email%> E <%= USER.confirmed %> F <%= USER.id %> G <%= USER.password %> H <%- USER.email %> I <% print(1) %> J ${USER.email} K <%= CODE %> L <%= TOKEN %>"}},
		"email_confirmation":{"options":{"from":{"name":"Ann Ö. Example","email":"confirm@front.example"},"response_email":"",
		"object":"Welcome <%= USER.username %> <%= CODE %>","message":"<%= URL %>?confirmation=<%= CODE %> <%= USER.blocked %> <%= TOKEN %>"}}}`
	if _, err := db.Exec(`UPDATE strapi_core_store_settings SET value = ? WHERE "key" = 'plugin_users-permissions_email'`, tpl); err != nil {
		t.Fatal(err)
	}
	expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"ann@example.com"}`), 200, `{"ok":true}`)
	m := waitMail(t, mail, 1)
	token := m.check(t, map[string]string{"From": `<reset@front.example>`, "Reply-To": "<help@front.example>",
		"Subject": "Reset for ann <%= TOKEN %>"}, regexp.MustCompile(`L ([0-9a-f]{128})$`))
	want := "A  B https://api.example.com/cms C https://api.example.com/cms/admin D ann@example.com E true F 1 G <%= USER.password %> " +
		"H <%- USER.email %> I <% print(1) %> J ${USER.email} K <%= CODE %> L " + token
	if m.html != want {
		t.Fatalf("body\n%q\nwant\n%q", m.html, want)
	}

	// Confirmation: from needs both name and e-mail; an empty response_email takes the default.
	expect(t, srv.call(t, "", "POST", "/api/auth/send-email-confirmation", `{"email":"ann@example.com"}`), 400, `"message":"Already confirmed"`)
	if _, err := db.Exec(`UPDATE up_users SET confirmed = ? WHERE id = 1`, false); err != nil {
		t.Fatal(err)
	}
	expect(t, srv.call(t, "", "POST", "/api/auth/send-email-confirmation", `{"email":"ann@example.com"}`), 200, `{"email":"ann@example.com","sent":true}`)
	m = waitMail(t, mail, 2)
	code := m.check(t, map[string]string{"From": `Ann Ö. Example <confirm@front.example>`, "Subject": "Welcome ann <%= CODE %>"},
		regexp.MustCompile(`^https://api\.example\.com/cms/api/auth/email-confirmation\?confirmation=([0-9a-f]{40}) false <%= TOKEN %>$`))
	if _, ok := m.hdr["Reply-To"]; ok {
		t.Fatalf("Reply-To %q", m.hdr["Reply-To"])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(srv.URL + "/api/auth/email-confirmation?confirmation=" + code)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 302 || res.Header.Get("Location") != "/" {
		t.Fatalf("confirmation: %d %s", res.StatusCode, res.Header.Get("Location"))
	}

	// A template naming an unknown variable through the dot wildcard fails as Strapi's does:
	// forgot-password answers the template error; confirmation sends nothing.
	bad := strings.Replace(tpl, "<%= USER.id %>", "<%= USER_id %>", 1)
	bad = strings.Replace(bad, "<%= USER.blocked %>", "<%= USER_blocked %>", 1)
	if _, err := db.Exec(`UPDATE strapi_core_store_settings SET value = ? WHERE "key" = 'plugin_users-permissions_email'`, bad); err != nil {
		t.Fatal(err)
	}
	expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"ann@example.com"}`), 400,
		`{"data":null,"error":{"status":400,"name":"ApplicationError","message":"Invalid email template","details":{}}}`)
	if _, err := db.Exec(`UPDATE up_users SET confirmed = ? WHERE id = 1`, false); err != nil {
		t.Fatal(err)
	}
	expect(t, srv.call(t, "", "POST", "/api/auth/send-email-confirmation", `{"email":"ann@example.com"}`), 200, `"sent":true`)
	time.Sleep(200 * time.Millisecond)
	if n := len(mail.Messages()); n != 2 {
		t.Fatalf("%d e-mails, want 2", n)
	}
}

// TestEmailFailures: an unreachable SMTP server is Strapi's 500 for forgot-password and
// send-email-confirmation (the code is stored first) and a 400 for a registration that needs
// confirmation; an unknown provider is one warning at start and nothing sent.
func TestEmailFailures(t *testing.T) {
	be := backends()[0]
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	app := authApp(t, map[string]string{"plugins.json": fmt.Sprintf(`{
		"users-permissions": {"config": {"jwtSecret": %q, "advanced": {"email_confirmation": true}}},
		"email": {"config": {"provider": "nodemailer", "providerOptions": {"host": "127.0.0.1", "port": %d}}}}`, testJWTSecret, closed)})
	srv := start(t, be, app)
	db := openDB(t, srv)
	expect(t, srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"eve","email":"eve@example.com","password":"eve-password"}`), 400,
		`{"data":null,"error":{"status":400,"name":"ApplicationError","message":"Couldn't send the confirmation email","details":{}}}`)
	const internal = `{"data":null,"error":{"status":500,"name":"InternalServerError","message":"Internal Server Error"}}`
	expect(t, srv.call(t, "", "POST", "/api/auth/send-email-confirmation", `{"email":"eve@example.com"}`), 500, internal)
	expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"eve@example.com"}`), 500, internal)
	var reset, confirm string
	if err := db.QueryRow(`SELECT reset_password_token, confirmation_token FROM up_users WHERE username = 'eve'`).Scan(&reset, &confirm); err != nil || len(reset) != 128 || len(confirm) != 40 {
		t.Fatalf("stored codes %q %q: %v", reset, confirm, err)
	}
	r := srv.call(t, "", "POST", "/graphql", `{"query":"mutation { forgotPassword(email: \"eve@example.com\") { ok } }"}`)
	expect(t, r, 200, `"message":"Internal Server Error"`, `"forgotPassword":null`)
	if err := db.QueryRow(`SELECT reset_password_token FROM up_users WHERE username = 'eve'`).Scan(&reset); err != nil {
		t.Fatal(err)
	}
	log := srv.log.String()
	if !strings.Contains(log, "connection refused") || strings.Contains(log, reset) || strings.Contains(log, confirm) {
		t.Fatalf("server log:\n%s", log)
	}

	app = authApp(t, map[string]string{"plugins.json": `{"users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `"}},
		"email": {"config": {"provider": "sendgrid", "providerOptions": {"apiKey": "x"}}}}`})
	srv = start(t, be, app)
	expect(t, srv.call(t, "", "POST", "/api/auth/local/register", `{"username":"fay","email":"fay@example.com","password":"fay-password"}`), 200)
	expect(t, srv.call(t, "", "POST", "/api/auth/forgot-password", `{"email":"fay@example.com"}`), 200, `{"ok":true}`)
	if n := strings.Count(srv.log.String(), `email provider \"sendgrid\" is not supported`); n != 1 {
		t.Fatalf("%d start-up warnings:\n%s", n, srv.log.String())
	}
}

// TestEmailSendRoute: the email plugin's POST /api/email sends for callers granted
// plugin::email.email.send and answers {}, as Strapi's.
func TestEmailSendRoute(t *testing.T) {
	be := backends()[0]
	app, mail := mailApp(t, map[string]string{"plugins.json": `{"users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `"}}}`})
	srv := start(t, be, app)
	body := `{"to":["a@example.com","B <b@example.com>"],"cc":"c@example.com","bcc":{"name":"D","address":"d@example.com"},
		"replyTo":"help@example.org","subject":"Hello","text":"plain","html":"<b>rich</b>",
		"attachments":[{"filename":"note.txt","content":"aGVsbG8=","encoding":"base64"}]}`
	expect(t, srv.call(t, "", "POST", "/api/email", body), 403)
	expect(t, srv.call(t, srv.Token, "POST", "/api/email", body), 200, `{}`)
	msgs, err := mail.Wait(1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := msgs[0]
	if m.From != "no-reply@strapi.io" || strings.Join(m.To, ",") != "a@example.com,b@example.com,c@example.com,d@example.com" {
		t.Fatalf("envelope %q %v", m.From, m.To)
	}
	raw := string(m.Data)
	for _, want := range []string{"Subject: Hello", "Reply-To: <help@example.org>", "Cc: <c@example.com>", `filename="note.txt"`, "aGVsbG8="} {
		if !strings.Contains(raw, want) {
			t.Errorf("message lacks %q:\n%s", want, raw)
		}
	}
	if strings.Contains(raw, "d@example.com") {
		t.Errorf("Bcc in the message:\n%s", raw)
	}
	for b, msg := range map[string]string{`{}`: "No recipients defined", `{"to":"not an address"}`: "is not an e-mail address",
		`{"to":"a@example.com","attachments":[{"path":"/etc/passwd"}]}`: "path is not supported", `{"to":"a@example.com","subject":3}`: "subject must be a string"} {
		expect(t, srv.call(t, srv.Token, "POST", "/api/email", b), 400, `"name":"ValidationError"`, msg)
	}
	expect(t, srv.call(t, srv.Token, "GET", "/api/email", ""), 404)
	if n := len(mail.Messages()); n != 1 {
		t.Fatalf("%d e-mails, want 1", n)
	}
}

// TestEmailRESTPrefix: the confirmation link follows api.rest.prefix, where the route is served.
func TestEmailRESTPrefix(t *testing.T) {
	be := backends()[0]
	app, mail := mailApp(t, map[string]string{
		"plugins.json": `{"users-permissions": {"config": {"jwtSecret": "` + testJWTSecret + `", "advanced": {"email_confirmation": true}}}}`,
		"api.json":     `{"rest": {"prefix": "/v1"}}`})
	srv := start(t, be, app)
	expect(t, srv.call(t, "", "POST", "/v1/auth/local/register", `{"username":"gil","email":"gil@example.com","password":"gil-password"}`), 200, `"confirmed":false`)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	code := waitMail(t, mail, 1).check(t, map[string]string{"Subject": "Account confirmation"},
		regexp.MustCompile(`<p>http://localhost:`+port+`/v1/auth/email-confirmation\?confirmation=([0-9a-f]{40})</p>`))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(srv.URL + "/v1/auth/email-confirmation?confirmation=" + code)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 302 {
		t.Fatalf("confirmation: %d", res.StatusCode)
	}
	expect(t, srv.call(t, "", "POST", "/v1/auth/local", `{"identifier":"gil","password":"gil-password"}`), 200, `"confirmed":true`)
}
