package app

import (
	"context"
	"sync"

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
