package minutes_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"agora/command/minutes"
)

var t0 = time.Date(2026, 3, 1, 15, 0, 0, 0, time.UTC)

func lines(pairs ...string) []minutes.Line {
	var out []minutes.Line
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, minutes.Line{Speaker: pairs[i], Text: pairs[i+1], At: t0.Add(time.Duration(i) * time.Minute)})
	}
	return out
}

func TestExtractiveLeadsWithTheAgendaAndKeepsTheOnTopicLinesInOrder(t *testing.T) {
	ls := lines(
		"Ada", "good morning everyone can you hear me",
		"Ben", "yes i can hear you fine",
		"Ada", "the capstone proposal is due on march fourteenth",
		"Ben", "what about the weather today",
		"Cleo", "the budget review for the capstone happens next week",
		"Ben", "ok",
		"Ada", "i will send the proposal draft to the team tonight",
		"Cleo", "my cat says hello",
		"Ben", "thanks bye",
		"Ada", "bye",
		"Cleo", "see you",
		"Ben", "the coffee machine is broken again",
		"Ada", "right",
		"Cleo", "lunch",
		"Ben", "sure",
		"Ada", "great",
	)
	got := minutes.Extractive("Capstone proposal and budget", ls)
	if !strings.HasPrefix(got, "Agenda: Capstone proposal and budget\n\nNotes:\n") {
		t.Fatalf("minutes do not lead with the agenda:\n%s", got)
	}
	want := []string{
		"- Ada: The capstone proposal is due on march fourteenth.",
		"- Cleo: The budget review for the capstone happens next week.",
		"- Ada: I will send the proposal draft to the team tonight.",
	}
	at := -1
	for _, w := range want {
		i := strings.Index(got, w)
		if i < 0 || i < at {
			t.Fatalf("%q missing or out of order in:\n%s", w, got)
		}
		at = i
	}
	for _, off := range []string{"cat says hello", "coffee machine", "weather"} {
		if strings.Contains(got, off) {
			t.Errorf("off-topic %q kept:\n%s", off, got)
		}
	}
}

func TestExtractiveWithoutSpeechOrAgenda(t *testing.T) {
	if got := minutes.Extractive("", nil); got != minutes.NoSpeech {
		t.Errorf("got %q", got)
	}
	if got := minutes.Extractive("Plans", nil); got != "Agenda: Plans\n\n"+minutes.NoSpeech {
		t.Errorf("got %q", got)
	}
	got := minutes.Extractive("", lines("Ada", "the launch moves to friday"))
	if got != "Notes:\n- Ada: The launch moves to friday." {
		t.Errorf("got %q", got)
	}
}

type model struct {
	out string
	err error
	got string
}

func (m *model) Complete(_ context.Context, _, user string) (string, error) {
	m.got = user
	return m.out, m.err
}

func TestCompileUsesTheModelAndFallsBackWhenItFails(t *testing.T) {
	ls := lines("Ada", "the capstone proposal is due on march fourteenth")
	m := &model{out: "Summary: the proposal is due March 14."}
	text, by, err := minutes.Compile(context.Background(), m, "Capstone", ls)
	if err != nil || by != "model" || text != m.out {
		t.Fatalf("got %q by %s (%v)", text, by, err)
	}
	if !strings.Contains(m.got, "Agenda: Capstone") || !strings.Contains(m.got, "[15:00] Ada: the capstone proposal") {
		t.Errorf("prompt:\n%s", m.got)
	}
	m = &model{err: errors.New("model down")}
	text, by, err = minutes.Compile(context.Background(), m, "Capstone", ls)
	if err != nil || by != "extractive" || !strings.Contains(text, "Ada: The capstone proposal") {
		t.Fatalf("fallback: %q by %s (%v)", text, by, err)
	}
}
