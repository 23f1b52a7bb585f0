// Package billing is the read side of paid communities and forums: a
// member's subscriptions, and the dev checkout page's session.
package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/plumbing/jsontime"
	"agora/internal/plumbing/paging"
)

// Queries reads billing from Postgres.
type Queries struct {
	db *pgxpool.Pool
	// devCheckout is whether the dev checkout page is served.
	devCheckout bool
}

// New returns the billing queries over db; devCheckout serves the dev
// checkout page's session (agora dev on stripe-mock).
func New(d *db.DB, devCheckout bool) (*Queries, error) {
	if d == nil || d.Pool == nil {
		return nil, errors.New("billing.New: nil dependency")
	}
	return &Queries{db: d.Pool, devCheckout: devCheckout}, nil
}

// Subscription is one community or forum of one of a member's Stripe
// subscriptions.
type Subscription struct {
	ID                string         `json:"id"`
	ProductID         uuid.UUID      `json:"productId"`
	Kind              string         `json:"kind"`
	Name              string         `json:"name"`
	CommunityID       uuid.UUID      `json:"communityId"`
	Status            string         `json:"status"`
	HasAccess         bool           `json:"hasAccess"`
	CurrentPeriodEnd  *jsontime.Time `json:"currentPeriodEnd"`
	CancelAtPeriodEnd bool           `json:"cancelAtPeriodEnd"`
	Price             int            `json:"price"`
	Currency          string         `json:"currency"`
	CreatedOn         jsontime.Time  `json:"createdOn"`
}

// Subscriptions is GET /subscriptions: the caller's, newest first.
func (q *Queries) Subscriptions(ctx context.Context, c auth.Caller) (paging.Page[Subscription], error) {
	su, se, co := table.Subscriptions, table.Series, table.Communities
	// The product's name now, or the one kept when it is gone.
	name := StringExp(COALESCE(se.Name, co.Name, su.Name))
	rows, err := db.Query(ctx, q.db, SELECT(su.ID, su.ProductID, su.Kind, name, su.CommunityID, su.Status,
		COALESCE(su.AccessUntil.GT(NOW()), Bool(false)), su.CurrentPeriodEnd, su.CancelAtPeriodEnd, su.AmountCents, su.Currency, su.CreatedOn).
		FROM(su.LEFT_JOIN(se, se.ID.EQ(su.ProductID)).LEFT_JOIN(co, co.ID.EQ(su.ProductID))).
		WHERE(su.UserID.EQ(UUID(c.UserID))).
		ORDER_BY(su.CreatedOn.DESC(), su.ID, su.Kind, su.ProductID))
	if err != nil {
		return paging.Page[Subscription]{}, fmt.Errorf("billing: subscriptions: %w", err)
	}
	defer rows.Close()
	page := paging.Page[Subscription]{Results: []Subscription{}}
	for rows.Next() {
		var x Subscription
		var end *time.Time
		var created time.Time
		if err := rows.Scan(&x.ID, &x.ProductID, &x.Kind, &x.Name, &x.CommunityID, &x.Status, &x.HasAccess, &end,
			&x.CancelAtPeriodEnd, &x.Price, &x.Currency, &created); err != nil {
			return page, fmt.Errorf("billing: subscriptions: %w", err)
		}
		x.CurrentPeriodEnd, x.CreatedOn = jsontime.Ptr(end), jsontime.Of(created)
		page.Results = append(page.Results, x)
	}
	page.Total = len(page.Results)
	return page, rows.Err()
}

// DevCheckout is a checkout as the dev checkout page shows it.
type DevCheckout struct {
	ID        uuid.UUID
	CancelURL string
	Items     []model.CheckoutSessionItems
}

// DevCheckout reads checkout id for the dev checkout page; outside agora
// dev on stripe-mock, and for an unknown id, apperr.ErrNotFound.
func (q *Queries) DevCheckout(ctx context.Context, id uuid.UUID) (DevCheckout, error) {
	if !q.devCheckout {
		return DevCheckout{}, apperr.ErrNotFound
	}
	cs, ci := table.CheckoutSessions, table.CheckoutSessionItems
	out := DevCheckout{ID: id}
	err := db.QueryRow(ctx, q.db, SELECT(cs.CancelURL).FROM(cs).WHERE(cs.ID.EQ(UUID(id)))).Scan(&out.CancelURL)
	if errors.Is(err, pgx.ErrNoRows) {
		return out, apperr.ErrNotFound
	}
	if err != nil {
		return out, fmt.Errorf("billing: dev checkout: %w", err)
	}
	out.Items, err = db.All[model.CheckoutSessionItems](ctx, q.db, SELECT(ci.AllColumns).FROM(ci).WHERE(ci.SessionID.EQ(UUID(id))).ORDER_BY(ci.Position))
	if err != nil {
		return out, fmt.Errorf("billing: dev checkout: %w", err)
	}
	return out, nil
}
