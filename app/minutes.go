package app

import (
	"log/slog"

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
