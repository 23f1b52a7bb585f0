package app

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v3"

	cmdminutes "agora/command/minutes"
	"agora/internal/config"
	"agora/internal/db"
	"agora/internal/sfu"
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

// minutesSweepEvery is how often an API node looks for recordings left by a
// node that went away (cmdminutes.Sweep).
const minutesSweepEvery = time.Minute

// runMinutesSweep compiles, while the API serves, the minutes of Meet Ups
// whose recorder's node stopped before it could.
func runMinutesSweep(srv *fiber.App, m *cmdminutes.Service, log *slog.Logger) {
	sweepWhileServing(srv, minutesSweepEvery, m.Sweep, func(n int, err error) {
		if err != nil {
			log.Warn("minutes sweep failed", "err", err)
		} else if n > 0 {
			log.Info("compiled minutes of recordings left by another node", "count", n)
		}
	})
}
