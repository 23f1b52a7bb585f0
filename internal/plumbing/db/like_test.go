package db_test

import (
	"strings"
	"testing"

	"github.com/go-jet/jet/v2/postgres"

	"agora/internal/plumbing/db"
)

func TestLikeLiteral(t *testing.T) {
	for in, want := range map[string]string{
		"ada":           "ada",
		"50%":           `50\%`,
		"snake_case":    `snake\_case`,
		`C:\dir`:        `C:\\dir`,
		`\%_`:           `\\\%\_`,
		"":              "",
		"ünïcode %_ ok": `ünïcode \%\_ ok`,
	} {
		if got := db.LikeLiteral(in); got != want {
			t.Errorf("LikeLiteral(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestContains: every text is matched, the keyword bound once escaped
// rather than written into the SQL.
func TestContains(t *testing.T) {
	sql, args := postgres.SELECT(db.Contains("50%", "c.name", "c.description")).Sql()
	if !strings.Contains(sql, "c.name ILIKE '%' || $1 || '%'") || !strings.Contains(sql, "OR (c.description ILIKE '%' || $2 || '%')") ||
		strings.Contains(sql, "50") {
		t.Errorf("SQL %s", sql)
	}
	if len(args) != 2 || args[0] != `50\%` || args[1] != `50\%` {
		t.Errorf("arguments %q", args)
	}
}

// TestStrings: each value is one item of an IN list, in order, bound as a
// parameter (a quote in a value cannot end it).
func TestStrings(t *testing.T) {
	sql, args := postgres.SELECT(postgres.String("x").IN(db.Strings([]string{"mention", "it's"})...)).Sql()
	if !strings.Contains(sql, "IN ($2::text, $3::text)") || len(args) != 3 || args[1] != "mention" || args[2] != "it's" {
		t.Errorf("SQL %s, arguments %q", sql, args)
	}
	if len(db.Strings(nil)) != 0 {
		t.Error("no values make a list")
	}
}
