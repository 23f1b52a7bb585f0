import { createContext, useContext, type ReactNode } from 'react'
import type { Schemas } from '@/api/client'
import type { Thread } from './thread-cache'

/**
 * FeedExtensions are what other features add to the feed, given by the app
 * layer (features do not import each other): the Schedule Meet Up button
 * of the composer row, and the Meet Up of a Meet Up post.
 */
export type FeedExtensions = {
  composerButtons?: (series: Schemas['Forum'], layout: 'row' | 'column') => ReactNode
  /** The Meet Up part of a post whose meeting is set. */
  meeting?: (thread: Thread, place: { expanded: boolean }) => ReactNode
}

const Ctx = createContext<FeedExtensions>({})

export const FeedExtensionsProvider = ({ value, children }: { value: FeedExtensions; children: ReactNode }) => <Ctx.Provider value={value}>{children}</Ctx.Provider>

export const useFeedExtensions = () => useContext(Ctx)
