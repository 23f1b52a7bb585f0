package relay

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pglogrepl"
	kafkago "github.com/segmentio/kafka-go"

	"agora/internal/adapters/kafka"
)

// item is what the streamer hands the producer: a message, or the end of a
// transaction (commit), or a flush request (done).
type item struct {
	msg        kafkago.Message
	commit     pglogrepl.LSN
	commitTime time.Time
	done       chan error
}

// producer writes messages in order, in batches, and tracks the LSN up to
// which Kafka has acknowledged everything.
type producer struct {
	w          *kafkago.Writer
	cfg        Config
	in         chan item
	ackedLSN   atomic.Uint64
	topics     map[string]bool
	maxBatch   int
	lastCommit pglogrepl.LSN
}

func newProducer(w *kafkago.Writer, cfg Config) *producer {
	return &producer{w: w, cfg: cfg, in: make(chan item, 8192), topics: map[string]bool{}, maxBatch: 4000}
}

func (p *producer) send(ctx context.Context, it item) error {
	select {
	case p.in <- it:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flush waits until everything sent before it is written.
func (p *producer) flush(ctx context.Context) error {
	done := make(chan error, 1)
	if err := p.send(ctx, item{done: done}); err != nil {
		return err
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *producer) acked() pglogrepl.LSN { return pglogrepl.LSN(p.ackedLSN.Load()) }

func (p *producer) run(ctx context.Context) error {
	var (
		batch   []kafkago.Message
		waiters []chan error
		commits []time.Time
		commit  pglogrepl.LSN
	)
	for {
		batch, waiters, commits, commit = batch[:0], waiters[:0], commits[:0], 0
		// Block for the first item, then take what is queued, up to a batch.
		select {
		case it := <-p.in:
			p.take(it, &batch, &waiters, &commit, &commits)
		case <-ctx.Done():
			return ctx.Err()
		}
	drain:
		for len(batch) < p.maxBatch {
			select {
			case it := <-p.in:
				p.take(it, &batch, &waiters, &commit, &commits)
			default:
				break drain
			}
		}
		err := p.write(ctx, batch)
		p.cfg.Log.Debug("batch written", "messages", len(batch), "commit", commit, "err", err)
		for _, w := range waiters {
			w <- err
		}
		if err != nil {
			return err
		}
		if commit > 0 {
			p.ackedLSN.Store(uint64(commit))
		}
		p.cfg.Metrics.Messages.Add(float64(len(batch)))
		now := time.Now()
		for _, ct := range commits {
			p.cfg.Metrics.Delay.Observe(now.Sub(ct).Seconds())
		}
	}
}

func (p *producer) take(it item, batch *[]kafkago.Message, waiters *[]chan error, commit *pglogrepl.LSN, commits *[]time.Time) {
	switch {
	case it.done != nil:
		*waiters = append(*waiters, it.done)
	case it.commit > 0:
		*commit = it.commit
		*commits = append(*commits, it.commitTime)
	default:
		*batch = append(*batch, it.msg)
	}
}

func (p *producer) write(ctx context.Context, batch []kafkago.Message) error {
	if len(batch) == 0 {
		return nil
	}
	var missing []string
	for _, m := range batch {
		if !p.topics[m.Topic] {
			p.topics[m.Topic] = true
			missing = append(missing, m.Topic)
		}
	}
	if len(missing) > 0 {
		if err := kafka.EnsureTopics(ctx, p.cfg.Brokers, p.cfg.Partitions, missing...); err != nil {
			for _, t := range missing {
				delete(p.topics, t)
			}
			return err
		}
	}
	if err := p.w.WriteMessages(ctx, batch...); err != nil {
		return fmt.Errorf("relay: write to kafka: %w", err)
	}
	return nil
}
