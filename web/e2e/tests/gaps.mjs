// Content gaps (issue 20; spec 002 "Insights panel"): a member asks the
// forum's AI search a question no post answers; the forum admin finds it
// among the content gaps of the forum's Insights panel and dismisses it.
// The member sees no Insights and the API refuses them the gaps.
import assert from 'node:assert/strict'
import { TIMEOUT, api, axe, demoForum, poll, server, shot, signedInPage, visible } from '../lib.mjs'

const ADMIN = 'admin@demo.agora'
const MEMBER = 'member@demo.agora'
// An open demo forum the demo member is in (internal/seed: memberForums).
const FORUM = 'Roadmaps & Prioritization'
// The extractive answerer's answer when no post shares a word with the question.
const NO_ANSWER = 'No post in this forum answers that yet.'

async function openForum(page, path) {
  await page.goto(server.url + path)
  await visible(page.getByRole('heading', { level: 1, name: FORUM }))
}

/** fromPage calls the API from the page, with the token its session holds: {status, body}. */
function fromPage(page, method, path) {
  return page.evaluate(
    async ({ method, path }) => {
      const r = await fetch(path, { method, headers: { Authorization: `Bearer ${localStorage.getItem('user_token')}` } })
      const text = await r.text()
      return { status: r.status, body: text }
    },
    { method, path },
  )
}

/** gapsLoaded waits for the content gaps section to show its list or its empty state. */
async function gapsLoaded(gaps) {
  await visible(gaps.getByTestId('content-gap').or(gaps.getByText(/^No unanswered questions/)))
}

export default [
  {
    name: 'content gaps: a question the AI search cannot answer reaches the admin’s Insights, not the member’s; the admin dismisses it; axe',
    async fn(ctx) {
      const { token: admin, series, path } = await demoForum(ADMIN, FORUM)
      // Every word of the question that carries meaning is one no post
      // holds, so that no post of the forum, seeded or written by another
      // test, can answer it.
      const word = `quorvine${Date.now().toString(36)}`
      const question = `What is the ${word} about?`
      const listPath = `/api/insights/list/content-gaps/${series.id}?sort=latest&page=1&pageSize=100`

      // The member asks the forum's AI search; no post answers.
      const member = await signedInPage(ctx, MEMBER)
      await openForum(member, path)
      const box = member.getByTestId('ai-search')
      await visible(box)
      const input = box.getByRole('searchbox', { name: 'Ask the AI about this forum' })
      await input.fill(question)
      await input.press('Enter')
      await visible(box.getByTestId('ai-question').filter({ hasText: question }))
      const answer = box.getByTestId('ai-answer').first()
      await answer.and(member.locator('[data-done]')).waitFor({ timeout: TIMEOUT })
      assert.equal((await answer.getByTestId('ai-answer-text').textContent()).trim(), NO_ANSWER)
      assert.equal(await answer.locator('a[data-testid="ai-citation"]').count(), 0, 'the answer cites no post')

      // The member's side panel has no Insights tab, and no content gaps anywhere.
      const memberPanel = member.getByTestId('right-panel')
      await visible(memberPanel.getByRole('button', { name: 'Team', exact: true }))
      assert.equal(await member.getByRole('button', { name: 'Insights' }).count(), 0)
      assert.equal(await member.getByTestId('insights-panel').count(), 0)
      assert.equal(await member.getByTestId('insights-content-gaps').count(), 0)
      assert.equal(await member.getByRole('heading', { name: 'Content gaps' }).count(), 0)
      // The API refuses the member the forum's gaps.
      const refused = await fromPage(member, 'GET', listPath)
      assert.equal(refused.status, 403, `the member lists the gaps: ${refused.status} ${refused.body}`)

      // The question is a gap of the forum, once.
      const found = await poll('the question among the forum’s content gaps', async () => {
        const r = await api('GET', listPath, { token: admin })
        assert.equal(r.status, 200, JSON.stringify(r.body))
        return r.body.results.find((g) => g.question === question)
      }, TIMEOUT)
      assert.equal(found.askedCount, 1)
      // Nor may the member dismiss it.
      const notDismissed = await fromPage(member, 'DELETE', `/api/insights/series/${series.id}/content-gaps/${found.id}`)
      assert.equal(notDismissed.status, 403, `the member dismisses a gap: ${notDismissed.status} ${notDismissed.body}`)

      // The admin opens the forum's Insights tab and finds the question among the content gaps.
      const page = await signedInPage(ctx, ADMIN)
      await openForum(page, path)
      const panel = page.getByTestId('right-panel')
      await panel.getByRole('button', { name: 'Insights' }).click()
      const insights = page.getByTestId('insights-panel')
      await visible(insights)
      const gaps = insights.getByRole('region', { name: 'Content gaps' })
      await visible(gaps)
      assert.equal(await gaps.getAttribute('data-testid'), 'insights-content-gaps')
      const gap = gaps.getByTestId('content-gap').filter({ hasText: question })
      await poll('the question in the Content gaps section', async () => {
        await gapsLoaded(gaps)
        if ((await gap.count()) === 1) return true
        await page.reload()
        await visible(gaps)
        return false
      }, 3 * TIMEOUT)
      await visible(gap.getByText('Asked once', { exact: false }))
      await gap.scrollIntoViewIfNeeded()
      await shot(page, 'insights-content-gaps')
      await axe(page, 'insights panel with a content gap')

      // Dismissing it removes it from the list, for good.
      const dismissed = page.waitForResponse(
        (r) => r.request().method() === 'DELETE' && r.url().endsWith(`/api/insights/series/${series.id}/content-gaps/${found.id}`),
        { timeout: TIMEOUT },
      )
      await gap.getByRole('button', { name: `Dismiss “${question}”` }).click()
      assert.equal((await dismissed).status(), 204)
      await gap.waitFor({ state: 'detached', timeout: TIMEOUT })
      await page.reload()
      await visible(gaps)
      await gapsLoaded(gaps)
      assert.equal(await gap.count(), 0, 'the dismissed gap is back after a reload')
      assert.ok(!(await api('GET', listPath, { token: admin })).body.results.some((g) => g.id === found.id), 'the API still lists the dismissed gap')
      await axe(page, 'insights panel after dismissing a content gap')
    },
  },
]
