package app

import (
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/prometheus/client_golang/prometheus"

	"agora/httpapi"
	"agora/internal/adapters/sfu"
	"agora/live"
	"agora/search"
)

// APIOption changes how NewAPI builds the API.
type APIOption func(*apiOptions)

type apiOptions struct {
	registry *prometheus.Registry
	// search is the store the API reads; nil opens the configuration's.
	search search.Store
	// warehouse is what the insights reports read.
	warehouse driver.Conn
	// brokers are where the realtime projection reads the change stream;
	// none means KAFKA_BROKERS.
	brokers []string
	// engines are the change pipeline's parts /readyz names.
	engines []httpapi.Engine
	// embedder is the AI search's embedder /readyz names.
	embedder     httpapi.Embedder
	hub          live.HubOptions
	replayMargin time.Duration
	marginSet    bool
	// sfu is the LiveKit server Meet Ups run on; nil: none.
	sfu *sfu.Client
}

func apiOpts(opts []APIOption) apiOptions {
	var o apiOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// WithRegistry makes the API serve reg at /metrics (and register its own
// metrics there), so that one process — agora dev — serves the metrics of
// the API and of its pipeline together.
func WithRegistry(reg *prometheus.Registry) APIOption {
	return func(o *apiOptions) { o.registry = reg }
}

// WithSearch gives the API the search store to read: agora dev shares one
// store between its API and its search projection (the embedded engine is
// one process's). Without it the API opens the store of the configuration
// (Meilisearch with MEILI_URL, else the data folder's embedded engine) and
// closes it on shutdown.
func WithSearch(store search.Store) APIOption {
	return func(o *apiOptions) { o.search = store }
}

// WithWarehouse gives the API the warehouse its insights reports read.
func WithWarehouse(conn driver.Conn) APIOption {
	return func(o *apiOptions) { o.warehouse = conn }
}

// WithPipeline makes the API's realtime projection consume from p's broker
// (agora dev, whose broker is embedded or its own Kafka and not
// KAFKA_BROKERS) and its /readyz name p's engines.
func WithPipeline(p *Pipeline) APIOption {
	return func(o *apiOptions) {
		WithBrokers(p.Brokers())(o)
		o.engines = p.Engines()
	}
}

// WithEmbeddings makes the API's /readyz name the embedder e started
// (the model, or the word vectors and why).
func WithEmbeddings(e *Embeddings) APIOption {
	return func(o *apiOptions) { o.embedder = e.Embedder }
}

// WithBrokers makes the API's realtime projection consume from brokers
// rather than KAFKA_BROKERS.
func WithBrokers(brokers []string) APIOption {
	return func(o *apiOptions) { o.brokers = append([]string(nil), brokers...) }
}

// WithRealtime sets the hub's options (node id, intervals; tests shorten
// them) and how long before the node's start a change may have been
// committed and still be delivered.
func WithRealtime(h live.HubOptions, replayMargin time.Duration) APIOption {
	return func(o *apiOptions) { o.hub, o.replayMargin, o.marginSet = h, replayMargin, true }
}

// WithSFU gives the API the LiveKit server Meet Ups are joined on (join
// tokens, ending rooms, its webhooks); without it Meet Ups are scheduled
// but cannot be joined.
func WithSFU(c *sfu.Client) APIOption {
	return func(o *apiOptions) { o.sfu = c }
}
