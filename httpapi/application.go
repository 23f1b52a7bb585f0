package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"reflect"

	"github.com/prometheus/client_golang/prometheus"

	cmdaccount "agora/command/account"
	cmdaisearch "agora/command/aisearch"
	cmdbilling "agora/command/billing"
	cmdchat "agora/command/chat"
	cmdcommunity "agora/command/community"
	cmddelivery "agora/command/delivery"
	cmdfeed "agora/command/feed"
	cmdforum "agora/command/forum"
	cmdmeetup "agora/command/meetup"
	"agora/command/memberimport"
	cmdminutes "agora/command/minutes"
	cmdorganization "agora/command/organization"
	cmdsso "agora/command/sso"
	cmdupload "agora/command/upload"
	"agora/internal/adapters/linkpreview"
	"agora/internal/adapters/mail"
	"agora/internal/plumbing/db"
	"agora/live"
	"agora/projections"
	qaccount "agora/query/account"
	qbilling "agora/query/billing"
	qchat "agora/query/chat"
	qcommunity "agora/query/community"
	qfeed "agora/query/feed"
	qforum "agora/query/forum"
	qinsights "agora/query/insights"
	qmeetup "agora/query/meetup"
	qnotifications "agora/query/notifications"
	qorganization "agora/query/organization"
	qsearch "agora/query/search"
	qupload "agora/query/upload"
)

// Application is what the API serves: every use case and read, built once
// by the composition root (package app), which is the only place that
// chooses an adapter. The routes receive it and construct nothing.
type Application struct {
	Commands Commands
	Queries  Queries

	Log *slog.Logger
	// DB is asked by /readyz whether Postgres answers and the migrations
	// are applied.
	DB *db.DB
	// Registry receives the HTTP metrics and is served at /metrics.
	Registry *prometheus.Registry
	// Projections tells /readyz the state and lag of the projections
	// this process runs; nil: none.
	Projections ProjectionStates
	// Engines are the parts of the change pipeline this process runs
	// (agora dev: the relay and the embedded broker, or Debezium on Kafka
	// Connect and Kafka), which /readyz names with their versions, so an
	// operator sees which pipeline a figure or a failure comes from; none
	// for a node that only reads KAFKA_BROKERS.
	Engines []Engine
	// Embedder is what embeds the AI search's posts and questions, which
	// /readyz names, and when the word vectors stand in for the model,
	// why; zero for a process that names none.
	Embedder Embedder
	// Hub holds this node's live connections (GET /api/hub); nil answers
	// the route with hubUnavailable.
	Hub *live.Hub
	// Mailbox is set in `agora dev` only: it enables GET /api/dev/mailbox.
	Mailbox *mail.Mailbox
	// TrustedProxies are the reverse proxies whose forwarding headers name
	// the client (AGORA_TRUSTED_PROXIES); empty trusts none.
	TrustedProxies []netip.Prefix
	// PublicURL is the browser-facing base URL (AGORA_PUBLIC_URL), where
	// blob URLs point when it is set; empty means the request's host. The
	// web app's Content-Security-Policy lets its pages load from it.
	PublicURL string
	// SFUPublicURL is LiveKit's address for browsers (LIVEKIT_PUBLIC_URL),
	// which the pages' policy lets the Meet Up screen connect to.
	SFUPublicURL string
	// InsightsBase is where the insights routes are (AGORA_INSIGHTS_BASE);
	// empty means DefaultInsightsBase.
	InsightsBase string
	// Dev is agora dev (and the test servers): it serves the dev-only
	// routes beside the mailbox, such as the dev checkout page.
	Dev bool
}

// Engine is a part of the change pipeline: what captures Postgres's
// changes (capture), what runs it (runtime), and the broker the
// projections read (broker).
type Engine struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// Embedder names the AI search's embedder in /readyz.
type Embedder struct {
	// Kind is api (AGORA_EMBEDDINGS_URL), sentenceModel (the local
	// model), wordVectors (the fallback) or none (keyword ranking only).
	Kind  string `json:"kind"`
	Model string `json:"model,omitempty"`
	// Fallback says why the local model does not embed, when it was
	// tried and the word vectors (or nothing) stand in.
	Fallback string `json:"fallback,omitempty"`
}

// ProjectionStates are the states of a process's projections (a
// projections.Health).
type ProjectionStates interface {
	States() []projections.State
}

// Commands are the write side's use cases, one service per area.
type Commands struct {
	// Accounts are sign-in, registration, one's own user and their
	// personalization.
	Accounts    *cmdaccount.Service
	Communities *cmdcommunity.Service
	Forums      *cmdforum.Service
	Feed        *cmdfeed.Service
	// Meetings are the Meet Ups: scheduling, registrations, breakouts,
	// join tokens and LiveKit's webhook.
	Meetings *cmdmeetup.Service
	// Minutes are a Meet Up's AI notes: this node's recorders and the
	// minutes' calls.
	Minutes       *cmdminutes.Service
	AISearch      *cmdaisearch.Service
	Uploads       *cmdupload.Service
	Organizations *cmdorganization.Service
	// MemberImports imports people from a file into an organization or a
	// community.
	MemberImports *memberimport.Service
	SSO           *cmdsso.Service
	// Chat is private chat.
	Chat *cmdchat.Service
	// Delivery keeps the browsers' push subscriptions and follows the
	// e-mails' unsubscribe links.
	Delivery *cmddelivery.Service
	// Billing is checkout, the customer portal and Stripe's webhook.
	Billing *cmdbilling.Service
}

// Queries are the read side, one per area.
type Queries struct {
	Accounts      *qaccount.Queries
	Communities   *qcommunity.Queries
	Forums        *qforum.Queries
	Feed          *qfeed.Queries
	Meetings      *qmeetup.Queries
	Search        *qsearch.Queries
	Insights      *qinsights.Queries
	Uploads       *qupload.Queries
	LinkPreviews  *linkpreview.Service
	Organizations *qorganization.Queries
	Chat          *qchat.Queries
	// Notifications are the bell's list.
	Notifications *qnotifications.Queries
	// Billing is a member's subscriptions.
	Billing *qbilling.Queries
}

// check refuses an application with a use case missing: a route would
// otherwise fail on its first request rather than at start.
func (a *Application) check() error {
	if a == nil || a.Log == nil || a.DB == nil || a.Registry == nil {
		return errors.New("httpapi.New: nil dependency")
	}
	var missing []string
	for _, group := range []any{a.Commands, a.Queries} {
		v := reflect.ValueOf(group)
		for i := range v.NumField() {
			if v.Field(i).IsNil() {
				missing = append(missing, v.Type().Name()+"."+v.Type().Field(i).Name)
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("httpapi.New: nil dependency %v", missing)
	}
	return nil
}
