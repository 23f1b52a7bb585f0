// The product on the real engines (agora dev --engines real): Debezium's
// Postgres connector on Kafka Connect reads the writes, Kafka carries them,
// and the same projections apply them. A member posts and asks a question
// in the browser; the forum admin's open feed shows both live, the forum's
// AI search finds and cites the post, and the admin's Insights list the
// question among the asked ones (an item, not a total: a total also grows
// while the warehouse takes in Debezium's first snapshot).
import assert from 'node:assert/strict'
import { TIMEOUT, api, askAI, demoForum, openFeed, poll, postCard, server, visible } from '../lib.mjs'

const MEMBER = 'member@demo.agora'
const ADMIN = 'admin@demo.agora'
// An open demo forum of both, whose admin reads its Insights.
const FORUM = 'Roadmaps & Prioritization'
// Bounds for a loaded machine, not figures: make bench measures the
// pipeline.
const STREAM = 60_000
const SNAPSHOT = 5 * 60_000

export default [
  {
    name: 'engines: on Debezium and Kafka, a post and a question written in the browser reach another member live, the AI search and the insights',
    async fn(ctx) {
      const ready = await (await fetch(`${server.url}/readyz`)).json()
      const engines = Object.fromEntries((ready.engines ?? []).map((e) => [e.role, `${e.name} ${e.version ?? ''}`.trim()]))
      assert.deepEqual(engines, { capture: 'Debezium 3.6.1.Final', runtime: 'Kafka Connect 4.3.0', broker: 'Kafka 4.4.0' })
      // Debezium's first snapshot of the demo data is still on its way
      // through Kafka when /readyz first answers, and it fills both cores:
      // the member arrives once every projection has caught up (no lag in
      // three readings in a row).
      let caughtUp = 0
      await poll(
        'the projections to catch up with the snapshot',
        async () => {
          const { projections = [] } = await (await fetch(`${server.url}/readyz`)).json()
          caughtUp = projections.length > 0 && projections.every((p) => p.lag === 0) ? caughtUp + 1 : 0
          return caughtUp >= 3
        },
        SNAPSHOT,
      )

      const { token, series, path } = await demoForum(ADMIN, FORUM)
      const admin = await openFeed(ctx, ADMIN, path)

      // The member writes a post, then asks a question, through the composer.
      const member = await openFeed(ctx, MEMBER, path)
      const word = `kestrel${Date.now().toString(36)}`
      const raw = `The ${word} roadmap review moves to Thursday at 10:00.`
      await member.getByRole('group', { name: 'Create' }).getByRole('button', { name: 'Post' }).click()
      const dialog = member.getByRole('dialog', { name: 'Create a post' })
      await visible(dialog)
      await dialog.getByRole('textbox', { name: 'Post text' }).pressSequentially(raw)
      await dialog.getByRole('button', { name: 'Post' }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      await visible(postCard(member, raw.slice(0, 40)))
      const asked = `Who else reviews the ${word} roadmap?`
      await member.getByRole('group', { name: 'Create' }).getByRole('button', { name: 'Ask a question' }).click()
      const ask = member.getByRole('dialog', { name: 'Ask a question' })
      await visible(ask)
      await ask.getByRole('textbox', { name: 'Question text' }).pressSequentially(asked)
      await ask.getByRole('textbox', { name: 'Question text' }).press('Enter')
      await ask.waitFor({ state: 'hidden', timeout: TIMEOUT })
      await visible(postCard(member, asked))

      // The admin's feed shows both without a reload: the hub's events.
      await postCard(admin, raw.slice(0, 40)).waitFor({ state: 'visible', timeout: STREAM })
      await postCard(admin, asked).waitFor({ state: 'visible', timeout: STREAM })

      // The search projection has it: the admin's AI search cites it.
      const posted = (await api('GET', `/api/channels/${series.mainChannelId}/threads?pageSize=5`, { token })).body.results.find((t) => t.raw === raw)
      assert.ok(posted, 'the post is among the forum’s latest')
      const question = `When is the ${word} roadmap review?`
      await poll(
        'the post in the AI search',
        async () => (await askAI(token, series.mainChannelId, question)).some((e) => e.type === 'threads' && (e.posts ?? []).some((p) => p.threadId === posted.id)),
        STREAM,
      )
      const box = admin.getByTestId('ai-search')
      const input = box.getByRole('searchbox', { name: 'Ask the AI about this forum' })
      await input.fill(question)
      await input.press('Enter')
      const answer = box.getByTestId('ai-answer').first()
      await answer.and(admin.locator('[data-done]')).waitFor({ timeout: TIMEOUT })
      await visible(answer.locator(`a[data-testid="ai-citation"][href$="/posts/${posted.id}"]`))
      await visible(box.getByTestId('ai-sources').getByText(`The ${word} roadmap review moves`, { exact: false }))

      // The insights warehouse has the question: Details of Asked questions
      // lists it.
      const insights = admin.getByTestId('insights-panel')
      const details = admin.getByRole('dialog', { name: 'Asked questions' })
      await poll(
        'the question in the Insights',
        async () => {
          await admin.reload()
          await visible(admin.getByTestId('forum-feed'))
          // The panel stays expanded across a reload once opened.
          if (!(await insights.isVisible())) await admin.getByTestId('right-panel').getByRole('button', { name: 'Insights' }).click()
          await insights.getByRole('button', { name: 'Details of Asked questions' }).click()
          await visible(details)
          const listed = await details
            .getByTestId('details-item')
            .filter({ hasText: asked })
            .waitFor({ timeout: 3000 })
            .then(() => true, () => false)
          await admin.keyboard.press('Escape')
          return listed
        },
        STREAM,
      )
    },
  },
]
