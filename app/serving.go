package app

import (
	"context"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
)

// whileServing runs start once srv listens, with a context that ends when
// srv begins to shut down; the shutdown then waits for every goroutine
// start spawned. A server that shuts down before it listens starts
// nothing. It is how an API node runs its background work (the live
// events, the upload sweep) for exactly as long as it serves.
func whileServing(srv *fiber.App, start func(ctx context.Context, spawn func(func()))) {
	var (
		mu      sync.Mutex
		cancel  context.CancelFunc
		stopped bool
		wg      sync.WaitGroup
	)
	spawn := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	srv.Hooks().OnListen(func(fiber.ListenData) error {
		mu.Lock()
		defer mu.Unlock()
		if stopped || cancel != nil {
			return nil
		}
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		start(ctx, spawn)
		return nil
	})
	srv.Hooks().OnPreShutdown(func() error {
		mu.Lock()
		stopped = true
		c := cancel
		mu.Unlock()
		if c != nil {
			c()
			wg.Wait()
		}
		return nil
	})
}

// sweepWhileServing runs sweep once srv listens and then every interval,
// until srv shuts down, and reports each run's count or error (an error of
// the shutdown itself is not reported).
func sweepWhileServing(srv *fiber.App, every time.Duration, sweep func(context.Context) (int, error), report func(int, error)) {
	whileServing(srv, func(ctx context.Context, spawn func(func())) {
		spawn(func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				if n, err := sweep(ctx); ctx.Err() == nil {
					report(n, err)
				}
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
			}
		})
	})
}
