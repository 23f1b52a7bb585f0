package memberimport

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"agora/internal/rules/membership"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/sheet"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Import is POST /communities/{id}/profiles/bulk (CommunityID set) or POST
// /organizations/{id}/profiles/bulk (OrganizationID set).
type Import struct {
	Actor          auth.Caller
	CommunityID    uuid.UUID
	OrganizationID uuid.UUID
	// File is the uploaded file; nil when the request has none.
	File *File
}

// File is an uploaded file: its name (whose extension tells its format)
// and its bytes.
type File struct {
	Name string
	Data []byte
}

// Errors of a file that cannot be imported at all (400, nothing written).
var (
	ErrFileType       = apperr.New(apperr.BadInput, "importFileType", "the file must be a .csv or .xlsx file")
	ErrFileUnreadable = apperr.New(apperr.BadInput, "importFileUnreadable", "the file cannot be read: a CSV file must be UTF-8 text, an .xlsx file an Excel workbook")
	ErrFileTooLarge   = apperr.New(apperr.BadInput, "importFileTooLarge", fmt.Sprintf("the file is larger than %d MiB", MaxBytes>>20)).With("max", MaxBytes)
	// ErrFileUnpacksTooLarge is a workbook that unpacks to more than its
	// bounds (a zip bomb), refused before it is unpacked.
	ErrFileUnpacksTooLarge = apperr.New(apperr.BadInput, "importFileTooLarge",
		fmt.Sprintf("the workbook unpacks to more than %d MiB, more than %d times its size, or holds a cell of more than %d KiB", sheet.MaxUnpacked>>20, sheet.MaxRatio, sheet.MaxText>>10)).
		With("maxUnpacked", sheet.MaxUnpacked).With("maxRatio", sheet.MaxRatio).With("maxText", sheet.MaxText)
	ErrHeaderMissing = apperr.New(apperr.BadInput, "importHeaderMissing", "the file has no header row")
	ErrTooManyRows   = apperr.New(apperr.BadInput, "importTooManyRows", fmt.Sprintf("the file has more than %d rows of people", MaxRows)).With("max", MaxRows)
)

// errColumnsMissing is a header without a required column.
func errColumnsMissing(missing []string) error {
	return apperr.New(apperr.BadInput, "importColumnsMissing", "the header lacks required columns").With("missing", missing)
}

// The reasons a row is skipped.
const (
	ReasonInvalidFirstName = "invalidFirstName"
	ReasonInvalidLastName  = "invalidLastName"
	ReasonInvalidEmail     = "invalidEmail"
	ReasonInvalidRole      = "invalidRole"
	ReasonInvalidTags      = "invalidTags"
	ReasonDuplicateInFile  = "duplicateInFile"
)

// reasons names a row's first failing field, in the order of the columns.
var reasons = []struct{ field, reason string }{
	{membership.FieldFirstName, ReasonInvalidFirstName},
	{membership.FieldLastName, ReasonInvalidLastName},
	{membership.FieldEmail, ReasonInvalidEmail},
	{membership.FieldRole, ReasonInvalidRole},
	{membership.FieldTags, ReasonInvalidTags},
}

// columnOf is the file's column each field's rule is named for.
var columnOf = map[string]string{membership.FieldRole: ColRole}

// Skipped is a row that was not imported.
type Skipped struct {
	Row     int    `json:"row"`
	Email   string `json:"email"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Report is what an import did: rows added, rows already there (a profile
// of the organization, a member of the community), rows skipped.
type Report struct {
	Added    int       `json:"added"`
	Existing int       `json:"existing"`
	Skipped  []Skipped `json:"skipped"`
	// ToInvite are the profiles of the people added who have no account:
	// an import mails nobody (spec 000: an added member is sent an
	// invitation only when asked), so the finished import offers to
	// invite them, all at once, with POST …/invitations.
	ToInvite []uuid.UUID `json:"toInvite"`
}

// Importing is an import checked and ready to write.
type Importing struct {
	s           *Service
	orgID       uuid.UUID
	good        []membership.NewMember
	skipped     []Skipped
	total       int
	communityID uuid.UUID
}

// Total is the number of rows of the file, its header and blank rows apart.
func (im *Importing) Total() int { return im.total }

// Prepare does everything before the first write, so that a refusal is an
// error answer and not a stream: the caller must manage the organization
// (its admins, super users) or the community (its admins, its
// organization's admins, super users): one who may not see it gets 404 as
// for an unknown one, one who may see it but not manage it 403; then the
// file is read and every row checked.
func (s *Service) Prepare(ctx context.Context, in Import) (*Importing, error) {
	im := &Importing{s: s}
	if in.CommunityID != uuid.Nil {
		c, err := access.InCommunity(ctx, s.db, in.Actor.UserID, in.Actor.Role, in.CommunityID)
		if err != nil {
			return nil, err
		}
		if !c.Admin {
			if !c.Member {
				return nil, access.ErrCommunityNotFound
			}
			return nil, apperr.ErrForbidden
		}
		im.orgID, im.communityID = c.OrganizationID, in.CommunityID
	} else {
		o, err := access.SeeOrganization(ctx, s.db, in.Actor.UserID, in.Actor.Role, in.OrganizationID)
		if err != nil {
			return nil, err
		}
		if !o.Admin {
			return nil, apperr.ErrForbidden
		}
		im.orgID = in.OrganizationID
	}
	if in.File == nil {
		return nil, apperr.MissingParameters("file")
	}
	if len(in.File.Data) > MaxBytes {
		return nil, ErrFileTooLarge
	}
	rows, err := sheet.Read(in.File.Name, in.File.Data, MaxRows+1)
	switch {
	case errors.Is(err, sheet.ErrType):
		return nil, ErrFileType
	case errors.Is(err, sheet.ErrTooManyRows):
		return nil, ErrTooManyRows
	case errors.Is(err, sheet.ErrTooLarge):
		return nil, ErrFileUnpacksTooLarge.Wrap(err)
	case err != nil:
		return nil, ErrFileUnreadable.Wrap(err)
	case len(rows) == 0:
		return nil, ErrHeaderMissing
	}
	at, err := header(rows[0].Cells)
	if err != nil {
		return nil, err
	}
	im.total = len(rows) - 1
	firstRow := map[string]int{}
	for _, r := range rows[1:] {
		cell := func(col string) string {
			if i, ok := at[col]; ok && i < len(r.Cells) {
				return r.Cells[i]
			}
			return ""
		}
		bad := apperr.Fields{}
		m := membership.CheckNew(bad, cell(ColFirstName), cell(ColLastName), cell(ColEmail), strings.TrimSpace(cell(ColRole)), cell(ColTags))
		if len(bad) > 0 {
			im.skipped = append(im.skipped, skip(r.Number, m.Email, bad))
			continue
		}
		key := auth.EmailKey(m.Email)
		if first, dup := firstRow[key]; dup {
			im.skipped = append(im.skipped, Skipped{Row: r.Number, Email: m.Email, Reason: ReasonDuplicateInFile,
				Message: fmt.Sprintf("the same email as row %d", first)})
			continue
		}
		firstRow[key] = r.Number
		im.good = append(im.good, m)
	}
	return im, nil
}

// header finds the columns in a header row, ignoring case and the spaces
// around a name; a column named twice, or an unknown one, is ignored after
// its first.
func header(cells []string) (map[string]int, error) {
	at := map[string]int{}
	for i, c := range cells {
		for _, col := range columns {
			if _, seen := at[col]; !seen && strings.EqualFold(strings.TrimSpace(c), col) {
				at[col] = i
			}
		}
	}
	var missing []string
	for _, col := range required {
		if _, ok := at[col]; !ok {
			missing = append(missing, col)
		}
	}
	if len(missing) > 0 {
		return nil, errColumnsMissing(missing)
	}
	return at, nil
}

// skip is a row that breaks the rules: its reason is its first failing
// column's, its message every failing column's.
func skip(row int, email string, bad apperr.Fields) Skipped {
	s := Skipped{Row: row, Email: email}
	var msgs []string
	for _, r := range reasons {
		if msg, ok := bad[r.field]; ok {
			if s.Reason == "" {
				s.Reason = r.reason
			}
			col := r.field
			if c, ok := columnOf[col]; ok {
				col = c
			}
			msgs = append(msgs, col+": "+msg)
		}
	}
	s.Message = strings.Join(msgs, "; ")
	return s
}

// Run writes the good rows in one transaction, calling progress after each
// batch with the rows processed so far (the skipped ones counted first) and
// the total. An error leaves nothing written.
func (im *Importing) Run(ctx context.Context, progress func(processed, total int)) (Report, error) {
	rep := Report{Skipped: im.skipped}
	if rep.Skipped == nil {
		rep.Skipped = []Skipped{}
	}
	err := db.InTx(ctx, im.s.db, func(tx pgx.Tx) error {
		rep.Added, rep.Existing, rep.ToInvite = 0, 0, []uuid.UUID{}
		for start := 0; start < len(im.good); start += batchSize {
			batch := im.good[start:min(start+batchSize, len(im.good))]
			added, toInvite, err := im.write(ctx, tx, batch)
			if err != nil {
				return err
			}
			rep.Added += added
			rep.Existing += len(batch) - added
			rep.ToInvite = append(rep.ToInvite, toInvite...)
			progress(len(im.skipped)+start+len(batch), im.total)
		}
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("memberimport: %w", err)
	}
	if len(im.good) == 0 {
		progress(im.total, im.total)
	}
	return rep, nil
}

// write writes one batch and returns how many of its rows were added, and
// the profiles of those added who have no account.
func (im *Importing) write(ctx context.Context, tx pgx.Tx, batch []membership.NewMember) (int, []uuid.UUID, error) {
	now := im.s.now()
	profiles := make([]model.Profiles, len(batch))
	keys := make([]string, len(batch))
	for i, m := range batch {
		id, err := uuid.NewV7()
		if err != nil {
			return 0, nil, err
		}
		keys[i] = auth.EmailKey(m.Email)
		role := membership.RoleMember
		if im.communityID == uuid.Nil {
			role = m.Role // the organization's role; a community's is its membership's
		}
		profiles[i] = model.Profiles{ID: id, OrganizationID: im.orgID, Role: role, Email: m.Email, EmailKey: keys[i],
			FirstName: m.FirstName, LastName: m.LastName, InterestTags: m.Tags, CreatedOn: now, UpdatedOn: now}
	}
	p := table.Profiles
	// A profile already in the organization is kept as it is.
	// A new profile has no account yet.
	added, err := db.Values[uuid.UUID](ctx, tx, p.INSERT(p.ID, p.OrganizationID, p.Role, p.Email, p.EmailKey, p.FirstName, p.LastName,
		p.InterestTags, p.CreatedOn, p.UpdatedOn).MODELS(profiles).
		ON_CONFLICT(p.OrganizationID, p.EmailKey).DO_NOTHING().RETURNING(p.ID))
	if err != nil {
		return 0, nil, fmt.Errorf("profiles: %w", err)
	}
	if im.communityID == uuid.Nil {
		return len(added), added, nil
	}
	// The batch's people join by address: a join against the batch as a
	// VALUES table, which Postgres plans as one, rather than an = ANY of
	// the addresses, which a cached plan compares row by row.
	rows := make([]RowExpression, len(batch))
	for i, m := range batch {
		rows[i] = WRAP(String(keys[i]), String(m.Role))
	}
	v := VALUES(rows...).AS("v", StringColumn("email_key"), StringColumn("role"))
	vKey, vRole := StringColumn("email_key").From(v), StringColumn("role").From(v)
	cm := table.CommunityMemberships
	// Active for someone who already has an account joined to the profile,
	// pending otherwise, as the one-by-one add.
	stmt := cm.INSERT(cm.CommunityID, cm.ProfileID, cm.Role, cm.Status, cm.AssignedOn).
		QUERY(SELECT(UUID(im.communityID), p.ID, vRole, membership.JoinStatus(p), TimestampzT(now)).
			FROM(p.INNER_JOIN(v, p.EmailKey.EQ(vKey))).
			WHERE(p.OrganizationID.EQ(UUID(im.orgID))))
	joined, err := db.All[struct {
		ProfileID uuid.UUID
		Status    string
	}](ctx, tx, stmt.ON_CONFLICT(cm.CommunityID, cm.ProfileID).DO_NOTHING().RETURNING(cm.ProfileID.AS("profile_id"), cm.Status.AS("status")))
	if err != nil {
		return 0, nil, fmt.Errorf("memberships: %w", err)
	}
	var pending []uuid.UUID
	for _, j := range joined {
		if j.Status == "pending" { // no account: JoinStatus's rule
			pending = append(pending, j.ProfileID)
		}
	}
	return len(joined), pending, nil
}
