package projections

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
	"agora/projections/change"
)

// Config configures the runner.
type Config struct {
	// Brokers are the Kafka bootstrap addresses.
	Brokers []string
	// TopicPrefix is the relay's (and Debezium's) topic.prefix: "agora".
	TopicPrefix string
	// Partitions of the topics the runner creates when they do not exist
	// yet (so a consumer can subscribe before the first change).
	Partitions int
	// MaxBatch bounds the changes handed to ApplyBatch at once (500).
	MaxBatch int
	// MaxAttempts is how often a change that fails with an error of no
	// known kind is tried before it is dead-lettered (6), with exponential
	// backoff from Backoff (100 ms). A change whose target is unavailable
	// (IsUnavailable) is retried for as long as it takes, the backoff
	// doubling up to MaxBackoff (30 s).
	MaxAttempts int
	Backoff     time.Duration
	MaxBackoff  time.Duration
	// StallAfter is how long a projection retries before its state is
	// stalled (a minute).
	StallAfter time.Duration
	// LagInterval is how often each projection's lag is measured (5 s).
	LagInterval time.Duration
	// SessionTimeout is the consumer-group session: how long a killed
	// projector keeps its partitions before another takes them (6 s).
	SessionTimeout time.Duration
	// Metrics, when set, receive the runner's figures.
	Metrics *Metrics
	Log     *slog.Logger
}

func (c *Config) defaults() {
	if c.TopicPrefix == "" {
		c.TopicPrefix = "agora"
	}
	if c.Partitions < 1 {
		c.Partitions = kafka.DefaultPartitions
	}
	if c.MaxBatch < 1 {
		c.MaxBatch = 500
	}
	if c.MaxAttempts < 1 {
		c.MaxAttempts = 6
	}
	if c.Backoff <= 0 {
		c.Backoff = 100 * time.Millisecond
	}
	if c.MaxBackoff < c.Backoff {
		c.MaxBackoff = max(c.Backoff, 30*time.Second)
	}
	if c.StallAfter <= 0 {
		c.StallAfter = time.Minute
	}
	if c.LagInterval <= 0 {
		c.LagInterval = 5 * time.Second
	}
	if c.SessionTimeout <= 0 {
		c.SessionTimeout = 6 * time.Second
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics(nil)
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
}

// GroupID is the consumer group of a projection.
func GroupID(prefix, name string) string { return prefix + ".projection." + name }

// DeadLetterTopic is the dead-letter topic of a projection.
func DeadLetterTopic(prefix, name string) string { return prefix + ".dlq." + name }

// Dead-letter headers, named as Kafka Connect names its own.
const (
	HeaderTopic     = "__connect.errors.topic"
	HeaderPartition = "__connect.errors.partition"
	HeaderOffset    = "__connect.errors.offset"
	HeaderError     = "__connect.errors.exception.message"
	HeaderAttempts  = "agora.errors.attempts"
)

// Run runs every handler in its own consumer group until ctx ends. A
// handler whose consumer fails is restarted after a backoff; Run returns
// nil when ctx ends.
func Run(ctx context.Context, cfg Config, handlers ...Handler) error {
	cfg.defaults()
	if len(cfg.Brokers) == 0 {
		return errors.New("projections: no Kafka brokers")
	}
	seen := map[string]bool{}
	for _, h := range handlers {
		if seen[h.Name()] {
			return fmt.Errorf("projections: two projections named %q", h.Name())
		}
		seen[h.Name()] = true
	}
	var wg sync.WaitGroup
	for _, h := range handlers {
		cfg.Metrics.Health.track(h.Name(), cfg.StallAfter)
		if s, ok := h.(Scheduled); ok {
			wg.Go(func() { s.Schedule(ctx) })
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			backoff := time.Second
			for {
				err := runOne(ctx, cfg, h)
				if ctx.Err() != nil {
					return
				}
				cfg.Log.Warn("projection consumer stopped; restarting", "projection", h.Name(), "err", err, "after", backoff)
				select {
				case <-ctx.Done():
					return
				case <-time.After(backoff):
				}
				backoff = min(2*backoff, 30*time.Second)
			}
		}()
	}
	wg.Wait()
	return nil
}

// Topics are the topics of a handler's tables.
func Topics(prefix string, h Handler) []string {
	var ts []string
	for _, t := range h.Tables() {
		ts = append(ts, prefix+"."+t)
	}
	return ts
}

type consumer struct {
	cfg    Config
	h      Handler
	batch  BatchHandler
	reader *kafkago.Reader
	dlq    *kafkago.Writer
	tables map[string]bool
}

func runOne(ctx context.Context, cfg Config, h Handler) error {
	topics := Topics(cfg.TopicPrefix, h)
	dlqTopic := DeadLetterTopic(cfg.TopicPrefix, h.Name())
	if err := kafka.EnsureTopics(ctx, cfg.Brokers, cfg.Partitions, append(append([]string{}, topics...), dlqTopic)...); err != nil {
		return err
	}
	if f, ok := h.(FromTime); ok {
		if err := kafka.CommitFromTimeOfNew(ctx, cfg.Brokers, GroupID(cfg.TopicPrefix, h.Name()), f.StartAt(), topics...); err != nil {
			return err
		}
	}
	var measuring sync.WaitGroup
	defer measuring.Wait()
	lagCtx, stopMeasuring := context.WithCancel(ctx)
	defer stopMeasuring()
	measuring.Go(func() { measureLag(lagCtx, cfg, h) })
	r := kafkago.NewReader(kafkago.ReaderConfig{
		Brokers:           cfg.Brokers,
		GroupID:           GroupID(cfg.TopicPrefix, h.Name()),
		GroupTopics:       topics,
		MinBytes:          1,
		MaxBytes:          16 << 20,
		MaxWait:           500 * time.Millisecond,
		ReadBatchTimeout:  5 * time.Second,
		QueueCapacity:     1000,
		CommitInterval:    0, // commits are synchronous, after the apply
		StartOffset:       kafkago.FirstOffset,
		SessionTimeout:    cfg.SessionTimeout,
		HeartbeatInterval: cfg.SessionTimeout / 6,
		RebalanceTimeout:  cfg.SessionTimeout,
		JoinGroupBackoff:  500 * time.Millisecond,
		ReadBackoffMin:    10 * time.Millisecond,
		ReadBackoffMax:    200 * time.Millisecond,
		MaxAttempts:       3,
	})
	defer r.Close()
	w := kafka.NewWriter(cfg.Brokers)
	defer w.Close()
	c := newConsumer(cfg, h, w)
	c.reader = r
	return c.loop(ctx)
}

// newConsumer applies h's changes, dead-lettering with w.
func newConsumer(cfg Config, h Handler, w *kafkago.Writer) *consumer {
	c := &consumer{cfg: cfg, h: h, dlq: w, tables: map[string]bool{}}
	c.batch, _ = h.(BatchHandler)
	for _, t := range h.Tables() {
		c.tables[t] = true
	}
	return c
}

// measureLag measures h's lag every LagInterval until ctx ends: from the
// consumer group's committed offsets, so it grows while a target is down
// and no batch completes.
func measureLag(ctx context.Context, cfg Config, h Handler) {
	group := GroupID(cfg.TopicPrefix, h.Name())
	for {
		var total int64
		var err error
		for _, topic := range Topics(cfg.TopicPrefix, h) {
			var lag map[int]int64
			if lag, err = kafka.Lag(ctx, cfg.Brokers, group, topic); err != nil {
				break
			}
			for p, n := range lag {
				cfg.Metrics.Lag.WithLabelValues(h.Name(), topic, strconv.Itoa(p)).Set(float64(n))
				total += n
			}
		}
		if err == nil {
			cfg.Metrics.Health.setLag(h.Name(), total)
		} else if ctx.Err() == nil {
			cfg.Log.Debug("projection lag not measured", "projection", h.Name(), "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(cfg.LagInterval):
		}
	}
}

func (c *consumer) loop(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	msgs := make(chan kafkago.Message, c.cfg.MaxBatch)
	fetchErr := make(chan error, 1)
	go func() {
		for {
			m, err := c.reader.FetchMessage(ctx)
			if err != nil {
				fetchErr <- err
				return
			}
			select {
			case msgs <- m:
			case <-ctx.Done():
				fetchErr <- ctx.Err()
				return
			}
		}
	}()
	batch := make([]kafkago.Message, 0, c.cfg.MaxBatch)
	for {
		batch = batch[:0]
		select {
		case m := <-msgs:
			batch = append(batch, m)
		case err := <-fetchErr:
			return err
		}
	fill:
		for len(batch) < c.cfg.MaxBatch {
			select {
			case m := <-msgs:
				batch = append(batch, m)
			default:
				break fill
			}
		}
		if _, err := c.process(ctx, batch); err != nil {
			return err
		}
		if err := c.reader.CommitMessages(ctx, batch...); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// A rebalance took the partitions: the next owner reads the
			// uncommitted changes again, which the projection tolerates.
			c.cfg.Log.Warn("offset commit failed", "projection", c.h.Name(), "err", err)
		}
	}
}

// decoded is a message and its change (ok false: nothing to apply).
type decoded struct {
	msg kafkago.Message
	c   change.Change
	ok  bool
}

// process applies a batch, dead-lettering the changes that fail for good
// (failed says how many); it returns an error only when ctx ended or the
// dead-letter topic cannot be written, so the batch must not be committed.
// While the target is unavailable it retries, never returning: a batch is
// applied again from its first change not applied yet.
func (c *consumer) process(ctx context.Context, batch []kafkago.Message) (failed int, err error) {
	ds := make([]decoded, 0, len(batch))
	var todo []change.Change
	for _, m := range batch {
		ch, err := change.Decode(m.Topic, m.Key, m.Value)
		switch {
		case errors.Is(err, change.ErrTombstone):
			continue
		case err != nil:
			// Not a change event: no retry makes it one.
			if err := c.deadLetter(ctx, m, err, 1); err != nil {
				return failed, err
			}
			failed++
			continue
		}
		if !c.tables[ch.QualifiedTable()] {
			continue
		}
		ch.Partition, ch.Offset, ch.Time = m.Partition, m.Offset, m.Time
		ds = append(ds, decoded{msg: m, c: ch, ok: true})
		todo = append(todo, ch)
	}
	if len(todo) == 0 {
		return failed, nil
	}
	start := time.Now()
	if c.batch != nil && len(todo) > 1 {
		backoff := c.cfg.Backoff
		for {
			err := c.batch.ApplyBatch(ctx, todo)
			if err == nil {
				c.cfg.Metrics.Health.healthy(c.h.Name())
				c.applied(todo, start)
				return failed, nil
			}
			if ctx.Err() != nil {
				return failed, ctx.Err()
			}
			if !IsUnavailable(err) {
				c.cfg.Log.Warn("batch apply failed; applying one by one", "projection", c.h.Name(), "changes", len(todo), "err", err)
				break
			}
			if err := c.wait(ctx, ds[0].msg, err, 0, &backoff); err != nil {
				return failed, err
			}
		}
	}
	done := todo[:0]
	for _, d := range ds {
		ok, err := c.applyOne(ctx, d)
		if err != nil {
			return failed, err
		}
		if ok {
			done = append(done, d.c)
		} else {
			failed++
		}
	}
	c.applied(done, start)
	return failed, nil
}

func (c *consumer) applied(cs []change.Change, start time.Time) {
	m := c.cfg.Metrics
	name := c.h.Name()
	m.Apply.WithLabelValues(name).Observe(time.Since(start).Seconds())
	now := time.Now()
	delay := m.Delay.WithLabelValues(name)
	relayed, brokered, applied := m.Stages.WithLabelValues(name, "relay"), m.Stages.WithLabelValues(name, "broker"), m.Stages.WithLabelValues(name, "apply")
	for _, ch := range cs {
		m.Changes.WithLabelValues(name, string(ch.Op)).Inc()
		if ch.Op != change.Read && ch.Source.TsMs > 0 {
			committed := time.UnixMilli(ch.Source.TsMs)
			delay.Observe(now.Sub(committed).Seconds())
			if !ch.Time.IsZero() {
				relayed.Observe(max(0, ch.Time.Sub(committed).Seconds()))
				brokered.Observe(max(0, start.Sub(ch.Time).Seconds()))
			}
			applied.Observe(now.Sub(start).Seconds())
		}
	}
}

// applyOne applies one change with retries, dead-lettering it when it is
// poison or keeps failing; applied says which happened. A change whose
// target is unavailable is retried until it applies or ctx ends.
func (c *consumer) applyOne(ctx context.Context, d decoded) (applied bool, err error) {
	backoff := c.cfg.Backoff
	for attempt := 1; ; {
		if err = c.h.Apply(ctx, d.c); err == nil {
			c.cfg.Metrics.Health.healthy(c.h.Name())
			return true, nil
		}
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		switch {
		case IsPermanent(err):
			return false, c.deadLetter(ctx, d.msg, err, attempt)
		case IsUnavailable(err):
			// Not the change's fault: it does not use up its attempts.
		case attempt == c.cfg.MaxAttempts:
			return false, c.deadLetter(ctx, d.msg, err, attempt)
		default:
			attempt++
		}
		if err := c.wait(ctx, d.msg, err, attempt, &backoff); err != nil {
			return false, err
		}
	}
}

// wait records a failed attempt at m (attempt 0: of its batch) and sleeps
// for the backoff, which it doubles up to MaxBackoff.
func (c *consumer) wait(ctx context.Context, m kafkago.Message, cause error, attempt int, backoff *time.Duration) error {
	name := c.h.Name()
	c.cfg.Metrics.Retries.WithLabelValues(name).Inc()
	c.cfg.Metrics.Health.retrying(name, cause)
	c.cfg.Log.Warn("apply failed; retrying", "projection", name, "topic", m.Topic, "partition", m.Partition, "offset", m.Offset,
		"attempt", attempt, "unavailable", IsUnavailable(cause), "after", *backoff, "err", cause)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(*backoff):
	}
	*backoff = min(2**backoff, c.cfg.MaxBackoff)
	return nil
}

// deadLetter writes m to the projection's dead-letter topic with the error.
func (c *consumer) deadLetter(ctx context.Context, m kafkago.Message, cause error, attempts int) error {
	// The projection goes on past it.
	c.cfg.Metrics.Health.healthy(c.h.Name())
	c.cfg.Log.Error("change sent to the dead-letter topic", "projection", c.h.Name(), "topic", m.Topic, "partition", m.Partition, "offset", m.Offset, "err", cause)
	c.cfg.Metrics.DeadLetters.WithLabelValues(c.h.Name()).Inc()
	dl := kafkago.Message{
		Topic: DeadLetterTopic(c.cfg.TopicPrefix, c.h.Name()),
		Key:   m.Key,
		Value: m.Value,
		Headers: []kafkago.Header{
			{Key: HeaderTopic, Value: []byte(m.Topic)},
			{Key: HeaderPartition, Value: []byte(strconv.Itoa(m.Partition))},
			{Key: HeaderOffset, Value: []byte(strconv.FormatInt(m.Offset, 10))},
			{Key: HeaderError, Value: []byte(cause.Error())},
			{Key: HeaderAttempts, Value: []byte(strconv.Itoa(attempts))},
		},
	}
	// The dead letter must be safe before the offset moves past it.
	for backoff := c.cfg.Backoff; ; backoff = min(2*backoff, c.cfg.MaxBackoff) {
		err := c.dlq.WriteMessages(ctx, dl)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		c.cfg.Log.Warn("dead-letter write failed; retrying", "projection", c.h.Name(), "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
}
