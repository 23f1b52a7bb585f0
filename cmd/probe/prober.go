package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"time"
)

// The demo logins the probe plays (app/seed): a member of two forums
// of the first community, an expert of all of them, an account with no
// community at all, and the admin of the communities (who may import
// members into them).
const (
	memberEmail   = "member@demo.agora"
	expertEmail   = "expert@demo.agora"
	outsiderEmail = "outsider@demo.agora"
	// adminEmail administers the demo communities and forums: the names
	// and invitations are probed as them.
	adminEmail = "admin@demo.agora"
)

// prober holds the accounts and places the probes use.
type prober struct {
	base     string
	password string
	http     *http.Client
	member   *client
	expert   *client
	outsider *client
	admin    *client
	// memberID and expertID are the accounts' user ids.
	memberID, expertID string
	// forum is a forum the member reads, channel its feed, community
	// its community.
	forum, channel, community string
	// hidden is a forum the member may not read, hiddenThread a post in it.
	hidden, hiddenThread string
	// created are the posts to delete at the end, by the client that made them.
	created []createdPost
}

type createdPost struct {
	by *client
	id string
}

func newProber(ctx context.Context, base, password string) (*prober, error) {
	p := &prober{base: strings.TrimRight(base, "/"), password: password,
		http: &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
	var err error
	if p.member, p.memberID, err = p.signIn(ctx, memberEmail); err != nil {
		return nil, err
	}
	if p.expert, p.expertID, err = p.signIn(ctx, expertEmail); err != nil {
		return nil, err
	}
	if p.outsider, _, err = p.signIn(ctx, outsiderEmail); err != nil {
		return nil, err
	}
	if p.admin, _, err = p.signIn(ctx, adminEmail); err != nil {
		return nil, err
	}
	mine, communities, err := forums(ctx, p.member)
	if err != nil {
		return nil, err
	}
	all, _, err := forums(ctx, p.expert)
	if err != nil {
		return nil, err
	}
	if len(mine) == 0 {
		return nil, errors.New("the demo member reads no forum: is this a server with the demo data?")
	}
	p.forum, p.community = mine[0], communities[0]
	readable := map[string]bool{}
	for _, f := range mine {
		readable[f] = true
	}
	for _, f := range all {
		if !readable[f] {
			p.hidden = f
			break
		}
	}
	if p.hidden == "" {
		return nil, errors.New("every forum of the demo expert is the demo member's: no unreadable forum to probe")
	}
	if p.channel, err = mainChannel(ctx, p.member, p.forum); err != nil {
		return nil, err
	}
	hiddenChannel, err := mainChannel(ctx, p.expert, p.hidden)
	if err != nil {
		return nil, err
	}
	if p.hiddenThread, err = p.post(ctx, p.expert, p.hidden, map[string]any{"channelId": hiddenChannel, "raw": "A post the member cannot read."}); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *prober) newClient() *client { return &client{base: p.base, http: p.http} }

// signIn starts a session of email and returns its client and user id.
func (p *prober) signIn(ctx context.Context, email string) (*client, string, error) {
	c := p.newClient()
	r := c.do(ctx, "POST", "/api/sessions", map[string]string{"email": email, "password": p.password}, nil)
	if r.status != http.StatusOK {
		return nil, "", fmt.Errorf("sign in as %s: %s %.200s", email, r, r.body)
	}
	var s struct {
		AccessToken string `json:"accessToken"`
		User        struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	if err := r.decode(&s); err != nil {
		return nil, "", err
	}
	c.token = s.AccessToken
	return c, s.User.ID, nil
}

// forums lists the ids of the forums c may open, and of the communities
// that hold them (the first forum's first).
func forums(ctx context.Context, c *client) (ids, communities []string, err error) {
	r := c.do(ctx, "GET", "/api/communities", nil, nil)
	var page struct {
		Results []struct {
			ID     string `json:"id"`
			Series []struct {
				ID string `json:"id"`
			} `json:"series"`
		} `json:"results"`
	}
	if !r.ok() {
		return nil, nil, fmt.Errorf("GET /api/communities: %s", r)
	}
	if err := r.decode(&page); err != nil {
		return nil, nil, err
	}
	for _, cm := range page.Results {
		if len(cm.Series) > 0 {
			communities = append(communities, cm.ID)
		}
		for _, f := range cm.Series {
			ids = append(ids, f.ID)
		}
	}
	return ids, communities, nil
}

func mainChannel(ctx context.Context, c *client, forum string) (string, error) {
	r := c.do(ctx, "GET", "/api/series/"+forum, nil, nil)
	var f struct {
		MainChannelID string `json:"mainChannelId"`
	}
	if !r.ok() {
		return "", fmt.Errorf("GET /api/series/%s: %s", forum, r)
	}
	if err := r.decode(&f); err != nil {
		return "", err
	}
	return f.MainChannelID, nil
}

// post creates a post in forum as c, to be deleted at the end.
func (p *prober) post(ctx context.Context, c *client, forum string, body any) (string, error) {
	r := c.do(ctx, "POST", "/api/series/"+forum+"/threads", body, nil)
	if !r.ok() {
		return "", fmt.Errorf("post in %s: %s %.300s", forum, r, r.body)
	}
	var t struct {
		ID string `json:"id"`
	}
	if err := r.decode(&t); err != nil {
		return "", err
	}
	p.created = append(p.created, createdPost{by: c, id: t.ID})
	return t.ID, nil
}

// tryPost sends a post that should be refused; one that is created anyway
// is deleted at the end.
func (p *prober) tryPost(ctx context.Context, body any) response {
	r := p.member.do(ctx, "POST", "/api/series/"+p.forum+"/threads", body, nil)
	if r.ok() {
		var t struct {
			ID string `json:"id"`
		}
		if r.decode(&t) == nil && t.ID != "" {
			p.created = append(p.created, createdPost{by: p.member, id: t.ID})
		}
	}
	return r
}

// upload uploads a small PNG as c and returns its upload id and the URL
// the ticket's answer gives for it.
func (p *prober) upload(ctx context.Context, c *client) (id, url string, err error) {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return "", "", err
	}
	r := c.do(ctx, "POST", "/api/sas", map[string]any{"kind": "image", "name": "probe.png", "mediaType": "image/png", "size": b.Len()}, nil)
	var t struct {
		ID  string `json:"id"`
		URL string `json:"url"`
	}
	if !r.ok() {
		return "", "", fmt.Errorf("POST /api/sas: %s %.200s", r, r.body)
	}
	if err := r.decode(&t); err != nil {
		return "", "", err
	}
	req, err := http.NewRequestWithContext(ctx, "PUT", t.URL, bytes.NewReader(b.Bytes()))
	if err != nil {
		return "", "", err
	}
	req.Header.Set("Content-Type", "image/png")
	res, err := p.http.Do(req)
	if err != nil {
		return "", "", err
	}
	defer res.Body.Close()
	var u struct {
		URL string `json:"url"`
	}
	if res.StatusCode/100 != 2 {
		return "", "", fmt.Errorf("PUT the upload: %d", res.StatusCode)
	}
	if err := decodeBody(res, &u); err != nil {
		return "", "", err
	}
	return t.ID, u.URL, nil
}

// cleanup deletes what the probe posted.
func (p *prober) cleanup() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range p.created {
		c.by.do(ctx, "DELETE", "/api/threads/"+c.id, nil, nil)
	}
}
