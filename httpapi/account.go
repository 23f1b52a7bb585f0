package httpapi

import (
	"github.com/gofiber/fiber/v3"

	cmdaccount "agora/command/account"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/nullable"
	qaccount "agora/query/account"
)

func (s *server) accountRoutes(api fiber.Router) {
	api.Post("/sessions", s.signIn)
	api.Delete("/sessions/current", only(auth.GroupAuthenticated), s.signOut)
	api.Get("/tokens/decode", only(auth.GroupAuthenticated), s.decodeToken)
	api.Post("/tokens/passwordReset", s.requestPasswordReset)
	api.Get("/tokens/passwordReset/:token", s.checkPasswordReset)
	api.Post("/tokens/passwordReset/:token/use", s.resetPassword)
	api.Get("/tokens/:token/validate", s.validateToken)
	api.Post("/tokens/:token/redeem", only(auth.GroupAuthenticated), s.redeemAccessToken)
	api.Post("/users", s.register)
	api.Post("/users/:id/profiles", s.joinProfile)
	api.Patch("/users/me", only(auth.GroupAuthenticated), s.updateMe)
	api.Get("/profiles/:id", only(auth.GroupAuthenticated), s.getProfile)
	api.Get("/users/:id/profile", only(auth.GroupAuthenticated), s.getPersonProfile)
}

// SessionBody answers sign-in and registration (spec 002 §7).
type SessionBody struct {
	User        qaccount.User `json:"user"`
	AccessToken string        `json:"accessToken"`
	Role        auth.Role     `json:"role"`
	ExpiresOn   jsontime.Time `json:"expiresOn"`
}

func (s *server) sessionBody(c fiber.Ctx, sess cmdaccount.Session) (SessionBody, error) {
	u, err := s.Queries.Accounts.User(c.Context(), sess.UserID)
	if err != nil {
		return SessionBody{}, err
	}
	return SessionBody{User: u, AccessToken: sess.Token, Role: sess.Role, ExpiresOn: jsontime.Of(sess.ExpiresOn)}, nil
}

func (s *server) signIn(c fiber.Ctx) error {
	var in struct {
		Email    *string `json:"email"`
		Username *string `json:"username"`
		Password *string `json:"password"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	email := deref(in.Email)
	if email == "" {
		email = deref(in.Username)
	}
	sess, err := s.Commands.Accounts.SignIn(c.Context(), cmdaccount.SignIn{
		Email: email, Password: deref(in.Password), IP: s.clientIP(c), UserAgent: c.Get(fiber.HeaderUserAgent),
	})
	if err != nil {
		return err
	}
	body, err := s.sessionBody(c, sess)
	if err != nil {
		return err
	}
	return c.JSON(body)
}

func (s *server) signOut(c fiber.Ctx) error {
	defer s.Queries.Accounts.ForgetSessions()
	session := mustPrincipal(c).SessionID
	if err := s.Commands.Accounts.SignOut(c.Context(), session); err != nil {
		return err
	}
	// This node's sockets of the session close now; other nodes' when
	// their realtime projection sees the revocation.
	if s.Hub != nil {
		s.Hub.EndSession(session)
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) decodeToken(c fiber.Ctx) error {
	d, err := s.Queries.Accounts.Decode(c.Context(), mustPrincipal(c))
	if err != nil {
		return err
	}
	return c.JSON(d)
}

// neutralReset is the same answer whether or not the address has an account.
const neutralReset = "If an account exists for this email, a link to reset the password has been sent."

func (s *server) requestPasswordReset(c fiber.Ctx) error {
	var in struct {
		Email *string `json:"email"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Commands.Accounts.RequestPasswordReset(c.Context(), cmdaccount.RequestPasswordReset{Email: deref(in.Email), IP: s.clientIP(c)}); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(fiber.Map{"message": neutralReset})
}

func (s *server) checkPasswordReset(c fiber.Ctx) error {
	r, err := s.Queries.Accounts.CheckPasswordReset(c.Context(), c.Params("token"))
	if err != nil {
		return err
	}
	return c.JSON(r)
}

func (s *server) resetPassword(c fiber.Ctx) error {
	var in struct {
		Password *string `json:"password"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	defer s.Queries.Accounts.ForgetSessions() // a reset revokes every session of the user
	if err := s.Commands.Accounts.ResetPassword(c.Context(), cmdaccount.ResetPassword{Token: c.Params("token"), Password: deref(in.Password)}); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"message": "Password was reset successfully!"})
}

func (s *server) validateToken(c fiber.Ctx) error {
	inv, err := s.Queries.Accounts.ValidateToken(c.Context(), c.Params("token"), c.Query("email"))
	if err != nil {
		return err
	}
	return c.JSON(inv)
}

func (s *server) redeemAccessToken(c fiber.Ctx) error {
	profileID, err := s.Commands.Accounts.RedeemAccessToken(c.Context(), caller(c), c.Params("token"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"profileId": profileID})
}

// personBody is the person's own fields in registration and PATCH /users/me.
type personBody struct {
	FirstName      *string                `json:"firstName"`
	LastName       *string                `json:"lastName"`
	Avatar         nullable.Field[string] `json:"avatar"`
	JobTitle       *string                `json:"jobTitle"`
	Company        *string                `json:"company"`
	Bio            *string                `json:"bio"`
	InterestTags   []string               `json:"interestTags"`
	School         *string                `json:"school"`
	Degree         *string                `json:"degree"`
	FieldOfStudy   *string                `json:"fieldOfStudy"`
	GraduationYear nullable.Field[int32]  `json:"graduationYear"`
}

func (p personBody) person() cmdaccount.Person {
	return cmdaccount.Person{
		FirstName: p.FirstName, LastName: p.LastName, JobTitle: p.JobTitle, Company: p.Company, Bio: p.Bio,
		InterestTags: p.InterestTags, School: p.School, Degree: p.Degree, FieldOfStudy: p.FieldOfStudy,
		Avatar: p.Avatar, GraduationYear: p.GraduationYear,
	}
}

func (s *server) register(c fiber.Ctx) error {
	var in struct {
		personBody
		Email    *string `json:"email"`
		Password *string `json:"password"`
		// Token may come in the body as well as in the query (spec 002 §3).
		Token *string `json:"token"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	token := c.Query("token")
	if token == "" {
		token = deref(in.Token)
	}
	sess, err := s.Commands.Accounts.Register(c.Context(), cmdaccount.Register{
		Token: token, Email: deref(in.Email), Password: deref(in.Password), Person: in.person(),
		IP: s.clientIP(c), UserAgent: c.Get(fiber.HeaderUserAgent),
	})
	if err != nil {
		return err
	}
	body, err := s.sessionBody(c, sess)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(body)
}

func (s *server) joinProfile(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	in := cmdaccount.JoinProfile{UserID: id, Token: c.Query("token")}
	if p, ok := principal(c); ok {
		in.Caller = &p.UserID
	}
	profileID, err := s.Commands.Accounts.JoinProfile(c.Context(), in)
	if err != nil {
		return err
	}
	// The profile is the joined user's own, so it is read as theirs.
	p, err := s.Queries.Accounts.Profile(c.Context(), qaccount.Principal{UserID: id, Role: auth.RoleUser}, profileID)
	if err != nil {
		return err
	}
	return c.JSON(p)
}

func (s *server) updateMe(c fiber.Ctx) error {
	var in struct {
		personBody
		CurrentPassword *string `json:"currentPassword"`
		Password        *string `json:"password"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	p := mustPrincipal(c)
	defer s.Queries.Accounts.ForgetSessions() // a new password revokes the other sessions
	if err := s.Commands.Accounts.UpdateMe(c.Context(), cmdaccount.UpdateMe{
		UserID: p.UserID, SessionID: p.SessionID, Person: in.person(),
		CurrentPassword: in.CurrentPassword, NewPassword: in.Password,
	}); err != nil {
		return err
	}
	u, err := s.Queries.Accounts.User(c.Context(), p.UserID)
	if err != nil {
		return err
	}
	return c.JSON(u)
}

func (s *server) getProfile(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	p, err := s.Queries.Accounts.Profile(c.Context(), mustPrincipal(c), id)
	if err != nil {
		return err
	}
	return c.JSON(p)
}

func (s *server) getPersonProfile(c fiber.Ctx) error {
	id, err := pathUUID(c, "id")
	if err != nil {
		return err
	}
	p, err := s.Queries.Accounts.PersonProfile(c.Context(), caller(c), id)
	if err != nil {
		return err
	}
	return c.JSON(p)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
