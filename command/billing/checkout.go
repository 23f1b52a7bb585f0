package billing

import (
	"context"
	"errors"
	"fmt"
	"strings"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/adapters/payments"
	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
)

// Checkout is POST /checkout-sessions {productId}.
type Checkout struct {
	auth.Caller
	// ProductID is a paid community's or forum's id.
	ProductID *string
}

// CheckoutSession is the session made: where to send the browser, and
// what it subscribes to.
type CheckoutSession struct {
	ID    string         `json:"id"`
	URL   string         `json:"url"`
	Items []CheckoutItem `json:"items"`
}

// CheckoutItem is one product of a checkout.
type CheckoutItem struct {
	ProductID uuid.UUID `json:"productId"`
	Kind      string    `json:"kind"`
	Name      string    `json:"name"`
	Price     int       `json:"price"`
	Currency  string    `json:"currency"`

	priceID string
}

// DevCheckoutPath is where the dev checkout page of a checkout id is.
const DevCheckoutPath = "/api/dev/checkout/"

// Checkout makes a Checkout Session for a member of a paid community or
// forum who has no access to it: the forum's session also covers its
// community when that is paid and not paid for (one session of two line
// items; internal/adapters/payments says why). Stripe is asked outside any
// transaction; the session is recorded once made.
func (s *Service) Checkout(ctx context.Context, in Checkout) (CheckoutSession, error) {
	if in.ProductID == nil {
		return CheckoutSession{}, apperr.MissingParameters("productId")
	}
	productID, err := uuid.Parse(*in.ProductID)
	if err != nil {
		return CheckoutSession{}, apperr.Invalid(map[string]string{"productId": "must be a UUID"})
	}
	if s.stripe == nil {
		return CheckoutSession{}, ErrPaymentsUnavailable
	}
	items, asked, err := s.unpaid(ctx, in.Caller, productID)
	if err != nil {
		return CheckoutSession{}, err
	}
	lines := make([]payments.Item, len(items))
	for i := range items {
		p := payments.Product{ID: items[i].ProductID, Kind: items[i].Kind, Name: items[i].Name}
		if items[i].priceID, err = s.price(ctx, p, items[i].Price); err != nil {
			return CheckoutSession{}, s.stripeFailed(err, ErrCheckoutCreating)
		}
		lines[i] = payments.Item{Product: p, PriceID: items[i].priceID}
	}
	customer, err := s.customer(ctx, in.UserID)
	if err != nil {
		return CheckoutSession{}, s.stripeFailed(err, ErrCheckoutCreating)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return CheckoutSession{}, err
	}
	// Back to the page of what was asked for, the forum's or the
	// community's; Stripe puts the session's id in for the placeholder.
	page := s.base() + "/communities/" + asked.communityID.String()
	if asked.forum {
		page += "/series/" + asked.id.String()
	}
	success, cancel := page+"?checkout=success&session_id={CHECKOUT_SESSION_ID}", page+"?checkout=canceled"
	session, err := s.stripe.CreateCheckoutSession(ctx, payments.Checkout{ID: id, UserID: in.UserID, CustomerID: customer,
		Items: lines, SuccessURL: success, CancelURL: cancel})
	if err != nil {
		return CheckoutSession{}, s.stripeFailed(err, ErrCheckoutCreating)
	}
	err = db.InTx(ctx, s.db, func(tx pgx.Tx) error {
		cs, ci := table.CheckoutSessions, table.CheckoutSessionItems
		if _, err := db.Exec(ctx, tx, cs.INSERT(cs.ID, cs.StripeSessionID, cs.UserID, cs.CustomerID, cs.SuccessURL, cs.CancelURL, cs.CreatedOn).
			VALUES(id, session.ID, in.UserID, customer, success, cancel, s.now())); err != nil {
			return err
		}
		stmt := ci.INSERT(ci.SessionID, ci.ProductID, ci.Position, ci.Kind, ci.Name, ci.StripePriceID, ci.AmountCents, ci.Currency)
		for i, it := range items {
			stmt = stmt.VALUES(id, it.ProductID, i, it.Kind, it.Name, it.priceID, it.Price, it.Currency)
		}
		_, err := db.Exec(ctx, tx, stmt)
		return err
	})
	if err != nil {
		return CheckoutSession{}, fmt.Errorf("billing: checkout: %w", err)
	}
	out := CheckoutSession{ID: session.ID, URL: session.URL, Items: items}
	if s.opts.DevCheckout {
		// stripe-mock's session points at Stripe's hosted page, which
		// cannot be reached: the server's own page stands in for it.
		out.URL = s.base() + DevCheckoutPath + id.String()
	}
	return out, nil
}

// base is the public URL without its trailing slash.
func (s *Service) base() string { return strings.TrimRight(s.opts.PublicURL, "/") }

// stripeFailed logs a failure of Stripe's and answers public instead; an
// error of Agora's own is returned as it is.
func (s *Service) stripeFailed(err error, public *apperr.Error) error {
	if !errors.Is(err, payments.ErrStripe) {
		return err
	}
	s.log.Error("stripe call failed", "err", err)
	return public.Wrap(err)
}

// product is what the checkout reads of a community or forum and of the
// caller's access to it.
type product struct {
	forum                     bool
	id, communityID           uuid.UUID
	name, communityName       string
	paid, communityPaid       bool
	price, communityPrice     int
	paidUp, communityPaidUpTo bool
}

// unpaid checks that the caller is a member of the paid community or forum
// productID without access to it, and lists what they would pay for: the
// community first, when it is paid and not paid for, then the forum.
func (s *Service) unpaid(ctx context.Context, c auth.Caller, productID uuid.UUID) ([]CheckoutItem, product, error) {
	p, err := s.readProduct(ctx, c, productID)
	if err != nil {
		return nil, p, err
	}
	items, err := p.unpaidItems(ctx, s, c)
	return items, p, err
}

func (p product) unpaidItems(ctx context.Context, s *Service, c auth.Caller) ([]CheckoutItem, error) {
	productID := p.id
	if p.forum {
		f, err := access.InForum(ctx, s.db, c.UserID, c.Role, productID)
		switch {
		case err != nil:
			return nil, err
		case f.Admin:
			return nil, ErrAlreadySubscribed
		case !f.Member && !f.Unpaid:
			return nil, access.ErrForumNotFound
		}
	} else {
		cm, err := access.InCommunity(ctx, s.db, c.UserID, c.Role, productID)
		switch {
		case err != nil:
			return nil, err
		case cm.Admin:
			return nil, ErrAlreadySubscribed
		case !cm.Member:
			return nil, access.ErrCommunityNotFound
		}
	}
	var items []CheckoutItem
	if p.communityPaid && !p.communityPaidUpTo {
		items = append(items, CheckoutItem{ProductID: p.communityID, Kind: payments.KindCommunity, Name: p.communityName,
			Price: p.communityPrice, Currency: payments.Currency})
	}
	if p.forum && p.paid && !p.paidUp {
		items = append(items, CheckoutItem{ProductID: p.id, Kind: payments.KindForum, Name: p.name,
			Price: p.price, Currency: payments.Currency})
	}
	switch {
	case len(items) > 0:
		return items, nil
	case !p.paid && !p.communityPaid:
		return nil, ErrProductFree
	default:
		return nil, ErrAlreadySubscribed
	}
}

// readProduct reads the forum or community productID, whether each of it
// and its community is paid, and whether the caller has access to each.
// For a community, its fields are the community's "community" ones.
func (s *Service) readProduct(ctx context.Context, c auth.Caller, productID uuid.UUID) (product, error) {
	me := UUID(c.UserID)
	se, co := table.Series, table.Communities
	paid := func(free ColumnBool, price ColumnInteger) BoolExpression { return NOT(free).AND(price.GT(Int(0))) }
	p := product{forum: true}
	err := db.QueryRow(ctx, s.db, SELECT(se.ID, se.Name, se.CommunityID, paid(se.IsFree, se.PriceCents), se.PriceCents,
		co.Name, paid(co.IsFree, co.PriceCents), co.PriceCents,
		access.ForumPaidUpOf(se.ID, me), access.CommunityPaidUpOf(co.ID, me)).
		FROM(se.INNER_JOIN(co, co.ID.EQ(se.CommunityID))).WHERE(se.ID.EQ(UUID(productID)))).
		Scan(&p.id, &p.name, &p.communityID, &p.paid, &p.price, &p.communityName, &p.communityPaid, &p.communityPrice,
			&p.paidUp, &p.communityPaidUpTo)
	if err == nil {
		return p, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return p, fmt.Errorf("billing: product: %w", err)
	}
	p = product{}
	err = db.QueryRow(ctx, s.db, SELECT(co.ID, co.Name, paid(co.IsFree, co.PriceCents), co.PriceCents, access.CommunityPaidUpOf(co.ID, me)).
		FROM(co).WHERE(co.ID.EQ(UUID(productID)))).
		Scan(&p.communityID, &p.communityName, &p.communityPaid, &p.communityPrice, &p.communityPaidUpTo)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, apperr.ErrNotFound
	}
	if err != nil {
		return p, fmt.Errorf("billing: product: %w", err)
	}
	p.id = p.communityID
	return p, nil
}

// price is the Stripe Price of p at amount cents a month: the one made
// for that amount before, or a new one (and the Product, the first time;
// its name follows a rename). Made concurrently, Stripe's idempotency
// keys make one object, and the first row written wins.
func (s *Service) price(ctx context.Context, p payments.Product, amount int) (string, error) {
	bp, pr := table.BillingProducts, table.BillingPrices
	var stripeProduct, name string
	err := db.QueryRow(ctx, s.db, SELECT(bp.StripeProductID, bp.Name).FROM(bp).WHERE(bp.ProductID.EQ(UUID(p.ID)))).Scan(&stripeProduct, &name)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if stripeProduct, err = s.stripe.CreateProduct(ctx, p); err != nil {
			return "", err
		}
		if _, err := db.Exec(ctx, s.db, bp.INSERT(bp.ProductID, bp.Kind, bp.StripeProductID, bp.Name).
			VALUES(p.ID, p.Kind, stripeProduct, p.Name).ON_CONFLICT(bp.ProductID).DO_NOTHING()); err != nil {
			return "", fmt.Errorf("billing: product: %w", err)
		}
		if err := db.QueryRow(ctx, s.db, SELECT(bp.StripeProductID).FROM(bp).WHERE(bp.ProductID.EQ(UUID(p.ID)))).Scan(&stripeProduct); err != nil {
			return "", fmt.Errorf("billing: product: %w", err)
		}
	case err != nil:
		return "", fmt.Errorf("billing: product: %w", err)
	case name != p.Name:
		if err := s.stripe.RenameProduct(ctx, stripeProduct, p); err != nil {
			return "", err
		}
		if _, err := db.Exec(ctx, s.db, bp.UPDATE(bp.Name, bp.UpdatedOn).SET(String(p.Name), TimestampzT(s.now())).
			WHERE(bp.ProductID.EQ(UUID(p.ID)))); err != nil {
			return "", fmt.Errorf("billing: product: %w", err)
		}
	}
	of := pr.ProductID.EQ(UUID(p.ID)).AND(pr.AmountCents.EQ(Int(int64(amount)))).AND(pr.Currency.EQ(String(payments.Currency)))
	var priceID string
	err = db.QueryRow(ctx, s.db, SELECT(pr.StripePriceID).FROM(pr).WHERE(of)).Scan(&priceID)
	if err == nil {
		return priceID, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("billing: price: %w", err)
	}
	// A new amount: a new Price. Subscriptions made at the old one keep
	// it, since Stripe bills each subscription at its own Price.
	if priceID, err = s.stripe.CreatePrice(ctx, stripeProduct, p, amount); err != nil {
		return "", err
	}
	if _, err := db.Exec(ctx, s.db, pr.INSERT(pr.ProductID, pr.AmountCents, pr.Currency, pr.StripePriceID).
		VALUES(p.ID, amount, payments.Currency, priceID).ON_CONFLICT(pr.ProductID, pr.AmountCents, pr.Currency).DO_NOTHING()); err != nil {
		return "", fmt.Errorf("billing: price: %w", err)
	}
	if err := db.QueryRow(ctx, s.db, SELECT(pr.StripePriceID).FROM(pr).WHERE(of)).Scan(&priceID); err != nil {
		return "", fmt.Errorf("billing: price: %w", err)
	}
	return priceID, nil
}

// customer is the member's Stripe customer, made on their first checkout.
func (s *Service) customer(ctx context.Context, userID uuid.UUID) (string, error) {
	bc, u := table.BillingCustomers, table.Users
	var id string
	err := db.QueryRow(ctx, s.db, SELECT(bc.CustomerID).FROM(bc).WHERE(bc.UserID.EQ(UUID(userID)))).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("billing: customer: %w", err)
	}
	var email, first, last string
	if err := db.QueryRow(ctx, s.db, SELECT(u.Email, u.FirstName, u.LastName).FROM(u).WHERE(u.ID.EQ(UUID(userID)))).Scan(&email, &first, &last); err != nil {
		return "", fmt.Errorf("billing: customer: %w", err)
	}
	if id, err = s.stripe.CreateCustomer(ctx, payments.Customer{UserID: userID, Email: email, Name: strings.TrimSpace(first + " " + last)}); err != nil {
		return "", err
	}
	if _, err := db.Exec(ctx, s.db, bc.INSERT(bc.UserID, bc.CustomerID).VALUES(userID, id).ON_CONFLICT(bc.UserID).DO_NOTHING()); err != nil {
		return "", fmt.Errorf("billing: customer: %w", err)
	}
	if err := db.QueryRow(ctx, s.db, SELECT(bc.CustomerID).FROM(bc).WHERE(bc.UserID.EQ(UUID(userID)))).Scan(&id); err != nil {
		return "", fmt.Errorf("billing: customer: %w", err)
	}
	return id, nil
}
