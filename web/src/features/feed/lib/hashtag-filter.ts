import { createContext, useContext } from 'react'

/**
 * HashtagFilter is what a clicked hashtag does where a feed can show the
 * posts carrying it (the forum page): show them. Elsewhere (a private
 * chat, a panel) there is none, and a hashtag stays plain text.
 */
export const HashtagFilter = createContext<((name: string) => void) | null>(null)

export const useHashtagFilter = () => useContext(HashtagFilter)

/** isHashtagName: a hashtag's name as the server reads one (letters, digits, _; at most 100). */
export const isHashtagName = (s: string) => /^[\p{L}\p{N}_]{1,100}$/u.test(s)
