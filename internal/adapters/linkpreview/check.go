package linkpreview

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"agora/internal/plumbing/apperr"
)

// MaxMediaType bounds a link's media type.
const MaxMediaType = 255

// Problem says what keeps l from being stored with a post, "" when
// nothing: a link is what Preview answered, so a client may send its own
// only within the same bounds (the fields of Preview, plain text and
// http(s) URLs of their documented lengths, a known viewer type, a video
// id of its provider's syntax). Every reader of the feed receives it.
func (l Link) Problem() string {
	switch {
	case !WebURL(l.URL):
		return "url must be an http(s) URL"
	case utf8.RuneCountInString(l.MediaType) > MaxMediaType:
		return "mediaType is too long"
	case l.ViewerType != "" && l.ViewerType != ViewerEmbedded && l.ViewerType != ViewerExternal && l.ViewerType != ViewerOther:
		return "viewerType must be embedded, external or other"
	}
	return l.Preview.problem()
}

func (p Preview) problem() string {
	switch {
	case utf8.RuneCountInString(p.Title) > MaxTitle:
		return "preview.title is too long"
	case utf8.RuneCountInString(p.Description) > MaxDescription:
		return "preview.description is too long"
	case utf8.RuneCountInString(p.SiteName) > MaxSiteName:
		return "preview.siteName is too long"
	case p.Image != "" && !WebURL(p.Image):
		return "preview.image must be an http(s) URL"
	case p.Video != "" && !WebURL(p.Video):
		return "preview.video must be an http(s) URL"
	}
	if p.Provider == "" && p.VideoID == "" {
		return ""
	}
	ids := map[string]interface{ MatchString(string) bool }{"youtube": youtubeID, "vimeo": vimeoID, "kaltura": kalturaEntry}
	id, known := ids[p.Provider]
	switch {
	case !known:
		return "preview.provider must be youtube, vimeo or kaltura"
	case p.VideoID != "" && !id.MatchString(p.VideoID):
		return "preview.videoId is not a " + p.Provider + " video id"
	}
	return ""
}

// WebURL reports an absolute http(s) URL of at most MaxURL bytes: what a
// post may link, show or attach.
func WebURL(s string) bool {
	if len(s) > MaxURL {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && webURL(u)
}

// FormLink trims the link a form may give (an image's URL, a video's) and
// adds to bad, under field, what is not a WebURL; nil or blank is none.
func FormLink(bad apperr.Fields, field string, s *string) *string {
	if s == nil {
		return nil
	}
	v := strings.TrimSpace(*s)
	if v == "" {
		return nil
	}
	if !WebURL(v) {
		bad.Add(field, "must be an http(s) URL of at most "+strconv.Itoa(MaxURL)+" characters")
	}
	return &v
}
