package openapi_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"agora/httpapi"
	"agora/httpapi/openapi"
	"agora/internal/adapters/mail"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/jsontime"
	qaccount "agora/query/account"
)

// TestGoTypesMatchSchemas marshals the Go response types, as the handlers
// build them, and validates them against the document, so that a field
// added to or renamed in a view fails here even before an integration test
// reaches it.
func TestGoTypesMatchSchemas(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 30, 0, 123456789, time.FixedZone("x", 3600))
	avatar, year := "https://example.com/a.png", int32(2010)
	bare := model.Users{ID: uuid.New(), Email: "ada@demo.agora", Role: "user", FirstName: "Ada", LastName: "Lovelace", CreatedOn: now}
	full := bare
	full.Avatar, full.GraduationYear, full.InterestTags, full.Bio = &avatar, &year, []string{"go", "sql"}, "bio"
	users := []qaccount.User{qaccount.UserOf(bare), qaccount.UserOf(full)}

	uid := full.ID
	pending := model.Profiles{ID: uuid.New(), OrganizationID: uuid.New(), Email: "x@demo.agora", FirstName: "X", LastName: "Y", CreatedOn: now}
	joined := pending
	joined.UserID = &uid
	expert := qaccount.ProfileOf(joined, &full)
	expert.IsExpert = true
	expert.ExpertInSeries = append(expert.ExpertInSeries, qaccount.SeriesRef{ID: uuid.New(), Name: "Forum"})
	profiles := []qaccount.Profile{qaccount.ProfileOf(pending, nil), expert}

	pid := pending.ID
	exp := jsontime.Of(now.Add(time.Hour))
	type check struct {
		name, method, path string
		status             int
		v                  any
	}
	var checks []check
	for _, u := range users {
		sess := httpapi.SessionBody{User: u, AccessToken: "token", Role: auth.RoleUser, ExpiresOn: exp}
		checks = append(checks,
			check{"sign in", "POST", "/api/sessions", 200, sess},
			check{"register", "POST", "/api/users", 201, sess},
			check{"decode", "GET", "/api/tokens/decode", 200, qaccount.Decoded{User: u, Role: u.Role, SessionID: uuid.New(), ExpiresOn: exp}},
			check{"update me", "PATCH", "/api/users/me", 200, u},
		)
	}
	for _, p := range profiles {
		checks = append(checks,
			check{"profile", "GET", "/api/profiles/" + p.ID.String(), 200, p},
			check{"join", "POST", "/api/users/" + uid.String() + "/profiles", 200, p},
		)
	}
	checks = append(checks,
		check{"reset check", "GET", "/api/tokens/passwordReset/t", 200, qaccount.ResetCheck{Valid: true, ExpiresOn: exp}},
		check{"invitation", "GET", "/api/tokens/t/validate", 200, qaccount.Invitation{Kind: "invitation", Email: "x@demo.agora",
			FirstName: "X", LastName: "Y", ProfileID: &pid, OrganizationName: "Org", HasAccount: true, ExpiresOn: exp}},
		check{"confirmation", "GET", "/api/tokens/t/validate", 200, qaccount.Invitation{Kind: "confirmation", Email: "x@demo.agora", ExpiresOn: exp}},
		check{"mailbox", "GET", "/api/dev/mailbox", 200, map[string]any{"results": []mail.Stored{
			{ID: uuid.NewString(), To: "x@demo.agora", Subject: "s", Body: "b", CreatedOn: jsontime.Of(now)}}, "total": 1}},
		check{"empty mailbox", "GET", "/api/dev/mailbox", 200, map[string]any{"results": []mail.Stored{}, "total": 0}},
		check{"plain error", "GET", "/api/profiles/" + pid.String(), 404, httpapi.ErrorBody{Code: "notFound", Message: "not found"}},
		check{"missing parameters", "POST", "/api/sessions", 400, errorBody(apperr.MissingParameters("password", "email"))},
		check{"validation", "POST", "/api/users", 400, errorBody(apperr.Invalid(map[string]string{"password": "must not contain spaces"}))},
		check{"invalid body", "PATCH", "/api/users/me", 400, errorBody(apperr.ErrInvalidBody.With("field", "bio").With("expected", "string"))},
	)
	for _, c := range checks {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if err := openapi.ValidateResponse(c.method, c.path, c.status, "application/json", b); err != nil {
			t.Errorf("%s: %v\nbody: %s", c.name, err, b)
		}
	}
}

func errorBody(e *apperr.Error) httpapi.ErrorBody {
	return httpapi.ErrorBody{Code: e.Code, Message: e.Message, Details: e.Details}
}
