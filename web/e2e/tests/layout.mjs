// The layout as a member sees it (issue: a member's day without a stumble):
// home, a forum, a community, the community's member list and the side
// panel's chat and team tabs, at 1440×900 and 390×844, light and dark. On
// each, no text is painted over or cut off, nothing is wider than the
// screen (layoutProblems), and axe finds nothing serious.
import assert from 'node:assert/strict'
import { NARROW, WIDE, axe, demoForum, layoutProblems, server, setTheme, shot, signedInPage, visible } from '../lib.mjs'

const FORUM = 'Roadmaps & Prioritization'

/** check reads the page in both themes: its problems, a screenshot of each. */
async function check(page, screen, problems) {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' })
  for (const theme of ['light', 'dark']) {
    await setTheme(page, theme)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    for (const p of await layoutProblems(page)) problems.push(`${screen} (${theme}): ${p}`)
    await shot(page, `layout-${screen}-${theme}`)
  }
  await setTheme(page, 'light')
}

const layout = (viewport, size) => ({
  name: `layout: home, forum, community, members and the side panel at ${viewport.width}×${viewport.height}, light and dark: no text covered or cut off`,
  async fn(ctx) {
    const { path, communityId } = await demoForum('member@demo.agora', FORUM)
    const page = await signedInPage(ctx, 'member@demo.agora', viewport)
    const problems = []

    await visible(page.getByTestId('community-card'))
    await check(page, `home-${size}`, problems)
    await axe(page, `home ${size}`)

    await page.goto(server.url + path)
    await visible(page.getByTestId('post-card'))
    await check(page, `forum-${size}`, problems)
    await axe(page, `forum ${size}`)

    // The side panel: chat, then the forum's team (on a phone, from the top bar).
    if (size === 'wide') {
      const panel = page.getByTestId('right-panel')
      await panel.getByRole('button', { name: 'Team', exact: true }).click()
      await visible(page.getByTestId('team-card'))
      await check(page, `forum-team-${size}`, problems)
    }

    await page.goto(server.url + `/communities/${communityId}`)
    await visible(page.getByTestId('community-page'))
    await check(page, `community-${size}`, problems)
    await page.getByRole('button', { name: 'See all members' }).click()
    await visible(page.getByTestId('community-member-row'))
    await check(page, `community-members-${size}`, problems)
    await axe(page, `community members ${size}`)

    assert.deepEqual(problems, [], 'layout problems')
  },
})

export default [layout(WIDE, 'wide'), layout(NARROW, 'narrow')]
