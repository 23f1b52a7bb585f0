// Package mail is the outgoing mail port: SMTP when a server is configured,
// otherwise a dev mailbox kept in Postgres that `agora dev` lists at
// GET /api/dev/mailbox.
package mail

import (
	"context"
	"fmt"
	"mime"
	"net"
	netmail "net/mail"
	"net/smtp"
	"strconv"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
)

// Message is one plain-text e-mail.
type Message struct {
	To      string
	Subject string
	Body    string
	// ListUnsubscribe, when set, is the https URL of the message's
	// unsubscribe link, written as List-Unsubscribe with one-click
	// List-Unsubscribe-Post (RFC 8058) so mail clients offer it.
	ListUnsubscribe string
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// SMTP sends through an SMTP server with STARTTLS when offered.
type SMTP struct {
	Host, Username, Password, From string
	Port                           int
}

// Send delivers m.
func (s SMTP) Send(_ context.Context, m Message) error {
	from, to, msg, err := compose(s.From, m, time.Now())
	if err != nil {
		return err
	}
	addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	var a smtp.Auth
	if s.Username != "" {
		a = smtp.PlainAuth("", s.Username, s.Password, s.Host)
	}
	return smtp.SendMail(addr, a, from, []string{to}, msg)
}

// compose writes m as an RFC 5322 message from the sender from ("Agora
// <no-reply@…>"), and returns the envelope's addresses. Nothing a member
// typed goes into a header as it is: the addresses are parsed and written
// back, and the subject, which carries names, is an RFC 2047 encoded-word
// whenever it holds anything but printable ASCII, so a CR or LF in it can
// never start a header of its own.
func compose(from string, m Message, date time.Time) (fromAddr, toAddr string, msg []byte, err error) {
	f, err := netmail.ParseAddress(from)
	if err != nil {
		return "", "", nil, fmt.Errorf("mail: sender %q: %w", from, err)
	}
	t, err := netmail.ParseAddress(m.To)
	if err != nil || t.Name != "" {
		return "", "", nil, fmt.Errorf("mail: recipient %q is not one address", m.To)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\n",
		f.String(), t.String(), mime.QEncoding.Encode("utf-8", m.Subject), date.UTC().Format(time.RFC1123Z))
	if m.ListUnsubscribe != "" {
		// The link is the server's own URL with a base64url token: a CR or
		// LF in it is no link, and must not start a header.
		if strings.ContainsAny(m.ListUnsubscribe, "\r\n<>") {
			return "", "", nil, fmt.Errorf("mail: unsubscribe link %q", m.ListUnsubscribe)
		}
		fmt.Fprintf(&b, "List-Unsubscribe: <%s>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n", m.ListUnsubscribe)
	}
	fmt.Fprintf(&b, "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s", m.Body)
	return f.Address, t.Address, []byte(b.String()), nil
}

// Mailbox stores messages in the dev_mail table instead of sending them.
type Mailbox struct {
	Pool *pgxpool.Pool
}

// Send stores m.
func (b Mailbox) Send(ctx context.Context, m Message) error {
	id, err := uuid.NewV7()
	if err != nil {
		return err
	}
	dm := table.DevMail
	_, err = db.Exec(ctx, b.Pool, dm.INSERT(dm.ID, dm.Recipient, dm.Subject, dm.Body, dm.ListUnsubscribe).
		VALUES(UUID(id), String(m.To), String(m.Subject), String(m.Body), String(m.ListUnsubscribe)))
	return err
}

// Stored is a message in the dev mailbox.
type Stored struct {
	ID      string `json:"id"`
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
	// ListUnsubscribe is the message's List-Unsubscribe link, if any.
	ListUnsubscribe string        `json:"listUnsubscribe,omitempty"`
	CreatedOn       jsontime.Time `json:"createdOn"`
}

// List returns the newest messages first, optionally only those to one
// address.
func (b Mailbox) List(ctx context.Context, to string, limit int) ([]Stored, error) {
	dm := table.DevMail
	rows, err := db.Query(ctx, b.Pool, SELECT(CAST(dm.ID).AS_TEXT(), dm.Recipient, dm.Subject, dm.Body, dm.ListUnsubscribe, dm.CreatedOn).
		FROM(dm).
		WHERE(String(to).EQ(String("")).OR(LOWER(dm.Recipient).EQ(LOWER(String(to))))).
		ORDER_BY(dm.CreatedOn.DESC(), dm.ID.DESC()).
		LIMIT(int64(limit)))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Stored{}
	for rows.Next() {
		var s Stored
		var created time.Time
		if err := rows.Scan(&s.ID, &s.To, &s.Subject, &s.Body, &s.ListUnsubscribe, &created); err != nil {
			return nil, err
		}
		s.CreatedOn = jsontime.Of(created)
		out = append(out, s)
	}
	return out, rows.Err()
}
