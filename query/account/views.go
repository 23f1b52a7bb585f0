// Package account is the read side of accounts: who a bearer token belongs
// to, the signed-in user, profiles, and one-time token checks.
package account

import (
	"github.com/google/uuid"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/jsontime"
)

// User is the signed-in person as the API shows it (spec 002 §3 "Auth user",
// with the profile fields the person owns).
type User struct {
	ID             uuid.UUID     `json:"id"`
	Email          string        `json:"email"`
	FirstName      string        `json:"firstName"`
	LastName       string        `json:"lastName"`
	Avatar         *string       `json:"avatar"`
	Role           auth.Role     `json:"role"`
	JobTitle       string        `json:"jobTitle"`
	Company        string        `json:"company"`
	Bio            string        `json:"bio"`
	InterestTags   []string      `json:"interestTags"`
	School         string        `json:"school"`
	Degree         string        `json:"degree"`
	FieldOfStudy   string        `json:"fieldOfStudy"`
	GraduationYear *int32        `json:"graduationYear"`
	CreatedOn      jsontime.Time `json:"createdOn"`
}

// UserOf converts a row.
func UserOf(u model.Users) User {
	return User{
		ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName, Avatar: u.Avatar,
		Role: auth.Role(u.Role), JobTitle: u.JobTitle, Company: u.Company, Bio: u.Bio,
		InterestTags: nonNil(u.InterestTags), School: u.School, Degree: u.Degree,
		FieldOfStudy: u.FieldOfStudy, GraduationYear: u.GraduationYear, CreatedOn: jsontime.Of(u.CreatedOn),
	}
}

// Profile is a person inside an organization (spec 000 §3, 002 §3).
type Profile struct {
	ID             uuid.UUID     `json:"id"`
	UserID         *uuid.UUID    `json:"userId"`
	OrganizationID uuid.UUID     `json:"organizationId"`
	FirstName      string        `json:"firstName"`
	LastName       string        `json:"lastName"`
	Name           string        `json:"name"`
	Email          string        `json:"email"`
	Avatar         *string       `json:"avatar"`
	JobTitle       string        `json:"jobTitle"`
	Company        string        `json:"company"`
	Bio            string        `json:"bio"`
	InterestTags   []string      `json:"interestTags"`
	School         string        `json:"school"`
	Degree         string        `json:"degree"`
	FieldOfStudy   string        `json:"fieldOfStudy"`
	GraduationYear *int32        `json:"graduationYear"`
	IsExpert       bool          `json:"isExpert"`
	ExpertInSeries []SeriesRef   `json:"expertInSeries"`
	CreatedOn      jsontime.Time `json:"createdOn"`
}

// SeriesRef names a forum.
type SeriesRef struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// ProfileOf merges a profile with its user: once joined, the person's own
// fields come from the user, which the person edits.
func ProfileOf(p model.Profiles, u *model.Users) Profile {
	v := Profile{
		ID: p.ID, UserID: p.UserID, OrganizationID: p.OrganizationID,
		FirstName: p.FirstName, LastName: p.LastName, Email: p.Email, Avatar: p.Avatar,
		JobTitle: p.JobTitle, Company: p.Company, Bio: p.Bio, InterestTags: nonNil(p.InterestTags),
		School: p.School, Degree: p.Degree, FieldOfStudy: p.FieldOfStudy, GraduationYear: p.GraduationYear,
		IsExpert: p.IsExpert, ExpertInSeries: []SeriesRef{}, CreatedOn: jsontime.Of(p.CreatedOn),
	}
	if u != nil {
		v.FirstName, v.LastName, v.Email, v.Avatar = u.FirstName, u.LastName, u.Email, u.Avatar
		v.JobTitle, v.Company, v.Bio, v.InterestTags = u.JobTitle, u.Company, u.Bio, nonNil(u.InterestTags)
		v.School, v.Degree, v.FieldOfStudy, v.GraduationYear = u.School, u.Degree, u.FieldOfStudy, u.GraduationYear
	}
	v.Name = v.FirstName + " " + v.LastName
	return v
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
