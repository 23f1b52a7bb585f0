package search

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
	"agora/internal/rules/access"
	index "agora/search"
)

// Bounds of the private chat peer search.
const (
	// MaxPeerText bounds its search box, in runes: a list of terms, longer
	// than the name the other searches take.
	MaxPeerText = 200
	// MaxPeerPageSize is the largest page: the chat panel loads every
	// peer at once (spec 002: GET /peers with pageSize 9999).
	MaxPeerPageSize = 9999
	// peerMatches is how many index matches a search reads back, the best
	// by relevance (the store's largest page): a search matching more
	// shows, and counts, those.
	peerMatches = index.MaxLimit
)

// PeerSearch is GET /peers: the private chat's peers list and its search
// box (spec 002 §2 "Private chat list", §5 "Private chat search").
type PeerSearch struct {
	auth.Caller
	// Text holds the terms, split on whitespace or commas; blank lists
	// every peer.
	Text string
	// Criterion names the fields the terms are looked for in: all, name,
	// org, job, expertise or tags ("" is all).
	Criterion string
	paging.Request
}

// Check adds the parameters' problems to f, so that a transport can
// report them together with its own.
func (in PeerSearch) Check(f apperr.Fields) {
	if utf8.RuneCountInString(in.Text) > MaxPeerText {
		f.Add("q", fmt.Sprintf("must be at most %d characters", MaxPeerText))
	}
	if _, err := index.PeerCriterionFields(in.Criterion); err != nil {
		f.Add("criterion", "must be all, name, org, job, expertise or tags")
	}
	in.Request.Check(f, MaxPeerPageSize)
}

// Peer is someone the viewer may chat with privately (spec 002 Peer).
type Peer struct {
	// ID is the peer's user id, as UserID: a peer is a person with an
	// account, whatever their profiles.
	ID           uuid.UUID `json:"id"`
	UserID       uuid.UUID `json:"userId"`
	Name         string    `json:"name"`
	FirstName    string    `json:"firstName"`
	LastName     string    `json:"lastName"`
	Avatar       *string   `json:"avatar"`
	Company      string    `json:"company"`
	JobTitle     string    `json:"jobTitle"`
	InterestTags []string  `json:"interestTags"`
	// Tags repeats InterestTags: a person has one list of tags in Agora,
	// and the spec's client reads both names.
	Tags []string `json:"tags"`
	// Status is online, away, do-not-disturb or offline (spec 002 §4), as
	// the presence triggers decide it (migration 0017).
	Status string `json:"status"`
	// Presence is since when the peer is online; null when offline.
	Presence *jsontime.Time `json:"presence"`
	// LastMessageOn is the latest private message between the viewer and
	// the peer; null when none.
	LastMessageOn *jsontime.Time `json:"lastMessageOn"`
}

// Peers lists the viewer's peers, the other users with an active
// membership of one of the viewer's active communities, in peerOrder. With terms, only the peers the peers index
// matches, every term in some field of the criterion (one typo allowed in
// words of five letters or more, the last term also as a prefix), among
// its best peerMatches.
func (q *Queries) Peers(ctx context.Context, in PeerSearch) (paging.Page[Peer], error) {
	f := apperr.Fields{}
	in.Check(f)
	if err := f.Err(); err != nil {
		return paging.Page[Peer]{}, err
	}
	page := paging.Page[Peer]{Results: []Peer{}}
	communities, err := access.ActiveCommunities(ctx, q.db.Pool, in.UserID)
	if err != nil || len(communities) == 0 {
		return page, err
	}
	// matched stays nil without terms: every peer.
	var matched []string
	if terms := peerTerms(in.Text); len(terms) > 0 {
		if !index.HasWords(in.Text) {
			return page, nil
		}
		if matched, err = q.matchPeers(ctx, in, communities, terms); err != nil || len(matched) == 0 {
			return page, err
		}
	}
	return q.peerPage(ctx, in, communities, matched)
}

// peerTerms splits a search box's text as spec 002 §5 says: lower-cased,
// on whitespace or commas.
func peerTerms(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return unicode.IsSpace(r) || r == ',' })
}

// matchPeers asks the peers index for the user ids matching the terms in
// the criterion's fields, among the members of the viewer's communities
// other than the viewer. The index may be a moment behind: peerPage reads
// the matches back from Postgres, which drops those who are no longer
// peers.
func (q *Queries) matchPeers(ctx context.Context, in PeerSearch, communities []uuid.UUID, terms []string) ([]string, error) {
	fields, err := index.PeerCriterionFields(in.Criterion)
	if err != nil {
		return nil, err // Check has refused it already
	}
	scope := make([]string, len(communities))
	for i, c := range communities {
		scope[i] = c.String()
	}
	res, err := q.store.Peers().Search(ctx, index.Query{
		Text: strings.Join(terms, " "), Fields: fields, Limit: peerMatches,
		Filter: index.Filter{index.In("communityIds", scope...), index.NotIn("id", in.UserID.String())},
	})
	if err != nil {
		return nil, fmt.Errorf("search: peers: %w", err)
	}
	return index.DocIDs(res.Hits), nil
}

// peerFrom and peerWhere select the peers of the user among users u: the
// other users with an active membership of one of the communities (the
// user's own active ones), only those among matched unless it is nil.
var (
	pu, po   = table.Users.AS("u"), table.OnlineUsers.AS("o")
	peerFrom = pu.LEFT_JOIN(po, po.UserID.EQ(pu.ID))
)

func peerWhere(userID uuid.UUID, communities []uuid.UUID, matched []string) BoolExpression {
	where := pu.ID.NOT_EQ(UUID(userID)).AND(access.ActiveMemberOfAny(pu.ID, communities))
	if matched != nil {
		where = where.AND(db.Any(pu.ID, matched))
	}
	return where
}

// MaxPinnedPeers is how many peers with an unseen private chat the list
// shows first (spec 002 §4).
const MaxPinnedPeers = 5

// peerOrder is spec 002 §4's peer sort: the pinned peers (unseen chats)
// first, then those connected (online, away or do-not-disturb), then the
// latest message with the viewer, then last name; first name and id make
// the order total, so that pages neither repeat nor skip anyone.
func peerOrder(pinned []uuid.UUID, lastMessageOn Expression) []OrderByClause {
	var order []OrderByClause
	if len(pinned) > 0 {
		order = append(order, db.Any(pu.ID, pinned).DESC())
	}
	return append(order, po.UserID.IS_NULL(), lastMessageOn.DESC().NULLS_LAST(), LOWER(pu.LastName), LOWER(pu.FirstName), pu.ID)
}

// lastMessageWith is, for the peer of row pu, when the latest private
// message between them and viewer was written: private_messages of the
// channel the two share through channel_members (migration 0016); null
// when they have not chatted.
func lastMessageWith(viewer uuid.UUID) Expression {
	m, mine, theirs := table.PrivateMessages.AS("lm"), table.ChannelMembers.AS("lmv"), table.ChannelMembers.AS("lmp")
	latest := SELECT(MAX(m.CreatedOn)).
		FROM(m.INNER_JOIN(mine, mine.ChannelID.EQ(m.ChannelID).AND(mine.UserID.EQ(UUID(viewer)))).
			INNER_JOIN(theirs, theirs.ChannelID.EQ(m.ChannelID).AND(theirs.UserID.EQ(pu.ID))))
	// jet writes a subquery without its parentheses in ORDER BY: a call
	// without a name gives them.
	return Func("", latest)
}

// unseenChats are up to MaxPinnedPeers peers of viewer whose latest private
// message to viewer came after viewer last saw their channel: the newest
// message in private_messages of a channel whose channel_members row of
// viewer has last_seen_on before it (or none), written by the other member
// (migration 0016), the most recent first.
func (q *Queries) unseenChats(ctx context.Context, viewer uuid.UUID) ([]uuid.UUID, error) {
	mine, other, l := table.ChannelMembers.AS("um"), table.ChannelMembers.AS("uo"), table.PrivateMessages.AS("ul")
	latest := LATERAL(SELECT(l.CreatorID, l.CreatedOn).FROM(l).WHERE(l.ChannelID.EQ(mine.ChannelID)).
		ORDER_BY(l.CreatedOn.DESC(), l.ID.DESC()).LIMIT(1)).AS("latest")
	latestOn := l.CreatedOn.From(latest)
	return db.Values[uuid.UUID](ctx, q.db.Pool, SELECT(other.UserID).
		FROM(mine.INNER_JOIN(other, other.ChannelID.EQ(mine.ChannelID).AND(other.UserID.NOT_EQ(UUID(viewer)))).
			INNER_JOIN(latest, l.CreatorID.From(latest).EQ(other.UserID))).
		WHERE(mine.UserID.EQ(UUID(viewer)).AND(mine.LastSeenOn.IS_NULL().OR(latestOn.GT(mine.LastSeenOn)))).
		ORDER_BY(latestOn.DESC()).LIMIT(MaxPinnedPeers))
}

// peerPage reads one page of the peers, and how many there are, from
// Postgres.
func (q *Queries) peerPage(ctx context.Context, in PeerSearch, communities []uuid.UUID, matched []string) (paging.Page[Peer], error) {
	pinned, err := q.unseenChats(ctx, in.UserID)
	if err != nil {
		return paging.Page[Peer]{Results: []Peer{}}, fmt.Errorf("search: peers: %w", err)
	}
	return q.sortedPeerPage(ctx, in, communities, matched, pinned)
}

// sortedPeerPage is peerPage with the pinned peers given: one statement
// that also counts the peers (paging.Windowed).
func (q *Queries) sortedPeerPage(ctx context.Context, in PeerSearch, communities []uuid.UUID, matched []string, pinned []uuid.UUID) (paging.Page[Peer], error) {
	where := peerWhere(in.UserID, communities, matched)
	lastMessageOn := lastMessageWith(in.UserID)
	page, err := paging.Windowed(in.Request, func() (page paging.Page[Peer], err error) {
		page.Results, err = db.Collect(ctx, q.db.Pool, SELECT(pu.ID, pu.FirstName, pu.LastName, pu.Avatar, pu.Company, pu.JobTitle, pu.InterestTags,
			po.OnlineOn, po.Status, lastMessageOn, COUNT(STAR).OVER()).
			FROM(peerFrom).WHERE(where).ORDER_BY(peerOrder(pinned, lastMessageOn)...).LIMIT(int64(in.PageSize)).OFFSET(int64(in.Offset())),
			func(r pgx.Row) (Peer, error) { return scanPeer(r, &page.Total) })
		return page, err
	}, func() (int, error) { return db.Count(ctx, q.db.Pool, peerFrom, where) })
	if err != nil {
		return page, fmt.Errorf("search: peers: %w", err)
	}
	if page.Results == nil {
		page.Results = []Peer{}
	}
	return page, nil
}

func scanPeer(r pgx.Row, total *int) (Peer, error) {
	var p Peer
	var online, lastMessage *time.Time
	var status *string
	if err := r.Scan(&p.ID, &p.FirstName, &p.LastName, &p.Avatar, &p.Company, &p.JobTitle, &p.InterestTags, &online, &status, &lastMessage, total); err != nil {
		return p, err
	}
	p.UserID, p.Name, p.Tags = p.ID, p.FirstName+" "+p.LastName, p.InterestTags
	p.Status, p.Presence, p.LastMessageOn = "offline", jsontime.Ptr(online), jsontime.Ptr(lastMessage)
	if status != nil {
		p.Status = *status
	}
	return p, nil
}
