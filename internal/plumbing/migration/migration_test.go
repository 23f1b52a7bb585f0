package migration_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"agora/internal/plumbing/migration"
)

func TestReadAndPending(t *testing.T) {
	fsys := fstest.MapFS{
		"0002_more.sql":  {Data: []byte("SELECT 2;")},
		"0001_first.sql": {Data: []byte("SELECT 1;")},
		"README.md":      {Data: []byte("not a migration")},
	}
	all, err := migration.Read(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Version != "0001_first" || all[1].Version != "0002_more" || all[0].SQL != "SELECT 1;" {
		t.Fatalf("read %+v", all)
	}
	pending, err := migration.Pending(all, map[string]string{"0001_first": all[0].Checksum})
	if err != nil || len(pending) != 1 || pending[0].Version != "0002_more" {
		t.Fatalf("pending %+v, %v", pending, err)
	}
	if _, err := migration.Pending(all, map[string]string{"0001_first": "another"}); err == nil || !strings.Contains(err.Error(), "changed after it was applied") {
		t.Errorf("an edited migration: %v", err)
	}
	if _, err := migration.Read(fstest.MapFS{"1_bad.sql": {Data: []byte("SELECT 1")}}); err == nil {
		t.Error("a badly named migration was read")
	}
}
