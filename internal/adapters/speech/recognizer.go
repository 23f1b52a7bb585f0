//go:build cgo

package speech

/*
#cgo pkg-config: pocketsphinx
#include <stdlib.h>
#include <pocketsphinx.h>
#include <sphinxbase/err.h>

static ps_decoder_t *agora_ps_init(char **argv, int argc) {
	cmd_ln_t *cfg = cmd_ln_parse_r(NULL, ps_args(), argc, argv, 1);
	if (cfg == NULL) {
		return NULL;
	}
	ps_default_search_args(cfg);
	ps_decoder_t *ps = ps_init(cfg);
	cmd_ln_free_r(cfg);
	return ps;
}

static void agora_ps_quiet(void) { err_set_logfp(NULL); }
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"
)

// ModelDir is where Debian's pocketsphinx-en-us puts the US English model.
const ModelDir = "/usr/share/pocketsphinx/model/en-us"

// Recognizer transcribes utterances of 16 kHz mono PCM. One decoder is
// loaded once (about 40 MB, a second); calls are serialised on it, since a
// pocketsphinx decoder holds one utterance at a time. It is safe for
// concurrent use.
type Recognizer struct {
	mu sync.Mutex
	ps *C.ps_decoder_t
}

var quietOnce sync.Once

// NewRecognizer loads the acoustic model, dictionary and language model
// under modelDir (ModelDir when empty).
func NewRecognizer(modelDir string) (*Recognizer, error) {
	if modelDir == "" {
		modelDir = ModelDir
	}
	files := map[string]string{
		"-hmm":  filepath.Join(modelDir, "en-us"),
		"-lm":   filepath.Join(modelDir, "en-us.lm.bin"),
		"-dict": filepath.Join(modelDir, "cmudict-en-us.dict"),
	}
	args := []string{"agora"}
	for _, flag := range []string{"-hmm", "-lm", "-dict"} {
		if _, err := os.Stat(files[flag]); err != nil {
			return nil, fmt.Errorf("speech: model missing (install pocketsphinx-en-us: scripts/install-deps.sh speech): %w", err)
		}
		args = append(args, flag, files[flag])
	}
	// pocketsphinx logs every step of every utterance to stderr.
	quietOnce.Do(func() { C.agora_ps_quiet() })

	argv := make([]*C.char, len(args))
	for i, a := range args {
		argv[i] = C.CString(a)
	}
	defer func() {
		for _, p := range argv {
			C.free(unsafe.Pointer(p))
		}
	}()
	// The argv array itself must live in C memory: cgo refuses Go pointers
	// to Go pointers.
	cargv := (**C.char)(C.malloc(C.size_t(len(argv)) * C.size_t(unsafe.Sizeof(argv[0]))))
	defer C.free(unsafe.Pointer(cargv))
	copy(unsafe.Slice(cargv, len(argv)), argv)
	ps := C.agora_ps_init(cargv, C.int(len(argv)))
	if ps == nil {
		return nil, errors.New("speech: pocketsphinx did not load the model under " + modelDir)
	}
	return &Recognizer{ps: ps}, nil
}

// Transcribe returns the words pocketsphinx hears in pcm (16 kHz mono,
// one utterance), lower case, or "" for none.
func (r *Recognizer) Transcribe(pcm []int16) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ps == nil {
		return "", errors.New("speech: recognizer closed")
	}
	if len(pcm) == 0 {
		return "", nil
	}
	if C.ps_start_utt(r.ps) < 0 {
		return "", errors.New("speech: cannot start an utterance")
	}
	// full_utt = 1: the whole utterance is here, so the decoder may use
	// its cepstral mean over all of it, which recognises better.
	n := C.ps_process_raw(r.ps, (*C.int16)(unsafe.Pointer(&pcm[0])), C.size_t(len(pcm)), 0, 1)
	if C.ps_end_utt(r.ps) < 0 || n < 0 {
		return "", errors.New("speech: decoding failed")
	}
	hyp := C.ps_get_hyp(r.ps, nil)
	if hyp == nil {
		return "", nil
	}
	return strings.Join(strings.Fields(C.GoString(hyp)), " "), nil
}

// Close frees the decoder.
func (r *Recognizer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ps != nil {
		C.ps_free(r.ps)
		r.ps = nil
	}
	return nil
}
