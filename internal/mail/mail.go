// Package mail is the outgoing mail port: SMTP when a server is configured,
// otherwise a dev mailbox kept in Postgres that `agora dev` lists at
// GET /api/dev/mailbox.
package mail

import (
	"context"
	"fmt"
	"net"
	"net/smtp"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/jsontime"
)

// Message is one plain-text e-mail.
type Message struct {
	To      string
	Subject string
	Body    string
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
	addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	var a smtp.Auth
	if s.Username != "" {
		a = smtp.PlainAuth("", s.Username, s.Password, s.Host)
	}
	from := s.From
	if i := strings.LastIndex(from, "<"); i >= 0 {
		from = strings.Trim(from[i:], "<>")
	}
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		s.From, m.To, m.Subject, time.Now().UTC().Format(time.RFC1123Z), m.Body)
	return smtp.SendMail(addr, a, from, []string{m.To}, []byte(msg))
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
	_, err = b.Pool.Exec(ctx, "INSERT INTO dev_mail (id, recipient, subject, body) VALUES ($1, $2, $3, $4)",
		id, m.To, m.Subject, m.Body)
	return err
}

// Stored is a message in the dev mailbox.
type Stored struct {
	ID        string        `json:"id"`
	To        string        `json:"to"`
	Subject   string        `json:"subject"`
	Body      string        `json:"body"`
	CreatedOn jsontime.Time `json:"createdOn"`
}

// List returns the newest messages first, optionally only those to one
// address.
func (b Mailbox) List(ctx context.Context, to string, limit int) ([]Stored, error) {
	rows, err := b.Pool.Query(ctx, `SELECT id::text, recipient, subject, body, created_on FROM dev_mail
		WHERE $1 = '' OR lower(recipient) = lower($1) ORDER BY created_on DESC, id DESC LIMIT $2`, to, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Stored{}
	for rows.Next() {
		var s Stored
		var created time.Time
		if err := rows.Scan(&s.ID, &s.To, &s.Subject, &s.Body, &created); err != nil {
			return nil, err
		}
		s.CreatedOn = jsontime.Of(created)
		out = append(out, s)
	}
	return out, rows.Err()
}
