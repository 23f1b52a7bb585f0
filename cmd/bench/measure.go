package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// result is the latencies of one run and its wall time.
type result struct {
	lat  []time.Duration // sorted
	wall time.Duration
}

func newResult(lat []time.Duration, wall time.Duration) result {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return result{lat: lat, wall: wall}
}

func (r result) n() int { return len(r.lat) }

// p is the q-th percentile by the nearest-rank method.
func (r result) p(q float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(math.Ceil(q/100*float64(len(r.lat)))) - 1
	return r.lat[max(0, min(i, len(r.lat)-1))]
}

func (r result) mean() time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range r.lat {
		sum += d
	}
	return sum / time.Duration(len(r.lat))
}

// rate is operations per second of wall time.
func (r result) rate() float64 {
	if r.wall <= 0 {
		return 0
	}
	return float64(len(r.lat)) / r.wall.Seconds()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// signInSequential signs in n times, round-robin over logins, after warm
// untimed calls.
func signInSequential(ctx context.Context, c *client, logins []string, password string, warm, n int) (result, error) {
	for i := 0; i < warm; i++ {
		if _, err := c.signIn(ctx, logins[i%len(logins)], password); err != nil {
			return result{}, err
		}
	}
	lat := make([]time.Duration, 0, n)
	start := time.Now()
	for i := 0; i < n; i++ {
		t0 := time.Now()
		if _, err := c.signIn(ctx, logins[i%len(logins)], password); err != nil {
			return result{}, err
		}
		lat = append(lat, time.Since(t0))
	}
	return newResult(lat, time.Since(start)), nil
}

// signInConcurrent signs in n times in total from workers goroutines.
func signInConcurrent(ctx context.Context, c *client, logins []string, password string, workers, n int) (result, error) {
	var next atomic.Int64
	lat := make([]time.Duration, n)
	errc := make(chan error, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t0 := time.Now()
				if _, err := c.signIn(ctx, logins[i%len(logins)], password); err != nil {
					errc <- err
					next.Store(int64(n)) // stop the others
					return
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	close(errc)
	if err := <-errc; err != nil {
		return result{}, err
	}
	return newResult(lat, wall), nil
}

// readThroughput calls GET /api/tokens/decode from workers goroutines for
// warmup (not counted) and then for d. It returns the counted latencies and
// the number of failed calls.
func readThroughput(ctx context.Context, c *client, token string, workers int, warmup, d time.Duration) (result, int64, error) {
	return closedLoop(ctx, workers, warmup, d, func(ctx context.Context) error {
		_, err := c.do(ctx, "GET", "/api/tokens/decode", token, nil, nil)
		return err
	})
}

// getLoop measures GET path with closedLoop and prints the line of label,
// detail (ending in ", " when given) opening its parentheses; a failed
// call fails it.
func getLoop(ctx context.Context, c *client, token, path, label, detail string, workers int, warmup, d time.Duration) error {
	r, errs, err := closedLoop(ctx, workers, warmup, d, func(ctx context.Context) error {
		_, err := c.do(ctx, "GET", path, token, nil, nil)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Printf("%-48s %8.0f req/s   p50 %6.2f ms  p99 %6.2f ms  (%sn=%d in %.1f s, %d errors)\n",
		label, r.rate(), ms(r.p(50)), ms(r.p(99)), detail, r.n(), r.wall.Seconds(), errs)
	if errs > 0 {
		return fmt.Errorf("%d requests failed", errs)
	}
	return nil
}

// closedLoop runs call from workers goroutines back to back for warmup
// (not counted) and then for d.
func closedLoop(ctx context.Context, workers int, warmup, d time.Duration, call func(context.Context) error) (result, int64, error) {
	var measuring atomic.Bool
	var failed atomic.Int64
	per := make([][]time.Duration, workers)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			lat := make([]time.Duration, 0, 1<<14)
			for runCtx.Err() == nil {
				counted := measuring.Load()
				t0 := time.Now()
				err := call(runCtx)
				el := time.Since(t0)
				if runCtx.Err() != nil {
					break
				}
				if !counted || !measuring.Load() {
					continue
				}
				if err != nil {
					failed.Add(1)
					continue
				}
				lat = append(lat, el)
			}
			per[w] = lat
		}(w)
	}
	select {
	case <-time.After(warmup):
	case <-ctx.Done():
	}
	measuring.Store(true)
	start := time.Now()
	select {
	case <-time.After(d):
	case <-ctx.Done():
	}
	measuring.Store(false)
	wall := time.Since(start)
	cancel()
	wg.Wait()
	if ctx.Err() != nil {
		return result{}, 0, errors.New("interrupted")
	}
	var all []time.Duration
	for _, l := range per {
		all = append(all, l...)
	}
	return newResult(all, wall), failed.Load(), nil
}
