import { useCallback, useState } from 'react'
import { readStored, writeStored } from '@/lib/persisted-store'
import { useCurrentUser } from '@/lib/session-context'

// Drafts of what a member is writing (a post or question in a forum, a
// comment on a post, a reply to a comment) stay in this browser's
// localStorage until they are posted or discarded, so that a closed
// composer or a reload loses nothing. Each key holds the signed-in user's
// id: another account signed in on the same browser never sees them.
const PREFIX = 'agora.draft'

/** draftKey is where the draft of scope (e.g. "post:<forum id>") is kept for userId. */
export const draftKey = (userId: string, scope: string) => `${PREFIX}.${userId}.${scope}`

/** readDraft is the stored draft, or '' (none, or storage unavailable). */
export function readDraft(key: string | null): string {
  return key ? (readStored(key) ?? '') : ''
}

/** writeDraft keeps text under key; blank text removes the draft. */
export function writeDraft(key: string | null, text: string) {
  // Storage full or refused: the text stays in the page, only not kept.
  if (key) writeStored(key, text.trim() ? text : null)
}

/** useDraftKey is the signed-in user's key for scope, or null when no one is signed in. */
export function useDraftKey(scope: string) {
  const userId = useCurrentUser()?.user.id
  return userId ? draftKey(userId, scope) : null
}

/** useDraft is text state that starts from, and is kept as, the signed-in user's draft of scope. */
export function useDraft(scope: string): [string, (text: string) => void] {
  const key = useDraftKey(scope)
  const [text, setText] = useState(() => readDraft(key))
  const set = useCallback(
    (next: string) => {
      setText(next)
      writeDraft(key, next)
    },
    [key],
  )
  return [text, set]
}
