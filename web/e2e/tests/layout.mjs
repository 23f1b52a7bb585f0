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

// The Meet Up screens (the same issue, its Meet Up part): a forum whose Meet
// Up is on, with its Up next card saying so; the scheduling dialog, as a
// member and as a forum admin; and a live Meet Up room of two, with their
// fake cameras, then a shared screen. Besides the checks above, the tiles
// must fill the stage (16:9, as large as it allows) and the stage must fit
// the screen.
import { TIMEOUT, api, apiSignIn, poll } from '../lib.mjs'

const MEETUP_ADMIN = 'admin@demo.agora'
const MEETUP_MEMBER = 'member@demo.agora'
const MEDIA = { permissions: ['camera', 'microphone'] }

/** tilesOf reads the stage's free area and its tiles' boxes as the member sees them. */
async function tilesOf(page) {
  return page.getByTestId('meetup-stage').evaluate((stage) => {
    const box = (el) => {
      const r = el.getBoundingClientRect()
      return { x: r.x, y: r.y, width: r.width, height: r.height }
    }
    return {
      stage: box(stage),
      area: box(stage.querySelector('[data-testid=stage-area]')),
      layout: stage.querySelector('[data-testid=stage-area]').dataset.layout,
      main: stage.querySelector('[data-testid=stage-main]') && box(stage.querySelector('[data-testid=stage-main]')),
      tiles: [...stage.querySelectorAll('[data-testid=peer]')].map(box),
    }
  })
}

const meetupLayout = (viewport, size) => ({
  name: `layout: Meet Ups at ${viewport.width}×${viewport.height}, light and dark: the forum's Up next card while one is live, the scheduling dialog, a live Meet Up whose tiles fill the stage, and a shared screen`,
  async fn(ctx) {
    const { token, series, path } = await demoForum(MEETUP_ADMIN, FORUM)
    const member = (await api('GET', '/api/tokens/decode', { token: await apiSignIn(MEETUP_MEMBER) })).body.user
    const admin = (await api('GET', '/api/tokens/decode', { token })).body.user
    const stamp = Date.now().toString(36)
    const schedule = async (name, startsIn, duration) => {
      const r = await api('POST', `/api/series/${series.id}/meetings`, {
        token,
        body: { name, agenda: 'Where the roadmap stands, and what comes next.', startTime: new Date(Date.now() + startsIn).toISOString(), duration, open: false, seatCount: null, invitees: { [member.id]: 'member' }, breakouts: [] },
      })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      return r.body
    }
    const live = await schedule(`Roadmap standup ${stamp}`, 0, 30)
    const later = await schedule(`Quarterly planning ${stamp}`, 3 * 3600_000, 60)
    const problems = []
    try {
      // The member opens the forum: its Up next card says the Meet Up is on, with Join.
      const pm = await signedInPage(ctx, MEETUP_MEMBER, viewport, MEDIA)
      await pm.goto(server.url + path)
      const upNext = pm.getByTestId('up-next')
      await visible(upNext.getByRole('heading', { name: 'Live now' }))
      assert.equal(await upNext.getByTestId('up-next-name').innerText(), live.meeting.name)
      await visible(upNext.getByRole('button', { name: 'Join', exact: true }))
      await check(pm, `meetup-forum-${size}`, problems)
      await axe(pm, `forum with a live Meet Up ${size}`)

      // The member's scheduling dialog: the time zone of the start, and nothing of open registration.
      await pm.getByRole('button', { name: 'Schedule Meet Up' }).click()
      const formM = pm.getByRole('dialog', { name: 'Schedule a Meet Up' })
      await visible(formM)
      await visible(formM.getByText(/^In your time zone, \S+/))
      assert.equal(await formM.getByText(/open registration/i).count(), 0, 'a member is not offered open registration')
      await check(pm, `meetup-schedule-member-${size}`, problems)
      await axe(pm, `the member's scheduling dialog ${size}`)
      await formM.getByRole('button', { name: 'Cancel' }).click()
      await formM.waitFor({ state: 'detached' })

      // The admin's: open registration, whose seats start at 50.
      const pa = await signedInPage(ctx, MEETUP_ADMIN, viewport, MEDIA)
      await pa.goto(server.url + path)
      await pa.getByRole('button', { name: 'Schedule Meet Up' }).click()
      const formA = pa.getByRole('dialog', { name: 'Schedule a Meet Up' })
      await visible(formA)
      await formA.getByRole('radio', { name: /Open registration/ }).check()
      assert.equal(await formA.getByLabel('Seats').inputValue(), '50')
      await check(pa, `meetup-schedule-admin-${size}`, problems)
      await axe(pa, `the admin's scheduling dialog ${size}`)
      await formA.getByRole('button', { name: 'Cancel' }).click()
      await formA.waitFor({ state: 'detached' })

      // Both join from the Up next card and turn their cameras on.
      const stageOf = (p) => p.getByTestId('meetup-stage')
      for (const p of [pm, pa]) {
        await p.getByTestId('up-next').getByRole('button', { name: 'Join', exact: true }).click()
        await visible(stageOf(p))
        await stageOf(p).getByRole('button', { name: 'Turn the camera on' }).click()
        await visible(stageOf(p).getByRole('button', { name: 'Turn the camera off' }))
      }
      const plays = (p, userId) =>
        stageOf(p)
          .locator(`[data-testid="peer"][data-identity="${userId}"] video`)
          .evaluate((v) => v.videoWidth > 0 && !v.paused)
          .catch(() => false)
      await poll('each sees the other’s video', async () => (await plays(pm, admin.id)) && (await plays(pa, member.id)), 3 * TIMEOUT)
      await pm.evaluate(() => window.scrollTo(0, 0))

      // The two tiles fill the stage, 16:9, and the stage fits the screen.
      const g = await tilesOf(pm)
      assert.equal(g.layout, 'gallery')
      assert.equal(g.tiles.length, 2)
      assert.ok(g.stage.y >= 0 && g.stage.y + g.stage.height <= viewport.height + 1, `the stage fits the screen: ${JSON.stringify(g.stage)}`)
      for (const t of g.tiles) {
        assert.ok(Math.abs(t.width / t.height - 16 / 9) < 0.03, `a 16:9 tile: ${JSON.stringify(t)}`)
        assert.ok(t.x >= g.area.x - 1 && t.x + t.width <= g.area.x + g.area.width + 1 && t.y >= g.area.y - 1 && t.y + t.height <= g.area.y + g.area.height + 1, `a tile in the stage: ${JSON.stringify(t)}`)
      }
      // As large as the area allows: the tiles reach its width, or its height.
      const [a, b] = g.tiles
      const across = Math.abs(a.y - b.y) < 1
      const used = across ? (a.width + b.width + 8) / g.area.width : (a.height + b.height + 8) / g.area.height
      const other = across ? a.height / g.area.height : a.width / g.area.width
      assert.ok(used > 0.97 || other > 0.97, `the tiles fill the stage: ${JSON.stringify(g)}`)
      if (size === 'narrow') assert.ok(!across && a.width > g.area.width - 2, `on a phone, one column as wide as the stage: ${JSON.stringify(g)}`)
      await check(pm, `meetup-room-${size}`, problems)
      await axe(pm, `the Meet Up room ${size}`)

      // The admin shares their screen: it takes the large area, the two tiles a strip beside it (below it on a phone).
      await stageOf(pa).getByRole('button', { name: 'Share the screen' }).click()
      await visible(stageOf(pa).getByRole('button', { name: 'Stop sharing the screen' }))
      const shared = stageOf(pm).getByTestId('stage-presentation')
      await shared.waitFor({ timeout: 3 * TIMEOUT })
      await poll('the shared screen plays', () => shared.locator('video').evaluate((v) => v.videoWidth > 0 && !v.paused).catch(() => false), 3 * TIMEOUT)
      const s = await tilesOf(pm)
      assert.equal(s.layout, 'share')
      assert.equal(s.tiles.length, 2)
      for (const t of s.tiles) assert.ok(t.width * t.height < (s.main.width * s.main.height) / 2, `the strip's tiles are smaller than the shared screen: ${JSON.stringify(s)}`)
      if (size === 'wide') assert.ok(s.tiles.every((t) => t.x >= s.main.x + s.main.width), `the strip is beside the shared screen: ${JSON.stringify(s)}`)
      else assert.ok(s.tiles.every((t) => t.y >= s.main.y + s.main.height) && s.main.width > s.area.width - 2, `the strip is below the shared screen, as wide as the phone: ${JSON.stringify(s)}`)
      await check(pm, `meetup-room-share-${size}`, problems)
      await axe(pm, `the Meet Up room with a shared screen ${size}`)
      await stageOf(pa).getByRole('button', { name: 'Stop sharing the screen' }).click()

      // The admin ends it for all: it is no longer up next, the later one is.
      await stageOf(pa).getByRole('button', { name: 'End for all' }).click()
      const end = pa.getByRole('dialog', { name: 'End this Meet Up for everyone?' })
      await end.getByRole('button', { name: 'End for all' }).click()
      const ended = pm.getByRole('dialog', { name: 'The Meet Up has ended' })
      await ended.waitFor({ timeout: 3 * TIMEOUT })
      await ended.getByRole('button', { name: 'OK' }).click()
      await visible(upNext.getByRole('heading', { name: 'Up next' }))
      assert.equal(await upNext.getByTestId('up-next-name').innerText(), later.meeting.name)
      assert.equal(await upNext.getByRole('button', { name: 'Join', exact: true }).count(), 0, 'no Join before the join window opens')
    } finally {
      await api('POST', `/api/meetings/${live.meeting.roomId}/end`, { token })
      await api('DELETE', `/api/threads/${later.id}`, { token })
    }
    assert.deepEqual(problems, [], 'layout problems')
  },
})

export default [layout(WIDE, 'wide'), layout(NARROW, 'narrow'), meetupLayout(WIDE, 'wide'), meetupLayout(NARROW, 'narrow')]
