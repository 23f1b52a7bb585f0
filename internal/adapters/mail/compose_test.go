package mail

import (
	"bytes"
	"io"
	"mime"
	netmail "net/mail"
	"testing"
	"time"
)

// TestComposeKeepsHeadersApart: a subject carrying a CR/LF and a Bcc (a
// name typed into a form, in an invitation's subject) stays one encoded
// subject; names outside ASCII are encoded; a recipient that is not one
// plain address is refused.
func TestComposeKeepsHeadersApart(t *testing.T) {
	when := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	subject := "J\r\nBcc: a@evil.test invited you to Zoë's Org on Agora"
	from, to, msg, err := compose("Agora Zoë <no-reply@agora.test>", Message{To: "grace@example.test", Subject: subject, Body: "Hello\r\n"}, when)
	if err != nil {
		t.Fatal(err)
	}
	if from != "no-reply@agora.test" || to != "grace@example.test" {
		t.Errorf("envelope %q → %q", from, to)
	}
	m, err := netmail.ReadMessage(bytes.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Content-Type", "Date", "From", "Mime-Version", "Subject", "To"}
	if len(m.Header) != len(want) {
		t.Errorf("headers %v, want only %v", m.Header, want)
	}
	for _, h := range want {
		if len(m.Header[h]) != 1 {
			t.Errorf("header %s: %v", h, m.Header[h])
		}
	}
	if got, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject")); err != nil || got != subject {
		t.Errorf("subject decodes to %q (%v), want %q", got, err, subject)
	}
	if a, err := m.Header.AddressList("From"); err != nil || a[0].Name != "Agora Zoë" {
		t.Errorf("from %v %v", a, err)
	}
	if body, _ := io.ReadAll(m.Body); string(body) != "Hello\r\n" {
		t.Errorf("body %q", body)
	}
	for _, bad := range []string{"grace@example.test\r\nBcc: a@evil.test", "Grace <grace@example.test>", "a@x.test, b@x.test", "not an address"} {
		if _, _, _, err := compose("Agora <no-reply@agora.test>", Message{To: bad, Subject: "s"}, when); err == nil {
			t.Errorf("recipient %q accepted", bad)
		}
	}
}

// TestComposeListUnsubscribe: a notification's unsubscribe link is the
// List-Unsubscribe header with RFC 8058's one-click post; a link that could
// end the header is refused.
func TestComposeListUnsubscribe(t *testing.T) {
	when := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	link := "https://agora.test/api/notifications/unsubscribe?token=abc_-1"
	_, _, msg, err := compose("Agora <no-reply@agora.test>", Message{To: "grace@example.test", Subject: "s", Body: "b", ListUnsubscribe: link}, when)
	if err != nil {
		t.Fatal(err)
	}
	m, err := netmail.ReadMessage(bytes.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Header.Get("List-Unsubscribe"); got != "<"+link+">" {
		t.Errorf("List-Unsubscribe %q", got)
	}
	if got := m.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post %q", got)
	}
	if _, _, _, err := compose("Agora <no-reply@agora.test>", Message{To: "grace@example.test", Subject: "s", ListUnsubscribe: link + "\r\nBcc: a@evil.test"}, when); err == nil {
		t.Error("a link with CR LF was written")
	}
}
