package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"agora/app/testenv"
	"agora/httpapi/openapi"
	"agora/internal/adapters/sheet/sheettest"
)

// POST /api/communities/{id}/profiles/bulk, POST
// /api/organizations/{id}/profiles/bulk, GET /api/profiles/bulk/template.csv

type importSkipped struct {
	Row     int    `json:"row"`
	Email   string `json:"email"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type importEvent struct {
	Type      string          `json:"type"`
	Processed int             `json:"processed"`
	Total     int             `json:"total"`
	Added     int             `json:"added"`
	Existing  int             `json:"existing"`
	Skipped   []importSkipped `json:"skipped"`
	ToInvite  []string        `json:"toInvite"`
	Code      string          `json:"code"`
}

// importStream reads an import's answer: every line is a MemberImportEvent;
// progress lines come first and count up to the total; the report (or the
// error) is the last line, and returned.
func importStream(t *testing.T, r *testenv.Response) (progress []importEvent, last importEvent) {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-ndjson" {
		t.Errorf("Content-Type %q", ct)
	}
	lines := bytes.Split(bytes.TrimSuffix(r.Body, []byte("\n")), []byte("\n"))
	for i, line := range lines {
		if err := openapi.ValidateSchema("MemberImportEvent", line); err != nil {
			t.Errorf("line %d %s: %v", i+1, line, err)
		}
		var e importEvent
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("line %d %s: %v", i+1, line, err)
		}
		if i < len(lines)-1 {
			if e.Type != "progress" || (len(progress) > 0 && e.Processed <= progress[len(progress)-1].Processed) {
				t.Errorf("line %d is not progress going forward: %s", i+1, line)
			}
			progress = append(progress, e)
		} else {
			last = e
		}
	}
	if len(progress) == 0 {
		t.Errorf("no progress line: %s", r.Body)
	} else if p := progress[len(progress)-1]; last.Type == "report" && p.Processed != p.Total {
		t.Errorf("last progress %d of %d before the report", p.Processed, p.Total)
	}
	return progress, last
}

// importReport is importStream's report, failing on an error line.
func importReport(t *testing.T, r *testenv.Response) importEvent {
	t.Helper()
	_, last := importStream(t, r)
	if last.Type != "report" {
		t.Fatalf("last line %+v, want the report", last)
	}
	return last
}

func organizationID(t *testing.T, env *testenv.Env) string {
	t.Helper()
	return queryString(t, env, "SELECT organization_id::text FROM communities WHERE name = $1", leadershipCircle)
}

func communityImport(community string) string {
	return "/api/communities/" + community + "/profiles/bulk"
}
func orgImport(org string) string { return "/api/organizations/" + org + "/profiles/bulk" }

// TestMemberImportCommunity: a 10,000-row CSV file (a byte order mark, CRLF
// line ends, quoted commas, columns in another order and case) with bad
// rows: each bad row is reported by its line, the good ones are added once,
// and importing it again adds nothing.
func TestMemberImportCommunity(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	prefix := strings.ToLower(testenv.Unique("imp"))
	// The people go with the test: every later search server of this
	// binary fills its index from a snapshot of the whole shared
	// database, and ten thousand people more would be in each.
	t.Cleanup(func() {
		exec(t, env, `DELETE FROM profiles WHERE email_key LIKE $1`, prefix+"-%")
		exec(t, env, `DELETE FROM communities WHERE id = $1`, community)
	})
	const rows = 10_000
	var b strings.Builder
	b.WriteString("\uFEFFEMAIL,Tags,FirstName,lastname,Role\r\n")
	var wantSkipped []importSkipped
	email := func(i int) string { return fmt.Sprintf("%s-%d@example.test", prefix, i) }
	for i := range rows {
		line := i + 2
		e, tags, first, last, role := email(i), `"analytics, engines"`, fmt.Sprintf("First%d", i), "Last", "member"
		switch i {
		case 5:
			e = memberEmail // has a profile and an account: joins active
		case 7:
			last, role = `"Smith, Jr."`, "admin"
		case 10:
			e = "not-an-email"
			wantSkipped = append(wantSkipped, importSkipped{line, e, "invalidEmail", ""})
		case 20:
			e = strings.ToUpper(email(0)) // the same as row 2's
			wantSkipped = append(wantSkipped, importSkipped{line, e, "duplicateInFile", ""})
		case 30:
			first = strings.Repeat("x", 51)
			wantSkipped = append(wantSkipped, importSkipped{line, e, "invalidFirstName", ""})
		case 40:
			role = "owner"
			wantSkipped = append(wantSkipped, importSkipped{line, e, "invalidRole", ""})
		case 50:
			tags = `"` + distinctTags(31) + `"`
			wantSkipped = append(wantSkipped, importSkipped{line, e, "invalidTags", ""})
		case 60:
			last = "  "
			wantSkipped = append(wantSkipped, importSkipped{line, e, "invalidLastName", ""})
		case 70:
			first, e = "", "bad@"
			wantSkipped = append(wantSkipped, importSkipped{line, e, "invalidFirstName", ""})
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s\r\n", e, tags, first, last, role)
	}
	file := []byte(b.String())
	good := rows - len(wantSkipped)
	profilesBefore := env.Count(t, "profiles", "")

	check := func(t *testing.T, rep importEvent) {
		t.Helper()
		if len(rep.Skipped) != len(wantSkipped) {
			t.Fatalf("skipped %+v, want %+v", rep.Skipped, wantSkipped)
		}
		for i, s := range rep.Skipped {
			w := wantSkipped[i]
			if s.Row != w.Row || s.Email != w.Email || s.Reason != w.Reason || s.Message == "" {
				t.Errorf("skipped %+v, want %+v", s, w)
			}
		}
		if m := rep.Skipped[len(rep.Skipped)-1].Message; !strings.Contains(m, "firstName") || !strings.Contains(m, "email") {
			t.Errorf("row 72's message %q does not name both columns", m)
		}
		if n := env.Count(t, "community_memberships", "community_id = $1", community); n != good {
			t.Errorf("%d members, want %d", n, good)
		}
		if n := env.Count(t, "profiles", ""); n != profilesBefore+good-1 {
			t.Errorf("%d profiles made, want %d", n-profilesBefore, good-1)
		}
	}

	progress, rep := importStream(t, admin.Upload(communityImport(community), "file", "people.csv", file))
	if rep.Type != "report" || rep.Added != good || rep.Existing != 0 {
		t.Fatalf("report %+v, want %d added", rep, good)
	}
	// Everyone added but the member with an account is to be invited.
	if len(rep.ToInvite) != good-1 {
		t.Errorf("%d to invite, want %d", len(rep.ToInvite), good-1)
	}
	if len(progress) < 2 || progress[0].Total != rows {
		t.Errorf("progress %+v, want batches of the %d rows", progress, rows)
	}
	check(t, rep)
	got := queryString(t, env, `SELECT p.first_name || '|' || p.last_name || '|' || p.email || '|' || p.role || '|' ||
		array_to_string(p.interest_tags, ';') || '|' || m.role || '|' || m.status
		FROM profiles p JOIN community_memberships m ON m.profile_id = p.id AND m.community_id = $2 WHERE p.email_key = $1`, email(7), community)
	if want := "First7|Smith, Jr.|" + email(7) + "|member|analytics;engines|admin|pending"; got != want {
		t.Errorf("row 9 stored %q, want %q", got, want)
	}
	if n := env.Count(t, "community_memberships m JOIN profiles p ON p.id = m.profile_id",
		"m.community_id = $1 AND p.email_key = $2 AND m.status = 'active' AND m.role = 'member'", community, memberEmail); n != 1 {
		t.Error("the member with an account did not join active")
	}

	t.Run("again adds nothing", func(t *testing.T) {
		rep := importReport(t, admin.Upload(communityImport(community), "file", "people.csv", file))
		if rep.Added != 0 || rep.Existing != good || len(rep.ToInvite) != 0 {
			t.Errorf("report added %d existing %d to invite %d, want 0, %d and 0", rep.Added, rep.Existing, len(rep.ToInvite), good)
		}
		check(t, rep)
	})
}

// TestMemberImportOrganizationXLSX: an Excel workbook into an organization
// makes profiles with the rows' roles; again, nothing.
func TestMemberImportOrganizationXLSX(t *testing.T) {
	env := testenv.New(t)
	super := env.As(t, superEmail)
	org := organizationID(t, env)
	prefix := strings.ToLower(testenv.Unique("xlsx"))
	f := excelize.NewFile()
	for i, row := range [][]any{
		{"firstName", "lastName", "email", "role", "tags"},
		{" Grace ", "Hopper", prefix + "-grace@example.test", "admin", "compilers, navy"},
		{"Alan", "Turing", prefix + "-alan@example.test", "", ""},
		nil, // a blank row: not counted, but the next keeps its number
		{"Bad", "Address", "nobody", "member", ""},
		{"Ada", "Again", strings.ToUpper(adminEmail), "member", ""}, // already in the organization
	} {
		if row != nil {
			if err := f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+1), &row); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	rep := importReport(t, super.Upload(orgImport(org), "file", "People.XLSX", b.Bytes()))
	want := []importSkipped{{5, "nobody", "invalidEmail", rep.Skipped[0].Message}}
	if rep.Added != 2 || rep.Existing != 1 || !reflect.DeepEqual(rep.Skipped, want) {
		t.Errorf("report %+v", rep)
	}
	got := queryString(t, env, `SELECT string_agg(first_name || '|' || role || '|' || array_to_string(interest_tags, ';') || '|' || (user_id IS NULL), ',' ORDER BY first_name)
		FROM profiles WHERE organization_id = $1 AND email_key LIKE $2`, org, prefix+"%")
	if want := "Alan|member||true,Grace|admin|compilers;navy|true"; got != want {
		t.Errorf("stored %q, want %q", got, want)
	}
	rep = importReport(t, super.Upload(orgImport(org), "file", "People.XLSX", b.Bytes()))
	if rep.Added != 0 || rep.Existing != 3 || len(rep.Skipped) != 1 {
		t.Errorf("again: %+v", rep)
	}
}

// TestMemberImportInvite: an import mails nobody; its report names the
// people it added who have no account, whom every list of people calls not
// invited (the organization's, the community's members and share dialog,
// the forum's members and Manage Access) until the one invitations call
// the finished import offers mails each of them once; then every list
// calls them invited (a community's lists by spec 000's pending).
func TestMemberImportInvite(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	org := organizationID(t, env)
	prefix := strings.ToLower(testenv.Unique("inv"))
	var b strings.Builder
	b.WriteString("firstName,lastName,email\n")
	emails := []string{}
	for i := range 18 {
		emails = append(emails, fmt.Sprintf("%s-%d@example.test", prefix, i))
		fmt.Fprintf(&b, "Person%d,Imported,%s\n", i, emails[i])
	}
	fmt.Fprintf(&b, "Mem,Ber,%s\n", memberEmail) // has an account: joins active, no invitation
	rep := importReport(t, admin.Upload(communityImport(community), "file", "people.csv", []byte(b.String())))
	if rep.Added != 19 || len(rep.ToInvite) != 18 {
		t.Fatalf("report %+v, want 19 added and 18 to invite", rep)
	}
	forum := createForum(t, admin, community).ID
	exec(t, env, `INSERT INTO series_memberships (series_id, profile_id, status) SELECT $1, id, 'pending' FROM unnest($2::uuid[]) id`, forum, rep.ToInvite)
	imported := map[string]bool{}
	for _, id := range rep.ToInvite {
		imported[id] = true
	}
	// statuses counts the imported people's status in each list.
	statuses := func() map[string]map[string]int {
		lists := map[string]struct{ path, field string }{
			"organization":  {"/api/organizations/" + org + "/profiles?pageSize=100&keyword=" + prefix, "status"},
			"members":       {"/api/communities/" + community + "/members?pageSize=100", "assignmentStatus"},
			"share dialog":  {"/api/communities/" + community + "/assignables?pageSize=100&presetFilter=assigned", "assignmentStatus"},
			"forum members": {"/api/series/" + forum + "/members?pageSize=100", "status"},
			"manage access": {"/api/series/" + forum + "/assignables?pageSize=100&isAssigned=true", "status"},
		}
		out := map[string]map[string]int{}
		for name, l := range lists {
			r := admin.Do("GET", l.path, nil)
			wantStatus(t, r, 200)
			var page struct{ Results []map[string]any }
			r.JSON(t, &page)
			out[name] = map[string]int{}
			for _, p := range page.Results {
				if imported[p["id"].(string)] {
					out[name][fmt.Sprint(p[l.field])]++
				}
			}
		}
		return out
	}
	want := func(invited string) map[string]map[string]int {
		return map[string]map[string]int{
			"organization": {invited: 18}, "members": {communityStatus(invited): 18}, "share dialog": {communityStatus(invited): 18},
			"forum members": {invited: 18}, "manage access": {invited: 18},
		}
	}
	mails := func() int {
		return env.Count(t, "dev_mail", "recipient LIKE $1", prefix+"-%")
	}
	if got := statuses(); !reflect.DeepEqual(got, want("notInvited")) || mails() != 0 {
		t.Fatalf("after the import: %v and %d mails, want 18 notInvited in each list and none", got, mails())
	}
	r := admin.Do("POST", "/api/communities/"+community+"/invitations", map[string]any{"profileIds": rep.ToInvite})
	wantStatus(t, r, 200)
	var out struct{ Invited, Skipped int }
	r.JSON(t, &out)
	if out.Invited != 18 || out.Skipped != 0 || mails() != 18 {
		t.Errorf("invitations %+v and %d mails, want 18 each", out, mails())
	}
	if got := statuses(); !reflect.DeepEqual(got, want("invited")) {
		t.Errorf("after the invitations: %v, want 18 invited in each list", got)
	}
}

// communityStatus is a status as a community's lists name it: spec 000 calls an
// invited person pending.
func communityStatus(status string) string {
	if status == "invited" {
		return "pending"
	}
	return status
}

// TestMemberImportUnreadable: a file that cannot be imported at all is a 400
// with its code, before anything is written.
func TestMemberImportUnreadable(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	org := organizationID(t, env)
	ok := func(n int) string {
		var b strings.Builder
		b.WriteString("firstName,lastName,email\n")
		for i := range n {
			fmt.Fprintf(&b, "A,B,%s\n", freshAddress(fmt.Sprint("many", i)))
		}
		return b.String()
	}
	big := ok(1) + strings.Repeat(" ", 8<<20)
	// The probe's finding: a 205 KB workbook of one 200 MiB cell was
	// accepted after 15 s, the server 0.9 GB larger.
	bomb := string(sheettest.Bomb(200 << 20))
	for _, c := range []struct {
		name, file, data, code string
	}{
		{"a pdf", "people.pdf", "%PDF-1.4 " + ok(1), "importFileType"},
		{"no extension", "people", ok(1), "importFileType"},
		{"not text", "people.csv", "firstName,lastName,email\n\xff\xfe\x00", "importFileUnreadable"},
		{"a broken quote", "people.csv", "firstName,lastName,email\n\"A,B,a@example.test\n", "importFileUnreadable"},
		{"not a workbook", "people.xlsx", ok(1), "importFileUnreadable"},
		{"empty", "people.csv", "", "importHeaderMissing"},
		{"blank lines only", "people.csv", "\uFEFF\r\n , \r\n", "importHeaderMissing"},
		{"no email column", "people.csv", "firstName,lastName,mail\nA,B," + freshAddress("nomail") + "\n", "importColumnsMissing"},
		{"10,001 rows", "people.csv", ok(10_001), "importTooManyRows"},
		{"over 8 MiB", "people.csv", big, "importFileTooLarge"},
		{"a zip bomb", "people.xlsx", bomb, "importFileTooLarge"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, path := range []string{communityImport(community), orgImport(org)} {
				before := countWrites(t, env)
				start := time.Now()
				wantError(t, admin.Upload(path, "file", c.file, []byte(c.data)), 400, c.code)
				if took := time.Since(start); took > 5*time.Second {
					t.Errorf("refused after %v", took)
				}
				wantNoWrites(t, env, before)
			}
		})
	}
	t.Run("missing columns are named", func(t *testing.T) {
		e := wantError(t, admin.Upload(orgImport(org), "file", "p.csv", []byte("Email,Role\nx@example.test,member\n")), 400, "importColumnsMissing")
		if !reflect.DeepEqual(e.Details["missing"], []any{"firstName", "lastName"}) {
			t.Errorf("details %v", e.Details)
		}
	})
	t.Run("no file", func(t *testing.T) {
		before := countWrites(t, env)
		wantMissing(t, admin.Upload(communityImport(community), "other", "people.csv", []byte(ok(1))), "file")
		wantMissing(t, admin.Do("POST", orgImport(org), map[string]any{"file": ok(1)}), "file")
		wantNoWrites(t, env, before)
	})
	t.Run("a body over the limit", func(t *testing.T) {
		before := countWrites(t, env)
		// Sent without its body, as in TestFlows: a client still sending
		// after the answer gets its connection reset.
		status, code := sendOversized(t, env, communityImport(community), admin.Token, "multipart/form-data; boundary=x", 8<<20+64<<10+1)
		if status != 413 || code != "requestTooLarge" {
			t.Errorf("got %d %s, want 413 requestTooLarge", status, code)
		}
		wantNoWrites(t, env, before)
	})
	t.Run("bad ids", func(t *testing.T) {
		wantInvalid(t, admin.Upload("/api/communities/x/profiles/bulk", "file", "p.csv", []byte(ok(1))), "communityId")
		wantError(t, admin.Upload(communityImport(unknownID), "file", "p.csv", []byte(ok(1))), 404, "notFound")
		wantError(t, admin.Upload(orgImport(unknownID), "file", "p.csv", []byte(ok(1))), 404, "notFound")
	})
}

// TestMemberImportAllOrNothing: when the database refuses a row in the
// middle of the file, the stream ends with an error line and none of the
// file's rows are kept.
func TestMemberImportAllOrNothing(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	community := newCommunity(t, env)
	prefix := strings.ToLower(testenv.Unique("atomic"))
	exec(t, env, fmt.Sprintf(`CREATE FUNCTION refuse_%[1]s() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'refused'; END $$;
		CREATE TRIGGER refuse_%[1]s BEFORE INSERT ON profiles FOR EACH ROW
		WHEN (NEW.email_key = '%[2]s-2500@example.test') EXECUTE FUNCTION refuse_%[1]s()`, strings.ReplaceAll(prefix, "-", "_"), prefix))
	t.Cleanup(func() {
		exec(t, env, fmt.Sprintf(`DROP TRIGGER refuse_%[1]s ON profiles; DROP FUNCTION refuse_%[1]s()`, strings.ReplaceAll(prefix, "-", "_")))
	})
	var b strings.Builder
	b.WriteString("firstName,lastName,email\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "A,B,%s-%d@example.test\n", prefix, i)
	}
	before := countWrites(t, env)
	progress, last := importStream(t, admin.Upload(communityImport(community), "file", "people.csv", []byte(b.String())))
	if last.Type != "error" || last.Code != "membersImporting" {
		t.Errorf("last line %+v, want the error", last)
	}
	if len(progress) != 2 {
		t.Errorf("progress %+v, want the two batches before the refused one", progress)
	}
	wantNoWrites(t, env, before)
}

// TestMemberImportTemplate: the template downloads as CSV, and importing it
// adds its example row.
func TestMemberImportTemplate(t *testing.T) {
	env := testenv.New(t)
	admin := env.As(t, adminEmail)
	r := admin.Do("GET", "/api/profiles/bulk/template.csv", nil)
	wantStatus(t, r, 200)
	if ct, cd := r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"); !strings.HasPrefix(ct, "text/csv") || !strings.Contains(cd, "attachment") {
		t.Errorf("Content-Type %q, Content-Disposition %q", ct, cd)
	}
	lines := strings.Split(strings.TrimSuffix(string(r.Body), "\r\n"), "\r\n")
	if len(lines) != 2 || lines[0] != "firstName,lastName,email,role,tags" {
		t.Errorf("template %q", r.Body)
	}
	community := newCommunity(t, env)
	rep := importReport(t, admin.Upload(communityImport(community), "file", "members-template.csv", r.Body))
	if rep.Added+rep.Existing != 1 || len(rep.Skipped) != 0 {
		t.Errorf("the template imports %+v", rep)
	}
	wantError(t, env.Client(t).Do("GET", "/api/profiles/bulk/template.csv", nil), 401, "authenticationRequired")
}

// TestMatrixMemberImport: who may import, into a community and into an
// organization (contract of issue 15): refusals write nothing.
func TestMatrixMemberImport(t *testing.T) {
	env := testenv.New(t)
	community := newCommunity(t, env)
	org := organizationID(t, env)
	// A stranger has an account but no profile in the organization.
	stranger := newMember(t, env, "Stranger")
	exec(t, env, "DELETE FROM profiles WHERE id = $1", stranger.ProfileID)
	roles := []matrixRole{
		{"super", env.As(t, superEmail)},
		{"org admin", env.As(t, adminEmail)},
		{"community admin", communityAdmin(t, env, community).Client},
		{"member", fresh(t, env, community, "ImportMember").Client},
		{"outsider", env.As(t, outsiderEmail)}, // in the organization, not in the community
		{"stranger", stranger.Client},
		{"guest", env.Client(t)},
	}
	for _, c := range []struct {
		name, path string
		want       map[string]outcome
	}{
		{"community", communityImport(community), map[string]outcome{
			"super": allowed(200), "org admin": allowed(200), "community admin": allowed(200),
			"member": forbidden, "outsider": hidden, "stranger": hidden, "guest": guestRefused,
		}},
		{"organization", orgImport(org), map[string]outcome{
			"super": allowed(200), "org admin": allowed(200), "community admin": forbidden,
			"member": forbidden, "outsider": forbidden, "stranger": hidden, "guest": guestRefused,
		}},
	} {
		for _, role := range roles {
			t.Run(c.name+"/"+role.name, func(t *testing.T) {
				w := c.want[role.name]
				file := []byte("firstName,lastName,email\nMat,Rix," + freshAddress("matrix") + "\n")
				before := countWrites(t, env)
				r := role.c.Upload(c.path, "file", "people.csv", file)
				if w.code == "" {
					if rep := importReport(t, r); rep.Added != 1 {
						t.Errorf("report %+v", rep)
					}
					return
				}
				wantError(t, r, w.status, w.code)
				wantNoWrites(t, env, before)
			})
		}
	}
}

// sendOversized sends a request's head announcing a body of length bytes,
// and only its first bytes, and returns the answer's status and error code.
func sendOversized(t *testing.T, env *testenv.Env, path, token, contentType string, length int) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	req := "POST " + path + " HTTP/1.1\r\nHost: agora.test\r\nAuthorization: Bearer " + token +
		"\r\nContent-Type: " + contentType + "\r\nContent-Length: " + strconv.Itoa(length) + "\r\n\r\n" + "--x\r\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var e apiError
	_ = json.NewDecoder(res.Body).Decode(&e)
	return res.StatusCode, e.Code
}
