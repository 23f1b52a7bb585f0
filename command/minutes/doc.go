// Package minutes is the write side of a Meet Up's AI notes (spec 002 §4
// "AI notes recording"): a host or moderator starts the recorder, a hidden
// LiveKit participant of this node that subscribes to every audio track,
// transcribes each speaker's utterances (package speech) into
// meeting_transcripts, and when the Meet Up ends compiles the transcript
// into minutes on the Meet Up's post; the minutes are then edited or
// deleted by the creator or a moderator, or the recording is canceled.
//
// Minutes states (meetings.minutes_state): null (never recorded or
// deleted) → started → compiling → completed, or failed; canceled from
// started or compiling.
package minutes
