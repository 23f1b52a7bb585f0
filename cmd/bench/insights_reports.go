package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"agora/app"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/paging"
	qinsights "agora/query/insights"
)

// insightsReport is one report or list as the API calls it.
type insightsReport struct {
	name string
	call func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (total int, err error)
}

// firstPage is the page a list is called for when the API's caller names
// none (httpapi's pageRequest defaults).
var firstPage = paging.Request{Page: 1, PageSize: qinsights.DefaultPageSize}

var insightsReports = []insightsReport{
	{"interactions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Interactions(ctx, r)
		return rep.Total, err
	}},
	{"content", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Content(ctx, r)
		return rep.Total, err
	}},
	{"meetups", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Meetups(ctx, r)
		return rep.Meetups, err
	}},
	{"members", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Members(ctx, r)
		return rep.Counts.Visitors, err
	}},
	{"inline-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.InlineQuestions(ctx, r)
		return rep.Total, err
	}},
	{"asked-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.AskedQuestions(ctx, r)
		return rep.Total, err
	}},
	{"ai-searches", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.AISearches(ctx, r)
		return rep.Total, err
	}},
	{"summary", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.Summary(ctx, r)
		return rep.Interactions, err
	}},
	{"list asked-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.ListAskedQuestions(ctx, qinsights.ListRequest{Request: r, Page: firstPage})
		return rep.Total, err
	}},
	{"list inline-questions", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.ListInlineQuestions(ctx, qinsights.ListRequest{Request: r, Page: firstPage})
		return rep.Total, err
	}},
	{"list ai-searches", func(ctx context.Context, q *qinsights.Queries, r qinsights.Request) (int, error) {
		rep, err := q.ListAISearches(ctx, qinsights.ListRequest{Request: r, Page: firstPage})
		return rep.Total, err
	}},
}

// reports times every report through query/insights, as the API's
// handlers call it, over the kept warehouse and Postgres.
func (w *insightsWorld) reports(ctx context.Context, conn driver.Conn, d *app.Database) error {
	q, err := qinsights.New(d.DB, qinsights.NewClickHouse(conn))
	if err != nil {
		return err
	}
	caller := auth.Caller{UserID: w.caller, Role: auth.RoleUser} // an admin of the organization
	biggest := w.forums[0]
	if err := w.describeBiggest(ctx, conn, biggest); err != nil {
		return err
	}
	// Forums drawn by their activity (an admin of a busy forum looks more
	// often), and every third call the biggest, so that its p95 rests on
	// enough calls; the same draws for every report.
	drng := rand.New(rand.NewPCG(insightsSeed, 7))
	n, warm := *insightsCallsN, *insightsWarmupN
	draws := make([]int, warm+n)
	for i := range draws {
		if draws[i] = w.forumW.pick(drng); i%3 == 0 {
			draws[i] = 0
		}
	}
	distinct := map[int]bool{}
	onBiggest := 0
	for _, f := range draws[warm:] {
		distinct[f] = true
		if f == 0 {
			onBiggest++
		}
	}
	var missed []string
	for _, period := range []int{90, 30} {
		var totals []string
		fmt.Printf("insights-reports, period %d days: %d sequential calls of each after %d warm-up, on %d forums drawn by activity (%d calls on the biggest); rows read by one call on the biggest forum\n",
			period, n, warm, len(distinct), onBiggest)
		for _, rep := range insightsReports {
			req := func(f int) qinsights.Request {
				return qinsights.Request{Caller: caller, SeriesID: w.forums[f].id, Period: strconv.Itoa(period)}
			}
			// One untimed call on the biggest forum counts what it reads.
			var readRows, readBytes atomic.Uint64
			pctx := clickhouse.Context(ctx, clickhouse.WithProgress(func(p *clickhouse.Progress) {
				readRows.Add(p.Rows)
				readBytes.Add(p.Bytes)
			}))
			total, err := rep.call(pctx, q, req(0))
			totals = append(totals, fmt.Sprintf("%s %s", rep.name, thousands(int64(total))))
			if err != nil {
				return fmt.Errorf("insights-reports %s: %w", rep.name, err)
			}
			if rep.name == "interactions" && total == 0 {
				return fmt.Errorf("insights-reports: the biggest forum has no interactions in %d days: the data does not match the forums", period)
			}
			var all, big []time.Duration
			for i, f := range draws {
				t0 := time.Now()
				if _, err := rep.call(ctx, q, req(f)); err != nil {
					return fmt.Errorf("insights-reports %s: %w", rep.name, err)
				}
				el := time.Since(t0)
				if i < warm {
					continue
				}
				all = append(all, el)
				if f == 0 {
					big = append(big, el)
				}
			}
			a, b := newResult(all, 0), newResult(big, 0)
			ok := a.p(95) <= insightsTarget
			if !ok {
				missed = append(missed, fmt.Sprintf("%s %dd", rep.name, period))
			}
			fmt.Printf("%-46s p50 %6.1f ms  p95 %6.1f ms; biggest forum p50 %6.1f p95 %6.1f ms, reads %s rows (%.1f MiB); target p95 <= %d ms (%s)\n",
				fmt.Sprintf("insights-reports %s (%dd):", rep.name, period), ms(a.p(50)), ms(a.p(95)), ms(b.p(50)), ms(b.p(95)),
				thousands(int64(readRows.Load())), float64(readBytes.Load())/(1<<20), insightsTarget.Milliseconds(), verdict(ok))
		}
		fmt.Printf("    the biggest forum's figures, %d days: %s\n", period, strings.Join(totals, ", "))
	}
	if len(missed) == 0 {
		fmt.Printf("insights-reports target: p95 <= %d ms for every report and period (met)\n", insightsTarget.Milliseconds())
	} else {
		fmt.Printf("insights-reports target: p95 <= %d ms for every report and period (missed by %d of %d: %s)\n",
			insightsTarget.Milliseconds(), len(missed), 2*len(insightsReports), strings.Join(missed, ", "))
	}
	return nil
}

// describeBiggest prints what the biggest forum holds in each period.
func (w *insightsWorld) describeBiggest(ctx context.Context, conn driver.Conn, f *insightsForum) error {
	var all uint64
	if err := conn.QueryRow(ctx, "SELECT toUInt64(count()) FROM facts WHERE series_id = ?", f.id).Scan(&all); err != nil {
		return fmt.Errorf("insights: biggest forum: %w", err)
	}
	var parts []string
	today := time.Now().UTC().Truncate(24 * time.Hour)
	for _, period := range []int{90, 30} {
		from := today.AddDate(0, 0, -(period - 1)).Format(time.DateOnly)
		var rows, keys uint64
		if err := conn.QueryRow(ctx, `SELECT toUInt64(count()), toUInt64(uniqExact(kind, day, object_id)) FROM facts
			WHERE series_id = ? AND day >= toDate(?)`, f.id, from).Scan(&rows, &keys); err != nil {
			return fmt.Errorf("insights: biggest forum: %w", err)
		}
		var inter uint64
		if err := conn.QueryRow(ctx, `SELECT toUInt64(count()) FROM facts
			WHERE series_id = ? AND day >= toDate(?) AND kind IN ('post', 'comment', 'reply', 'reaction')`, f.id, from).Scan(&inter); err != nil {
			return fmt.Errorf("insights: biggest forum: %w", err)
		}
		parts = append(parts, fmt.Sprintf("%d days %s rows (%s keys; %s of post, comment, reply, reaction)", period, thousands(int64(rows)), thousands(int64(keys)), thousands(int64(inter))))
	}
	fmt.Printf("insights biggest forum %q (%s members): %s fact rows in all; %s\n", f.name, thousands(int64(len(f.members))), thousands(int64(all)), strings.Join(parts, "; "))
	return nil
}
