package linkpreview

import (
	"net/url"
	"regexp"
	"strings"
)

// Video providers whose links play in an embedded viewer (spec 001 §9:
// the recognised link types youtube, youtu, vimeo and kaltura).
const (
	ProviderYouTube = "youtube"
	ProviderVimeo   = "vimeo"
	ProviderKaltura = "kaltura"
)

var youtubeHosts = map[string]bool{
	"youtube.com": true, "www.youtube.com": true, "m.youtube.com": true, "music.youtube.com": true,
	"youtu.be": true, "youtube-nocookie.com": true, "www.youtube-nocookie.com": true,
}

var vimeoHosts = map[string]bool{"vimeo.com": true, "www.vimeo.com": true, "player.vimeo.com": true}

// Provider names the video provider of u's host, or "" for any other host.
// Hosts are matched exactly (Kaltura: kaltura.com and its subdomains, where
// its customers' MediaSpace sites and players live), never by substring,
// so youtube.com.evil.example is just a web page.
func Provider(u *url.URL) string {
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	switch {
	case youtubeHosts[h]:
		return ProviderYouTube
	case vimeoHosts[h]:
		return ProviderVimeo
	case h == "kaltura.com" || strings.HasSuffix(h, ".kaltura.com"):
		return ProviderKaltura
	}
	return ""
}

var (
	youtubeID = regexp.MustCompile(`^[A-Za-z0-9_-]{11}$`)
	vimeoID   = regexp.MustCompile(`^[0-9]{1,12}$`)
	// kalturaEntry matches Kaltura entry ids such as 1_a2b3c4d5.
	kalturaEntry = regexp.MustCompile(`^[0-9]_[A-Za-z0-9]{8}$`)
)

// VideoID reads the video id from a link of provider, or "" when the link
// names none (a channel page, a MediaSpace home page). Ids are checked
// against each provider's id syntax, so a client may put one in a player
// URL as it is.
func VideoID(provider string, u *url.URL) string {
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	switch provider {
	case ProviderYouTube:
		if strings.EqualFold(u.Hostname(), "youtu.be") {
			return match(youtubeID, segs[0])
		}
		if v := u.Query().Get("v"); v != "" {
			return match(youtubeID, v)
		}
		if len(segs) >= 2 {
			switch segs[0] {
			case "embed", "shorts", "live", "v":
				return match(youtubeID, segs[1])
			}
		}
	case ProviderVimeo:
		// vimeo.com/123, vimeo.com/channels/staffpicks/123,
		// player.vimeo.com/video/123: the last numeric segment.
		for i := len(segs) - 1; i >= 0; i-- {
			if id := match(vimeoID, segs[i]); id != "" {
				return id
			}
		}
	case ProviderKaltura:
		// Players carry entry_id in the query or as a path pair
		// (/entry_id/1_abc/); MediaSpace as /media/<title>/1_abc.
		if v := u.Query().Get("entry_id"); v != "" {
			return match(kalturaEntry, v)
		}
		for i := len(segs) - 1; i >= 0; i-- {
			if id := match(kalturaEntry, segs[i]); id != "" {
				return id
			}
		}
	}
	return ""
}

func match(re *regexp.Regexp, s string) string {
	if re.MatchString(s) {
		return s
	}
	return ""
}
