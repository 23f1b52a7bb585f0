import type { Schemas } from '@/api/client'

// The reactions a member gives to a post, a comment or a chat message (spec
// 001 "Reactions", spec 002 "Private chat"): the five kinds of the API
// contract and the glyph each shows as. The feed, the private chat and the
// Meet Up chat all draw reactions from this one table, so a glyph changes
// in one place.

/** ReactionKind is one of the API's five reactions. */
export type ReactionKind = Schemas['ReactionKind']

/**
 * REACTION_GLYPHS is the emoji each reaction kind shows as. Being a Record
 * over the contract's kinds, it fails to compile when a kind is added to
 * the API without a glyph.
 */
export const REACTION_GLYPHS: Readonly<Record<ReactionKind, string>> = {
  liked: '👍',
  loved: '❤️',
  smiled: '😊',
  disliked: '👎',
  neutral: '😐',
}

/** REACTION_KINDS lists the kinds in the order pickers offer them. */
export const REACTION_KINDS: readonly ReactionKind[] = Object.keys(REACTION_GLYPHS) as ReactionKind[]

/** toggledReaction is what choosing kind sets: the same one again clears it. */
export function toggledReaction(current: ReactionKind | null | undefined, kind: ReactionKind): ReactionKind | null {
  return current === kind ? null : kind
}
