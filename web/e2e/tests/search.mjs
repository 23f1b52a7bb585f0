// Search in the forum (spec 001 §4 "AI search flow", §5, §9; spec 000 §2.7):
// a member asks the forum's AI search about another member's post, follows
// a citation, asks a follow-up and shares the conversation; an admin finds a
// community member by a misspelt name in Manage Access.
import assert from 'node:assert/strict'
import { TIMEOUT, api, apiSignIn, askAI as ask, axe, poll, server, shot, signedInPage, visible, waitPath } from '../lib.mjs'

const A = 'member@demo.agora'
const B = 'expert@demo.agora'
const ADMIN = 'admin@demo.agora'
const FORUM = 'Welcome & Introductions'
const CLOSED = 'Leadership Roundtable'
// New posts and people reach the search index through the change stream.
const INDEXED = 30_000

/** welcome is the demo forum of A and B, as A sees it. */
async function welcome(token) {
  const mine = await api('GET', '/api/communities?page=1&pageSize=9999', { token })
  for (const c of mine.body.results) {
    const s = c.series.find((f) => f.name === FORUM)
    if (!s) continue
    const f = await api('GET', `/api/series/${s.id}`, { token })
    return { series: f.body, path: `/communities/${c.id}/series/${s.id}` }
  }
  throw new Error(`${A} is not in ${FORUM}`)
}

export default [
  {
    name: 'search: a member asks the AI search, follows a citation, asks a follow-up and shares the chat; axe',
    async fn(ctx) {
      const a = await apiSignIn(A)
      const b = await apiSignIn(B)
      const { series, path } = await welcome(a)
      const channel = series.mainChannelId

      // B writes a post whose sentences all name a word nobody else uses.
      const word = `zephyr${Date.now().toString(36)}`
      const raw = `Hi all, Chris here. The ${word} checklist lives in the shared drive. The ${word} checklist takes about 42 minutes. Ask Dana Reyes, the ${word} team lead, for access. Thanks!`
      const posted = await api('POST', `/api/series/${series.id}/threads`, { token: b, body: { channelId: channel, raw } })
      assert.equal(posted.status, 201, JSON.stringify(posted.body))
      const postId = posted.body.id
      const question = `Where is the ${word} checklist?`
      await poll('the post in the AI search', async () =>
        (await ask(a, channel, question)).some((e) => e.type === 'threads' && (e.posts ?? []).some((p) => p.threadId === postId)),
        INDEXED,
      )

      const page = await signedInPage(ctx, A)
      await page.goto(server.url + path)
      const box = page.getByTestId('ai-search')
      await visible(box)
      const input = box.getByRole('searchbox', { name: 'Ask the AI about this forum' })
      assert.equal(await box.getByRole('button', { name: 'Ask' }).isDisabled(), true, 'nothing to ask yet')

      // Every state the answer goes through, to see it grow; and a copy of
      // each AI search body as the page reads it (the browser keeps no body
      // of a streamed response for the test to read).
      await page.evaluate(() => {
        window.__answers = []
        window.__bodies = []
        const original = window.fetch
        window.fetch = async (...args) => {
          const res = await original(...args)
          if (!res.url.includes('/api/ai/search/') || !res.body) return res
          const [mine, theirs] = res.body.tee()
          const i = window.__bodies.push(null) - 1
          new Response(theirs).text().then((t) => (window.__bodies[i] = t))
          return new Response(mine, { status: res.status, statusText: res.statusText, headers: res.headers })
        }
        new MutationObserver(() => {
          const t = document.querySelector('[data-testid="ai-answer-text"]')?.textContent
          if (t && window.__answers.at(-1) !== t) window.__answers.push(t)
        }).observe(document.body, { subtree: true, childList: true, characterData: true })
      })
      const firstAnswer = page.waitForResponse((r) => r.url().startsWith(`${server.url}/api/ai/search/${channel}?`))
      await input.fill(question)
      await input.press('Enter')
      const response = await firstAnswer
      assert.match(response.headers()['content-type'], /application\/x-ndjson/)
      const answer = box.getByTestId('ai-answer').first()
      await answer.and(page.locator('[data-done]')).waitFor({ timeout: TIMEOUT })
      const body = await page.waitForFunction(() => window.__bodies[0])
      const events = (await body.jsonValue())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
      const searchId = events[0].searchId
      assert.ok(events.every((e) => e.searchId === searchId))
      // The stream: the posts, the answer in pieces, then the whole answer.
      assert.deepEqual([events[0].type, events.at(-1).type], ['threads', 'answer'])
      const pieces = events.filter((e) => e.type === 'completion').map((e) => e.text)
      assert.ok(pieces.length >= 2, `the answer came in pieces: ${JSON.stringify(pieces)}`)
      assert.equal(pieces.join(''), events.at(-1).answer)
      // On loopback the pieces may arrive together; whatever the page showed
      // on the way grew towards the final answer.
      const final = await answer.getByTestId('ai-answer-text').textContent()
      const states = await page.evaluate(() => window.__answers)
      assert.equal(states.at(-1), final)
      for (const s of states) assert.ok(final.startsWith(s), `${JSON.stringify(s)} leads to the answer`)

      // The answer leaves out the greeting and the sign-off and cites B's post once.
      assert.doesNotMatch(final, /Hi all|Chris here|Thanks/)
      assert.equal(final.split('[1]').length - 1, 1, `cites [1] once: ${final}`)

      // The citation opens B's post.
      const citation = answer.locator(`a[data-testid="ai-citation"][href$="/posts/${postId}"]`).first()
      await visible(citation)
      assert.match(await citation.getAttribute('aria-label'), /^Source \d+$/)
      await visible(box.getByTestId('ai-sources').getByText(`The ${word} checklist lives`, { exact: false }))
      assert.equal(await box.getByRole('textbox', { name: 'Ask a follow-up question' }).isDisabled(), false)
      await shot(page, 'ai-search-answer')
      await axe(page, 'AI search box with an answer')

      await citation.click()
      await waitPath(page, `${path}/posts/${postId}`)
      await visible(page.getByTestId('single-post').getByText(`Ask Dana Reyes, the ${word} team lead`, { exact: false }))

      // Back in the forum the conversation is still there; a follow-up
      // that names its subject only by pronouns continues the same search
      // and is answered from the post the first answer cited.
      await page.goBack()
      await visible(box.getByTestId('ai-turn'))
      const followUp = box.getByRole('textbox', { name: 'Ask a follow-up question' })
      const second = page.waitForRequest((r) => r.url().includes(`/api/ai/search/${channel}/`))
      const pronoun = 'Who did he mention in that post?'
      await followUp.fill(pronoun)
      await followUp.press('Enter')
      assert.equal(new URL((await second).url()).pathname, `/api/ai/search/${channel}/${searchId}`)
      const answer2 = box.getByTestId('ai-answer').nth(1)
      await answer2.and(page.locator('[data-done]')).waitFor({ timeout: TIMEOUT })
      assert.equal(await box.getByTestId('ai-question').count(), 2)
      const text2 = await answer2.getByTestId('ai-answer-text').textContent()
      assert.doesNotMatch(text2, /No post in this forum answers that yet/)
      assert.match(text2, /Dana Reyes/)
      await visible(answer2.locator(`a[data-testid="ai-citation"][href$="/posts/${postId}"]`).first())

      // Sharing posts the conversation to the feed and clears the search.
      await box.getByRole('button', { name: 'Share to the forum' }).click()
      await visible(page.getByTestId('toast').getByText('The conversation was shared to the forum.'))
      await box.getByTestId('ai-conversation').waitFor({ state: 'detached', timeout: TIMEOUT })
      assert.equal(await input.inputValue(), '')
      const shared = page.locator('[data-testid="post-card"][data-kind="shared-ai-chat"]').filter({ hasText: question })
      await visible(shared)
      const messages = shared.getByTestId('ai-chat-message')
      assert.equal(await messages.count(), 4)
      assert.deepEqual(await messages.evaluateAll((els) => els.map((e) => e.dataset.role)), ['user', 'other', 'user', 'other'])
      // Each shared answer keeps its citation links and its Sources list.
      for (const i of [1, 3]) {
        const m = messages.nth(i)
        await visible(m.locator(`a[data-testid="ai-citation"][href$="/posts/${postId}"]`).first())
        await visible(m.getByTestId('ai-sources').locator(`a[href$="/posts/${postId}"]`).first())
      }
      await shot(page, 'ai-search-shared')
      await axe(page, 'shared AI chat with sources')
      const sharedId = await shared.getAttribute('data-id')

      // A later question does not cite the shared chat (whose text is the
      // first question): it is never a source. A post written after the
      // share being searchable says the share has reached the index too.
      const later = `quasar${Date.now().toString(36)}`
      const after = await api('POST', `/api/series/${series.id}/threads`, { token: b, body: { channelId: channel, raw: `The ${later} board meets on Mondays.` } })
      assert.equal(after.status, 201, JSON.stringify(after.body))
      await poll('the later post in the AI search', async () =>
        (await ask(b, channel, `When does the ${later} board meet?`)).some((e) => e.type === 'threads' && (e.posts ?? []).some((p) => p.id === after.body.id)),
        INDEXED,
      )
      const again = await ask(a, channel, question)
      const sources = again.find((e) => e.type === 'threads').posts
      assert.ok(!sources.some((p) => p.id === sharedId || p.kind === 'shared-ai-chat'), `the shared chat is a source: ${JSON.stringify(sources)}`)
      const end = again.at(-1)
      assert.ok(end.citations.includes(postId) && !end.citations.includes(sharedId), JSON.stringify(end))
      assert.doesNotMatch(end.answer, /Where is the/)
    },
  },
  {
    name: 'search: Manage Access finds a community member by a misspelt name and stages them',
    async fn(ctx) {
      const token = await apiSignIn(ADMIN)
      const r = await api('GET', '/api/communities', { token })
      let found
      for (const c of r.body.results) {
        const f = c.series.find((s) => s.name === CLOSED)
        if (f) found = { path: `/communities/${c.id}/series/${f.id}`, communityId: c.id }
      }
      assert.ok(found, `no demo forum ${CLOSED}`)
      const email = `ada.${Date.now()}@example.test`
      const added = await api('POST', `/api/communities/${found.communityId}/profiles`, {
        token,
        body: { firstName: 'Ada', lastName: 'Lovelace', email, roleId: 'member', sendInvitation: false },
      })
      assert.equal(added.status, 201, JSON.stringify(added.body))
      const id = added.body.id
      await poll('Ada in the member search', async () => {
        const s = await api('GET', `/api/communities/${found.communityId}/member-search?q=Lovelase`, { token })
        return s.body?.results?.some((m) => m.id === id)
      }, INDEXED)

      const page = await signedInPage(ctx, ADMIN)
      await page.goto(server.url + found.path)
      await visible(page.getByRole('heading', { level: 1, name: CLOSED }))
      await page.getByRole('button', { name: 'Manage Access' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('button', { name: /Add community members/ }).click()
      // An empty box shows the paged list; typing shows the matches instead.
      await visible(dialog.getByTestId('assignable-row'))
      await dialog.getByRole('searchbox', { name: 'Search members by name' }).fill('Lovelase')
      const matches = dialog.getByRole('list', { name: 'Matching members' })
      await visible(matches)
      assert.equal(await dialog.getByTestId('assignable-row').count(), 0)
      assert.ok((await matches.getByTestId('member-match').count()) <= 5)
      const ada = matches.getByRole('button', { name: /Ada Lovelace/ }).first()
      await ada.click()
      await page.waitForFunction((el) => el.getAttribute('aria-pressed') === 'true', await ada.elementHandle(), { timeout: TIMEOUT })
      await visible(dialog.getByText('1 selected'))
      await shot(page, 'forum-access-member-search')
      await axe(page, 'member search')
      await dialog.getByRole('button', { name: 'Confirm' }).click()
      await visible(dialog.getByTestId('notice-preview'))
      await page.keyboard.press('Escape')
    },
  },
]
