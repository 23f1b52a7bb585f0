// Package config parses the process configuration once, from flags and the
// environment, into typed structs with defaults. Validate reports every bad
// value at once so an operator fixes them in one go.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"agora/internal/plumbing/vapid"
)

// Config is everything a process of the agora binary is configured with.
type Config struct {
	// Addr is the HTTP listen address of the API.
	Addr string
	// DataDir holds the embedded runtime's state (Postgres cluster, mailbox…).
	DataDir string
	// DatabaseURL, when set, is used instead of spawning an embedded Postgres.
	DatabaseURL string
	// PublicURL is the browser-facing base URL used in e-mailed links and
	// in upload and blob URLs; agora api requires it, agora dev defaults
	// it to its own address.
	PublicURL string
	// Command is the subcommand being run (dev, api, migrate…), for the
	// settings that one of them requires.
	Command string
	// Dev enables development-only endpoints such as the dev mailbox.
	Dev bool
	// SSOTestProvider (agora dev --sso-test-provider) runs a test OpenID
	// Provider on loopback to try single sign-on with; never outside dev.
	SSOTestProvider bool
	// Engines (agora dev --engines) are the change pipeline's engines:
	// EnginesEmbedded (the default: the relay and the embedded broker,
	// quick to start) or EnginesReal (Debezium's Postgres connector on
	// Kafka Connect, and a Kafka broker, as deploy/ runs them).
	Engines string
	// DemoPassword is the password of the seeded demo logins.
	DemoPassword string
	// LogLevel is one of debug, info, warn, error.
	LogLevel string
	// TrustedProxies is AGORA_TRUSTED_PROXIES: comma-separated IP addresses
	// and CIDR ranges of the reverse proxies in front of the API, whose
	// X-Forwarded-For and X-Real-IP name the client. Empty trusts none, so
	// a client cannot choose the address its rate limits count against.
	TrustedProxies string
	// OutboundAllow is AGORA_OUTBOUND_ALLOW: comma-separated address:port
	// pairs, each allowed exactly, that the server may connect to for a URL
	// a member or an admin supplied although they are not public (link
	// previews, push endpoints, identity providers). Empty allows none: a
	// URL cannot make the server reach its own network. For tests, whose
	// servers listen on loopback; agora dev adds its test identity
	// provider's address itself.
	OutboundAllow string
	// PresenceAwayAfter is AGORA_PRESENCE_AWAY_AFTER: how long every tab of
	// a member may be hidden or without input before they are away.
	PresenceAwayAfter time.Duration

	Auth AuthConfig
	SMTP SMTPConfig
	// MailLimits bound the mail and push that members' writes send.
	MailLimits MailLimits
	Kafka      KafkaConfig
	Blobs      BlobConfig

	// Search chooses the search read store.
	Search SearchConfig

	// Warehouse places the insights warehouse (ClickHouse).
	Warehouse WarehouseConfig

	// InsightsBase is AGORA_INSIGHTS_BASE, the path the insights reports
	// are served under (spec 002 §7: "a separate insights service base").
	InsightsBase string

	// LinkPreview configures GET /api/links/preview.
	LinkPreview LinkPreviewConfig

	// AI chooses what answers the forums' AI search.
	AI AIConfig

	// Embeddings chooses what embeds posts and questions for the AI
	// search's retrieval by meaning.
	Embeddings EmbeddingsConfig

	// Push signs and sends the browsers' web push notifications.
	Push PushConfig

	// LiveKit places the SFU of Meet Ups.
	LiveKit LiveKitConfig

	// Stripe is the account paid communities and forums are billed on.
	Stripe StripeConfig
}

// StripeConfig is the Stripe account that bills paid communities and
// forums. With neither key set, agora dev (and the test harness) start a
// local stripe-mock and fill these in; agora api then has no payments:
// checkout answers that payments are unavailable.
type StripeConfig struct {
	// SecretKey is STRIPE_SECRET_KEY (sk_live_…, sk_test_… or a restricted
	// rk_… key): products, prices, checkout and portal sessions.
	SecretKey string
	// WebhookSecret is STRIPE_WEBHOOK_SECRET (whsec_…), the signing secret
	// of the webhook endpoint registered in Stripe for
	// AGORA_PUBLIC_URL/api/stripe/webhook.
	WebhookSecret string
	// APIURL is STRIPE_API_URL, the base URL of the Stripe API the server
	// calls; empty is Stripe's own (https://api.stripe.com). agora dev and
	// the tests point it at their stripe-mock.
	APIURL string
	// GracePeriod is AGORA_BILLING_GRACE_PERIOD: how long a past-due
	// subscription (a renewal whose payment failed, which Stripe retries)
	// keeps giving access.
	GracePeriod time.Duration
}

// Enabled reports whether a Stripe account (or stripe-mock) is configured.
func (s StripeConfig) Enabled() bool { return s.SecretKey != "" }

// DevCheckout reports whether checkout sessions send the browser to the
// dev checkout page of agora dev rather than to Stripe's hosted page: in
// agora dev (and the tests) against an API other than Stripe's own, whose
// sessions' pages cannot be reached.
func (c Config) DevCheckout() bool { return c.Dev && c.Stripe.Enabled() && c.Stripe.APIURL != "" }

// StripeMockDir is the folder of the local stripe-mock: DataDir/stripe-mock.
func (c Config) StripeMockDir() string {
	return filepath.Join(c.DataDir, "stripe-mock")
}

// LiveKitConfig places the LiveKit server (the SFU) that Meet Ups run on.
// With URL unset, agora dev (and the test harness) start a local
// livekit-server under DataDir/livekit and fill these in; agora api then
// has no SFU and Meet Ups cannot be joined.
type LiveKitConfig struct {
	// URL is LIVEKIT_URL, where the server reaches LiveKit's room service
	// and signalling: ws(s):// or http(s)://host:port.
	URL string
	// PublicURL is LIVEKIT_PUBLIC_URL, the signalling URL browsers connect
	// to (ws(s)://); empty means URL.
	PublicURL string
	// APIKey and APISecret are LIVEKIT_API_KEY and LIVEKIT_API_SECRET, one
	// of the server's key pairs: they sign the join tokens and room
	// service calls, and LiveKit signs its webhooks with them.
	APIKey    string
	APISecret string
}

// Enabled reports whether an SFU is configured.
func (l LiveKitConfig) Enabled() bool { return l.URL != "" }

// SFUDir is the folder of the local LiveKit server: DataDir/livekit.
func (c Config) SFUDir() string {
	return filepath.Join(c.DataDir, "livekit")
}

// PushConfig is the VAPID identity (RFC 8292) of the web push
// notifications. Without a key pair push is off: GET /api/push/key answers
// that it is not available and nothing is pushed; agora dev makes a pair
// once and keeps it in its data folder (vapid.json).
type PushConfig struct {
	// PublicKey is AGORA_VAPID_PUBLIC_KEY: the uncompressed P-256 point,
	// base64url, that browsers subscribe with.
	PublicKey string
	// PrivateKey is AGORA_VAPID_PRIVATE_KEY: its 32-byte scalar, base64url.
	PrivateKey string
	// Subject is AGORA_VAPID_SUBJECT: a mailto: or https: URL a push
	// service may contact about the messages.
	Subject string
}

// Enabled reports whether a key pair is configured.
func (p PushConfig) Enabled() bool { return p.PublicKey != "" || p.PrivateKey != "" }

// AI providers of AIConfig.Provider.
const (
	// AIProviderOpenAI is any OpenAI-compatible chat completions server:
	// OpenAI, Ollama, vLLM, llama.cpp's server.
	AIProviderOpenAI = "openai"
	// AIProviderAnthropic is Anthropic's Messages API.
	AIProviderAnthropic = "anthropic"
)

// AIConfig chooses what answers the forums' AI search. With nothing set it
// is the extractive answerer, which needs no model: it answers with the
// retrieved posts' sentences that share the most words with the question.
type AIConfig struct {
	// Provider is AGORA_AI_PROVIDER: AIProviderOpenAI or AIProviderAnthropic;
	// empty means openai when ModelURL is set, and no model otherwise.
	Provider string
	// ModelURL is AGORA_AI_MODEL_URL, the API's base URL, such as
	// https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama);
	// optional for Anthropic.
	ModelURL string
	// Model is AGORA_AI_MODEL, the model's name at that server.
	Model string
	// APIKey is AGORA_AI_API_KEY; local servers usually need none, Anthropic
	// does.
	APIKey string
	// MaxTokens is AGORA_AI_MAX_TOKENS, the longest answer in tokens; 0
	// leaves it to the server (Anthropic's client then asks for 2048).
	MaxTokens int
	// SearchesPerAccountPerMinute is AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE:
	// the AI searches (follow-ups included) one account may ask a minute.
	// Each may cost a model's time, so a few accounts must not be able to
	// keep it busy for everyone.
	SearchesPerAccountPerMinute int
}

// ModelProvider is the provider that answers: Provider, else openai when
// ModelURL is set; empty means no model (the extractive answerer).
func (a AIConfig) ModelProvider() string {
	if a.Provider == "" && a.ModelURL != "" {
		return AIProviderOpenAI
	}
	return a.Provider
}

// EmbeddingsConfig chooses the embedding model that turns posts and
// questions into vectors, so that the AI search also finds the posts that
// say the same in other words (hybrid retrieval). With URL unset, agora
// dev serves the sentence-embedding model (SentenceModel, ONNXRuntime)
// behind the same API on loopback and fills URL and Model in, or word
// vectors (WordVectors) when the model cannot load; without either, or in
// agora api, the AI search ranks by keywords only.
type EmbeddingsConfig struct {
	// URL is AGORA_EMBEDDINGS_URL, the base URL of an OpenAI-compatible
	// embeddings API, such as https://api.openai.com/v1 or
	// http://127.0.0.1:11434/v1 (Ollama); /embeddings is appended to it.
	URL string
	// Model is AGORA_EMBEDDINGS_MODEL, the embedding model's name at that
	// server (text-embedding-3-small, nomic-embed-text…).
	Model string
	// APIKey is AGORA_EMBEDDINGS_API_KEY; local servers usually need none.
	APIKey string
	// WordVectors is AGORA_WORD_VECTORS, the word-vector file agora dev
	// embeds with when URL is unset (made by agora wordvectors import);
	// empty means the one scripts/install-deps.sh wordvectors installs,
	// ($XDG_CACHE_HOME or ~/.cache)/agora/wordvectors-<version>/.
	WordVectors string
	// SentenceModel is AGORA_SENTENCE_MODEL, the folder of the sentence
	// model (model.onnx and tokenizer.json, all-MiniLM-L6-v2's) agora dev
	// embeds with when URL is unset; empty means the one
	// scripts/install-deps.sh sentencemodel installs.
	SentenceModel string
	// ONNXRuntime is AGORA_ONNXRUNTIME, ONNX Runtime's shared library
	// (libonnxruntime.so, of the C API version 24) that runs the model;
	// empty means the one scripts/install-deps.sh sentencemodel installs.
	ONNXRuntime string
	// Cache is AGORA_EMBEDDINGS_CACHE, the folder where agora dev keeps
	// the sentence model's vectors, so that a text is embedded once for
	// every start; empty means ($XDG_CACHE_HOME or ~/.cache)/agora/
	// embeddings, EmbeddingsCacheOff keeps none.
	Cache string
}

// EmbeddingsCacheOff is the AGORA_EMBEDDINGS_CACHE that keeps no vectors.
const EmbeddingsCacheOff = "off"

// Enabled reports whether an embeddings API is configured.
func (e EmbeddingsConfig) Enabled() bool { return e.URL != "" }

// LinkPreviewConfig configures the link previews of posts.
type LinkPreviewConfig struct {
	// PerAccountPerMinute bounds the previews one account asks for.
	PerAccountPerMinute int
}

// BlobConfig places the embedded blob store that keeps uploads, and the
// lifetimes of its signed URLs.
type BlobConfig struct {
	// Dir is AGORA_BLOB_DIR; empty means DataDir/blobs. Several API nodes
	// share one folder (a network volume) and one Secret.
	Dir string
	// Secret is AGORA_BLOB_SECRET, the key that signs blob URLs; empty
	// means a random key made on first use and kept in the folder.
	Secret string
	// UploadURLTTL is how long a URL from POST /api/sas accepts the upload.
	UploadURLTTL time.Duration
	// ReadURLTTL is how long a read URL of an uploaded blob serves it.
	// Posts keep the upload's id and the feed signs a URL each time it is
	// read, so it is short: a deleted post's files, or the files of a
	// forum the reader left, stop being served once it has run.
	ReadURLTTL time.Duration
	// UploadQuota is AGORA_UPLOAD_QUOTA_BYTES, the most bytes a member's
	// uploads not on a post may take: the declared sizes of those not put
	// yet and the sizes of those put and not attached.
	UploadQuota int64
	// UnattachedTTL is AGORA_UPLOAD_UNATTACHED_TTL: an upload that no post
	// shows after it is deleted, with its blob.
	UnattachedTTL time.Duration
}

// SearchConfig chooses the search read store: Meilisearch when MeiliURL is
// set, the embedded engine (Bleve, under DataDir/search) otherwise.
type SearchConfig struct {
	// MeiliURL is MEILI_URL, Meilisearch's http(s) base URL.
	MeiliURL string
	// MeiliMasterKey is MEILI_MASTER_KEY, the key the adapter manages its
	// indexes with; empty for a server started without one.
	MeiliMasterKey string
}

// WarehouseConfig places the insights warehouse: the ClickHouse database of
// ClickHouseURL when set, else a local clickhouse-server that the embedded
// runtime starts under DataDir/clickhouse.
type WarehouseConfig struct {
	// ClickHouseURL is CLICKHOUSE_URL, clickhouse://user:password@host:9000/
	// database: ClickHouse's native protocol (its HTTP interface is not
	// used; clickhouse-go's HTTP mode does not work with 18.16).
	ClickHouseURL string
}

// WarehouseDir is the folder of the local ClickHouse server:
// DataDir/clickhouse.
func (c Config) WarehouseDir() string {
	return filepath.Join(c.DataDir, "clickhouse")
}

// SearchDir is the folder of the embedded search engine: DataDir/search.
func (c Config) SearchDir() string {
	return filepath.Join(c.DataDir, "search")
}

// BlobDir is the folder of the blob store: Blobs.Dir, else DataDir/blobs.
func (c Config) BlobDir() string {
	if c.Blobs.Dir != "" {
		return c.Blobs.Dir
	}
	return filepath.Join(c.DataDir, "blobs")
}

// KafkaConfig places the change stream: the broker, its topics, the relay's
// slot, and where a standalone projector serves its metrics.
type KafkaConfig struct {
	// Brokers is KAFKA_BROKERS, comma-separated host:port; empty means the
	// embedded broker (agora dev), and is required by agora relay and
	// agora projector, which run as processes of their own.
	Brokers string
	// TopicPrefix is Debezium's topic.prefix: topics are prefix.public.<table>.
	TopicPrefix string
	// Partitions is the partition count of the topics Agora creates.
	Partitions int
	// RelaySlot is the relay's replication slot.
	RelaySlot string
	// MetricsAddr is where agora relay and agora projector serve /metrics.
	MetricsAddr string
	// RetryMaxBackoff bounds the wait between two tries of a change whose
	// target is unavailable, which a projection retries until it is back.
	RetryMaxBackoff time.Duration
	// StallAfter is how long a projection retries before /readyz and
	// /metrics call it stalled.
	StallAfter time.Duration
}

// BrokerList is Brokers split at commas, without blanks.
func (k KafkaConfig) BrokerList() []string {
	var out []string
	for _, b := range strings.Split(k.Brokers, ",") {
		if b = strings.TrimSpace(b); b != "" {
			out = append(out, b)
		}
	}
	return out
}

// TrustedProxyList is TrustedProxies parsed: a single address is a range
// of one. What does not parse is left out; Validate reports it.
func (c Config) TrustedProxyList() []netip.Prefix {
	list, _ := parsePrefixes(c.TrustedProxies)
	return list
}

// OutboundAllowList is OutboundAllow parsed. What does not parse is left
// out; Validate reports it.
func (c Config) OutboundAllowList() []netip.AddrPort {
	list, _ := parseAddrPorts(c.OutboundAllow)
	return list
}

// parseAddrPorts reads a comma-separated list of address:port pairs,
// returning the entries that are not one (a range, a name, no port).
func parseAddrPorts(s string) (list []netip.AddrPort, bad []string) {
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if ap, err := netip.ParseAddrPort(item); err == nil && ap.Port() != 0 {
			list = append(list, ap)
		} else {
			bad = append(bad, item)
		}
	}
	return list, bad
}

// parsePrefixes reads a comma-separated list of addresses and CIDR ranges,
// returning the entries that are neither.
func parsePrefixes(s string) (list []netip.Prefix, bad []string) {
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			list = append(list, p.Masked())
		} else if a, err := netip.ParseAddr(item); err == nil && a.Zone() == "" {
			a = a.Unmap()
			list = append(list, netip.PrefixFrom(a, a.BitLen()))
		} else {
			bad = append(bad, item)
		}
	}
	return list, bad
}

// AuthConfig holds the session, token and abuse-protection settings.
type AuthConfig struct {
	SessionTTL       time.Duration
	PasswordResetTTL time.Duration
	InvitationTTL    time.Duration
	// SignInPerIPPerMinute follows Discourse's max_logins_per_ip_per_minute (6).
	SignInPerIPPerMinute      int
	SignInPerAccountPerMinute int
	// ResetPerAccountPerHour bounds reset mails to one address.
	ResetPerAccountPerHour int
	// MaxConcurrentHashes bounds argon2id work so a burst of sign-ins cannot
	// exhaust memory (each hash holds 19 MiB).
	MaxConcurrentHashes int
}

// MailLimits bound the mail and push that members' writes make the server
// send, per recipient and per actor, so that no write can make it flood an
// address (issue 31, G3). Their counts are kept in Postgres, so that they
// hold across API nodes and projectors.
type MailLimits struct {
	// InvitationResendAfter is AGORA_INVITATION_RESEND_AFTER: an address
	// mailed an invitation into a place within it is not mailed it again
	// (the first mail's link still works); the answer counts it as
	// alreadyInvited.
	InvitationResendAfter time.Duration
	// InvitationsPerActorPerDay is AGORA_INVITATIONS_PER_ACTOR_PER_DAY:
	// the invitation mails one member's calls may send in 24 hours; a call
	// that would pass it sends nothing and is 429 tooManyRequests.
	InvitationsPerActorPerDay int
	// NotificationBurst is AGORA_NOTIFICATION_BURST: after a mention or
	// Meet Up mail, those that follow within it are held and mailed
	// together, as one, when it ends; their pushes are not sent. A member
	// is pushed at most one mention or Meet Up, one comment or reply, and
	// one message per conversation within it.
	NotificationBurst time.Duration
	// MentionMailsPerAuthorPerHour is AGORA_MENTION_MAILS_PER_AUTHOR_PER_HOUR:
	// the mention and Meet Up mails one author's writes may cause in an
	// hour; past it they wait for the recipients' digests.
	MentionMailsPerAuthorPerHour int
}

// SMTPConfig selects the SMTP mail adapter when Host is set; otherwise mail
// goes to the dev mailbox.
type SMTPConfig struct {
	Host     string
	Port     int
	Username string
	Password string
	From     string
}

// The values of Engines.
const (
	EnginesEmbedded = "embedded"
	EnginesReal     = "real"
)

// Default returns the configuration used when nothing is set.
func Default() Config {
	return Config{
		Addr:         "127.0.0.1:8080",
		DataDir:      "./var",
		PublicURL:    "",
		DemoPassword: "agora-demo",
		LogLevel:     "info",

		PresenceAwayAfter: 5 * time.Minute,
		Auth: AuthConfig{
			SessionTTL:                30 * 24 * time.Hour,
			PasswordResetTTL:          time.Hour,
			InvitationTTL:             14 * 24 * time.Hour,
			SignInPerIPPerMinute:      6,
			SignInPerAccountPerMinute: 6,
			ResetPerAccountPerHour:    3,
			MaxConcurrentHashes:       4,
		},
		SMTP: SMTPConfig{Port: 587, From: "Agora <no-reply@agora.local>"},
		MailLimits: MailLimits{InvitationResendAfter: time.Hour, InvitationsPerActorPerDay: 100,
			NotificationBurst: 15 * time.Minute, MentionMailsPerAuthorPerHour: 200},
		Engines: EnginesEmbedded,
		Kafka: KafkaConfig{TopicPrefix: "agora", Partitions: 8, RelaySlot: "agora_relay", MetricsAddr: "127.0.0.1:9464",
			RetryMaxBackoff: 30 * time.Second, StallAfter: time.Minute},
		Blobs: BlobConfig{UploadURLTTL: 15 * time.Minute, ReadURLTTL: 2 * time.Hour, UploadQuota: 200 << 20, UnattachedTTL: 24 * time.Hour},

		LinkPreview: LinkPreviewConfig{PerAccountPerMinute: 30},
		AI:          AIConfig{SearchesPerAccountPerMinute: 10},

		InsightsBase: "/api/insights",

		// Stripe retries a failed renewal over about a week (its default
		// smart retries); access stays while it does.
		Stripe: StripeConfig{GracePeriod: 7 * 24 * time.Hour},
	}
}

// Env is the environment lookup FromEnv reads; tests pass a map's lookup.
type Env func(key string) (string, bool)

// FromEnv overlays environment variables on c. Parse errors are collected and
// returned together with Validate's, so nothing is reported piecemeal.
func (c *Config) FromEnv(lookup Env) []error {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	var errs []error
	str := func(key string, dst *string) {
		if v, ok := lookup(key); ok {
			*dst = v
		}
	}
	integer := func(key string, dst *int) {
		if v, ok := lookup(key); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %q is not a whole number", key, v))
				return
			}
			*dst = n
		}
	}
	duration := func(key string, dst *time.Duration) {
		if v, ok := lookup(key); ok {
			d, err := time.ParseDuration(strings.TrimSpace(v))
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %q is not a duration such as 15m or 24h", key, v))
				return
			}
			*dst = d
		}
	}
	str("AGORA_ADDR", &c.Addr)
	str("AGORA_DATA_DIR", &c.DataDir)
	str("DATABASE_URL", &c.DatabaseURL)
	str("AGORA_PUBLIC_URL", &c.PublicURL)
	str("AGORA_DEMO_PASSWORD", &c.DemoPassword)
	str("AGORA_LOG_LEVEL", &c.LogLevel)
	str("AGORA_TRUSTED_PROXIES", &c.TrustedProxies)
	str("AGORA_OUTBOUND_ALLOW", &c.OutboundAllow)
	duration("AGORA_PRESENCE_AWAY_AFTER", &c.PresenceAwayAfter)
	duration("AGORA_SESSION_TTL", &c.Auth.SessionTTL)
	duration("AGORA_PASSWORD_RESET_TTL", &c.Auth.PasswordResetTTL)
	duration("AGORA_INVITATION_TTL", &c.Auth.InvitationTTL)
	integer("AGORA_SIGNIN_PER_IP_PER_MINUTE", &c.Auth.SignInPerIPPerMinute)
	integer("AGORA_SIGNIN_PER_ACCOUNT_PER_MINUTE", &c.Auth.SignInPerAccountPerMinute)
	integer("AGORA_RESET_PER_ACCOUNT_PER_HOUR", &c.Auth.ResetPerAccountPerHour)
	integer("AGORA_MAX_CONCURRENT_HASHES", &c.Auth.MaxConcurrentHashes)
	duration("AGORA_INVITATION_RESEND_AFTER", &c.MailLimits.InvitationResendAfter)
	integer("AGORA_INVITATIONS_PER_ACTOR_PER_DAY", &c.MailLimits.InvitationsPerActorPerDay)
	duration("AGORA_NOTIFICATION_BURST", &c.MailLimits.NotificationBurst)
	integer("AGORA_MENTION_MAILS_PER_AUTHOR_PER_HOUR", &c.MailLimits.MentionMailsPerAuthorPerHour)
	str("SMTP_HOST", &c.SMTP.Host)
	integer("SMTP_PORT", &c.SMTP.Port)
	str("SMTP_USERNAME", &c.SMTP.Username)
	str("SMTP_PASSWORD", &c.SMTP.Password)
	str("SMTP_FROM", &c.SMTP.From)
	str("KAFKA_BROKERS", &c.Kafka.Brokers)
	str("AGORA_KAFKA_TOPIC_PREFIX", &c.Kafka.TopicPrefix)
	integer("AGORA_KAFKA_PARTITIONS", &c.Kafka.Partitions)
	str("AGORA_RELAY_SLOT", &c.Kafka.RelaySlot)
	str("AGORA_METRICS_ADDR", &c.Kafka.MetricsAddr)
	duration("AGORA_PROJECTION_RETRY_MAX_BACKOFF", &c.Kafka.RetryMaxBackoff)
	duration("AGORA_PROJECTION_STALL_AFTER", &c.Kafka.StallAfter)
	str("AGORA_BLOB_DIR", &c.Blobs.Dir)
	str("AGORA_BLOB_SECRET", &c.Blobs.Secret)
	duration("AGORA_UPLOAD_URL_TTL", &c.Blobs.UploadURLTTL)
	duration("AGORA_BLOB_URL_TTL", &c.Blobs.ReadURLTTL)
	if v, ok := lookup("AGORA_UPLOAD_QUOTA_BYTES"); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("AGORA_UPLOAD_QUOTA_BYTES: %q is not a whole number of bytes", v))
		} else {
			c.Blobs.UploadQuota = n
		}
	}
	duration("AGORA_UPLOAD_UNATTACHED_TTL", &c.Blobs.UnattachedTTL)
	integer("AGORA_LINK_PREVIEWS_PER_ACCOUNT_PER_MINUTE", &c.LinkPreview.PerAccountPerMinute)
	str("MEILI_URL", &c.Search.MeiliURL)
	str("MEILI_MASTER_KEY", &c.Search.MeiliMasterKey)
	str("CLICKHOUSE_URL", &c.Warehouse.ClickHouseURL)
	str("AGORA_INSIGHTS_BASE", &c.InsightsBase)
	str("AGORA_AI_PROVIDER", &c.AI.Provider)
	str("AGORA_AI_MODEL_URL", &c.AI.ModelURL)
	str("AGORA_AI_MODEL", &c.AI.Model)
	str("AGORA_AI_API_KEY", &c.AI.APIKey)
	integer("AGORA_AI_MAX_TOKENS", &c.AI.MaxTokens)
	integer("AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE", &c.AI.SearchesPerAccountPerMinute)
	str("AGORA_EMBEDDINGS_URL", &c.Embeddings.URL)
	str("AGORA_EMBEDDINGS_MODEL", &c.Embeddings.Model)
	str("AGORA_EMBEDDINGS_API_KEY", &c.Embeddings.APIKey)
	str("AGORA_WORD_VECTORS", &c.Embeddings.WordVectors)
	str("AGORA_SENTENCE_MODEL", &c.Embeddings.SentenceModel)
	str("AGORA_ONNXRUNTIME", &c.Embeddings.ONNXRuntime)
	str("AGORA_EMBEDDINGS_CACHE", &c.Embeddings.Cache)
	str("AGORA_VAPID_PUBLIC_KEY", &c.Push.PublicKey)
	str("AGORA_VAPID_PRIVATE_KEY", &c.Push.PrivateKey)
	str("AGORA_VAPID_SUBJECT", &c.Push.Subject)
	str("LIVEKIT_URL", &c.LiveKit.URL)
	str("LIVEKIT_PUBLIC_URL", &c.LiveKit.PublicURL)
	str("LIVEKIT_API_KEY", &c.LiveKit.APIKey)
	str("LIVEKIT_API_SECRET", &c.LiveKit.APISecret)
	str("STRIPE_SECRET_KEY", &c.Stripe.SecretKey)
	str("STRIPE_WEBHOOK_SECRET", &c.Stripe.WebhookSecret)
	str("STRIPE_API_URL", &c.Stripe.APIURL)
	duration("AGORA_BILLING_GRACE_PERIOD", &c.Stripe.GracePeriod)
	return errs
}

// Validate reports every invalid value at once.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		bad("AGORA_ADDR (--addr): %q is not host:port", c.Addr)
	}
	if c.SSOTestProvider && !c.Dev {
		bad("--sso-test-provider: only agora dev runs the test identity provider")
	}
	switch {
	case c.Engines != EnginesEmbedded && c.Engines != EnginesReal:
		bad("--engines: %q is neither %s nor %s", c.Engines, EnginesEmbedded, EnginesReal)
	case c.Engines == EnginesReal && !c.Dev:
		bad("--engines: only agora dev starts engines; the other roles use KAFKA_BROKERS")
	}
	if c.DatabaseURL == "" && strings.TrimSpace(c.DataDir) == "" {
		bad("AGORA_DATA_DIR (--data): required when DATABASE_URL is not set")
	}
	if c.DatabaseURL != "" {
		if u, err := url.Parse(c.DatabaseURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			bad("DATABASE_URL: must be a postgres:// URL")
		}
	}
	if c.PublicURL == "" && c.Command == "api" {
		bad("AGORA_PUBLIC_URL: required by agora api: the browser-facing base URL (such as https://agora.example.org) of upload, blob and mailed links, which must not come from a request's Host header")
	}
	if c.PublicURL != "" {
		if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("AGORA_PUBLIC_URL: %q is not an http(s) URL", c.PublicURL)
		}
	}
	if n := len(c.DemoPassword); n < 8 || n > 64 || strings.ContainsAny(c.DemoPassword, " \t\n") {
		bad("AGORA_DEMO_PASSWORD: must be 8 to 64 characters without spaces")
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		bad("AGORA_LOG_LEVEL: %q is not one of debug, info, warn, error", c.LogLevel)
	}
	if _, wrong := parsePrefixes(c.TrustedProxies); len(wrong) > 0 {
		bad("AGORA_TRUSTED_PROXIES: %q is not an IP address or CIDR range", strings.Join(wrong, ", "))
	}
	if _, wrong := parseAddrPorts(c.OutboundAllow); len(wrong) > 0 {
		bad("AGORA_OUTBOUND_ALLOW: %q is not an address:port", strings.Join(wrong, ", "))
	}
	positive := func(name string, d time.Duration) {
		if d <= 0 {
			bad("%s: must be positive", name)
		}
	}
	positive("AGORA_PRESENCE_AWAY_AFTER", c.PresenceAwayAfter)
	positive("AGORA_SESSION_TTL", c.Auth.SessionTTL)
	positive("AGORA_PASSWORD_RESET_TTL", c.Auth.PasswordResetTTL)
	positive("AGORA_INVITATION_TTL", c.Auth.InvitationTTL)
	atLeastOne := func(name string, n int) {
		if n < 1 {
			bad("%s: must be at least 1", name)
		}
	}
	atLeastOne("AGORA_SIGNIN_PER_IP_PER_MINUTE", c.Auth.SignInPerIPPerMinute)
	atLeastOne("AGORA_SIGNIN_PER_ACCOUNT_PER_MINUTE", c.Auth.SignInPerAccountPerMinute)
	atLeastOne("AGORA_RESET_PER_ACCOUNT_PER_HOUR", c.Auth.ResetPerAccountPerHour)
	atLeastOne("AGORA_MAX_CONCURRENT_HASHES", c.Auth.MaxConcurrentHashes)
	if d := c.MailLimits.InvitationResendAfter; d <= 0 || d > 7*24*time.Hour {
		// The delivery scheduler keeps the invitation mails a week.
		bad("AGORA_INVITATION_RESEND_AFTER: must be positive and at most 168h")
	}
	atLeastOne("AGORA_INVITATIONS_PER_ACTOR_PER_DAY", c.MailLimits.InvitationsPerActorPerDay)
	positive("AGORA_NOTIFICATION_BURST", c.MailLimits.NotificationBurst)
	atLeastOne("AGORA_MENTION_MAILS_PER_AUTHOR_PER_HOUR", c.MailLimits.MentionMailsPerAuthorPerHour)
	if c.SMTP.Host != "" {
		if c.SMTP.Port < 1 || c.SMTP.Port > 65535 {
			bad("SMTP_PORT: %d is not a port", c.SMTP.Port)
		}
		if strings.TrimSpace(c.SMTP.From) == "" {
			bad("SMTP_FROM: required with SMTP_HOST")
		}
	}
	for _, b := range c.Kafka.BrokerList() {
		if _, _, err := net.SplitHostPort(b); err != nil {
			bad("KAFKA_BROKERS: %q is not host:port", b)
		}
	}
	if !topicName.MatchString(c.Kafka.TopicPrefix) {
		bad("AGORA_KAFKA_TOPIC_PREFIX: %q is not a topic name (letters, digits, . _ -)", c.Kafka.TopicPrefix)
	}
	if c.Kafka.Partitions < 1 || c.Kafka.Partitions > 1000 {
		bad("AGORA_KAFKA_PARTITIONS: must be 1 to 1000")
	}
	if !slotName.MatchString(c.Kafka.RelaySlot) {
		bad("AGORA_RELAY_SLOT: %q is not a slot name (lower-case letters, digits, _)", c.Kafka.RelaySlot)
	}
	if c.Kafka.RetryMaxBackoff < 100*time.Millisecond {
		bad("AGORA_PROJECTION_RETRY_MAX_BACKOFF: %v is under 100ms", c.Kafka.RetryMaxBackoff)
	}
	if c.Kafka.StallAfter <= 0 {
		bad("AGORA_PROJECTION_STALL_AFTER: %v is not positive", c.Kafka.StallAfter)
	}
	if _, _, err := net.SplitHostPort(c.Kafka.MetricsAddr); err != nil {
		bad("AGORA_METRICS_ADDR: %q is not host:port", c.Kafka.MetricsAddr)
	}
	// Without DATABASE_URL an empty data folder is reported above already.
	if c.DatabaseURL != "" && strings.TrimSpace(c.DataDir) == "" && strings.TrimSpace(c.Blobs.Dir) == "" {
		bad("AGORA_BLOB_DIR: required when AGORA_DATA_DIR is empty")
	}
	// A secret shorter than HMAC-SHA256's 32-byte key could be guessed.
	if c.Blobs.Secret != "" && len(c.Blobs.Secret) < 32 {
		bad("AGORA_BLOB_SECRET: must be at least 32 characters")
	}
	positive("AGORA_UPLOAD_URL_TTL", c.Blobs.UploadURLTTL)
	positive("AGORA_BLOB_URL_TTL", c.Blobs.ReadURLTTL)
	if c.Blobs.UploadQuota < 50<<20 {
		// Below the largest file, the largest file could never be uploaded.
		bad("AGORA_UPLOAD_QUOTA_BYTES: must be at least 52428800 (50 MiB, the largest file)")
	}
	positive("AGORA_UPLOAD_UNATTACHED_TTL", c.Blobs.UnattachedTTL)
	atLeastOne("AGORA_LINK_PREVIEWS_PER_ACCOUNT_PER_MINUTE", c.LinkPreview.PerAccountPerMinute)
	atLeastOne("AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE", c.AI.SearchesPerAccountPerMinute)
	if c.Search.MeiliURL != "" {
		if u, err := url.Parse(c.Search.MeiliURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("MEILI_URL: %q is not an http(s) URL", c.Search.MeiliURL)
		}
	}
	// Without DATABASE_URL an empty data folder is reported above already.
	if c.DatabaseURL != "" && strings.TrimSpace(c.DataDir) == "" && c.Search.MeiliURL == "" {
		bad("MEILI_URL: required when AGORA_DATA_DIR is empty (the embedded search engine keeps its indexes there)")
	}
	if c.Search.MeiliMasterKey != "" && c.Search.MeiliURL == "" {
		bad("MEILI_MASTER_KEY: set without MEILI_URL")
	}
	c.Warehouse.validate(bad)
	// Without DATABASE_URL an empty data folder is reported above already.
	if c.DatabaseURL != "" && strings.TrimSpace(c.DataDir) == "" && c.Warehouse.ClickHouseURL == "" {
		bad("CLICKHOUSE_URL: required when AGORA_DATA_DIR is empty (the local ClickHouse keeps its data there)")
	}
	if !insightsBase.MatchString(c.InsightsBase) || c.InsightsBase == "/api" {
		bad("AGORA_INSIGHTS_BASE: %q is not a path such as /api/insights (a leading /, no trailing /, not /api itself)", c.InsightsBase)
	}
	c.AI.validate(bad)
	c.Embeddings.validate(bad)
	c.Push.validate(bad)
	c.LiveKit.validate(bad)
	c.Stripe.validate(bad)
	return errors.Join(errs...)
}

// validate reports a half key pair, a pair that is not one, and a missing
// or malformed subject. The private key is never echoed.
func (p PushConfig) validate(bad func(format string, args ...any)) {
	if !p.Enabled() {
		return
	}
	if p.PublicKey == "" || p.PrivateKey == "" {
		bad("AGORA_VAPID_PUBLIC_KEY, AGORA_VAPID_PRIVATE_KEY: set both or neither")
		return
	}
	if err := (vapid.Keys{Public: p.PublicKey, Private: p.PrivateKey}).Check(); err != nil {
		bad("AGORA_VAPID_PUBLIC_KEY, AGORA_VAPID_PRIVATE_KEY: not a VAPID key pair: %v", err)
	}
	if !strings.HasPrefix(p.Subject, "mailto:") && !strings.HasPrefix(p.Subject, "https://") {
		bad("AGORA_VAPID_SUBJECT: %q is not a mailto: or https:// URL (required with the VAPID keys)", p.Subject)
	}
}

// validate reports LiveKit settings that are not a URL and a key pair
// LiveKit accepts. The secret is never echoed.
func (l LiveKitConfig) validate(bad func(format string, args ...any)) {
	if l.URL == "" {
		// The local server makes its own key pair.
		if l.PublicURL != "" || l.APIKey != "" || l.APISecret != "" {
			bad("LIVEKIT_PUBLIC_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET: set without LIVEKIT_URL")
		}
		return
	}
	checkURL := func(name, raw string) {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" || (u.Scheme != "ws" && u.Scheme != "wss" && u.Scheme != "http" && u.Scheme != "https") {
			bad("%s: %q is not a ws(s):// or http(s):// URL", name, raw)
		}
	}
	checkURL("LIVEKIT_URL", l.URL)
	if l.PublicURL != "" {
		checkURL("LIVEKIT_PUBLIC_URL", l.PublicURL)
	}
	if strings.TrimSpace(l.APIKey) == "" {
		bad("LIVEKIT_API_KEY: required with LIVEKIT_URL")
	}
	// livekit-server refuses to start with a shorter secret.
	if len(l.APISecret) < 32 {
		bad("LIVEKIT_API_SECRET: required with LIVEKIT_URL, at least 32 characters")
	}
}

// validate reports Stripe settings that are not a key pair of an account
// and a URL. The secrets are never echoed.
func (s StripeConfig) validate(bad func(format string, args ...any)) {
	switch {
	case s.SecretKey == "" && s.WebhookSecret != "":
		bad("STRIPE_WEBHOOK_SECRET: set without STRIPE_SECRET_KEY")
	case s.SecretKey != "" && s.WebhookSecret == "":
		// Without it no webhook verifies, and nobody who pays gets access.
		bad("STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (the signing secret of the webhook endpoint, whsec_…)")
	}
	if s.SecretKey != "" && !strings.HasPrefix(s.SecretKey, "sk_") && !strings.HasPrefix(s.SecretKey, "rk_") {
		bad("STRIPE_SECRET_KEY: not a Stripe secret key (sk_… or rk_…)")
	}
	if s.APIURL != "" {
		if s.SecretKey == "" {
			bad("STRIPE_API_URL: set without STRIPE_SECRET_KEY")
		}
		if u, err := url.Parse(s.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("STRIPE_API_URL: %q is not an http(s) URL", s.APIURL)
		}
	}
	if s.GracePeriod < 0 {
		bad("AGORA_BILLING_GRACE_PERIOD: must not be negative")
	}
}

// validate reports a CLICKHOUSE_URL that is not a native-protocol URL
// with a host. The password is never echoed.
func (w WarehouseConfig) validate(bad func(format string, args ...any)) {
	if w.ClickHouseURL == "" {
		return
	}
	u, err := url.Parse(w.ClickHouseURL)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "clickhouse" && u.Scheme != "http" && u.Scheme != "https"):
		bad("CLICKHOUSE_URL: must be a clickhouse://user:password@host:9000/database URL")
	case u.Scheme != "clickhouse":
		bad("CLICKHOUSE_URL: use the native protocol (clickhouse://host:9000/database), not ClickHouse's HTTP interface")
	case strings.Contains(strings.Trim(u.Path, "/"), "/"):
		bad("CLICKHOUSE_URL: the path is one database name")
	}
}

// validate reports the AI settings' problems through bad.
func (a AIConfig) validate(bad func(format string, args ...any)) {
	if a.ModelURL != "" {
		if u, err := url.Parse(a.ModelURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("AGORA_AI_MODEL_URL: %q is not an http(s) URL", a.ModelURL)
		}
	}
	if a.MaxTokens < 0 {
		bad("AGORA_AI_MAX_TOKENS: must not be negative")
	}
	switch a.ModelProvider() {
	case "":
		// A model named without a server would be silently ignored.
		if a.Model != "" || a.APIKey != "" || a.MaxTokens != 0 {
			bad("AGORA_AI_MODEL, AGORA_AI_API_KEY, AGORA_AI_MAX_TOKENS: set without AGORA_AI_MODEL_URL or AGORA_AI_PROVIDER")
		}
	case AIProviderOpenAI:
		if a.ModelURL == "" {
			bad("AGORA_AI_MODEL_URL: required with AGORA_AI_PROVIDER=openai")
		}
		if strings.TrimSpace(a.Model) == "" {
			bad("AGORA_AI_MODEL: required with AGORA_AI_MODEL_URL")
		}
	case AIProviderAnthropic:
		if strings.TrimSpace(a.Model) == "" {
			bad("AGORA_AI_MODEL: required with AGORA_AI_PROVIDER=anthropic")
		}
		if a.APIKey == "" {
			bad("AGORA_AI_API_KEY: required with AGORA_AI_PROVIDER=anthropic")
		}
	default:
		bad("AGORA_AI_PROVIDER: %q is not openai or anthropic", a.Provider)
	}
}

// validate reports embeddings settings that name no API, and a
// word-vector file that is not there. The key is never echoed.
func (e EmbeddingsConfig) validate(bad func(format string, args ...any)) {
	if e.URL == "" {
		// A model named without a server would be silently ignored.
		if e.Model != "" || e.APIKey != "" {
			bad("AGORA_EMBEDDINGS_MODEL, AGORA_EMBEDDINGS_API_KEY: set without AGORA_EMBEDDINGS_URL")
		}
	} else {
		if u, err := url.Parse(e.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("AGORA_EMBEDDINGS_URL: %q is not an http(s) URL", e.URL)
		}
		if strings.TrimSpace(e.Model) == "" {
			bad("AGORA_EMBEDDINGS_MODEL: required with AGORA_EMBEDDINGS_URL")
		}
		if e.WordVectors != "" {
			bad("AGORA_WORD_VECTORS: set with AGORA_EMBEDDINGS_URL; the word vectors stand in only when no embeddings API is configured")
		}
		if e.SentenceModel != "" || e.ONNXRuntime != "" {
			bad("AGORA_SENTENCE_MODEL, AGORA_ONNXRUNTIME: set with AGORA_EMBEDDINGS_URL; the local model embeds only when no embeddings API is configured")
		}
	}
	if e.SentenceModel != "" {
		if fi, err := os.Stat(e.SentenceModel); err != nil || !fi.IsDir() {
			bad("AGORA_SENTENCE_MODEL: no folder at %q (it holds model.onnx and tokenizer.json; unset, the one scripts/install-deps.sh sentencemodel installs is used)", e.SentenceModel)
		}
	}
	if e.ONNXRuntime != "" {
		if fi, err := os.Stat(e.ONNXRuntime); err != nil || !fi.Mode().IsRegular() {
			bad("AGORA_ONNXRUNTIME: no file at %q (ONNX Runtime's libonnxruntime.so; unset, the one scripts/install-deps.sh sentencemodel installs is used)", e.ONNXRuntime)
		}
	}
	if e.WordVectors != "" {
		if fi, err := os.Stat(e.WordVectors); err != nil || !fi.Mode().IsRegular() {
			bad("AGORA_WORD_VECTORS: no file at %q (agora wordvectors import makes one; unset, the one scripts/install-deps.sh wordvectors installs is used)", e.WordVectors)
		}
	}
}

var (
	topicName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,200}$`)
	slotName  = regexp.MustCompile(`^[a-z0-9_]{1,63}$`)
	// insightsBase is one or more path segments of safe characters.
	insightsBase = regexp.MustCompile(`^(/[A-Za-z0-9._~-]+)+$`)
)

// BaseURL is where e-mailed links point: PublicURL, else the listen address.
func (c Config) BaseURL() string {
	if c.PublicURL != "" {
		return strings.TrimRight(c.PublicURL, "/")
	}
	// A wildcard listen address is no address for a link: use loopback.
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil || host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
