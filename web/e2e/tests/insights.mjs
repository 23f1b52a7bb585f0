// The Insights panel (spec 002 §2 "Right-side panel" and "Insights panel",
// §3 "Insights reports", §6, §8): the demo admin, who administers every demo
// forum, reads a forum's figures, sees a new question counted, moves the
// period slider, opens a Details dialog and the admin channel's feed, in
// the docked, expanded, full-screen and narrow panels; a plain member of
// the forum has no Insights at all.
import assert from 'node:assert/strict'
import { NARROW, TIMEOUT, api, apiSignIn, axe, demoForum, poll, server, setTheme, shot, signedInPage, visible } from '../lib.mjs'

const ADMIN = 'admin@demo.agora'
const MEMBER = 'member@demo.agora'
// An open demo forum the demo member is in (internal/seed: memberForums).
const FORUM = 'Roadmaps & Prioritization'
// A post reaches the insights warehouse through the change stream.
const WAREHOUSE = 30_000

/** shown reads a figure of the panel: the last number of its text. */
async function shown(locator) {
  const m = (await locator.innerText()).match(/([\d,.]+)\s*$/)
  assert.ok(m, `a number in ${await locator.innerText()}`)
  return Number(m[1].replace(/,/g, ''))
}

async function openForum(page, path) {
  await page.goto(server.url + path)
  await visible(page.getByRole('heading', { level: 1, name: FORUM }))
}

export default [
  {
    name: 'insights: the forum admin reads the figures, sees a new question counted, moves the period, opens Details; screenshots; axe',
    async fn(ctx) {
      const { token, series, path } = await demoForum(ADMIN, FORUM)
      const report = async (name, period = 90) => {
        const r = await api('GET', `/api/insights/reports/${name}/${series.id}?period=${period}`, { token })
        assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body)}`)
        return r.body
      }
      const page = await signedInPage(ctx, ADMIN)
      await openForum(page, path)

      // Docked: the five summary figures under the tab icons.
      const panel = page.getByTestId('right-panel')
      const summary = panel.getByTestId('insights-summary')
      await visible(summary)
      for (const k of ['interactions', 'sharedContent', 'meetups', 'members', 'inquiries']) await visible(summary.getByTestId(`summary-${k}`))
      await summary.getByTestId('summary-interactions').getByText(/^\d/).waitFor({ timeout: TIMEOUT })
      await shot(page, 'insights-docked')
      await axe(page, 'docked panel with the insights summary')

      // Expanded: the Insights tab.
      await panel.getByRole('button', { name: 'Insights' }).click()
      const insights = page.getByTestId('insights-panel')
      await visible(insights)
      const total = insights.getByTestId('interactions-total')
      await visible(total)
      const before = await shown(total)
      assert.equal(before, (await report('interactions')).total, 'the panel shows the API’s figure')
      await visible(insights.getByTestId('insights-updated').getByText(/^(Updated .+|No activity yet)$/))
      await visible(insights.getByRole('slider', { name: 'Period' }))
      assert.equal(await insights.getByRole('slider', { name: 'Period' }).getAttribute('aria-valuetext'), 'Last 90 days')

      // A question in the forum's feed and a post in the admin channel.
      const stamp = Date.now()
      const question = `How do we rank the roadmap ${stamp}?`
      const askedBefore = (await report('asked-questions')).total
      const asked = await api('POST', `/api/series/${series.id}/threads`, {
        token,
        body: { channelId: series.mainChannelId, raw: question, type: 'question' },
      })
      assert.equal(asked.status, 201, JSON.stringify(asked.body))
      const adminChannel = await api('GET', `/api/insights/series/${series.id}/admin-channel`, { token })
      assert.equal(adminChannel.status, 200)
      assert.equal(adminChannel.body._id, series.adminChannelId)
      const note = `Admins: review the roadmap questions ${stamp}`
      assert.equal((await api('POST', `/api/series/${series.id}/threads`, { token, body: { channelId: adminChannel.body._id, raw: note } })).status, 201)
      // Counted by the warehouse within seconds, then shown by the panel.
      const after = await poll('the question in the interactions report', async () => {
        const r = await report('interactions')
        return r.total > before && (await report('asked-questions')).total > askedBefore && r.total
      }, WAREHOUSE)
      await page.reload()
      await visible(insights)
      await poll('the panel to show the new figure', async () => (await shown(total)) >= after, TIMEOUT)
      assert.ok((await shown(insights.getByTestId('questions-askedQuestions-total'))) > askedBefore, 'the asked questions count it')
      // The admin channel's feed, with its composer, in the panel.
      const feed = insights.getByTestId('insights-admin-feed')
      await visible(feed.getByText(note))
      await visible(feed.getByRole('button', { name: 'Post', exact: true }))
      await shot(page, 'insights-wide')
      await setTheme(page, 'dark')
      await shot(page, 'insights-wide-dark')
      await setTheme(page, 'light')
      await axe(page, 'insights panel')

      // The period slider, by keyboard: every report is asked for 60 days.
      const slider = insights.getByRole('slider', { name: 'Period' })
      const sixty = page.waitForResponse((r) => r.url().includes(`/api/insights/reports/interactions/${series.id}?period=60`), { timeout: TIMEOUT })
      await slider.focus()
      await page.keyboard.press('ArrowLeft')
      assert.equal((await sixty).status(), 200)
      assert.equal(await slider.getAttribute('aria-valuetext'), 'Last 60 days')
      await page.waitForFunction(() => document.querySelector('[data-testid="insights-panel"]')?.getAttribute('data-period') === '60')
      const in60 = (await report('interactions', 60)).total
      await poll('the 60-day total', async () => (await shown(total)) >= in60, TIMEOUT)

      // Details of the asked questions: the new question, linking to its post.
      await insights.getByRole('button', { name: 'Details of Asked questions' }).click()
      const dialog = page.getByRole('dialog', { name: 'Asked questions' })
      await visible(dialog)
      const item = dialog.getByTestId('details-item').filter({ hasText: question })
      await visible(item)
      const me = (await api('GET', '/api/tokens/decode', { token })).body.user
      await visible(item.getByTestId('details-author').getByText(`${me.firstName} ${me.lastName}`, { exact: true }))
      assert.match(await item.getByRole('link').getAttribute('href'), new RegExp(`/series/${series.id}/posts/${asked.body.id}$`))
      await shot(page, 'insights-details')
      await axe(page, 'insights details dialog')
      // Following the link closes the dialog and opens the post.
      await item.getByRole('link').click()
      await page.waitForURL((u) => u.pathname.endsWith(`/posts/${asked.body.id}`), { timeout: TIMEOUT })
      await dialog.waitFor({ state: 'detached', timeout: TIMEOUT })
      await visible(page.getByTestId('single-post').getByText(question))

      // Full screen on a wide screen.
      await panel.getByRole('button', { name: 'Full screen' }).click()
      assert.equal(await panel.getAttribute('data-state'), 'fullscreen')
      await visible(insights.getByTestId('insights-overview'))
      await shot(page, 'insights-fullscreen')
      await axe(page, 'insights full screen')
      await panel.getByRole('button', { name: 'Full screen' }).click()
      assert.equal(await panel.getAttribute('data-state'), 'expanded')

      // Narrow: the panel menu's Insights opens the same panel in a sheet.
      const narrow = await signedInPage(ctx, ADMIN, NARROW)
      await openForum(narrow, path)
      await narrow.getByRole('button', { name: 'Forum panels' }).click()
      await narrow.getByRole('menuitem', { name: 'Insights' }).click()
      const sheet = narrow.getByRole('dialog')
      await visible(sheet.getByTestId('insights-panel'))
      await visible(sheet.getByTestId('interactions-total'))
      await shot(narrow, 'insights-narrow')
      await setTheme(narrow, 'dark')
      await shot(narrow, 'insights-narrow-dark')
      await setTheme(narrow, 'light')
      await axe(narrow, 'insights panel (narrow)')
    },
  },
  {
    name: 'insights: a plain member of the forum has no Insights tab',
    async fn(ctx) {
      const { series, path } = await demoForum(ADMIN, FORUM)
      const page = await signedInPage(ctx, MEMBER)
      await openForum(page, path)
      // A member's side panel has the chat and Team, not Insights.
      await visible(page.getByTestId('right-panel').getByRole('button', { name: 'Team', exact: true }))
      assert.equal(await page.getByRole('button', { name: 'Insights' }).count(), 0)
      assert.equal(await page.getByTestId('insights-summary').count(), 0)
      // The API refuses them the reports too.
      const member = await apiSignIn(MEMBER)
      assert.equal((await api('GET', `/api/insights/reports/interactions/${series.id}?period=90`, { token: member })).status, 403)
      assert.equal((await api('GET', `/api/insights/summary/${series.id}`, { token: member })).status, 403)

      const narrow = await signedInPage(ctx, MEMBER, NARROW)
      await openForum(narrow, path)
      // The small screen's panel menu offers Team only.
      await narrow.getByRole('button', { name: 'Forum panels' }).click()
      assert.deepEqual(await narrow.getByRole('menuitem').allInnerTexts(), ['Team'])
    },
  },
]
