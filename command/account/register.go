package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/picture"
)

// Register is POST /users?token=: an account made from an invitation or a
// confirmation token.
type Register struct {
	Token     string
	Email     string
	Password  string
	Person    Person
	IP        string
	UserAgent string
}

// Register creates the account and signs it in. An invitation's profile is
// joined in the same transaction, so the new member lands in their
// community even if the client never makes the separate join call.
func (s *Service) Register(ctx context.Context, in Register) (Session, error) {
	var missing []string
	if in.Token == "" {
		missing = append(missing, "token")
	}
	if in.Password == "" {
		missing = append(missing, "password")
	}
	if in.Person.FirstName == nil {
		missing = append(missing, "firstName")
	}
	if in.Person.LastName == nil {
		missing = append(missing, "lastName")
	}
	if len(missing) > 0 {
		return Session{}, apperr.MissingParameters(missing...)
	}
	f := apperr.Fields{}
	in.Person.normalize(f)
	if msg := auth.CheckPassword(in.Password); msg != "" {
		f.Add("password", msg)
	}
	in.Email = strings.TrimSpace(in.Email)
	if in.Email != "" && !auth.ValidEmail(in.Email) {
		f.Add("email", "This is not a valid email.")
	}
	if err := f.Err(); err != nil {
		return Session{}, err
	}
	hash, err := s.hasher.Hash(ctx, in.Password)
	if err != nil {
		return Session{}, err
	}
	var sess Session
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		tok, err := s.lockToken(ctx, tx, in.Token, "invitation", "confirmation")
		if err != nil {
			return registrationTokenError(tok, err)
		}
		if in.Email != "" && auth.EmailKey(in.Email) != auth.EmailKey(tok.Email) {
			return apperr.Invalid(map[string]string{"email": "must be the address the invitation was sent to"})
		}
		if tok.Kind == "confirmation" && in.Email == "" {
			return apperr.MissingParameters("email")
		}
		u, err := s.insertUser(ctx, tx, tok.Email, hash, in.Person)
		if err != nil {
			return err
		}
		if tok.ProfileID != nil {
			if err := s.join(ctx, tx, u.ID, *tok.ProfileID); err != nil {
				return err
			}
		}
		if err := s.markUsed(ctx, tx, tok.ID); err != nil {
			return err
		}
		sess, err = s.createSession(ctx, tx, u, in.IP, in.UserAgent)
		return err
	})
	return sess, err
}

// insertUser creates the account of email (ErrEmailTaken when it has one):
// registration and a first single sign-on make accounts the same way.
func (s *Service) insertUser(ctx context.Context, tx pgx.Tx, email, passwordHash string, p Person) (model.Users, error) {
	var n int64
	if err := db.QueryRow(ctx, tx, SELECT(COUNT(STAR)).FROM(table.Users).
		WHERE(table.Users.EmailKey.EQ(String(auth.EmailKey(email))))).Scan(&n); err != nil {
		return model.Users{}, err
	}
	if n > 0 {
		return model.Users{}, ErrEmailTaken
	}
	id, err := uuid.NewV7()
	if err != nil {
		return model.Users{}, err
	}
	now := s.now()
	u := model.Users{
		ID: id, Email: strings.TrimSpace(email), EmailKey: auth.EmailKey(email), PasswordHash: passwordHash, Role: string(auth.RoleUser),
		InterestTags: []string{}, CreatedOn: now, UpdatedOn: now,
	}
	applyPerson(&u, p)
	if u.Avatar != nil {
		// A new account has uploaded nothing: no upload URL is its own.
		a, err := picture.Keep(ctx, tx, u.ID, "avatar", "", *u.Avatar)
		if err != nil {
			return model.Users{}, err
		}
		u.Avatar = &a
	}
	if _, err := db.Exec(ctx, tx, table.Users.INSERT(table.Users.AllColumns).MODEL(u)); err != nil {
		return model.Users{}, fmt.Errorf("account: register: %w", err)
	}
	return u, nil
}

// registrationTokenError gives token failures the registration codes of
// spec 002 §8.
func registrationTokenError(tok model.Tokens, err error) error {
	if errors.Is(err, auth.ErrOneTimeTokenInvalid) || errors.Is(err, auth.ErrOneTimeTokenExpired) {
		if tok.Kind == "confirmation" {
			return auth.ErrConfirmation.Wrap(err)
		}
		return auth.ErrInvitation.Wrap(err)
	}
	return err
}

// applyPerson copies the given person fields onto u.
func applyPerson(u *model.Users, p Person) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&u.FirstName, p.FirstName)
	set(&u.LastName, p.LastName)
	set(&u.JobTitle, p.JobTitle)
	set(&u.Company, p.Company)
	set(&u.Bio, p.Bio)
	set(&u.School, p.School)
	set(&u.Degree, p.Degree)
	set(&u.FieldOfStudy, p.FieldOfStudy)
	if p.Avatar.Set {
		u.Avatar = p.Avatar.Value
	}
	if p.GraduationYear.Set {
		u.GraduationYear = p.GraduationYear.Value
	}
	if p.InterestTags != nil {
		u.InterestTags = p.InterestTags
	}
}

// join attaches an invited profile to a user and makes the profile's pending
// memberships active.
func (s *Service) join(ctx context.Context, q db.Querier, userID, profileID uuid.UUID) error {
	res, err := db.Exec(ctx, q, table.Profiles.UPDATE(table.Profiles.UserID, table.Profiles.UpdatedOn).
		SET(UUID(userID), TimestampzT(s.now())).
		WHERE(table.Profiles.ID.EQ(UUID(profileID)).AND(table.Profiles.UserID.IS_NULL().OR(table.Profiles.UserID.EQ(UUID(userID))))))
	if err != nil {
		return fmt.Errorf("account: join profile: %w", err)
	}
	if res.RowsAffected() == 0 {
		return apperr.New(apperr.Conflict, "profileAlreadyJoined", "this invitation was accepted by another account")
	}
	active := String("active")
	if _, err := db.Exec(ctx, q, table.CommunityMemberships.UPDATE(table.CommunityMemberships.Status).SET(active).
		WHERE(table.CommunityMemberships.ProfileID.EQ(UUID(profileID)))); err != nil {
		return err
	}
	_, err = db.Exec(ctx, q, table.SeriesMemberships.UPDATE(table.SeriesMemberships.Status).SET(active).
		WHERE(table.SeriesMemberships.ProfileID.EQ(UUID(profileID))))
	return err
}

// JoinProfile is POST /users/{id}/profiles?token=.
type JoinProfile struct {
	UserID uuid.UUID
	Token  string
	// Caller is the signed-in user, if any; it must be UserID.
	Caller *uuid.UUID
}

// JoinProfile joins the invitation's profile to an existing account whose
// address the invitation was sent to. Repeating it after registration
// already joined the profile answers with the same profile.
func (s *Service) JoinProfile(ctx context.Context, in JoinProfile) (uuid.UUID, error) {
	if in.Token == "" {
		return uuid.Nil, apperr.MissingParameters("token")
	}
	if in.Caller != nil && *in.Caller != in.UserID {
		return uuid.Nil, apperr.ErrForbidden
	}
	var profileID uuid.UUID
	err := db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		u, err := db.One[model.Users](ctx, tx, SELECT(table.Users.AllColumns).FROM(table.Users).WHERE(table.Users.ID.EQ(UUID(in.UserID))))
		if err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return apperr.ErrNotFound
			}
			return err
		}
		profileID, err = s.joinByToken(ctx, tx, u, in.Token, "invitation")
		return err
	})
	return profileID, err
}

// joinByToken joins the profile of a one-time token of kind to u, when the
// token was sent to u's address, and uses the token up. Used already to join
// this very user, it answers with the profile again (a repeated click).
func (s *Service) joinByToken(ctx context.Context, tx pgx.Tx, u model.Users, token, kind string) (uuid.UUID, error) {
	failed := func(tok model.Tokens, err error) error {
		if kind == "access" {
			return ErrAccessTokenInvalid.Wrap(err)
		}
		return registrationTokenError(tok, err)
	}
	tok, err := s.lockToken(ctx, tx, token, kind)
	if errors.Is(err, auth.ErrOneTimeTokenInvalid) && tok.ProfileID != nil && tok.UsedOn != nil {
		if p, qerr := db.One[model.Profiles](ctx, tx, SELECT(table.Profiles.AllColumns).FROM(table.Profiles).
			WHERE(table.Profiles.ID.EQ(UUID(*tok.ProfileID)))); qerr == nil &&
			p.UserID != nil && *p.UserID == u.ID {
			return p.ID, nil
		}
	}
	if err != nil {
		return uuid.Nil, failed(tok, err)
	}
	if tok.ProfileID == nil {
		return uuid.Nil, failed(tok, auth.ErrOneTimeTokenInvalid)
	}
	if auth.EmailKey(tok.Email) != u.EmailKey {
		return uuid.Nil, apperr.New(apperr.Forbidden, "invitationEmailMismatch", "the invitation was sent to another address")
	}
	if err := s.join(ctx, tx, u.ID, *tok.ProfileID); err != nil {
		return uuid.Nil, err
	}
	return *tok.ProfileID, s.markUsed(ctx, tx, tok.ID)
}
