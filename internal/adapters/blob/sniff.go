package blob

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
)

// ImageTypes are the image types an image upload may be (spec 001 §5:
// "pasted images must be of supported image types"): what every browser
// shows in an <img>.
var ImageTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// IsImageType reports whether mediaType is one of ImageTypes.
func IsImageType(mediaType string) bool {
	for _, t := range ImageTypes {
		if t == mediaType {
			return true
		}
	}
	return false
}

// Sniff names the type of a body from its first bytes, never from its name
// or the type the client declared: net/http.DetectContentType (the WHATWG
// sniffing algorithm), then magic numbers that algorithm leaves as
// application/octet-stream. Parameters are dropped ("text/html").
func Sniff(head []byte) string {
	t := http.DetectContentType(head)
	if mt, _, err := mime.ParseMediaType(t); err == nil {
		t = mt
	}
	switch t {
	case "application/octet-stream":
		for _, m := range magic {
			if bytes.HasPrefix(head, m.prefix) {
				return m.mediaType
			}
		}
		// An AAC stream's ADTS header: a frame sync with MPEG's layer
		// bits 00, which no MP3 frame has.
		if len(head) > 1 && head[0] == 0xFF && head[1]&0xF6 == 0xF0 {
			return "audio/aac"
		}
	case "application/ogg":
		// Ogg holds sound (Vorbis, Opus, FLAC) unless its first stream
		// is Theora video; a media element plays it by its type.
		if bytes.Contains(head, []byte("\x80theora")) {
			return "video/ogg"
		}
		return "audio/ogg"
	case "video/mp4":
		// An MPEG-4 file whose major brand is an audio book's or
		// track's is sound (.m4a, .m4b).
		if len(head) >= 12 && (string(head[8:12]) == "M4A " || string(head[8:12]) == "M4B ") {
			return "audio/mp4"
		}
	}
	return t
}

// magic are signatures of common attachments that DetectContentType does
// not know.
var magic = []struct {
	prefix    []byte
	mediaType string
}{
	{[]byte("7z\xBC\xAF\x27\x1C"), "application/x-7z-compressed"},
	{[]byte("\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"), "application/x-ole-storage"}, // legacy Office documents
	{[]byte("BZh"), "application/x-bzip2"},
	{[]byte("\xFD7zXZ\x00"), "application/x-xz"},
	{[]byte("fLaC"), "audio/flac"},
}

// servedAsIs are the sniffed types a blob is served with: none can run
// script in a browser. Everything else, HTML, XML and SVG included, is
// served as application/octet-stream.
var servedAsIs = map[string]bool{
	"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true, "image/bmp": true,
	"application/pdf": true, "application/zip": true, "application/x-gzip": true, "application/x-rar-compressed": true,
	"application/x-7z-compressed": true, "application/x-ole-storage": true, "application/x-bzip2": true, "application/x-xz": true,
	"text/plain": true,
}

// ServedType is the Content-Type a blob of the sniffed type is served with.
func ServedType(sniffed string) string {
	switch {
	case servedAsIs[sniffed]:
		if sniffed == "text/plain" {
			return "text/plain; charset=utf-8"
		}
		return sniffed
	case strings.HasPrefix(sniffed, "audio/"), strings.HasPrefix(sniffed, "video/"):
		return sniffed
	}
	return "application/octet-stream"
}
