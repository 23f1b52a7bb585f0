package analytics

import (
	"reflect"
	"testing"
	"testing/fstest"
)

func TestSplitStatements(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want []string
	}{
		{"one without a semicolon", "SELECT 1", []string{"SELECT 1"}},
		{"two", "SELECT 1;\nSELECT 2;\n", []string{"SELECT 1", "SELECT 2"}},
		{"blank and empty statements dropped", " ;; \n SELECT 1 ;\n\n", []string{"SELECT 1"}},
		{"semicolon in a string", "SELECT 'a;b'; SELECT 2", []string{"SELECT 'a;b'", "SELECT 2"}},
		{"escaped quote", `SELECT 'it\'s;'; SELECT 2`, []string{`SELECT 'it\'s;'`, "SELECT 2"}},
		{"doubled quote", "SELECT 'it''s;'; SELECT 2", []string{"SELECT 'it''s;'", "SELECT 2"}},
		{"empty string", "SELECT ''; SELECT 2", []string{"SELECT ''", "SELECT 2"}},
		{"quoted identifiers", "SELECT 1 AS `a;b`, 2 AS \"c;d\"; SELECT 3", []string{"SELECT 1 AS `a;b`, 2 AS \"c;d\"", "SELECT 3"}},
		{"line comment", "-- first; not a split\nSELECT 1; -- trailing; note\n", []string{"-- first; not a split\nSELECT 1"}},
		{"block comment", "/* a; b */ SELECT /* ; */ 1; /* only a comment; */", []string{"/* a; b */ SELECT /* ; */ 1"}},
		{"comment at the end without a newline", "SELECT 1;\n-- the end", []string{"SELECT 1"}},
		{"dash in an expression", "SELECT 3-1; SELECT 2", []string{"SELECT 3-1", "SELECT 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SplitStatements(tt.sql)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("SplitStatements(%q)\n got %q\nwant %q", tt.sql, got, tt.want)
			}
		})
	}
}

func TestSplitStatementsRefusesUnterminated(t *testing.T) {
	for _, sql := range []string{"SELECT 'open", "SELECT `open", "SELECT 1 /* open"} {
		if got, err := SplitStatements(sql); err == nil {
			t.Errorf("SplitStatements(%q) = %q, want an error", sql, got)
		}
	}
}

func TestReadMigrations(t *testing.T) {
	got, err := ReadMigrations(fstest.MapFS{
		"0002_second.sql": {Data: []byte("SELECT 2")},
		"0001_first.sql":  {Data: []byte("SELECT 1; SELECT 11;")},
		"README.md":       {Data: []byte("not a migration")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Version != "0001_first" || got[1].Version != "0002_second" ||
		len(got[0].Statements) != 2 || got[0].Checksum == got[1].Checksum {
		t.Fatalf("ReadMigrations = %+v", got)
	}
	for name, data := range map[string]string{
		"1_short.sql":       "SELECT 1",
		"0001_Upper.sql":    "SELECT 1",
		"0001_nothing.sql":  "-- only a comment\n",
		"0001_unclosed.sql": "SELECT 'x",
	} {
		if _, err := ReadMigrations(fstest.MapFS{name: {Data: []byte(data)}}); err == nil {
			t.Errorf("ReadMigrations accepted %s", name)
		}
	}
}

// TestEmbeddedMigrationsRead: the files shipped in migrations/ are well
// named and split.
func TestEmbeddedMigrationsRead(t *testing.T) {
	if _, err := Migrations(); err != nil {
		t.Fatal(err)
	}
}
