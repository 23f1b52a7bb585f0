// Notifications (issue 17): B mentions A and comments on A's post. A's bell
// lights without a reload, the list shows both, Dismiss hides one for good,
// View opens the post with its comments; the mention is mailed once and
// each notification pushed once to A's push service, encrypted for it.
import assert from 'node:assert/strict'
import { startPushReceiver } from '../push-receiver.mjs'
import { api, apiSignIn, axe, poll, server, shot, signedInPage, TIMEOUT, visible } from '../lib.mjs'

// Two seeded members no other browser test signs in as.
const A = 'camila.duarte@demo.agora'
const B = 'daniel.kim@demo.agora'
const REPLIED = 'valentina.rossi@demo.agora'
const REPLYING = 'noah.schmidt@demo.agora'

/** together finds a forum a and b are in, and each one's token and user. */
async function together(a = A, b = B) {
  const [ta, tb] = [await apiSignIn(a), await apiSignIn(b)]
  const who = async (token) => (await api('GET', '/api/tokens/decode', { token })).body.user
  const forums = async (token) => (await api('GET', '/api/communities?page=1&pageSize=9999', { token })).body.results.flatMap((c) => c.series.map((s) => ({ c, s })))
  const theirs = new Set((await forums(tb)).map(({ s }) => s.id))
  const shared = (await forums(ta)).find(({ s }) => theirs.has(s.id))
  assert.ok(shared, `${a} and ${b} share a forum`)
  const series = (await api('GET', `/api/series/${shared.s.id}`, { token: ta })).body
  return { ta, tb, a: await who(ta), b: await who(tb), series, community: shared.c }
}

/** mails are A's dev mailbox messages whose body links to path. */
async function mailsLinking(to, path) {
  const r = await api('GET', `/api/dev/mailbox?to=${encodeURIComponent(to)}`)
  return (r.body?.results ?? []).filter((m) => m.body.includes(path))
}

export default [
  {
    name: 'notifications: B mentions A and comments on A’s post; A’s bell lights live, Dismiss holds across a reload, View opens the post; one mail, one push each',
    async fn(ctx) {
      const { ta, tb, a, b, series, community } = await together()
      const push = await startPushReceiver(server.pushPort)
      try {
        const sub = await api('POST', '/api/push/subscriptions', { token: ta, body: push.subscription() })
        assert.equal(sub.status, 201, JSON.stringify(sub.body))
        const { publicKey } = (await api('GET', '/api/push/key', { token: ta })).body

        // A is on the home page and has read what was there before.
        const page = await signedInPage(ctx, A)
        const bell = page.getByRole('button', { name: 'Notifications', exact: true })
        await visible(bell)
        await bell.click()
        const list = page.getByRole('dialog', { name: 'Notifications' }).or(page.getByLabel('Notifications', { exact: true }).filter({ has: page.locator('h2') }))
        await visible(list)
        await page.keyboard.press('Escape')
        await poll('the bell without its dot', async () => (await bell.getByRole('img', { name: 'Unread notifications' }).count()) === 0, TIMEOUT)

        // A's post; B comments on it and mentions A in a post of B's own.
        const stamp = Date.now()
        const mine = await api('POST', `/api/series/${series.id}/threads`, { token: ta, body: { channelId: series.mainChannelId, raw: `Notes on pricing experiments ${stamp}` } })
        assert.equal(mine.status, 201, JSON.stringify(mine.body))
        const comment = `I tried this last quarter, happy to compare notes ${stamp}`
        const c = await api('POST', `/api/threads/${mine.body.id}/replies`, { token: tb, body: { raw: comment } })
        assert.equal(c.status, 201, JSON.stringify(c.body))
        const mention = await api('POST', `/api/series/${series.id}/threads`, {
          token: tb,
          body: { channelId: series.mainChannelId, raw: `[${a.firstName} ${a.lastName}](${a.id}) has the best notes on this ${stamp}` },
        })
        assert.equal(mention.status, 201, JSON.stringify(mention.body))

        // The bell lights without a reload; the list shows both.
        await visible(bell.getByRole('img', { name: 'Unread notifications' }))
        await bell.click()
        const items = page.getByTestId('notification')
        const bName = `${b.firstName} ${b.lastName}`
        const commented = items.filter({ hasText: comment })
        const mentioned = items.filter({ hasText: `has the best notes on this ${stamp}` })
        await visible(commented)
        await visible(mentioned)
        assert.equal(await commented.getAttribute('aria-label'), `${bName} commented on your post`)
        assert.equal(await mentioned.getAttribute('aria-label'), `${bName} mentioned you`)
        await visible(mentioned.getByText(`${a.firstName} ${a.lastName} has the best notes`))
        await shot(page, 'notifications-list')
        await axe(page, 'notifications list')

        // Dismiss hides the mention, for good: not back after a reload.
        await mentioned.getByRole('button', { name: 'Dismiss' }).click()
        await mentioned.waitFor({ state: 'detached' })
        await page.reload()
        await visible(bell)
        await bell.click()
        await visible(commented)
        assert.equal(await mentioned.count(), 0, 'the dismissed mention came back after a reload')

        // View opens A's post with its comments, B's among them.
        await commented.getByRole('button', { name: 'View' }).click()
        await page.waitForURL((u) => u.pathname === `/communities/${community.id}/series/${series.id}/posts/${mine.body.id}` && u.searchParams.get('reason') === 'comment', { timeout: TIMEOUT })
        await visible(page.getByText(comment))
        // …at B's comment: scrolled into view and marked.
        const marked = page.locator('[data-testid="comment"][aria-current="true"]')
        await visible(marked)
        assert.ok((await marked.innerText()).includes(comment), 'the marked comment is B\'s')
        assert.ok(await marked.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= innerHeight), 'the comment is in view')

        // One mail for the mention (comments wait for the digest), and one push for each.
        const mentionPath = `/posts/${mention.body.id}?reason=mention`
        await poll('the mention mail', async () => (await mailsLinking(A, mentionPath)).length > 0, 3 * TIMEOUT)
        await poll('both pushes', async () => push.received.length >= 2, 3 * TIMEOUT)
        // Time for a second sending to show, were there one.
        await new Promise((r) => setTimeout(r, 2000))
        assert.equal((await mailsLinking(A, mentionPath)).length, 1, 'the mention mailed once')
        assert.equal((await mailsLinking(A, `/posts/${mine.body.id}?reason=comment`)).length, 0, 'a comment is not mailed at once')
        assert.deepEqual(push.received.filter((r) => r.error), [], 'every push decrypted')
        const urls = push.received.map((r) => r.message.url)
        assert.equal(urls.filter((u) => u.endsWith(mentionPath)).length, 1, `the mention pushed once: ${urls}`)
        assert.equal(urls.filter((u) => u.endsWith(`/posts/${mine.body.id}?reason=comment&reply=${c.body.id}`)).length, 1, `the comment pushed once, at it: ${urls}`)
        for (const r of push.received) {
          assert.equal(r.encoding, 'aes128gcm')
          assert.ok(r.authorization.startsWith('vapid ') && r.authorization.includes(`k=${publicKey}`), `VAPID with the server's key: ${r.authorization}`)
          assert.ok(r.message.title && r.message.body, JSON.stringify(r.message))
        }

        // The mail's unsubscribe link asks first (a mail scanner following
        // it changes nothing); its button, under the page's policy, turns
        // the mentions' mails off.
        const [mail] = await mailsLinking(A, mentionPath)
        const link = mail.body.match(/https?:\/\/\S+\/api\/notifications\/unsubscribe\?token=\S+/)?.[0]
        assert.ok(link, mail.body)
        const mailed = async () => (await api('GET', `/api/users/${a.id}/personalization`, { token: ta })).body['notifications.email.mentions']
        const before = await mailed()
        const unsubscribe = await ctx.newPage()
        await unsubscribe.goto(link)
        await visible(unsubscribe.getByText('Stop receiving e-mails when someone mentions you?'))
        assert.equal(await mailed(), before, 'opening the link changes nothing')
        await unsubscribe.getByRole('button', { name: 'Unsubscribe', exact: true }).click()
        await visible(unsubscribe.getByRole('heading', { name: 'Unsubscribed', exact: true }))
        assert.equal(await mailed(), false)
      } finally {
        await push.close()
        await api('PATCH', `/api/users/${a.id}/personalization`, { token: ta, body: { 'notifications.email.mentions': null } })
      }
    },
  },
  {
    // The bell leaves replies out (spec 000 §3, web/README): the push says
    // it, and opens the post at the reply, as the bell's View opens a comment.
    name: 'notifications: B replies to A’s comment; A is pushed, and the push opens the post at the reply, marked and in view',
    async fn(ctx) {
      // Two people of their own: a comments push to the first test's pair
      // holds back their next one within the burst (AGORA_NOTIFICATION_BURST).
      const { ta, tb, a, b, series, community } = await together(REPLIED, REPLYING)
      const push = await startPushReceiver(server.pushPort)
      try {
        const sub = await api('POST', '/api/push/subscriptions', { token: ta, body: push.subscription() })
        assert.equal(sub.status, 201, JSON.stringify(sub.body))
        const stamp = Date.now()
        const post = await api('POST', `/api/series/${series.id}/threads`, { token: tb, body: { channelId: series.mainChannelId, raw: `Which roadmap format do you use? ${stamp}` } })
        assert.equal(post.status, 201, JSON.stringify(post.body))
        // Enough comments before A's for the reply to sit below the fold.
        for (let i = 0; i < 6; i++) {
          const r = await api('POST', `/api/threads/${post.body.id}/replies`, { token: tb, body: { raw: `An earlier thought, number ${i + 1}, with a few more words to take some room on the page ${stamp}` } })
          assert.equal(r.status, 201, JSON.stringify(r.body))
        }
        const mine = await api('POST', `/api/threads/${post.body.id}/replies`, { token: ta, body: { raw: `Now, next, later works for us ${stamp}` } })
        assert.equal(mine.status, 201, JSON.stringify(mine.body))
        const answer = `Same here, we added a column for bets ${stamp}`
        const reply = await api('POST', `/api/threads/${post.body.id}/replies`, { token: tb, body: { raw: answer, parentId: mine.body.id } })
        assert.equal(reply.status, 201, JSON.stringify(reply.body))

        const path = `/communities/${community.id}/series/${series.id}/posts/${post.body.id}?reason=comment&reply=${reply.body.id}`
        await poll('the reply pushed', async () => push.received.some((r) => r.message.url?.endsWith(path)), 3 * TIMEOUT)
        const pushed = push.received.find((r) => r.message.url.endsWith(path))
        assert.equal(pushed.message.title, `${b.firstName} ${b.lastName} replied to your comment in ${series.name}`)

        // A opens the push's link, as the notification's click does.
        const page = await signedInPage(ctx, REPLIED)
        await page.goto(server.url + path)
        const marked = page.locator('[data-testid="reply"][aria-current="true"]')
        await visible(marked)
        assert.ok((await marked.innerText()).includes(answer), 'the marked reply is B\'s')
        await poll('the reply in view', async () => marked.evaluate((el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().bottom <= innerHeight), TIMEOUT)
      } finally {
        await push.close()
      }
    },
  },
]
