// Package seed writes a small, fixed demo organization so that a fresh
// install, a manual test session or a benchmark has something to look at and
// somebody to sign in as: two communities, five forums, thirty members with
// full profiles, and five demo logins that each exercise one kind of access
// (platform super user, organization admin, forum expert, plain member, and
// a person of the organization who belongs to nothing).
//
// The data is a literal list rather than generated at random so that every
// run produces the same people, the same memberships and the same counts;
// tests and benchmarks can rely on them.
package seed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
)

// Demo logins, all with the same password.
const (
	// SuperEmail is a platform super user (users.role 'super'); it also
	// administers the demo organization so it can see it in the client.
	SuperEmail = "super@demo.agora"
	// AdminEmail administers the organization, both communities and every
	// demo forum.
	AdminEmail = "admin@demo.agora"
	// ExpertEmail belongs to the first community and all of its forums, and
	// is the expert of exactly one of them.
	ExpertEmail = "expert@demo.agora"
	// MemberEmail is a plain member of the first community and of exactly two
	// of its forums, so there is always a forum of that community they cannot
	// see.
	MemberEmail = "member@demo.agora"
	// OutsiderEmail has a profile in the organization but no community or
	// forum membership: the "signed in, yet has access to nothing" case.
	OutsiderEmail = "outsider@demo.agora"
)

// OrganizationName is the demo organization's name.
const OrganizationName = "Northwind Learning"

// OrganizationID is the fixed id of the demo organization. Seed checks for it
// (rather than for the name, which an admin may change) to decide whether
// the demo data is already there. It has the UUIDv7 layout like every other
// id, with a timestamp far in the past so it cannot collide with a generated
// one.
var OrganizationID = uuid.MustParse("01000000-0000-7000-8000-00000000a901")

// seedLock is the advisory lock key of the seed's transactions (locked).
const seedLock int64 = 0x61676f7261_5eed

// Logins returns the five demo emails in a fixed order: super, admin, expert,
// member, outsider. Tests and benchmarks iterate over it to sign in as each
// kind of user.
func Logins() []string {
	return []string{SuperEmail, AdminEmail, ExpertEmail, MemberEmail, OutsiderEmail}
}

// person is the part of a user and a profile that the demo data fills in.
type person struct {
	first, last, title, company, bio string
	tags                             []string
	school, degree, field            string
	year                             int32
	expert                           bool
}

// loginPeople are the person fields of the demo logins, in Logins() order.
var loginPeople = []person{
	{"Avery", "Quinn", "Platform Operations Lead", "Agora", "Keeps the Agora platform running and helps organizations get started.",
		[]string{"operations", "security", "onboarding"}, "University of Washington", "BS", "Computer Science", 2011, false},
	{"Jordan", "Ellis", "Director of Community", "Northwind Learning", "Runs the Northwind communities: programming, moderation and member success.",
		[]string{"community building", "events", "facilitation"}, "Northwestern University", "MA", "Communication", 2012, false},
	{"Priya", "Raman", "Principal Product Manager", "Fabrikam", "Fifteen years of product work in B2B SaaS; happy to talk roadmaps, pricing and discovery.",
		[]string{"product strategy", "pricing", "discovery", "roadmaps"}, "Carnegie Mellon University", "MBA", "Business Administration", 2010, true},
	{"Chris", "Morgan", "Product Manager", "Contoso", "Second-time PM learning from people who have done it longer.",
		[]string{"product management", "user research"}, "University of Texas at Austin", "BBA", "Marketing", 2018, false},
	{"Dana", "Whitfield", "Operations Analyst", "Northwind Learning", "Joined Northwind recently; not in any community yet.",
		[]string{"operations", "analytics"}, "Ohio State University", "BS", "Industrial Engineering", 2020, false},
}

// members are the thirty additional people. Their emails are
// first.last@demo.agora.
var members = []person{
	{"Amelia", "Hart", "Senior Product Manager", "Tailspin Toys", "Leads the checkout team; interested in experimentation culture.", []string{"experimentation", "growth", "ecommerce"}, "University of Michigan", "BS", "Economics", 2013, false},
	{"Benjamin", "Okafor", "Head of Product", "Litware", "Built two product orgs from scratch. Mentors new PMs.", []string{"leadership", "hiring", "product strategy"}, "Stanford University", "MS", "Management Science", 2008, true},
	{"Camila", "Duarte", "UX Researcher", "Adventure Works", "Mixed-methods researcher; loves a good diary study.", []string{"user research", "interviews", "accessibility"}, "University of São Paulo", "MA", "Anthropology", 2015, false},
	{"Daniel", "Kim", "Data Scientist", "Contoso", "Forecasting and causal inference for supply chain.", []string{"machine learning", "forecasting", "python"}, "Georgia Institute of Technology", "MS", "Analytics", 2017, false},
	{"Elena", "Petrova", "ML Engineer", "Fabrikam", "Puts models into production and keeps them there.", []string{"mlops", "python", "kubernetes"}, "ETH Zurich", "MSc", "Computer Science", 2016, true},
	{"Farid", "Haddad", "Analytics Engineer", "Wingtip Toys", "dbt, warehouses and tidy data models.", []string{"dbt", "sql", "data modeling"}, "American University of Beirut", "BE", "Computer Engineering", 2014, false},
	{"Grace", "Liu", "VP Product", "Proseware", "Twenty years across consumer and enterprise products.", []string{"leadership", "product strategy", "b2b saas"}, "University of California, Berkeley", "MBA", "Business Administration", 2006, true},
	{"Hiroshi", "Tanaka", "Product Designer", "Northwind Traders", "Designs tools for warehouse operators.", []string{"interaction design", "prototyping"}, "Keio University", "BA", "Design", 2016, false},
	{"Isabel", "Moreno", "Product Operations Manager", "Litware", "Makes planning cycles less painful.", []string{"product ops", "planning", "okrs"}, "Universidad de Chile", "BS", "Industrial Engineering", 2014, false},
	{"Jamal", "Wright", "Data Engineer", "Trey Research", "Streaming pipelines and the occasional batch job.", []string{"kafka", "spark", "data pipelines"}, "Howard University", "BS", "Computer Science", 2017, false},
	{"Katarzyna", "Nowak", "Group Product Manager", "Woodgrove Bank", "Payments and compliance-heavy products.", []string{"fintech", "payments", "roadmaps"}, "Warsaw School of Economics", "MA", "Finance", 2011, false},
	{"Liam", "O'Connor", "Associate Product Manager", "Contoso", "First year as a PM after three as an engineer.", []string{"product management", "engineering"}, "Trinity College Dublin", "BA", "Computer Science", 2020, false},
	{"Maya", "Patel", "Director of Data Science", "Tailspin Toys", "Builds data teams that ship.", []string{"machine learning", "leadership", "experimentation"}, "University of Toronto", "PhD", "Statistics", 2012, true},
	{"Noah", "Schmidt", "BI Developer", "Adventure Works", "Dashboards people actually open.", []string{"power bi", "sql", "data visualization"}, "Technical University of Munich", "BSc", "Information Systems", 2015, false},
	{"Olivia", "Bennett", "Product Marketing Manager", "Proseware", "Positioning, launches and sales enablement.", []string{"product marketing", "positioning", "launches"}, "Boston University", "BS", "Marketing", 2016, false},
	{"Pedro", "Alves", "Staff Data Scientist", "Woodgrove Bank", "Fraud models and model risk management.", []string{"fraud detection", "machine learning", "statistics"}, "Universidade de Lisboa", "MSc", "Applied Mathematics", 2013, false},
	{"Quinn", "Taylor", "Product Manager", "Wingtip Toys", "Mobile apps and notifications.", []string{"mobile", "engagement", "user research"}, "University of Oregon", "BA", "Psychology", 2017, false},
	{"Rania", "Aziz", "Research Scientist", "Trey Research", "Language models for document understanding.", []string{"nlp", "deep learning", "python"}, "University of Cambridge", "PhD", "Computer Science", 2019, true},
	{"Samuel", "Adeyemi", "Engineering Manager", "Fabrikam", "Works closely with product on platform teams.", []string{"engineering management", "platform", "hiring"}, "University of Lagos", "BSc", "Electrical Engineering", 2012, false},
	{"Tessa", "van Dijk", "Customer Insights Lead", "Northwind Traders", "Turns support tickets into roadmap input.", []string{"customer insights", "analytics", "discovery"}, "University of Amsterdam", "MSc", "Business Analytics", 2018, false},
	{"Umar", "Siddiqui", "Machine Learning Engineer", "Litware", "Recommendation systems at scale.", []string{"recommender systems", "mlops", "python"}, "National University of Sciences and Technology", "BE", "Software Engineering", 2016, false},
	{"Valentina", "Rossi", "Chief Product Officer", "Adventure Works", "Board-level product strategy; ex-founder.", []string{"product strategy", "leadership", "fundraising"}, "Bocconi University", "MSc", "Management", 2007, true},
	{"William", "Chen", "Analytics Manager", "Proseware", "Self-serve analytics and metric definitions.", []string{"analytics", "metrics", "sql"}, "University of Illinois Urbana-Champaign", "MS", "Statistics", 2014, false},
	{"Ximena", "Flores", "Product Manager", "Woodgrove Bank", "Onboarding flows and identity verification.", []string{"onboarding", "fintech", "experimentation"}, "Tecnológico de Monterrey", "BS", "Industrial Engineering", 2019, false},
	{"Yusuf", "Demir", "Data Platform Lead", "Contoso", "Lakehouse architecture and governance.", []string{"data governance", "data platform", "spark"}, "Middle East Technical University", "MS", "Computer Engineering", 2013, false},
	{"Zoe", "Campbell", "Senior UX Designer", "Tailspin Toys", "Design systems and accessible interfaces.", []string{"design systems", "accessibility", "prototyping"}, "Rhode Island School of Design", "BFA", "Graphic Design", 2015, false},
	{"Aaron", "Brooks", "Product Analyst", "Wingtip Toys", "Funnels, cohorts and the questions behind them.", []string{"product analytics", "sql", "experimentation"}, "University of Wisconsin-Madison", "BS", "Mathematics", 2021, false},
	{"Bianca", "Ferreira", "AI Product Manager", "Trey Research", "Bridges research and product for AI features.", []string{"ai products", "nlp", "product strategy"}, "Universidade Federal do Rio de Janeiro", "MSc", "Computer Science", 2018, false},
	{"Connor", "Walsh", "Statistician", "Northwind Traders", "Experiment design and power analysis.", []string{"statistics", "experimentation", "r"}, "University College Cork", "MSc", "Statistics", 2016, false},
	{"Divya", "Nair", "Senior Product Manager", "Fabrikam", "Developer tools and APIs.", []string{"developer experience", "apis", "b2b saas"}, "Indian Institute of Technology Madras", "BTech", "Computer Science", 2014, false},
}

// community and forum are the demo structures; forum.community indexes
// communities.
type community struct {
	name, description string
	priceCents        int32
	isFree            bool
}

type forum struct {
	community         int
	name, description string
	exclusivity       string
}

// The first community is free so the demo member can open it without a
// subscription; the second is paid so checkout has something to show.
var communities = []community{
	{"Product Leadership Circle",
		"A peer community for product managers and product leaders at Northwind's partner companies. " +
			"Share roadmaps, compare discovery practices, and get candid advice from people who have shipped at scale.",
		3995, true},
	{"Data & AI Practitioners",
		"Hands-on data scientists, ML engineers and analytics engineers trading notes on models in production, " +
			"data platforms and the craft of analysis. Monthly Meet Ups with invited experts.",
		3995, false},
}

// The first community has three forums so that the demo member can be in
// exactly two of them and still have one they are not part of.
var forums = []forum{
	{0, "Welcome & Introductions",
		"Say hello, tell the circle what you are working on, and find people facing the same problems.", "open"},
	{0, "Roadmaps & Prioritization",
		"How do you decide what not to build? Frameworks, real roadmaps (redacted as needed) and the trade-offs behind them.", "open"},
	{0, "Leadership Roundtable",
		"A closed room for heads of product and senior leaders: org design, hiring, and managing up. Invitation only.", "inviteOnly"},
	{1, "Applied Machine Learning",
		"Models in production: feature stores, evaluation, monitoring and the incidents nobody writes blog posts about.", "open"},
	{1, "Analytics Engineering Guild",
		"dbt projects, semantic layers and metric definitions, reviewed by peers. Members are invited by the guild leads.", "inviteOnly"},
}

// expertForum is the forum (index into forums) where the expert login is
// marked as the forum's expert.
const expertForum = 1

// memberForums are the two forums of the first community the demo member
// belongs to.
var memberForums = []int{0, 1}

// Options choose what Seed writes besides the demo organization.
type Options struct {
	// Discussions, when set, writes the demo forums' discussions
	// (app/demo's writer) in the organization's transaction, so that a
	// failed seed leaves neither behind; now is the seed's clock. Only agora
	// dev sets it: the test harness counts the posts of the demo forums, and
	// a deployment's forums start empty.
	Discussions Writer
}

// Writer writes rows in the seed's transaction, at the seed's clock now.
type Writer func(ctx context.Context, tx pgx.Tx, now time.Time) error

// Seed writes the demo data once. It returns (false, nil) without writing
// when the demo organization (OrganizationID) already exists, so it is safe
// to call on every start. Everything is written in one transaction: a failed
// seed leaves nothing half-made behind that would make the next call skip.
//
// The password is hashed once and the same hash is stored for every seeded
// user; argon2id is deliberately slow and 35 hashes would add a second to
// each start for no benefit.
func Seed(ctx context.Context, pool *pgxpool.Pool, hasher *auth.Hasher, password string, opt Options) (created bool, err error) {
	if exists, err := orgExists(ctx, pool); err != nil || exists {
		return false, err
	}
	hash, err := hasher.Hash(ctx, password)
	if err != nil {
		return false, fmt.Errorf("seed: hash password: %w", err)
	}
	return locked(ctx, pool, func(tx pgx.Tx) (bool, error) {
		// Checked again under the lock: another instance may have seeded
		// while this one was hashing.
		if exists, err := orgExists(ctx, tx); err != nil || exists {
			return false, err
		}
		now := time.Now().UTC()
		d, err := build(hash, now)
		if err != nil {
			return false, err
		}
		if err := d.insert(ctx, tx); err != nil {
			return false, err
		}
		if opt.Discussions != nil {
			if err := opt.Discussions(ctx, tx, now); err != nil {
				return false, err
			}
		}
		return true, nil
	})
}

// SeedDiscussions writes the demo discussions with write into a database
// that holds the demo organization (Seed) but not yet the discussions, as
// the benchmark's does; it returns (false, nil) when they are there
// already. It is one transaction, under Seed's lock.
func SeedDiscussions(ctx context.Context, pool *pgxpool.Pool, write Writer) (created bool, err error) {
	return locked(ctx, pool, func(tx pgx.Tx) (bool, error) {
		if exists, err := orgExists(ctx, tx); err != nil || !exists {
			if err == nil {
				err = errors.New("seed: discussions: the demo organization is not seeded")
			}
			return false, err
		}
		ids, err := DiscussionThreadIDs(ctx, tx)
		if err != nil || len(ids) > 0 {
			return false, err
		}
		return true, write(ctx, tx, time.Now().UTC())
	})
}

// locked runs fn in a transaction holding the seed's advisory lock, which
// serializes concurrent seeds (two app instances starting at once) so the
// loser sees the winner's rows instead of failing on a unique violation,
// and commits when fn reports it wrote.
func locked(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) (bool, error)) (bool, error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("seed: %w", err)
	}
	// After a commit this is a no-op; on every other path it undoes the lock
	// and whatever was written.
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	if _, err = db.Exec(ctx, tx, SELECT(Func("pg_advisory_xact_lock", Int(seedLock)))); err != nil {
		return false, fmt.Errorf("seed: lock: %w", err)
	}
	wrote, err := fn(tx)
	if err != nil || !wrote {
		return false, err
	}
	if err = tx.Commit(ctx); err != nil {
		return false, fmt.Errorf("seed: commit: %w", err)
	}
	return true, nil
}

// orgExists reports whether the demo organization is present.
func orgExists(ctx context.Context, q db.Querier) (bool, error) {
	var id uuid.UUID
	err := db.QueryRow(ctx, q, SELECT(table.Organizations.ID).FROM(table.Organizations).
		WHERE(table.Organizations.ID.EQ(UUID(OrganizationID)))).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("seed: check organization: %w", err)
	}
	return true, nil
}

// data is every row Seed writes, grouped by table.
type data struct {
	org                  model.Organizations
	users                []model.Users
	profiles             []model.Profiles
	communities          []model.Communities
	series               []model.Series
	communityMemberships []model.CommunityMemberships
	seriesMemberships    []model.SeriesMemberships
}

// build lays out the demo rows in memory. People get created_on times one
// minute apart, in list order, so "newest members" lists have a stable order
// instead of 35 ties.
func build(hash string, now time.Time) (*data, error) {
	var d data
	var err error
	newID := func() uuid.UUID {
		if err != nil {
			return uuid.Nil
		}
		var id uuid.UUID
		id, err = uuid.NewV7()
		return id
	}
	d.org = model.Organizations{ID: OrganizationID, Name: OrganizationName, CreatedOn: now, UpdatedOn: now}

	for _, c := range communities {
		d.communities = append(d.communities, model.Communities{
			ID: newID(), OrganizationID: OrganizationID, Name: c.name, Description: c.description,
			MembershipType: "invitationOnly", PriceCents: c.priceCents, Currency: "USD", IsFree: c.isFree,
			CreatedOn: now, UpdatedOn: now,
		})
	}
	position := make([]int32, len(communities))
	for _, f := range forums {
		d.series = append(d.series, model.Series{
			ID: newID(), CommunityID: d.communities[f.community].ID, Name: f.name, Description: f.description,
			Exclusivity: f.exclusivity, ShareEnabled: f.exclusivity == "open", Position: position[f.community],
			PriceCents: 0, IsFree: true, CreatedOn: now, UpdatedOn: now,
		})
		position[f.community]++
	}

	people := len(loginPeople) + len(members)
	at := func(i int) time.Time { return now.Add(-time.Duration(people-i) * time.Minute) }
	addPerson := func(i int, email, userRole, profileRole string, p person) uuid.UUID {
		u := model.Users{
			ID: newID(), Email: email, EmailKey: auth.EmailKey(email), PasswordHash: hash, Role: userRole,
			FirstName: p.first, LastName: p.last, JobTitle: p.title, Company: p.company, Bio: p.bio,
			InterestTags: p.tags, School: p.school, Degree: p.degree, FieldOfStudy: p.field,
			GraduationYear: &p.year, CreatedOn: at(i), UpdatedOn: at(i),
		}
		d.users = append(d.users, u)
		d.profiles = append(d.profiles, model.Profiles{
			ID: newID(), OrganizationID: OrganizationID, UserID: &u.ID, Role: profileRole,
			Email: email, EmailKey: auth.EmailKey(email), FirstName: p.first, LastName: p.last,
			JobTitle: p.title, Company: p.company, Bio: p.bio, InterestTags: p.tags,
			School: p.school, Degree: p.degree, FieldOfStudy: p.field, GraduationYear: &p.year,
			IsExpert: p.expert, CreatedOn: at(i), UpdatedOn: at(i),
		})
		return d.profiles[len(d.profiles)-1].ID
	}
	joinCommunity := func(c int, profile uuid.UUID, role string, on time.Time) {
		d.communityMemberships = append(d.communityMemberships, model.CommunityMemberships{
			CommunityID: d.communities[c].ID, ProfileID: profile, Role: role, Status: "active",
			IsSubscribed: true, AssignedOn: on,
		})
	}
	joinForum := func(f int, profile uuid.UUID, role string, expert bool, on time.Time) {
		d.seriesMemberships = append(d.seriesMemberships, model.SeriesMemberships{
			SeriesID: d.series[f].ID, ProfileID: profile, Role: role, IsExpert: expert, Status: "active",
			IsSubscribed: true, AssignedOn: on,
		})
	}

	logins := Logins()
	roles := []struct{ user, profile string }{
		{string(auth.RoleSuper), "admin"},
		{string(auth.RoleUser), "admin"},
		{string(auth.RoleUser), "member"},
		{string(auth.RoleUser), "member"},
		{string(auth.RoleUser), "member"},
	}
	var loginProfile []uuid.UUID
	for i, email := range logins {
		loginProfile = append(loginProfile, addPerson(i, email, roles[i].user, roles[i].profile, loginPeople[i]))
	}
	admin, expert, member := loginProfile[1], loginProfile[2], loginProfile[3]
	for c := range communities {
		joinCommunity(c, admin, "admin", at(1))
	}
	for f := range forums {
		joinForum(f, admin, "admin", false, at(1))
	}
	joinCommunity(0, expert, "member", at(2))
	joinCommunity(0, member, "member", at(3))
	for f, fm := range forums {
		if fm.community == 0 {
			joinForum(f, expert, "member", f == expertForum, at(2))
		}
	}
	for _, f := range memberForums {
		joinForum(f, member, "member", false, at(3))
	}

	// The thirty members: a third in each community alone and a third in
	// both, so both member lists have about twenty people and some overlap.
	// Everyone joins their communities' open forums; every other member also
	// gets into the invite-only ones, so those lists are shorter. A profile
	// expert is the forum expert of the first open forum they are in.
	for k, p := range members {
		i := len(loginPeople) + k
		email := auth.EmailKey(strings.ReplaceAll(p.first+"."+p.last, " ", "")) + "@demo.agora"
		email = strings.ReplaceAll(email, "'", "")
		id := addPerson(i, email, string(auth.RoleUser), "member", p)
		in := []bool{k%3 != 2, k%3 != 1}
		expertDone := false
		for c := range communities {
			if in[c] {
				joinCommunity(c, id, "member", at(i))
			}
		}
		for f, fm := range forums {
			if !in[fm.community] {
				continue
			}
			if fm.exclusivity == "inviteOnly" && k%2 != 0 {
				continue
			}
			isExpert := p.expert && !expertDone && fm.exclusivity == "open"
			if isExpert {
				expertDone = true
			}
			joinForum(f, id, "member", isExpert, at(i))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("seed: new id: %w", err)
	}
	return &d, nil
}

// insert writes the rows in foreign-key order, one multi-row INSERT per table.
func (d *data) insert(ctx context.Context, tx pgx.Tx) error {
	steps := []struct {
		name string
		stmt Statement
	}{
		{"organization", table.Organizations.INSERT(table.Organizations.AllColumns).MODEL(d.org)},
		{"users", table.Users.INSERT(table.Users.AllColumns).MODELS(d.users)},
		{"profiles", table.Profiles.INSERT(table.Profiles.AllColumns).MODELS(d.profiles)},
		{"communities", table.Communities.INSERT(table.Communities.AllColumns).MODELS(d.communities)},
		{"series", table.Series.INSERT(table.Series.AllColumns).MODELS(d.series)},
		// The forums' memberships before the communities': a community's
		// membership makes those of its open forums (migration 0025), which
		// the demo's own would then collide with.
		{"series memberships", table.SeriesMemberships.INSERT(table.SeriesMemberships.AllColumns).MODELS(d.seriesMemberships)},
		{"community memberships", table.CommunityMemberships.INSERT(table.CommunityMemberships.AllColumns).MODELS(d.communityMemberships)},
	}
	for _, s := range steps {
		if _, err := db.Exec(ctx, tx, s.stmt); err != nil {
			return fmt.Errorf("seed: insert %s: %w", s.name, err)
		}
	}
	return nil
}
