// Package memberimport is the write side of importing many people at once
// from a file (spec 000 §2.7 "CSV dialog", §7 POST …/profiles/bulk): into an
// organization as profiles, or into a community as members (their
// organization profiles made when new). A row follows the rules of the one
// by one add (internal/member); the file's good rows are written in one
// transaction, in batches of multi-row statements.
package memberimport

import (
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/db"
)

// Limits of one import. MaxRows is the product's own choice (the spec names
// none): a large organization's people in one file, imported in seconds,
// with room for the blank rows a spreadsheet leaves. MaxBytes lets 10,000
// rows with long tags through.
const (
	// MaxRows is the most rows a file may have, its header apart.
	MaxRows = 10_000
	// MaxBytes is the largest file.
	MaxBytes = 8 << 20
	// batchSize rows are written by one statement: 1,000 rows of 10
	// columns are 10,000 parameters, well under Postgres's 65,535.
	batchSize = 1000
)

// The columns of a file, matched to its header without regard to case.
const (
	ColFirstName = "firstName"
	ColLastName  = "lastName"
	ColEmail     = "email"
	ColRole      = "role"
	ColTags      = "tags"
)

// columns are the file's columns in the template's order; required are the
// ones a file must have (a row without a name or an address is never good).
var (
	columns  = []string{ColFirstName, ColLastName, ColEmail, ColRole, ColTags}
	required = []string{ColFirstName, ColLastName, ColEmail}
)

// Service runs imports.
type Service struct {
	db  *pgxpool.Pool
	now func() time.Time
}

// New builds the service.
func New(d *db.DB) (*Service, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("memberimport.New: nil dependency")
	}
	return &Service{db: d.Pool, now: time.Now}, nil
}

// Template is GET /profiles/bulk/template.csv: the header and one example
// row, as a spreadsheet writes CSV (CRLF line ends).
func Template() []byte {
	return []byte("firstName,lastName,email,role,tags\r\nAda,Lovelace,ada.lovelace@example.com,member,\"analytics,leadership\"\r\n")
}
