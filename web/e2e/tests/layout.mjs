// The layout as a member sees it (issue: a member's day without a stumble):
// home, a forum, a community, the community's member list and the side
// panel's chat and team tabs, at 1440×900 and 390×844, light and dark; on a
// phone also the top bar, its forum switcher and its menu. On each, no text
// is painted over or cut off, nothing is wider than the screen
// (layoutProblems), and axe finds nothing serious; at 1440 the columns
// leave no empty track, with the side panel docked or open.
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

    // The columns use the width: no empty track, the page's column (the
    // feed) readable and centered in what the side panel leaves.
    const usesWidth = async (screen) => {
      if (size !== 'wide') return
      const m = await page.getByTestId('page-grid').evaluate((grid) => {
        const main = grid.closest('main').getBoundingClientRect()
        const cols = [...grid.children].map((c) => ({ box: c.getBoundingClientRect(), empty: !c.textContent.trim() }))
        return {
          before: Math.round(Math.min(...cols.map((c) => c.box.left)) - main.left),
          after: Math.round(main.right - Math.max(...cols.map((c) => c.box.right))),
          widest: Math.round(Math.max(...cols.map((c) => c.box.width))),
          empty: cols.filter((c) => c.empty).length,
        }
      })
      if (m.empty > 0) problems.push(`${screen}: ${m.empty} empty column(s)`)
      if (Math.abs(m.before - m.after) > 2) problems.push(`${screen}: ${m.before} px left of the columns, ${m.after} px right of them`)
      if (m.widest < 700) problems.push(`${screen}: the page's column is ${m.widest} px wide`)
    }

    await visible(page.getByTestId('community-card'))
    await check(page, `home-${size}`, problems)
    await usesWidth(`home-${size}`)
    await axe(page, `home ${size}`)

    await page.goto(server.url + path)
    await visible(page.getByTestId('post-card'))
    await check(page, `forum-${size}`, problems)
    await usesWidth(`forum-${size}`)
    await axe(page, `forum ${size}`)

    // The side panel: chat, then the forum's team (on a phone, from the top bar).
    if (size === 'wide') {
      const panel = page.getByTestId('right-panel')
      await panel.getByRole('button', { name: 'Team', exact: true }).click()
      await visible(page.getByTestId('team-card'))
      await check(page, `forum-team-${size}`, problems)
      await usesWidth(`forum-team-${size}`)
    }

    // A phone's top bar: each control inside the screen and named; the
    // forum's title opens the forum switcher, the menu holds the rest.
    if (size === 'narrow') {
      const bar = page.getByRole('banner')
      const controls = await bar.evaluate((h) =>
        [...h.querySelectorAll('a, button')]
          .filter((c) => c.getBoundingClientRect().width > 0)
          .map((c) => ({ name: (c.getAttribute('aria-label') ?? c.textContent).trim(), left: c.getBoundingClientRect().left, right: c.getBoundingClientRect().right })),
      )
      for (const c of controls) {
        if (!c.name) problems.push('top bar: a control without a name')
        if (c.left < 0 || c.right > viewport.width) problems.push(`top bar: "${c.name}" is cut off (${Math.round(c.left)}–${Math.round(c.right)} px)`)
      }
      assert.deepEqual(
        controls.map((c) => c.name),
        ['Agora', `Switch forum: ${FORUM}`, 'Notifications', 'Chat', 'Forum panels', 'Menu'],
        'the phone top bar',
      )

      await bar.getByRole('button', { name: `Switch forum: ${FORUM}` }).click()
      const sheet = page.getByRole('dialog', { name: 'Your forums' })
      await visible(sheet.getByRole('link', { name: FORUM }))
      await check(page, `forum-switcher-${size}`, problems)
      await axe(page, `forum switcher ${size}`)
      await sheet.getByRole('button', { name: 'Close' }).click()
      await sheet.waitFor({ state: 'detached' })

      await bar.getByRole('button', { name: 'Menu' }).click()
      const menu = page.getByRole('menu')
      await visible(menu.getByRole('menuitem', { name: 'Home' }))
      await check(page, `top-bar-menu-${size}`, problems)
      await axe(page, `top bar menu ${size}`)
      await page.keyboard.press('Escape')
      await menu.waitFor({ state: 'detached' })
    }

    await page.goto(server.url + `/communities/${communityId}`)
    await visible(page.getByTestId('community-page'))
    await check(page, `community-${size}`, problems)
    await usesWidth(`community-${size}`)
    await page.getByRole('button', { name: 'See all members' }).click()
    await visible(page.getByTestId('community-member-row'))
    await check(page, `community-members-${size}`, problems)
    await axe(page, `community members ${size}`)

    assert.deepEqual(problems, [], 'layout problems')
  },
})

export default [layout(WIDE, 'wide'), layout(NARROW, 'narrow')]
