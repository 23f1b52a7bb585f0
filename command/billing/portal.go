package billing

import (
	"context"
	"errors"
	"fmt"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
)

// Portal is a customer portal session: where to send the browser.
type Portal struct {
	URL string `json:"url"`
}

// SubscriptionsPath is the app's page of a member's subscriptions, where
// the portal returns.
const SubscriptionsPath = "/subscriptions"

// Portal is POST /billing-portal-sessions: Stripe's customer portal for
// the caller's customer, where they cancel or change their card; what they
// change comes back through the webhook.
func (s *Service) Portal(ctx context.Context, c auth.Caller) (Portal, error) {
	if s.stripe == nil {
		return Portal{}, ErrPaymentsUnavailable
	}
	bc := table.BillingCustomers
	var customer string
	err := db.QueryRow(ctx, s.db, SELECT(bc.CustomerID).FROM(bc).WHERE(bc.UserID.EQ(UUID(c.UserID)))).Scan(&customer)
	if errors.Is(err, pgx.ErrNoRows) {
		return Portal{}, ErrNoBillingAccount
	}
	if err != nil {
		return Portal{}, fmt.Errorf("billing: portal: %w", err)
	}
	back := s.base() + SubscriptionsPath
	if s.opts.DevCheckout {
		// stripe-mock's portal is not a page anyone can open: the
		// subscriptions page itself stands in for it.
		return Portal{URL: back}, nil
	}
	url, err := s.stripe.CreatePortalSession(ctx, customer, back)
	if err != nil {
		return Portal{}, s.stripeFailed(err, ErrBillingPortalCreating)
	}
	return Portal{URL: url}, nil
}
