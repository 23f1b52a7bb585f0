package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"agora/app/seed"
)

// memberImportBench measures the member import over loopback HTTP:
//
//	import  POST /api/communities/{id}/profiles/bulk with a CSV file of
//	        importRows new people (an address each, tags in a quoted cell)
//	        into an empty community of the demo organization, as its admin:
//	        from sending the file to the stream's report, so reading,
//	        checking every row and the one transaction (a profile and a
//	        membership per row, in batches) are all in it; then the same
//	        file again (every row already a member: nothing written), and
//	        POST /api/organizations/{id}/profiles/bulk with another such
//	        file (profiles only).
const importRows = 10_000

func memberImportBench(ctx context.Context, selected map[string]bool, c *client, pool *pgxpool.Pool, password string) error {
	if !selected["import"] {
		return nil
	}
	token, err := c.signIn(ctx, seed.AdminEmail, password)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	var community string
	if err := pool.QueryRow(ctx, `INSERT INTO communities (id, organization_id, name, description)
		VALUES (gen_random_uuid(), $1, 'Import bench', 'An empty community for the import benchmark') RETURNING id::text`,
		seed.OrganizationID).Scan(&community); err != nil {
		return fmt.Errorf("import: community: %w", err)
	}
	file := func(prefix string) []byte {
		var b bytes.Buffer
		b.WriteString("firstName,lastName,email,role,tags\r\n")
		for i := range importRows {
			fmt.Fprintf(&b, "First%d,Last%d,%s-%d@bench.example,member,\"analytics, engines\"\r\n", i, i, prefix, i)
		}
		return b.Bytes()
	}
	people := file("community")
	for _, run := range []struct {
		what, path string
		file       []byte
		added      int
	}{
		{"community, new people", "/api/communities/" + community + "/profiles/bulk", people, importRows},
		{"community, the same file again", "/api/communities/" + community + "/profiles/bulk", people, 0},
		{"organization, new profiles", "/api/organizations/" + seed.OrganizationID.String() + "/profiles/bulk", file("organization"), importRows},
	} {
		start := time.Now()
		added, lines, err := postImport(ctx, c, token, run.path, run.file)
		if err != nil {
			return fmt.Errorf("import: %s: %w", run.what, err)
		}
		took := time.Since(start)
		if added != run.added {
			return fmt.Errorf("import: %s: %d added, want %d", run.what, added, run.added)
		}
		fmt.Printf("%-48s %8.0f rows/s  %6.2f s for %s rows (%d KiB CSV, %d stream lines)\n",
			"member import ("+run.what+"):", importRows/took.Seconds(), took.Seconds(), thousands(importRows), len(run.file)>>10, lines)
	}
	return nil
}

// postImport uploads a file and reads the stream to its report.
func postImport(ctx context.Context, c *client, token, path string, file []byte) (added, lines int, err error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreateFormFile("file", "people.csv")
	if err == nil {
		_, err = part.Write(file)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return 0, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, "POST", c.base+path, &body)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := c.http.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var last struct {
		Type  string `json:"type"`
		Added int    `json:"added"`
	}
	var text string
	for sc.Scan() {
		lines++
		text = sc.Text()
	}
	if err := sc.Err(); err != nil {
		return 0, lines, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, lines, fmt.Errorf("status %d: %s", res.StatusCode, strings.TrimSpace(text))
	}
	if err := json.Unmarshal([]byte(text), &last); err != nil || last.Type != "report" {
		return 0, lines, fmt.Errorf("the stream did not end with a report: %s", text)
	}
	return last.Added, lines, nil
}
