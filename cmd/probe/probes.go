package main

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fasthttp/websocket"
	"github.com/google/uuid"

	"agora/internal/adapters/sheet/sheettest"
)

// verdict is what the server did with one bad input.
type verdict struct {
	accepted bool
	got      string
}

// refusedIf is the verdict on a request that must be refused with a 4xx.
func refusedIf(r response) verdict {
	return verdict{accepted: r.status < 400 || r.status >= 500, got: r.String()}
}

type probe struct {
	area, name string
	run        func(ctx context.Context, p *prober) verdict
}

// probes run in this order; the ones that spend the caller's rate limits
// come last.
var probes = []probe{
	name("firstName with CR/LF and a mail header", map[string]string{"firstName": "J\r\nBcc: a@evil.test"}),
	name("lastName with a TAB", map[string]string{"lastName": "Liu\tX"}),
	name("firstName with a right-to-left override", map[string]string{"firstName": "\u202eevil"}),
	name("firstName of zero-width characters only", map[string]string{"firstName": "\u200b\u200d"}),
	place("community name with CR/LF and a mail header", "/api/communities/", map[string]string{"name": "Book club\r\nBcc: all@evil.test"}),
	place("community description with a BEL", "/api/communities/", map[string]string{"description": "Ring\a"}),
	place("forum name with a right-to-left override", "/api/series/", map[string]string{"name": "Forum \u202emurof"}),
	place("forum description with a TAB", "/api/series/", map[string]string{"description": "Col\tumn"}),
	{"mail", "an invitation re-sent at once", func(ctx context.Context, p *prober) verdict {
		r := p.admin.do(ctx, "POST", "/api/communities/"+p.community+"/profiles", map[string]any{"firstName": "Probe", "lastName": "Invitee",
			"email": "probe-" + uuid.NewString() + "@probe.agora.test", "sendInvitation": true}, nil)
		var added struct {
			ID string `json:"id"`
		}
		if err := r.decode(&added); err != nil || !r.ok() {
			return verdict{accepted: true, got: "could not add a person to invite: " + r.String()}
		}
		for range 2 {
			r := p.admin.do(ctx, "POST", "/api/communities/"+p.community+"/invitations", map[string]any{"profileIds": []string{added.ID}}, nil)
			var n struct {
				Invited int `json:"invited"`
			}
			if err := r.decode(&n); err != nil || !r.ok() || n.Invited > 0 {
				return verdict{accepted: r.ok() && n.Invited > 0, got: "re-sent: " + r.String() + " " + string(r.body)}
			}
		}
		return verdict{got: "re-sent twice, mailed once"}
	}},

	body("text with invalid UTF-8", func(p *prober) any {
		return `{"channelId":"` + p.channel + "\",\"raw\":\"bad \xff\xfe bytes\"}"
	}),
	body("text with a lone surrogate", func(p *prober) any {
		return `{"channelId":"` + p.channel + `","raw":"half \ud800 a pair"}`
	}),
	body("a duplicate JSON key", func(p *prober) any {
		return `{"channelId":"` + p.channel + `","raw":"seen","raw":"stored"}`
	}),
	body("text of zero-width characters only", func(p *prober) any {
		return map[string]any{"channelId": p.channel, "raw": "\u200b\u200c\u200d\u2060\ufeff"}
	}),
	body("a shared AI chat without a chat", func(p *prober) any {
		return map[string]any{"channelId": p.channel, "raw": "Not a chat", "type": "shared-ai-chat"}
	}),
	{"posts", "a mention whose text is not the member's name", func(ctx context.Context, p *prober) verdict {
		r := p.tryPost(ctx, map[string]any{"channelId": p.channel, "raw": "Thanks [Anyone I like](" + p.expertID + ")"})
		if !r.ok() {
			return refusedIf(r)
		}
		forged := strings.Contains(string(r.body), "Anyone I like")
		return verdict{accepted: forged, got: fmt.Sprintf("%s, %s", r, map[bool]string{true: "stored as sent", false: "stored with the member's name"}[forged])}
	}},

	body("a preview of 900 KB", func(p *prober) any {
		return map[string]any{"channelId": p.channel, "raw": "Look",
			"link": map[string]any{"url": "https://example.com/", "preview": map[string]any{"title": strings.Repeat("junk ", 180_000)}}}
	}),
	body("a preview 9,990 objects deep", func(p *prober) any {
		deep := strings.Repeat(`{"a":`, 9990) + "1" + strings.Repeat("}", 9990)
		return `{"channelId":"` + p.channel + `","raw":"Look","link":{"url":"https://example.com/","preview":` + deep + `}}`
	}),
	body("a preview with undocumented fields", func(p *prober) any {
		return map[string]any{"channelId": p.channel, "raw": "Look",
			"link": map[string]any{"url": "https://example.com/", "preview": map[string]any{"title": "A page", "onload": "alert(1)"}}}
	}),
	body("a preview image with a javascript: URL", func(p *prober) any {
		return map[string]any{"channelId": p.channel, "raw": "Look",
			"link": map[string]any{"url": "https://example.com/", "preview": map[string]any{"title": "A page", "image": "javascript:alert(1)"}}}
	}),

	body("a file that is another site's page", func(p *prober) any {
		return map[string]any{"channelId": p.channel, "raw": "Read this",
			"file": map[string]any{"name": "page.html", "url": "https://evil.test/page.html", "mediaType": "application/pdf"}}
	}),
	body("an image on another site", func(p *prober) any {
		return map[string]any{"channelId": p.channel, "raw": "See this", "image": map[string]any{"url": "https://evil.test/x.png"}}
	}),
	{"attachments", "another member's upload", func(ctx context.Context, p *prober) verdict {
		id, u, err := p.upload(ctx, p.expert)
		if err != nil {
			return verdict{accepted: true, got: "could not upload as the expert: " + err.Error()}
		}
		r := p.tryPost(ctx, map[string]any{"channelId": p.channel, "raw": "Mine now",
			"file": map[string]any{"id": id, "name": "probe.png", "url": u, "mediaType": "image/png"}})
		if !r.ok() {
			r2 := p.tryPost(ctx, map[string]any{"channelId": p.channel, "raw": "Mine now", "image": map[string]any{"url": u}})
			return refusedIf(r2)
		}
		return refusedIf(r)
	}},
	{"attachments", "a deleted post's upload URL", func(ctx context.Context, p *prober) verdict {
		_, u, err := p.upload(ctx, p.member)
		if err != nil {
			return verdict{accepted: true, got: "could not upload: " + err.Error()}
		}
		id, err := p.post(ctx, p.member, p.forum, map[string]any{"channelId": p.channel, "raw": "A picture", "image": map[string]any{"url": u}})
		if err != nil {
			return verdict{accepted: true, got: err.Error()}
		}
		shown, err := p.imageURL(ctx, id)
		if err != nil {
			return verdict{accepted: true, got: err.Error()}
		}
		if d := p.member.do(ctx, "DELETE", "/api/threads/"+id, nil, nil); !d.ok() {
			return verdict{accepted: true, got: "delete: " + d.String()}
		}
		r := p.get(ctx, shown)
		return verdict{accepted: r.ok(), got: "GET after delete: " + r.String()}
	}},

	{"uploads", "an upload by an account in no forum", func(ctx context.Context, p *prober) verdict {
		return refusedIf(p.outsider.do(ctx, "POST", "/api/sas", map[string]any{"kind": "file", "name": "a.bin", "size": 1 << 20}, nil))
	}},
	{"uploads", "a forged Host header in the upload URL", func(ctx context.Context, p *prober) verdict {
		r := p.member.do(ctx, "POST", "/api/sas", map[string]any{"kind": "file", "name": "a.txt", "size": 10}, map[string]string{"Host": "evil.test"})
		if !r.ok() {
			return refusedIf(r)
		}
		var t struct {
			URL string `json:"url"`
		}
		_ = r.decode(&t)
		u, _ := url.Parse(t.URL)
		return verdict{accepted: u == nil || u.Host == "evil.test", got: "URL on " + hostOf(u)}
	}},

	{"uploads", "40 upload tickets of 50 MiB", func(ctx context.Context, p *prober) verdict {
		for i := range 40 {
			r := p.member.do(ctx, "POST", "/api/sas", map[string]any{"kind": "file", "name": fmt.Sprintf("big-%d.bin", i), "size": 50 << 20}, nil)
			if !r.ok() {
				return verdict{accepted: r.status >= 500 || r.status < 400, got: fmt.Sprintf("ticket %d: %s", i+1, r)}
			}
		}
		return verdict{accepted: true, got: "all 40 granted"}
	}},
	{"imports", "a 258 KB workbook of one 200 MiB cell", func(ctx context.Context, p *prober) verdict {
		// Refused with nothing written, or it would add a member.
		return refusedIf(p.admin.upload(ctx, "/api/communities/"+p.community+"/profiles/bulk", "file", "people.xlsx", sheettest.Bomb(200<<20)))
	}},

	header("Content-Security-Policy without inline script", func(h http.Header) bool {
		src := scriptSrc(h.Get("Content-Security-Policy"))
		return src != "" && !strings.Contains(src, "'unsafe-inline'") && !strings.Contains(src, "*")
	}),
	header("frame-ancestors 'none'", func(h http.Header) bool {
		return strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	}),
	header("X-Content-Type-Options: nosniff", func(h http.Header) bool {
		return strings.EqualFold(h.Get("X-Content-Type-Options"), "nosniff")
	}),
	header("Referrer-Policy: strict-origin-when-cross-origin", func(h http.Header) bool {
		return strings.EqualFold(h.Get("Referrer-Policy"), "strict-origin-when-cross-origin")
	}),

	errorBody("an unknown method", "BREW / HTTP/1.1\r\nHost: probe\r\n\r\n"),
	errorBody("a method a route does not take", "DELETE /healthz HTTP/1.1\r\nHost: probe\r\n\r\n"),
	{"errors", "a method an API path does not take", func(ctx context.Context, p *prober) verdict {
		// Not a 404: the path exists, and Allow says with which methods.
		r := p.member.do(ctx, "PUT", "/api/users/me", map[string]any{}, nil)
		return verdict{accepted: r.status != http.StatusMethodNotAllowed || r.code() != "methodNotAllowed" || r.header.Get("Allow") == "",
			got: fmt.Sprintf("%s, Allow %q", r, r.header.Get("Allow"))}
	}},
	errorBody("request headers of 64 KiB", "GET /api/tokens/decode HTTP/1.1\r\nHost: probe\r\nX-Junk: "+strings.Repeat("j", 64<<10)+"\r\n\r\n"),

	{"hub", "a session token in the hub's URL", func(ctx context.Context, p *prober) verdict {
		conn, res, err := websocket.DefaultDialer.DialContext(ctx, p.hubURL()+"?access_token="+url.QueryEscape(p.member.token), nil)
		if err == nil {
			conn.Close()
			return verdict{accepted: true, got: "opened"}
		}
		return verdict{accepted: false, got: statusOf(res)}
	}},
	{"hub", "a handshake from another site's page", func(ctx context.Context, p *prober) verdict {
		h := http.Header{"Origin": {"https://evil.test"}, "Authorization": {"Bearer " + p.member.token}}
		conn, res, err := websocket.DefaultDialer.DialContext(ctx, p.hubURL(), h)
		if err == nil {
			conn.Close()
			return verdict{accepted: true, got: "opened"}
		}
		return verdict{accepted: !catalogued(res), got: statusOf(res)}
	}},
	{"sessions", "a socket of a signed-out session", func(ctx context.Context, p *prober) verdict {
		c, _, err := p.signIn(ctx, memberEmail)
		if err != nil {
			return verdict{accepted: true, got: err.Error()}
		}
		conn, _, err := websocket.DefaultDialer.DialContext(ctx, p.hubURL(), http.Header{"Authorization": {"Bearer " + c.token}})
		if err != nil {
			return verdict{accepted: true, got: "could not open the hub: " + err.Error()}
		}
		defer conn.Close()
		if r := c.do(ctx, "DELETE", "/api/sessions/current", nil, nil); !r.ok() {
			return verdict{accepted: true, got: "sign-out: " + r.String()}
		}
		// The socket must be closed: reading ends with an error, whatever
		// was still in flight before the sign-out.
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				var ce *websocket.CloseError
				if ok := asClose(err, &ce); ok {
					return verdict{accepted: false, got: fmt.Sprintf("closed (%d)", ce.Code)}
				}
				if isTimeout(err) {
					return verdict{accepted: true, got: "still open 5 s after sign-out"}
				}
				return verdict{accepted: false, got: "closed"}
			}
		}
	}},
	{"sessions", "a signed-out session's token", func(ctx context.Context, p *prober) verdict {
		c, _, err := p.signIn(ctx, memberEmail)
		if err != nil {
			return verdict{accepted: true, got: err.Error()}
		}
		if r := c.do(ctx, "DELETE", "/api/sessions/current", nil, nil); !r.ok() {
			return verdict{accepted: true, got: "sign-out: " + r.String()}
		}
		return refusedIf(c.do(ctx, "GET", "/api/tokens/decode", nil, nil))
	}},

	{"access", "an unreadable forum told from a missing one", func(ctx context.Context, p *prober) verdict {
		return sameAnswer(p.member.do(ctx, "GET", "/api/series/"+p.hidden, nil, nil), p.member.do(ctx, "GET", "/api/series/"+uuid.NewString(), nil, nil))
	}},
	{"access", "an unreadable post told from a missing one", func(ctx context.Context, p *prober) verdict {
		return sameAnswer(p.member.do(ctx, "GET", "/api/threads/"+p.hiddenThread, nil, nil), p.member.do(ctx, "GET", "/api/threads/"+uuid.NewString(), nil, nil))
	}},
	{"access", "a comment on an unreadable post told from one on a missing post", func(ctx context.Context, p *prober) verdict {
		b := map[string]any{"raw": "Let me in"}
		return sameAnswer(p.member.do(ctx, "POST", "/api/threads/"+p.hiddenThread+"/replies", b, nil), p.member.do(ctx, "POST", "/api/threads/"+uuid.NewString()+"/replies", b, nil))
	}},

	// Issue 31: what the server fetches for a member, avatars, push.
	{"outbound", "a link preview of the cloud metadata address", func(ctx context.Context, p *prober) verdict {
		return refusedIf(p.member.do(ctx, "GET", "/api/links/preview?url="+url.QueryEscape("http://169.254.169.254/latest/meta-data/"), nil, nil))
	}},
	{"outbound", "a link preview of a name resolving to loopback", func(ctx context.Context, p *prober) verdict {
		// A listener of the probe's own: on the server's machine (make
		// test) it must see no connection.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return verdict{accepted: true, got: err.Error()}
		}
		defer ln.Close()
		var reached atomic.Int64
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				reached.Add(1)
				_ = c.Close()
			}
		}()
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		r := p.member.do(ctx, "GET", "/api/links/preview?url="+url.QueryEscape("http://localhost:"+port+"/admin"), nil, nil)
		v := refusedIf(r)
		if n := reached.Load(); n > 0 {
			v = verdict{accepted: true, got: fmt.Sprintf("%s, %d connections to loopback", r, n)}
		}
		return v
	}},
	{"avatars", "an avatar on another site", func(ctx context.Context, p *prober) verdict {
		return refusedIf(p.member.do(ctx, "PATCH", "/api/users/me", map[string]any{"avatar": "https://tracker.probe.test/pixel.gif?viewer=1"}, nil))
	}},
	{"push", "another account's push endpoint, with keys of one's own", func(ctx context.Context, p *prober) verdict {
		endpoint := "https://push.probe.test/send/" + uuid.NewString()
		first := p.expert.do(ctx, "POST", "/api/push/subscriptions", pushSubscription(endpoint), nil)
		if !first.ok() {
			// Push is off on this server: no subscription to take.
			return verdict{accepted: false, got: "the expert's own: " + first.String()}
		}
		defer p.expert.do(ctx, "DELETE", "/api/push/subscriptions", map[string]any{"endpoint": endpoint}, nil)
		return refusedIf(p.member.do(ctx, "POST", "/api/push/subscriptions", pushSubscription(endpoint), nil))
	}},
	{"access", "an unreadable community's member search told from a missing one", func(ctx context.Context, p *prober) verdict {
		c := p.community
		return sameAnswer(p.outsider.do(ctx, "GET", "/api/communities/"+c+"/member-search?q=a", nil, nil),
			p.outsider.do(ctx, "GET", "/api/communities/"+uuid.NewString()+"/member-search?q=a", nil, nil))
	}},
	{"access", "a forum made in an unreadable community told from a missing one", func(ctx context.Context, p *prober) verdict {
		c := p.community
		b := map[string]any{"name": "Probe", "description": "A probe"}
		return sameAnswer(p.outsider.do(ctx, "POST", "/api/communities/"+c+"/series", b, nil),
			p.outsider.do(ctx, "POST", "/api/communities/"+uuid.NewString()+"/series", b, nil))
	}},
	{"access", "an unreadable profile's edit told from a missing one", func(ctx context.Context, p *prober) verdict {
		id, err := p.memberProfile(ctx)
		if err != nil {
			return verdict{accepted: true, got: err.Error()}
		}
		b := map[string]any{"firstName": "Probe"}
		return sameAnswer(p.outsider.do(ctx, "PATCH", "/api/profiles/"+id, b, nil), p.outsider.do(ctx, "PATCH", "/api/profiles/"+uuid.NewString(), b, nil))
	}},
	{"access", "another member's personalization told from a missing user's", func(ctx context.Context, p *prober) verdict {
		return sameAnswer(p.outsider.do(ctx, "GET", "/api/users/"+p.memberID+"/personalization", nil, nil),
			p.outsider.do(ctx, "GET", "/api/users/"+uuid.NewString()+"/personalization", nil, nil))
	}},

	{"limits", "60 AI searches in a minute", func(ctx context.Context, p *prober) verdict {
		for i := range 60 {
			r := p.member.do(ctx, "GET", "/api/ai/search/"+p.channel+"?q="+url.QueryEscape(fmt.Sprintf("How do I start number %d?", i)), nil, nil)
			if r.status == http.StatusTooManyRequests {
				return verdict{accepted: r.header.Get("Retry-After") == "", got: fmt.Sprintf("search %d: %s, Retry-After %q", i+1, r, r.header.Get("Retry-After"))}
			}
		}
		return verdict{accepted: true, got: "all 60 answered"}
	}},
	{"limits", "sign-ins dodging the address limit with X-Forwarded-For", func(ctx context.Context, p *prober) verdict {
		c := p.newClient()
		for i := range 30 {
			// A new account each time, so only the per-address limit applies.
			r := c.do(ctx, "POST", "/api/sessions", map[string]string{"email": fmt.Sprintf("nobody-%s@probe.test", uuid.NewString()[:8]), "password": "wrong-password"},
				map[string]string{"X-Forwarded-For": fmt.Sprintf("198.51.100.%d", i+1), "X-Real-IP": fmt.Sprintf("198.51.100.%d", i+1)})
			if r.status == http.StatusTooManyRequests {
				return verdict{accepted: false, got: fmt.Sprintf("attempt %d: %s", i+1, r)}
			}
		}
		return verdict{accepted: true, got: "30 attempts, none limited"}
	}},
}

// pushSubscription is a browser's subscription of endpoint with fresh
// keys (a P-256 point and a 16-byte secret).
func pushSubscription(endpoint string) map[string]any {
	key, _ := ecdh.P256().GenerateKey(rand.Reader)
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	return map[string]any{"endpoint": endpoint, "keys": map[string]string{
		"p256dh": base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes()), "auth": base64.RawURLEncoding.EncodeToString(secret)}}
}

func name(what string, body map[string]string) probe {
	return probe{"names", what, func(ctx context.Context, p *prober) verdict {
		return refusedIf(p.member.do(ctx, "PATCH", "/api/users/me", body, nil))
	}}
}

// place sends body as the admin's edit of the probe's community or forum
// (base is "/api/communities/" or "/api/series/").
func place(what, base string, body map[string]string) probe {
	return probe{"names", what, func(ctx context.Context, p *prober) verdict {
		id := p.forum
		if strings.Contains(base, "communities") {
			id = p.community
		}
		return refusedIf(p.admin.do(ctx, "PATCH", base+id, body, nil))
	}}
}

func body(what string, b func(p *prober) any) probe {
	area := "posts"
	switch {
	case strings.Contains(what, "preview"):
		area = "previews"
	case strings.Contains(what, "file"), strings.Contains(what, "image"):
		area = "attachments"
	}
	return probe{area, what, func(ctx context.Context, p *prober) verdict {
		return refusedIf(p.tryPost(ctx, b(p)))
	}}
}

// header checks a header on the app's page and on an API answer.
func header(what string, holds func(http.Header) bool) probe {
	return probe{"headers", what, func(ctx context.Context, p *prober) verdict {
		for _, path := range []string{"/", "/api/tokens/decode"} {
			r := p.member.do(ctx, "GET", path, nil, nil)
			if r.status == 0 || !holds(r.header) {
				return verdict{accepted: true, got: "missing on " + path + " (" + r.String() + ")"}
			}
		}
		return verdict{got: "on the app and the API"}
	}}
}

// errorBody sends a request the router never sees and checks its answer is
// an error of the catalogue (a JSON body with a code).
func errorBody(what, request string) probe {
	return probe{"errors", what, func(ctx context.Context, p *prober) verdict {
		r := raw(ctx, p.base, request)
		return verdict{accepted: r.status < 400 || r.code() == "" || r.code() == "httpError", got: r.String()}
	}}
}

func sameAnswer(hidden, missing response) verdict {
	same := hidden.status == missing.status && string(hidden.body) == string(missing.body)
	return verdict{accepted: !same || hidden.ok(), got: fmt.Sprintf("unreadable %s, missing %s", hidden, missing)}
}

func (p *prober) hubURL() string {
	return "ws" + strings.TrimPrefix(p.base, "http") + "/api/hub"
}

// get fetches an absolute URL without credentials, as any holder of a
// link would.
func (p *prober) get(ctx context.Context, u string) response {
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return response{}
	}
	res, err := p.http.Do(req)
	if err != nil {
		return response{}
	}
	defer res.Body.Close()
	return response{status: res.StatusCode, header: res.Header}
}

// imageURL is the URL of a post's image as its readers are given it.
func (p *prober) imageURL(ctx context.Context, thread string) (string, error) {
	r := p.member.do(ctx, "GET", "/api/threads/"+thread, nil, nil)
	var t struct {
		Image *struct {
			URL string `json:"url"`
		} `json:"image"`
	}
	if !r.ok() {
		return "", fmt.Errorf("GET the post: %s", r)
	}
	if err := r.decode(&t); err != nil {
		return "", err
	}
	if t.Image == nil || t.Image.URL == "" {
		return "", fmt.Errorf("the post shows no image")
	}
	return t.Image.URL, nil
}

// scriptSrc is the script-src directive of a policy (default-src when it
// has none).
func scriptSrc(csp string) string {
	fallback := ""
	for _, d := range strings.Split(csp, ";") {
		d = strings.TrimSpace(d)
		switch {
		case strings.HasPrefix(d, "script-src "):
			return d
		case strings.HasPrefix(d, "default-src "):
			fallback = d
		}
	}
	return fallback
}

// catalogued is a refused handshake whose body is an error of the
// catalogue.
func catalogued(res *http.Response) bool {
	if res == nil || res.StatusCode < 400 {
		return false
	}
	defer res.Body.Close()
	return decodeBody(res, &struct{}{}) == nil && strings.Contains(res.Header.Get("Content-Type"), "json")
}

func statusOf(res *http.Response) string {
	if res == nil {
		return "no answer"
	}
	return fmt.Sprint(res.StatusCode)
}

func hostOf(u *url.URL) string {
	if u == nil {
		return "nothing"
	}
	return u.Host
}

func asClose(err error, ce **websocket.CloseError) bool { return errors.As(err, ce) }

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// memberProfile is the member's profile in their community, which the
// outsider, sharing no community with them, may not read.
func (p *prober) memberProfile(ctx context.Context) (string, error) {
	c := p.community
	r := p.member.do(ctx, "GET", "/api/communities/"+c+"/members?pageSize=9999", nil, nil)
	var page struct {
		Results []struct {
			ID     string `json:"id"`
			UserID string `json:"userId"`
		} `json:"results"`
	}
	if !r.ok() {
		return "", fmt.Errorf("GET the community's members: %s", r)
	}
	if err := r.decode(&page); err != nil {
		return "", err
	}
	for _, m := range page.Results {
		if m.UserID == p.memberID {
			return m.ID, nil
		}
	}
	return "", fmt.Errorf("the member is not among their community's members")
}
