/** LIST_PAGE_SIZE: items a page of a Details list ("load more" reads the next). */
export const LIST_PAGE_SIZE = 20

/** nextPage is the page after `pages` while fewer than `total` items are loaded. */
export function nextPage(last: { total: number }, pages: readonly { result: readonly unknown[] }[]): number | undefined {
  const loaded = pages.reduce((n, p) => n + p.result.length, 0)
  // An empty page ends the list even if the total moved meanwhile.
  if (loaded >= last.total || pages[pages.length - 1]?.result.length === 0) return undefined
  return pages.length + 1
}
