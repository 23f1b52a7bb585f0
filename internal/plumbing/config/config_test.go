package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// env turns a map into the lookup FromEnv reads.
func env(m map[string]string) Env {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// load is what the binary does: defaults, then the environment, then
// Validate; it returns every message.
func load(m map[string]string) (Config, []string) {
	c := Default()
	errs := c.FromEnv(env(m))
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, strings.Split(e.Error(), "\n")...)
	}
	return c, msgs
}

func TestDefaultsAreValid(t *testing.T) {
	c, msgs := load(nil)
	if len(msgs) != 0 {
		t.Fatalf("defaults invalid: %q", msgs)
	}
	if c != Default() {
		t.Fatalf("an empty environment changed the defaults: %+v", c)
	}
	if err := Default().Validate(); err != nil {
		t.Fatalf("Default().Validate() = %v", err)
	}
}

func TestFromEnvReadsEveryVariable(t *testing.T) {
	c, msgs := load(map[string]string{
		"AGORA_ADDR":                              "0.0.0.0:9000",
		"AGORA_DATA_DIR":                          "/srv/agora",
		"DATABASE_URL":                            "postgres://u:p@db:5432/agora",
		"AGORA_PUBLIC_URL":                        "https://agora.example.org/",
		"AGORA_DEMO_PASSWORD":                     "another-demo",
		"AGORA_LOG_LEVEL":                         "debug",
		"AGORA_TRUSTED_PROXIES":                   "172.30.80.2, 10.0.0.0/8",
		"AGORA_SESSION_TTL":                       " 12h ",
		"AGORA_PRESENCE_AWAY_AFTER":               "90s",
		"AGORA_PASSWORD_RESET_TTL":                "30m",
		"AGORA_INVITATION_TTL":                    "72h",
		"AGORA_SIGNIN_PER_IP_PER_MINUTE":          "10",
		"AGORA_SIGNIN_PER_ACCOUNT_PER_MINUTE":     " 7",
		"AGORA_RESET_PER_ACCOUNT_PER_HOUR":        "5",
		"AGORA_INVITATION_RESEND_AFTER":           "2h",
		"AGORA_INVITATIONS_PER_ACTOR_PER_DAY":     "40",
		"AGORA_NOTIFICATION_BURST":                "10m",
		"AGORA_MENTION_MAILS_PER_AUTHOR_PER_HOUR": "60",
		"AGORA_MAX_CONCURRENT_HASHES":             "8",
		"SMTP_HOST":                               "smtp.example.org",
		"SMTP_PORT":                               "2525",
		"SMTP_USERNAME":                           "mailer",
		"SMTP_PASSWORD":                           "secret",
		"SMTP_FROM":                               "Agora <agora@example.org>",
		"KAFKA_BROKERS":                           "kafka-1:9092, kafka-2:9092",
		"AGORA_KAFKA_TOPIC_PREFIX":                "agora-prod",
		"AGORA_KAFKA_PARTITIONS":                  "12",
		"AGORA_RELAY_SLOT":                        "agora_relay_2",
		"AGORA_METRICS_ADDR":                      "0.0.0.0:9464",
		"AGORA_PROJECTION_RETRY_MAX_BACKOFF":      "1m",
		"AGORA_PROJECTION_STALL_AFTER":            "5m",
		"AGORA_BLOB_DIR":                          "/mnt/agora-blobs",
		"AGORA_BLOB_SECRET":                       "0123456789abcdef0123456789abcdef",
		"AGORA_UPLOAD_URL_TTL":                    "5m",
		"AGORA_BLOB_URL_TTL":                      "30m",
		"AGORA_UPLOAD_QUOTA_BYTES":                "104857600",
		"AGORA_UPLOAD_UNATTACHED_TTL":             "6h",

		"AGORA_OUTBOUND_ALLOW":                       "127.0.0.1:4444, [::1]:5555",
		"AGORA_LINK_PREVIEWS_PER_ACCOUNT_PER_MINUTE": "12",

		"MEILI_URL":        "https://search.example.org:7700",
		"MEILI_MASTER_KEY": "meili-master-key",
		"CLICKHOUSE_URL":   "clickhouse://agora:secret@warehouse:9000/agora?dial_timeout=5s",

		"AGORA_INSIGHTS_BASE": "/insights/v1",

		"AGORA_AI_PROVIDER":                        "openai",
		"AGORA_AI_MODEL_URL":                       "http://127.0.0.1:11434/v1",
		"AGORA_AI_MODEL":                           "llama3.1",
		"AGORA_AI_API_KEY":                         "sk-test",
		"AGORA_AI_MAX_TOKENS":                      "512",
		"AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE": "4",

		"AGORA_EMBEDDINGS_URL":     "https://api.openai.com/v1",
		"AGORA_EMBEDDINGS_MODEL":   "text-embedding-3-small",
		"AGORA_EMBEDDINGS_API_KEY": "sk-embed",

		"AGORA_VAPID_PUBLIC_KEY":  testVAPIDPublic,
		"AGORA_VAPID_PRIVATE_KEY": testVAPIDPrivate,
		"AGORA_VAPID_SUBJECT":     "mailto:ops@example.org",

		"LIVEKIT_URL":        "http://livekit:7880",
		"LIVEKIT_PUBLIC_URL": "wss://agora.example.org/livekit",
		"LIVEKIT_API_KEY":    "agora",
		"LIVEKIT_API_SECRET": "0123456789abcdef0123456789abcdef",

		"STRIPE_SECRET_KEY":          "sk_test_abc",
		"STRIPE_WEBHOOK_SECRET":      "whsec_abc",
		"STRIPE_API_URL":             "http://127.0.0.1:12111",
		"AGORA_BILLING_GRACE_PERIOD": "48h",
	})
	if len(msgs) != 0 {
		t.Fatalf("unexpected problems: %q", msgs)
	}
	want := Config{
		Engines:      EnginesEmbedded, // a flag's, not a variable's
		Addr:         "0.0.0.0:9000",
		DataDir:      "/srv/agora",
		DatabaseURL:  "postgres://u:p@db:5432/agora",
		PublicURL:    "https://agora.example.org/",
		DemoPassword: "another-demo",
		LogLevel:     "debug",
		// Kept as written; TrustedProxyList is the parsed list.
		TrustedProxies:    "172.30.80.2, 10.0.0.0/8",
		OutboundAllow:     "127.0.0.1:4444, [::1]:5555",
		PresenceAwayAfter: 90 * time.Second,
		Auth: AuthConfig{
			SessionTTL:                12 * time.Hour,
			PasswordResetTTL:          30 * time.Minute,
			InvitationTTL:             72 * time.Hour,
			SignInPerIPPerMinute:      10,
			SignInPerAccountPerMinute: 7,
			ResetPerAccountPerHour:    5,
			MaxConcurrentHashes:       8,
		},
		SMTP: SMTPConfig{Host: "smtp.example.org", Port: 2525, Username: "mailer", Password: "secret", From: "Agora <agora@example.org>"},
		MailLimits: MailLimits{InvitationResendAfter: 2 * time.Hour, InvitationsPerActorPerDay: 40, NotificationBurst: 10 * time.Minute,
			MentionMailsPerAuthorPerHour: 60},
		Kafka: KafkaConfig{Brokers: "kafka-1:9092, kafka-2:9092", TopicPrefix: "agora-prod", Partitions: 12, RelaySlot: "agora_relay_2", MetricsAddr: "0.0.0.0:9464",
			RetryMaxBackoff: time.Minute, StallAfter: 5 * time.Minute},
		Blobs: BlobConfig{Dir: "/mnt/agora-blobs", Secret: "0123456789abcdef0123456789abcdef", UploadURLTTL: 5 * time.Minute, ReadURLTTL: 30 * time.Minute,
			UploadQuota: 100 << 20, UnattachedTTL: 6 * time.Hour},

		LinkPreview:  LinkPreviewConfig{PerAccountPerMinute: 12},
		Search:       SearchConfig{MeiliURL: "https://search.example.org:7700", MeiliMasterKey: "meili-master-key"},
		Warehouse:    WarehouseConfig{ClickHouseURL: "clickhouse://agora:secret@warehouse:9000/agora?dial_timeout=5s"},
		InsightsBase: "/insights/v1",
		AI:           AIConfig{Provider: "openai", ModelURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", APIKey: "sk-test", MaxTokens: 512, SearchesPerAccountPerMinute: 4},
		Embeddings:   EmbeddingsConfig{URL: "https://api.openai.com/v1", Model: "text-embedding-3-small", APIKey: "sk-embed"},
		Push:         PushConfig{PublicKey: testVAPIDPublic, PrivateKey: testVAPIDPrivate, Subject: "mailto:ops@example.org"},
		LiveKit:      LiveKitConfig{URL: "http://livekit:7880", PublicURL: "wss://agora.example.org/livekit", APIKey: "agora", APISecret: "0123456789abcdef0123456789abcdef"},
		Stripe:       StripeConfig{SecretKey: "sk_test_abc", WebhookSecret: "whsec_abc", APIURL: "http://127.0.0.1:12111", GracePeriod: 48 * time.Hour},
	}
	if c != want {
		t.Fatalf("got  %+v\nwant %+v", c, want)
	}
}

// A VAPID key pair for the tests (made with vapid.GenerateKeys).
const (
	testVAPIDPublic  = "BIj9zptlhUhFmvWI8LxGWBINMd8f1zUmSZjhCnqDA6YWJ-QJuXr5ApHFppnw8t0--cjr-Uaj-O_9PDxvKqHJ1cM"
	testVAPIDPrivate = "ey9o_iEE7X1TpCJvSsZTtIi1EGQdw6uBHXgvj-xgfLc"
)

func TestEachBadValueIsReported(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string // a part of the one expected message
	}{
		{"addr without port", map[string]string{"AGORA_ADDR": "nonsense"}, `AGORA_ADDR (--addr): "nonsense" is not host:port`},
		{"empty data dir without DATABASE_URL", map[string]string{"AGORA_DATA_DIR": "  "}, "AGORA_DATA_DIR (--data): required"},
		{"database url scheme", map[string]string{"DATABASE_URL": "mysql://db/agora"}, "DATABASE_URL: must be a postgres:// URL"},
		{"database url unparsable", map[string]string{"DATABASE_URL": "postgres://[::1"}, "DATABASE_URL"},
		{"public url scheme", map[string]string{"AGORA_PUBLIC_URL": "ftp://agora.example.org"}, `AGORA_PUBLIC_URL: "ftp://agora.example.org"`},
		{"public url without host", map[string]string{"AGORA_PUBLIC_URL": "https://"}, "AGORA_PUBLIC_URL"},
		{"demo password short", map[string]string{"AGORA_DEMO_PASSWORD": "short"}, "AGORA_DEMO_PASSWORD"},
		{"demo password long", map[string]string{"AGORA_DEMO_PASSWORD": strings.Repeat("x", 65)}, "AGORA_DEMO_PASSWORD"},
		{"demo password with space", map[string]string{"AGORA_DEMO_PASSWORD": "agora demo"}, "AGORA_DEMO_PASSWORD"},
		{"log level", map[string]string{"AGORA_LOG_LEVEL": "loud"}, `AGORA_LOG_LEVEL: "loud" is not one of`},
		{"trusted proxy not an address", map[string]string{"AGORA_TRUSTED_PROXIES": "10.0.0.1, nginx, 10.0.0.0/33"}, `AGORA_TRUSTED_PROXIES: "nginx, 10.0.0.0/33" is not an IP address or CIDR range`},
		{"session ttl unparsable", map[string]string{"AGORA_SESSION_TTL": "abc"}, `AGORA_SESSION_TTL: "abc" is not a duration`},
		{"session ttl zero", map[string]string{"AGORA_SESSION_TTL": "0s"}, "AGORA_SESSION_TTL: must be positive"},
		{"away time unparsable", map[string]string{"AGORA_PRESENCE_AWAY_AFTER": "soon"}, `AGORA_PRESENCE_AWAY_AFTER: "soon" is not a duration`},
		{"away time zero", map[string]string{"AGORA_PRESENCE_AWAY_AFTER": "0s"}, "AGORA_PRESENCE_AWAY_AFTER: must be positive"},
		{"reset ttl negative", map[string]string{"AGORA_PASSWORD_RESET_TTL": "-1h"}, "AGORA_PASSWORD_RESET_TTL: must be positive"},
		{"invitation ttl unparsable", map[string]string{"AGORA_INVITATION_TTL": "14 days"}, `AGORA_INVITATION_TTL: "14 days" is not a duration`},
		{"sign-in per ip not a number", map[string]string{"AGORA_SIGNIN_PER_IP_PER_MINUTE": "six"}, `AGORA_SIGNIN_PER_IP_PER_MINUTE: "six" is not a whole number`},
		{"sign-in per ip zero", map[string]string{"AGORA_SIGNIN_PER_IP_PER_MINUTE": "0"}, "AGORA_SIGNIN_PER_IP_PER_MINUTE: must be at least 1"},
		{"sign-in per account zero", map[string]string{"AGORA_SIGNIN_PER_ACCOUNT_PER_MINUTE": "-3"}, "AGORA_SIGNIN_PER_ACCOUNT_PER_MINUTE: must be at least 1"},
		{"reset per hour fraction", map[string]string{"AGORA_RESET_PER_ACCOUNT_PER_HOUR": "1.5"}, `AGORA_RESET_PER_ACCOUNT_PER_HOUR: "1.5" is not a whole number`},
		{"resend window past a week", map[string]string{"AGORA_INVITATION_RESEND_AFTER": "200h"}, "AGORA_INVITATION_RESEND_AFTER: must be positive and at most 168h"},
		{"no invitations a day", map[string]string{"AGORA_INVITATIONS_PER_ACTOR_PER_DAY": "0"}, "AGORA_INVITATIONS_PER_ACTOR_PER_DAY: must be at least 1"},
		{"no burst", map[string]string{"AGORA_NOTIFICATION_BURST": "0s"}, "AGORA_NOTIFICATION_BURST: must be positive"},
		{"max hashes zero", map[string]string{"AGORA_MAX_CONCURRENT_HASHES": "0"}, "AGORA_MAX_CONCURRENT_HASHES: must be at least 1"},
		{"smtp port not a number", map[string]string{"SMTP_PORT": "smtp"}, `SMTP_PORT: "smtp" is not a whole number`},
		{"smtp port out of range", map[string]string{"SMTP_HOST": "mail", "SMTP_PORT": "70000"}, "SMTP_PORT: 70000 is not a port"},
		{"smtp from empty", map[string]string{"SMTP_HOST": "mail", "SMTP_FROM": " "}, "SMTP_FROM: required with SMTP_HOST"},
		{"kafka broker without port", map[string]string{"KAFKA_BROKERS": "kafka-1:9092,kafka-2"}, `KAFKA_BROKERS: "kafka-2" is not host:port`},
		{"topic prefix", map[string]string{"AGORA_KAFKA_TOPIC_PREFIX": "agora/prod"}, "AGORA_KAFKA_TOPIC_PREFIX"},
		{"partitions zero", map[string]string{"AGORA_KAFKA_PARTITIONS": "0"}, "AGORA_KAFKA_PARTITIONS: must be 1 to 1000"},
		{"relay slot", map[string]string{"AGORA_RELAY_SLOT": "Agora-Relay"}, "AGORA_RELAY_SLOT"},
		{"metrics addr", map[string]string{"AGORA_METRICS_ADDR": "9464"}, "AGORA_METRICS_ADDR"},
		{"retry backoff", map[string]string{"AGORA_PROJECTION_RETRY_MAX_BACKOFF": "1ms"}, "AGORA_PROJECTION_RETRY_MAX_BACKOFF"},
		{"stall threshold", map[string]string{"AGORA_PROJECTION_STALL_AFTER": "0s"}, "AGORA_PROJECTION_STALL_AFTER"},
		{"no blob folder", map[string]string{"AGORA_DATA_DIR": "", "DATABASE_URL": "postgres://db/agora", "MEILI_URL": "http://meili:7700", "CLICKHOUSE_URL": "clickhouse://ch:9000/agora"}, "AGORA_BLOB_DIR: required when AGORA_DATA_DIR is empty"},
		{"no search folder", map[string]string{"AGORA_DATA_DIR": "", "DATABASE_URL": "postgres://db/agora", "AGORA_BLOB_DIR": "/srv/blobs", "CLICKHOUSE_URL": "clickhouse://ch:9000/agora"}, "MEILI_URL: required when AGORA_DATA_DIR is empty"},
		{"no warehouse folder", map[string]string{"AGORA_DATA_DIR": "", "DATABASE_URL": "postgres://db/agora", "AGORA_BLOB_DIR": "/srv/blobs", "MEILI_URL": "http://meili:7700"}, "CLICKHOUSE_URL: required when AGORA_DATA_DIR is empty"},
		{"clickhouse url scheme", map[string]string{"CLICKHOUSE_URL": "postgres://ch:9000/agora"}, "CLICKHOUSE_URL: must be a clickhouse://"},
		{"clickhouse url without host", map[string]string{"CLICKHOUSE_URL": "clickhouse:///agora"}, "CLICKHOUSE_URL: must be a clickhouse://"},
		{"clickhouse url unparsable", map[string]string{"CLICKHOUSE_URL": "clickhouse://[::1"}, "CLICKHOUSE_URL: must be a clickhouse://"},
		{"clickhouse over http", map[string]string{"CLICKHOUSE_URL": "http://ch:8123/agora"}, "CLICKHOUSE_URL: use the native protocol"},
		{"clickhouse url path", map[string]string{"CLICKHOUSE_URL": "clickhouse://ch:9000/agora/facts"}, "CLICKHOUSE_URL: the path is one database name"},
		{"insights base without slash", map[string]string{"AGORA_INSIGHTS_BASE": "api/insights"}, "AGORA_INSIGHTS_BASE: \"api/insights\" is not a path"},
		{"insights base with trailing slash", map[string]string{"AGORA_INSIGHTS_BASE": "/api/insights/"}, "AGORA_INSIGHTS_BASE"},
		{"insights base the api itself", map[string]string{"AGORA_INSIGHTS_BASE": "/api"}, "AGORA_INSIGHTS_BASE"},
		{"insights base the root", map[string]string{"AGORA_INSIGHTS_BASE": "/"}, "AGORA_INSIGHTS_BASE"},
		{"meili url scheme", map[string]string{"MEILI_URL": "meili:7700"}, `MEILI_URL: "meili:7700" is not an http(s) URL`},
		{"meili url without host", map[string]string{"MEILI_URL": "http://"}, "MEILI_URL"},
		{"meili key without url", map[string]string{"MEILI_MASTER_KEY": "secret"}, "MEILI_MASTER_KEY: set without MEILI_URL"},
		{"short blob secret", map[string]string{"AGORA_BLOB_SECRET": "too-short"}, "AGORA_BLOB_SECRET: must be at least 32 characters"},
		{"upload url ttl zero", map[string]string{"AGORA_UPLOAD_URL_TTL": "0s"}, "AGORA_UPLOAD_URL_TTL: must be positive"},
		{"blob url ttl unparsable", map[string]string{"AGORA_BLOB_URL_TTL": "ten years"}, `AGORA_BLOB_URL_TTL: "ten years" is not a duration`},
		{"upload quota not a number", map[string]string{"AGORA_UPLOAD_QUOTA_BYTES": "200MiB"}, `AGORA_UPLOAD_QUOTA_BYTES: "200MiB" is not a whole number`},
		{"upload quota below a file", map[string]string{"AGORA_UPLOAD_QUOTA_BYTES": "1000"}, "AGORA_UPLOAD_QUOTA_BYTES: must be at least 52428800"},
		{"unattached ttl zero", map[string]string{"AGORA_UPLOAD_UNATTACHED_TTL": "0s"}, "AGORA_UPLOAD_UNATTACHED_TTL: must be positive"},
		{"outbound allow a range", map[string]string{"AGORA_OUTBOUND_ALLOW": "127.0.0.1:4444, 10.0.0.0/8"}, `AGORA_OUTBOUND_ALLOW: "10.0.0.0/8" is not an address:port`},
		{"outbound allow without a port", map[string]string{"AGORA_OUTBOUND_ALLOW": "127.0.0.1"}, `AGORA_OUTBOUND_ALLOW: "127.0.0.1" is not an address:port`},
		{"outbound allow a name", map[string]string{"AGORA_OUTBOUND_ALLOW": "localhost:80"}, `AGORA_OUTBOUND_ALLOW: "localhost:80" is not an address:port`},
		{"link previews per minute zero", map[string]string{"AGORA_LINK_PREVIEWS_PER_ACCOUNT_PER_MINUTE": "0"}, "AGORA_LINK_PREVIEWS_PER_ACCOUNT_PER_MINUTE: must be at least 1"},
		{"ai model url scheme", map[string]string{"AGORA_AI_MODEL_URL": "127.0.0.1:11434", "AGORA_AI_MODEL": "m"}, `AGORA_AI_MODEL_URL: "127.0.0.1:11434" is not an http(s) URL`},
		{"ai model url without model", map[string]string{"AGORA_AI_MODEL_URL": "http://127.0.0.1:11434/v1"}, "AGORA_AI_MODEL: required with AGORA_AI_MODEL_URL"},
		{"ai model without url", map[string]string{"AGORA_AI_MODEL": "llama3.1"}, "set without AGORA_AI_MODEL_URL or AGORA_AI_PROVIDER"},
		{"ai openai without url", map[string]string{"AGORA_AI_PROVIDER": "openai", "AGORA_AI_MODEL": "m"}, "AGORA_AI_MODEL_URL: required with AGORA_AI_PROVIDER=openai"},
		{"ai anthropic without key", map[string]string{"AGORA_AI_PROVIDER": "anthropic", "AGORA_AI_MODEL": "claude"}, "AGORA_AI_API_KEY: required with AGORA_AI_PROVIDER=anthropic"},
		{"ai unknown provider", map[string]string{"AGORA_AI_PROVIDER": "bard", "AGORA_AI_MODEL": "m"}, `AGORA_AI_PROVIDER: "bard" is not openai or anthropic`},
		{"ai searches per minute zero", map[string]string{"AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE": "0"}, "AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE: must be at least 1"},
		{"embeddings url scheme", map[string]string{"AGORA_EMBEDDINGS_URL": "127.0.0.1:11434", "AGORA_EMBEDDINGS_MODEL": "m"}, `AGORA_EMBEDDINGS_URL: "127.0.0.1:11434" is not an http(s) URL`},
		{"embeddings url without model", map[string]string{"AGORA_EMBEDDINGS_URL": "http://127.0.0.1:11434/v1"}, "AGORA_EMBEDDINGS_MODEL: required with AGORA_EMBEDDINGS_URL"},
		{"embeddings model without url", map[string]string{"AGORA_EMBEDDINGS_MODEL": "nomic-embed-text"}, "set without AGORA_EMBEDDINGS_URL"},
		{"embeddings key without url", map[string]string{"AGORA_EMBEDDINGS_API_KEY": "sk-x"}, "set without AGORA_EMBEDDINGS_URL"},
		{"word vectors missing", map[string]string{"AGORA_WORD_VECTORS": "/nonexistent/wordvectors.v1.bin"}, `AGORA_WORD_VECTORS: no file at "/nonexistent/wordvectors.v1.bin"`},
		{"word vectors a folder", map[string]string{"AGORA_WORD_VECTORS": "."}, "AGORA_WORD_VECTORS: no file"},
		{"word vectors with embeddings url", map[string]string{"AGORA_EMBEDDINGS_URL": "http://e/v1", "AGORA_EMBEDDINGS_MODEL": "m", "AGORA_WORD_VECTORS": "config_test.go"}, "AGORA_WORD_VECTORS: set with AGORA_EMBEDDINGS_URL"},
		{"sentence model missing", map[string]string{"AGORA_SENTENCE_MODEL": "/nonexistent/model"}, `AGORA_SENTENCE_MODEL: no folder at "/nonexistent/model"`},
		{"onnx runtime a folder", map[string]string{"AGORA_ONNXRUNTIME": "."}, "AGORA_ONNXRUNTIME: no file"},
		{"sentence model with embeddings url", map[string]string{"AGORA_EMBEDDINGS_URL": "http://e/v1", "AGORA_EMBEDDINGS_MODEL": "m", "AGORA_SENTENCE_MODEL": "."}, "AGORA_SENTENCE_MODEL, AGORA_ONNXRUNTIME: set with AGORA_EMBEDDINGS_URL"},
		{"vapid public key alone", map[string]string{"AGORA_VAPID_PUBLIC_KEY": testVAPIDPublic, "AGORA_VAPID_SUBJECT": "mailto:a@b.test"}, "set both or neither"},
		{"vapid keys not a pair", map[string]string{"AGORA_VAPID_PUBLIC_KEY": testVAPIDPublic, "AGORA_VAPID_PRIVATE_KEY": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE", "AGORA_VAPID_SUBJECT": "mailto:a@b.test"}, "not a VAPID key pair"},
		{"vapid subject missing", map[string]string{"AGORA_VAPID_PUBLIC_KEY": testVAPIDPublic, "AGORA_VAPID_PRIVATE_KEY": testVAPIDPrivate}, "AGORA_VAPID_SUBJECT"},
		{"livekit url scheme", map[string]string{"LIVEKIT_URL": "livekit:7880", "LIVEKIT_API_KEY": "k", "LIVEKIT_API_SECRET": strings.Repeat("s", 32)}, `LIVEKIT_URL: "livekit:7880" is not a ws(s):// or http(s):// URL`},
		{"livekit public url scheme", map[string]string{"LIVEKIT_URL": "ws://lk:7880", "LIVEKIT_PUBLIC_URL": "ftp://lk", "LIVEKIT_API_KEY": "k", "LIVEKIT_API_SECRET": strings.Repeat("s", 32)}, "LIVEKIT_PUBLIC_URL"},
		{"livekit without key", map[string]string{"LIVEKIT_URL": "ws://lk:7880", "LIVEKIT_API_SECRET": strings.Repeat("s", 32)}, "LIVEKIT_API_KEY: required with LIVEKIT_URL"},
		{"livekit short secret", map[string]string{"LIVEKIT_URL": "ws://lk:7880", "LIVEKIT_API_KEY": "k", "LIVEKIT_API_SECRET": strings.Repeat("s", 31)}, "LIVEKIT_API_SECRET: required with LIVEKIT_URL, at least 32 characters"},
		{"livekit keys without url", map[string]string{"LIVEKIT_API_KEY": "k", "LIVEKIT_API_SECRET": strings.Repeat("s", 32)}, "set without LIVEKIT_URL"},
		{"ai max tokens negative", map[string]string{"AGORA_AI_MODEL_URL": "http://m/v1", "AGORA_AI_MODEL": "m", "AGORA_AI_MAX_TOKENS": "-1"}, "AGORA_AI_MAX_TOKENS: must not be negative"},
		{"stripe key without webhook secret", map[string]string{"STRIPE_SECRET_KEY": "sk_test_x"}, "STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY"},
		{"stripe webhook secret without key", map[string]string{"STRIPE_WEBHOOK_SECRET": "whsec_x"}, "STRIPE_WEBHOOK_SECRET: set without STRIPE_SECRET_KEY"},
		{"stripe publishable key", map[string]string{"STRIPE_SECRET_KEY": "pk_test_x", "STRIPE_WEBHOOK_SECRET": "whsec_x"}, "STRIPE_SECRET_KEY: not a Stripe secret key"},
		{"stripe api url scheme", map[string]string{"STRIPE_SECRET_KEY": "sk_test_x", "STRIPE_WEBHOOK_SECRET": "whsec_x", "STRIPE_API_URL": "127.0.0.1:12111"}, "STRIPE_API_URL"},
		{"stripe api url without key", map[string]string{"STRIPE_API_URL": "http://127.0.0.1:12111"}, "STRIPE_API_URL: set without STRIPE_SECRET_KEY"},
		{"billing grace negative", map[string]string{"AGORA_BILLING_GRACE_PERIOD": "-1h"}, "AGORA_BILLING_GRACE_PERIOD: must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, msgs := load(tt.env)
			if len(msgs) != 1 {
				t.Fatalf("got %d problems %q, want exactly one mentioning %q", len(msgs), msgs, tt.want)
			}
			if !strings.Contains(msgs[0], tt.want) {
				t.Fatalf("problem %q does not mention %q", msgs[0], tt.want)
			}
		})
	}
}

func TestValidValuesAreAccepted(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
	}{
		{"ipv6 addr", map[string]string{"AGORA_ADDR": "[::1]:8080"}},
		{"any interface", map[string]string{"AGORA_ADDR": ":8080"}},
		{"empty data dir with DATABASE_URL", map[string]string{"AGORA_DATA_DIR": "", "DATABASE_URL": "postgresql://db/agora", "AGORA_BLOB_DIR": "/srv/blobs", "MEILI_URL": "http://127.0.0.1:7700", "CLICKHOUSE_URL": "clickhouse://ch:9000/agora"}},
		{"clickhouse url with credentials and settings", map[string]string{"CLICKHOUSE_URL": "clickhouse://agora:p%40ss@127.0.0.1:9000/agora?allow_experimental_low_cardinality_type=1"}},
		{"clickhouse url without a database", map[string]string{"CLICKHOUSE_URL": "clickhouse://127.0.0.1:9000"}},
		{"meili without a key", map[string]string{"MEILI_URL": "http://127.0.0.1:7700"}},
		{"http public url", map[string]string{"AGORA_PUBLIC_URL": "http://localhost:5173"}},
		{"each log level", map[string]string{"AGORA_LOG_LEVEL": "error"}},
		{"trusted proxies of both families", map[string]string{"AGORA_TRUSTED_PROXIES": " 127.0.0.1,::1, fd00::/8 ,"}},
		{"smtp port ignored without host", map[string]string{"SMTP_PORT": "0"}},
		{"outbound allow of both families", map[string]string{"AGORA_OUTBOUND_ALLOW": " 127.0.0.1:80,[::1]:443 ,"}},
		{"demo password of 8", map[string]string{"AGORA_DEMO_PASSWORD": "12345678"}},
		{"ai ollama", map[string]string{"AGORA_AI_MODEL_URL": "http://127.0.0.1:11434/v1", "AGORA_AI_MODEL": "llama3.1"}},
		{"ai anthropic", map[string]string{"AGORA_AI_PROVIDER": "anthropic", "AGORA_AI_MODEL": "claude-sonnet-4-5", "AGORA_AI_API_KEY": "sk-ant"}},
		{"embeddings on ollama without a key", map[string]string{"AGORA_EMBEDDINGS_URL": "http://127.0.0.1:11434/v1", "AGORA_EMBEDDINGS_MODEL": "nomic-embed-text"}},
		{"word vectors of a file", map[string]string{"AGORA_WORD_VECTORS": "config_test.go"}},
		{"livekit over wss with a public url", map[string]string{"LIVEKIT_URL": "wss://lk.example.org", "LIVEKIT_PUBLIC_URL": "wss://lk.example.org", "LIVEKIT_API_KEY": "k", "LIVEKIT_API_SECRET": strings.Repeat("s", 32)}},
		{"demo password of 64", map[string]string{"AGORA_DEMO_PASSWORD": strings.Repeat("x", 64)}},
		{"stripe live keys", map[string]string{"STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x"}},
		{"stripe restricted key and no grace", map[string]string{"STRIPE_SECRET_KEY": "rk_live_x", "STRIPE_WEBHOOK_SECRET": "whsec_x", "AGORA_BILLING_GRACE_PERIOD": "0s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, msgs := load(tt.env); len(msgs) != 0 {
				t.Fatalf("unexpected problems: %q", msgs)
			}
		})
	}
}

func TestEveryProblemIsReportedAtOnce(t *testing.T) {
	c := Default()
	parseErrs := c.FromEnv(env(map[string]string{
		"AGORA_ADDR":                     "nonsense",
		"AGORA_LOG_LEVEL":                "loud",
		"AGORA_SESSION_TTL":              "abc",
		"AGORA_SIGNIN_PER_IP_PER_MINUTE": "six",
		"AGORA_MAX_CONCURRENT_HASHES":    "0",
		"AGORA_PUBLIC_URL":               "agora.example.org",
		"SMTP_HOST":                      "mail",
		"SMTP_PORT":                      "0",
	}))
	// The parse errors come from FromEnv, and a value that did not parse
	// keeps its default rather than turning invalid.
	if len(parseErrs) != 2 {
		t.Fatalf("FromEnv: got %d errors %v, want 2 (session ttl, sign-in per ip)", len(parseErrs), parseErrs)
	}
	if c.Auth.SessionTTL != Default().Auth.SessionTTL || c.Auth.SignInPerIPPerMinute != Default().Auth.SignInPerIPPerMinute {
		t.Fatalf("unparsable values changed the config: %+v", c.Auth)
	}
	err := c.Validate()
	if err == nil {
		t.Fatal("Validate accepted an invalid config")
	}
	all := errors.Join(append(parseErrs, err)...).Error()
	for _, want := range []string{
		"AGORA_SESSION_TTL", "AGORA_SIGNIN_PER_IP_PER_MINUTE", // parse
		`AGORA_ADDR (--addr): "nonsense"`, "AGORA_LOG_LEVEL", "AGORA_MAX_CONCURRENT_HASHES", "AGORA_PUBLIC_URL", "SMTP_PORT", // validate
	} {
		if !strings.Contains(all, want) {
			t.Errorf("report does not mention %s:\n%s", want, all)
		}
	}
	if n := len(strings.Split(all, "\n")); n != 7 {
		t.Errorf("report has %d lines, want 7 (one per problem):\n%s", n, all)
	}
}

func TestBaseURL(t *testing.T) {
	tests := []struct {
		name      string
		addr      string
		publicURL string
		want      string
	}{
		{"listen address when no public url", "127.0.0.1:8080", "", "http://127.0.0.1:8080"},
		{"public url wins", "127.0.0.1:8080", "https://agora.example.org", "https://agora.example.org"},
		{"trailing slash trimmed", "127.0.0.1:8080", "https://agora.example.org/", "https://agora.example.org"},
		{"every trailing slash trimmed", "127.0.0.1:8080", "https://agora.example.org//", "https://agora.example.org"},
		{"path kept", "127.0.0.1:8080", "https://example.org/agora/", "https://example.org/agora"},
		{"wildcard host becomes localhost", ":8080", "", "http://localhost:8080"},
		{"any-address host becomes localhost", "0.0.0.0:8080", "", "http://localhost:8080"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Addr, c.PublicURL = tt.addr, tt.publicURL
			if got := c.BaseURL(); got != tt.want {
				t.Fatalf("BaseURL() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSearchDir(t *testing.T) {
	c := Default()
	c.DataDir = "/srv/agora"
	if got := c.SearchDir(); got != "/srv/agora/search" {
		t.Errorf("SearchDir() = %q, want the data folder's search", got)
	}
}

func TestWarehouseDir(t *testing.T) {
	c := Default()
	c.DataDir = "/srv/agora"
	if got := c.WarehouseDir(); got != "/srv/agora/clickhouse" {
		t.Errorf("WarehouseDir() = %q, want the data folder's clickhouse", got)
	}
}

func TestClickHouseURLPasswordIsNotEchoed(t *testing.T) {
	_, msgs := load(map[string]string{"CLICKHOUSE_URL": "http://agora:hunter2@ch:8123/agora"})
	if len(msgs) != 1 || strings.Contains(msgs[0], "hunter2") {
		t.Fatalf("problems %q: want one, without the password", msgs)
	}
}

func TestBlobDir(t *testing.T) {
	c := Default()
	c.DataDir = "/srv/agora"
	if got := c.BlobDir(); got != "/srv/agora/blobs" {
		t.Errorf("BlobDir() = %q, want the data folder's blobs", got)
	}
	c.Blobs.Dir = "/mnt/blobs"
	if got := c.BlobDir(); got != "/mnt/blobs" {
		t.Errorf("BlobDir() = %q, want AGORA_BLOB_DIR", got)
	}
}

// TestTrustedProxyList: single addresses are ranges of one, ranges are
// masked, and an IPv4 address written in IPv6 form matches IPv4 peers.
func TestTrustedProxyList(t *testing.T) {
	c := Default()
	if got := c.TrustedProxyList(); len(got) != 0 {
		t.Fatalf("default trusts %v, want nothing", got)
	}
	c.TrustedProxies = "172.30.80.2, 10.1.2.3/8, ::ffff:192.0.2.1, fd00::1"
	var got []string
	for _, p := range c.TrustedProxyList() {
		got = append(got, p.String())
	}
	want := "172.30.80.2/32 10.0.0.0/8 192.0.2.1/32 fd00::1/128"
	if strings.Join(got, " ") != want {
		t.Errorf("TrustedProxyList = %v, want %s", got, want)
	}
}

// TestAPINeedsAPublicURL: agora api must be told its browser-facing URL;
// upload and blob links never come from a request's Host (F14).
func TestAPINeedsAPublicURL(t *testing.T) {
	c := Default()
	c.Command = "api"
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "AGORA_PUBLIC_URL: required by agora api") {
		t.Fatalf("agora api without AGORA_PUBLIC_URL: %v", err)
	}
	c.PublicURL = "https://agora.example.org"
	if err := c.Validate(); err != nil {
		t.Fatalf("agora api with AGORA_PUBLIC_URL: %v", err)
	}
	// The other subcommands link nowhere.
	c = Default()
	c.Command = "migrate"
	if err := c.Validate(); err != nil {
		t.Fatalf("agora migrate without AGORA_PUBLIC_URL: %v", err)
	}
}

// TestSSOTestProviderOnlyInDev: the loopback test identity provider, which
// signs anyone in, is refused outside agora dev.
func TestSSOTestProviderOnlyInDev(t *testing.T) {
	cfg := Default()
	cfg.SSOTestProvider = true
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "--sso-test-provider") {
		t.Errorf("outside dev: %v", err)
	}
	cfg.Dev = true
	if err := cfg.Validate(); err != nil {
		t.Errorf("in dev: %v", err)
	}
}

// TestEnginesOnlyInDev: only agora dev starts engines of its own, and
// only the two it knows.
func TestEnginesOnlyInDev(t *testing.T) {
	cfg := Default()
	cfg.Engines = EnginesReal
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "--engines") {
		t.Errorf("real outside dev: %v", err)
	}
	cfg.Dev = true
	if err := cfg.Validate(); err != nil {
		t.Errorf("real in dev: %v", err)
	}
	cfg.Engines = "debezium"
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), `"debezium"`) {
		t.Errorf("an unknown value: %v", err)
	}
}

func TestSFUDir(t *testing.T) {
	c := Default()
	c.DataDir = "/srv/agora"
	if got := c.SFUDir(); got != "/srv/agora/livekit" {
		t.Errorf("SFUDir() = %q", got)
	}
	if c.LiveKit.Enabled() {
		t.Error("LiveKit is enabled without LIVEKIT_URL")
	}
}

func TestLiveKitSecretIsNotEchoed(t *testing.T) {
	_, msgs := load(map[string]string{"LIVEKIT_URL": "ws://lk:7880", "LIVEKIT_API_KEY": "k", "LIVEKIT_API_SECRET": "hunter2-short"})
	if len(msgs) != 1 || strings.Contains(msgs[0], "hunter2") {
		t.Errorf("problems %q", msgs)
	}
}

func TestStripeSecretsAreNotEchoed(t *testing.T) {
	_, msgs := load(map[string]string{"STRIPE_SECRET_KEY": "pk_live_hunter2", "STRIPE_WEBHOOK_SECRET": "whsec_hunter3"})
	if len(msgs) != 1 || strings.Contains(msgs[0], "hunter") {
		t.Errorf("problems %q", msgs)
	}
}

func TestDevCheckout(t *testing.T) {
	c := Default()
	c.DataDir = "/srv/agora"
	if c.Stripe.Enabled() || c.DevCheckout() || c.StripeMockDir() != "/srv/agora/stripe-mock" {
		t.Fatalf("default: enabled %v, dev checkout %v, dir %q", c.Stripe.Enabled(), c.DevCheckout(), c.StripeMockDir())
	}
	c.Stripe = StripeConfig{SecretKey: "sk_test_x", WebhookSecret: "whsec_x", APIURL: "http://127.0.0.1:12111"}
	if c.DevCheckout() {
		t.Error("agora api runs the dev checkout page")
	}
	c.Dev = true
	if !c.DevCheckout() {
		t.Error("agora dev on stripe-mock has no dev checkout page")
	}
	c.Stripe.APIURL = ""
	if c.DevCheckout() {
		t.Error("agora dev on Stripe's own API runs the dev checkout page")
	}
}
