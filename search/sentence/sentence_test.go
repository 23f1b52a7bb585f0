package sentence

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"agora/search"
)

// installed is the model scripts/install-deps.sh sentencemodel installs
// (or AGORA_SENTENCE_MODEL's folder and AGORA_ONNXRUNTIME's library); the
// tests that run the model skip, saying so, when it is absent.
func installed(t testing.TB) Files {
	t.Helper()
	f, why := TestFiles()
	if why != "" {
		t.Skip(why)
	}
	return f
}

var shared struct {
	once sync.Once
	enc  *Encoder
	err  error
}

// encoder is one Encoder for the package's tests: loading the model
// takes a few hundred milliseconds.
func encoder(t testing.TB) *Encoder {
	f := installed(t)
	shared.once.Do(func() { shared.enc, shared.err = Open(f) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.enc
}

type reference struct {
	MaxLen int `json:"maxLen"`
	Texts  []struct {
		Text   string    `json:"text"`
		IDs    []int64   `json:"ids"`
		Vector []float32 `json:"vector"`
	} `json:"texts"`
}

// The fixture was recorded by testdata/record.py with Hugging Face's
// tokenizers and ONNX Runtime's Python API.
func loadReference(t *testing.T) reference {
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if ref.MaxLen != MaxLen || len(ref.Texts) < 10 {
		t.Fatalf("the fixture was recorded at max length %d with %d texts; record it again (testdata/record.py)", ref.MaxLen, len(ref.Texts))
	}
	return ref
}

// The token ids equal those of Hugging Face's tokenizer on the same
// tokenizer.json: accents, punctuation, CJK, control characters, emoji,
// unknown words, an over-long word, empty input and a text cut at MaxLen.
func TestTokenIDsEqualTheReference(t *testing.T) {
	f := installed(t)
	tok, err := LoadTokenizer(filepath.Join(f.Dir, TokenizerFile), MaxLen)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range loadReference(t).Texts {
		if got := tok.Encode(r.Text); !slices.Equal(got, r.IDs) {
			t.Errorf("Encode(%q)\n got %v\nwant %v", r.Text, got, r.IDs)
		}
	}
}

// The vectors equal those of ONNX Runtime's Python API with
// sentence-transformers' pooling, one text at a time and in one batch
// (which pads the shorter texts: the mask must keep padding out).
func TestVectorsEqualTheReference(t *testing.T) {
	enc := encoder(t)
	ref := loadReference(t)
	var texts []string
	for _, r := range ref.Texts {
		texts = append(texts, r.Text)
	}
	batch, err := enc.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ref.Texts {
		one, err := enc.Embed(context.Background(), []string{r.Text})
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string][]float32{"alone": one[0], "in a batch": batch[i]} {
			if len(v) != Dim {
				t.Fatalf("%q %s: %d components", r.Text, name, len(v))
			}
			if c := search.Cosine(v, r.Vector); c < 0.999 {
				t.Errorf("%q %s: cosine %.5f with the reference, want ≥ 0.999", r.Text, name, c)
			}
			var n float64
			for _, x := range v {
				n += float64(x) * float64(x)
			}
			if math.Abs(n-1) > 1e-4 {
				t.Errorf("%q %s: squared length %v, want 1", r.Text, name, n)
			}
		}
	}
}

func TestTokenizer(t *testing.T) {
	f := installed(t)
	tok, err := LoadTokenizer(filepath.Join(f.Dir, TokenizerFile), MaxLen)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("accents and case", func(t *testing.T) {
		if a, b := tok.Encode("Crème Brûlée at the CAFÉ"), tok.Encode("creme brulee at the cafe"); !slices.Equal(a, b) {
			t.Errorf("accented and upper-case %v != plain %v", a, b)
		}
	})
	t.Run("empty", func(t *testing.T) {
		for _, s := range []string{"", " \t\n", "\u200b\u0000"} {
			if got := tok.Encode(s); !slices.Equal(got, []int64{tok.cls, tok.sep}) {
				t.Errorf("Encode(%q) = %v, want [CLS] [SEP]", s, got)
			}
		}
	})
	t.Run("long texts truncated", func(t *testing.T) {
		long := strings.Repeat("members learn together in cohorts ", 200)
		got := tok.Encode(long)
		if len(got) != MaxLen || got[0] != tok.cls || got[MaxLen-1] != tok.sep {
			t.Fatalf("%d ids, first %d last %d; want %d, [CLS] … [SEP]", len(got), got[0], got[len(got)-1], MaxLen)
		}
		if head := tok.Encode(strings.Repeat("members learn together in cohorts ", 5)); !slices.Equal(got[:len(head)-1], head[:len(head)-1]) {
			t.Errorf("the truncated text does not begin as the text does")
		}
	})
	t.Run("punctuation and pieces", func(t *testing.T) {
		got := tok.Encode("embeddings!")
		want := []int64{tok.cls}
		for _, p := range []string{"em", "##bed", "##ding", "##s", "!"} {
			id, ok := tok.vocab[p]
			if !ok {
				t.Fatalf("%q not in the vocabulary", p)
			}
			want = append(want, id)
		}
		if !slices.Equal(got, append(want, tok.sep)) {
			t.Errorf("Encode(embeddings!) = %v, want %v", got, append(want, tok.sep))
		}
	})
}

// A paraphrase is closer than an unrelated sentence, though it shares
// almost no word with the question.
func TestMeaning(t *testing.T) {
	enc := encoder(t)
	for _, c := range []struct{ q, para, other string }{
		{"How do I reset my password?", "I forgot my login credentials and cannot get into my account.", "The cohort meets on Tuesdays to review pull requests."},
		{"When are office hours held?", "Grace Liu is available to answer questions every Thursday afternoon.", "Our refund policy covers annual plans only."},
		{"Is there a discount for students?", "Learners enrolled at a university pay 15 % less.", "The recording of the meetup is on the events page."},
	} {
		v, err := enc.Embed(context.Background(), []string{c.q, c.para, c.other})
		if err != nil {
			t.Fatal(err)
		}
		if p, o := search.Cosine(v[0], v[1]), search.Cosine(v[0], v[2]); p <= o+0.1 {
			t.Errorf("%q: paraphrase %.3f, unrelated %.3f; want the paraphrase clearly above", c.q, p, o)
		}
	}
}

// Concurrent calls on one Encoder give the vectors a lone call gives.
func TestConcurrentEmbeds(t *testing.T) {
	enc := encoder(t)
	texts := []string{"a question about cohorts", "billing and invoices for teams", "how to join a meetup"}
	want, err := enc.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got, err := enc.Embed(context.Background(), texts)
				if err != nil {
					errs <- err.Error()
					return
				}
				for i := range got {
					if c := search.Cosine(got[i], want[i]); c < 0.99999 {
						errs <- "a concurrent vector differs"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// Close under a run waits for it (destroying the session under a run
// crashes the process), and a closed Encoder answers ErrClosed.
func TestCloseWaitsForTheRun(t *testing.T) {
	enc, err := Open(installed(t))
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 2*BatchSize)
	for i := range texts {
		texts[i] = fmt.Sprintf("post %d about cohorts, billing and the next Meet Up of the guild", i)
	}
	done := make(chan error, 1)
	go func() {
		_, err := enc.Embed(context.Background(), texts)
		done <- err
	}()
	time.Sleep(50 * time.Millisecond) // the first batch runs
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	// The batch under way ended; the next one found the model closed.
	if err := <-done; err != nil && !errors.Is(err, ErrClosed) {
		t.Fatalf("the embed under the close: %v", err)
	}
	if _, err := enc.Embed(context.Background(), []string{"after"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("an embed after the close: %v, want ErrClosed", err)
	}
	if err := enc.Close(); err != nil {
		t.Fatalf("a second close: %v", err)
	}
}

// A text set more than BatchSize long comes back in its order.
func TestBatchesKeepTheOrder(t *testing.T) {
	enc := encoder(t)
	var texts []string
	for i := range BatchSize*2 + 5 {
		texts = append(texts, strings.Repeat("word ", (i*7)%40)+"cohort number "+string(rune('a'+i%26)))
	}
	all, err := enc.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 17, BatchSize, len(texts) - 1} {
		one, err := enc.Embed(context.Background(), texts[i:i+1])
		if err != nil {
			t.Fatal(err)
		}
		if c := search.Cosine(all[i], one[0]); c < 0.9999 {
			t.Errorf("text %d: cosine %.5f between batched and alone", i, c)
		}
	}
	if _, err := enc.Embed(context.Background(), nil); err != nil {
		t.Errorf("no texts: %v", err)
	}
}

func TestOpenSaysWhatIsMissing(t *testing.T) {
	_, err := Open(Files{Dir: t.TempDir(), Library: "/nonexistent/libonnxruntime.so"})
	if err == nil || !strings.Contains(err.Error(), ModelFile) {
		t.Errorf("Open of an empty folder: %v; want it to name %s", err, ModelFile)
	}
}
