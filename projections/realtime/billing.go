package realtime

import (
	"fmt"

	"github.com/google/uuid"

	"agora/projections/change"
)

// SubscriptionCreated tells a member that a subscription of theirs now
// gives them access to a community or a forum (spec 000 §7: it completes
// the subscribe flow without a reload).
const SubscriptionCreated = "user.subscription.created"

// SubscriptionPayload is the payload of user.subscription.created.
type SubscriptionPayload struct {
	UserID         uuid.UUID `json:"userId" cdc:"user_id"`
	ProductID      uuid.UUID `json:"productId" cdc:"product_id"`
	Kind           string    `json:"kind" cdc:"kind"`
	CommunityID    uuid.UUID `json:"communityId" cdc:"community_id"`
	SubscriptionID string    `json:"subscriptionId" cdc:"id"`
}

// paying are the statuses in which a subscription gives access because it
// is paid (past_due is a grace, not a start).
func paying(status string) bool { return status == "active" || status == "trialing" }

// subscriptionEvents: a subscription row (one per product of a Stripe
// subscription, written by the webhook) that starts being paid, written
// so or moved there from a status that gave no access, is told to its
// member alone. A renewal (active to active) or a recovery from past due
// is no new subscription.
func subscriptionEvents(c change.Change) ([]Event, error) {
	if c.Op != change.Create && c.Op != change.Update {
		return nil, nil
	}
	var p SubscriptionPayload
	var after struct {
		Status string `cdc:"status"`
	}
	if err := c.After.Scan(&p); err != nil {
		return nil, fmt.Errorf("realtime: subscriptions: %w", err)
	}
	if err := c.After.Scan(&after); err != nil || !paying(after.Status) {
		return nil, err
	}
	if c.Op == change.Update && c.Before != nil {
		var before struct {
			Status string `cdc:"status"`
		}
		if err := c.Before.Scan(&before); err == nil && (paying(before.Status) || before.Status == "past_due") {
			return nil, nil
		}
	}
	return []Event{{
		Type: SubscriptionCreated, ContextKey: "user:" + p.UserID.String(), Payload: p,
		To: []Audience{{TheUser, p.UserID}},
	}}, nil
}
