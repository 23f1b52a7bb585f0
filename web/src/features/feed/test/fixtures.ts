import type { FeedData, Thread } from '../lib/thread-cache'

// The feed's own test shape: its cache's pages. Posts and comments come from
// the shared factories (src/test/factories.ts).

/** feed is the feed's cached pages of posts, the first without a cursor. */
export const feed = (...pages: Thread[][]): FeedData => ({
  pages: pages.map((results) => ({ results })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `cursor-${i}`)),
})
