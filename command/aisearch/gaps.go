package aisearch

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	. "github.com/go-jet/jet/v2/postgres"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"agora/internal/plumbing/apperr"
	"agora/internal/plumbing/auth"
	"agora/internal/plumbing/db"
	"agora/internal/plumbing/db/gen/model"
	"agora/internal/plumbing/db/gen/table"
	"agora/internal/rules/access"
	"agora/search/answer"
)

// Unanswered says whether an answer is a content gap: it cites no post of
// the forum. The extractive answerer's answer.NoAnswer cites none, and a
// model that says the posts do not answer has nothing to cite either, so
// one rule serves every answerer.
func Unanswered(res answer.Result) bool { return len(res.Citations) == 0 }

// NormalizeQuestion is what makes two askings the same content gap: lower
// case, punctuation and symbols dropped, runs of spaces made one.
func NormalizeQuestion(q string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(q) {
		switch {
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

// recordGap counts the question as a content gap of the forum, in the
// turn's transaction: a new row the first time, the count up, the latest
// wording and time after that. The asker is deliberately not recorded
// (see migration 0024). A question of only punctuation normalizes to
// nothing and is not a gap anyone could fill.
func recordGap(ctx context.Context, tx pgx.Tx, seriesID uuid.UUID, question string, now time.Time) error {
	norm := NormalizeQuestion(question)
	if norm == "" {
		return nil
	}
	g := table.ContentGaps
	_, err := db.Exec(ctx, tx, g.INSERT(g.AllColumns).MODEL(model.ContentGaps{
		ID: newID(), SeriesID: seriesID, Normalized: norm, Question: question, AskedCount: 1,
		FirstAskedOn: now, LastAskedOn: now}).
		ON_CONFLICT(g.SeriesID, g.Normalized).DO_UPDATE(SET(
		g.AskedCount.SET(g.AskedCount.ADD(Int32(1))),
		g.Question.SET(g.EXCLUDED.Question),
		g.LastAskedOn.SET(g.EXCLUDED.LastAskedOn))))
	if err != nil {
		return fmt.Errorf("aisearch: record content gap: %w", err)
	}
	return nil
}

// DismissGap is DELETE {insights base}/series/{seriesId}/content-gaps/{gapId}:
// a forum admin (access.AdminForum, the Insights panel's rule) removes one
// of the forum's content gaps. A gap of another forum, or one already
// dismissed, is not found.
func (s *Service) DismissGap(ctx context.Context, v auth.Caller, seriesID, gapID uuid.UUID) error {
	if _, err := access.AdminForum(ctx, s.db, v.UserID, v.Role, seriesID); err != nil {
		return err
	}
	g := table.ContentGaps
	tag, err := db.Exec(ctx, s.db, g.DELETE().WHERE(g.ID.EQ(UUID(gapID)).AND(g.SeriesID.EQ(UUID(seriesID)))))
	if err != nil {
		return fmt.Errorf("aisearch: dismiss content gap: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.ErrNotFound
	}
	return nil
}
