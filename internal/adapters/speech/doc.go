// Package speech turns the audio of a Meet Up into text: it decodes Opus
// (what browsers send over WebRTC) to 16 kHz mono PCM with libopus, cuts the
// PCM into utterances at the silences, and transcribes each utterance with
// pocketsphinx's US English model. Both libraries are reached through cgo
// (pkg-config names opus and pocketsphinx; `scripts/install-deps.sh speech`
// installs them), because the decoder then stays loaded between utterances:
// measured here, recognising 5.5 s of speech took the same 7 s through the
// library as through pocketsphinx_continuous, but the process loads its
// model (1.1 s) again for every utterance, and a Meet Up has many short ones.
package speech

// SampleRate is the rate of every PCM buffer of this package: what the
// acoustic model was trained on, and a rate libopus decodes to directly.
const SampleRate = 16000
