package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/go-jet/jet/v2/generator/metadata"
	jetpg "github.com/go-jet/jet/v2/generator/postgres"
	"github.com/go-jet/jet/v2/generator/template"
	"github.com/go-jet/jet/v2/postgres"
	"github.com/jackc/pgx/v5/stdlib"

	"agora/internal/plumbing/db"
	"agora/internal/standins/pgserver"
)

// Generate writes the models of the migrated schema into dest (dest/model,
// dest/table), replacing what is there.
func Generate(ctx context.Context, dest string) error {
	scratch, err := os.MkdirTemp("", "agora-jetgen-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	if err := os.Chmod(scratch, 0o755); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := pgserver.Start(ctx, filepath.Join(scratch, "pg"), log)
	if err != nil {
		return err
	}
	defer srv.Stop() //nolint:errcheck
	if err := srv.CreateDatabase(ctx, "agora"); err != nil {
		return err
	}
	d, err := db.Open(ctx, srv.URL("agora"), 4)
	if err != nil {
		return err
	}
	defer d.Close()
	if _, err := db.Migrate(ctx, d.Pool); err != nil {
		return err
	}
	out := filepath.Join(scratch, "gen")
	tmpl := template.Default(postgres.Dialect).UseSchema(func(s metadata.Schema) template.Schema {
		return template.DefaultSchema(s).UsePath("").UseModel(template.DefaultModel().UseTable(
			func(t metadata.Table) template.TableModel {
				return template.DefaultTableModel(t).UseField(func(c metadata.Column) template.TableModelField {
					// The db tag is jet's default alias of the column, so
					// db.All and db.One (pgx's RowToStructByName) fill a
					// model from a statement that selects its columns.
					f := template.DefaultTableModelField(c).UseTags(fmt.Sprintf("db:%q", t.Name+"."+c.Name))
					// pgx reads and writes Postgres arrays (text[], uuid[])
					// as string slices natively.
					if c.DataType.Kind == metadata.ArrayType {
						f = f.UseType(template.NewType([]string{}))
					}
					return f
				})
			}))
	})
	// The generator prints progress to stdout; keep `make gen` quiet.
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	// jet's generator reads the schema through database/sql (GenerateDB
	// takes a *sql.DB). This is a build tool, not product code: the one
	// database/sql handle lives here, for as long as the generator runs.
	sqlDB := stdlib.OpenDBFromPool(d.Pool)
	defer sqlDB.Close()
	err = jetpg.GenerateDB(sqlDB, "public", out, tmpl)
	os.Stdout = stdout
	if err != nil {
		return fmt.Errorf("jetgen: %w", err)
	}
	if err := os.RemoveAll(dest); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	return os.CopyFS(dest, os.DirFS(out))
}
