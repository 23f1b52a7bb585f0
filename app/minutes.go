package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v3"

	cmdmeetup "agora/command/meetup"
	cmdminutes "agora/command/minutes"
	"agora/internal/adapters/sfu"
	"agora/internal/plumbing/config"
	"agora/internal/plumbing/db"
)

// newMinutes builds the Meet Up AI notes: recorded on LiveKit when one is
// configured, minutes written by the AI search's model when one is
// configured (the same AGORA_AI_* settings), extractive otherwise.
func newMinutes(cfg config.Config, d *db.DB, rooms *sfu.Client, log *slog.Logger) (*cmdminutes.Service, error) {
	m, err := newModel(cfg)
	if err != nil {
		return nil, err
	}
	var model cmdminutes.Model
	if m != nil {
		// A nil *answer.Model in the interface would not be nil.
		model = m
	}
	return cmdminutes.New(d, rooms, "", model, log.With("part", "minutes"))
}

// meetupSweepEvery is how often an API node ends the Meet Ups whose
// scheduled end has come (cmdmeetup.EndOverdue) and looks for recordings
// left by a node that went away (cmdminutes.Sweep). Reads and join tokens
// treat a Meet Up as ended from its end on their own; the sweep writes it,
// which tells the browsers and closes the rooms, so a room outlives its
// end by at most this.
const meetupSweepEvery = 15 * time.Second

// runMeetupSweep ends, while the API serves, the Meet Ups past their
// scheduled end, then compiles the minutes of Meet Ups whose recorder's
// node stopped before it could. Every API node sweeps; both are safe to
// run on several at once.
func runMeetupSweep(srv *fiber.App, meetings *cmdmeetup.Service, m *cmdminutes.Service, log *slog.Logger) {
	sweepWhileServing(srv, meetupSweepEvery, func(ctx context.Context) (int, error) {
		ended, err := meetings.EndOverdue(ctx)
		if err != nil && ctx.Err() == nil {
			log.Warn("ending overdue Meet Ups failed", "err", err)
		} else if ended > 0 {
			log.Info("ended Meet Ups at their scheduled end", "count", ended)
		}
		return m.Sweep(ctx)
	}, func(n int, err error) {
		if err != nil {
			log.Warn("minutes sweep failed", "err", err)
		} else if n > 0 {
			log.Info("compiled minutes of recordings left by another node", "count", n)
		}
	})
}
