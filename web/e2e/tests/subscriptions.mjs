// Paid forums (spec 000 §2.6, §4, §6, §7; issue 19): the subscribe prompt,
// checkout on agora dev's checkout page (stripe-mock), the return, and the
// subscriptions page.
import assert from 'node:assert/strict'
import { TIMEOUT, api, apiSignIn, axe, mailLink, poll, server, shot, visible, waitPath } from '../lib.mjs'

// A forum of the demo's paid community that no other test uses. A member
// invited now is not complimentary (the demo's memberships are), so they
// pay for the community with the forum: one checkout of two items.
const COMMUNITY = 'Data & AI Practitioners'
const FORUM = 'Analytics Engineering Guild'
const PRICE = 1500

/**
 * paidForum makes the demo forum paid (the admin, through the API), puts a
 * post in it, and makes a fresh member of its community whom the admin
 * gives the forum; undo makes it free again.
 */
async function paidForum(tag) {
  const admin = await apiSignIn('admin@demo.agora')
  const community = (await api('GET', '/api/communities', { token: admin })).body.results.find((c) => c.name === COMMUNITY)
  assert.ok(community && !community.isFree && community.price > 0, `the demo's paid community ${COMMUNITY}`)
  const forum = community.series.find((f) => f.name === FORUM)
  assert.ok(forum, `the demo forum ${FORUM}`)
  const patched = await api('PATCH', `/api/series/${forum.id}`, { token: admin, body: { isFree: false, price: PRICE } })
  assert.equal(patched.status, 200, JSON.stringify(patched.body))
  const series = patched.body
  const raw = `Guild notes ${tag} ${Date.now()}`
  const post = await api('POST', `/api/series/${forum.id}/threads`, { token: admin, body: { channelId: series.mainChannelId, raw } })
  assert.equal(post.status, 201, JSON.stringify(post.body))

  const email = `payer-${tag}-${Date.now()}@example.test`
  const invited = await api('POST', `/api/communities/${community.id}/profiles`, { token: admin, body: { firstName: 'Pat', lastName: 'Payer', email, sendInvitation: true } })
  assert.equal(invited.status, 201, JSON.stringify(invited.body))
  const token = new URL(server.url + (await mailLink(email, '/accept-invitation'))).searchParams.get('token')
  const password = 'Payer-pass-1'
  const reg = await api('POST', `/api/users?token=${encodeURIComponent(token)}`, { body: { firstName: 'Pat', lastName: 'Payer', password } })
  assert.equal(reg.status, 201, JSON.stringify(reg.body))
  const given = await api('POST', `/api/series/${forum.id}/assignments`, { token: admin, body: { assignments: [{ roleId: 'member', assigneeIds: [invited.body.id] }] } })
  assert.ok(given.status < 300, `the admin gives the forum: ${given.status} ${JSON.stringify(given.body)}`)

  // Before paying, the member sees the forum but none of its posts.
  const member = await apiSignIn(email, password)
  const seen = await api('GET', `/api/series/${forum.id}`, { token: member })
  assert.equal(seen.status, 200)
  assert.equal(seen.body.isSubscribed, false, 'a fresh member has no access before paying')
  assert.equal((await api('GET', `/api/channels/${series.mainChannelId}/threads`, { token: member })).status, 404)
  return {
    email,
    password,
    member,
    raw,
    path: `/communities/${community.id}/series/${forum.id}`,
    forum: series,
    community,
    undo: async () => assert.equal((await api('PATCH', `/api/series/${forum.id}`, { token: admin, body: { isFree: true } })).status, 200),
  }
}

async function signInAs(ctx, email, password) {
  const page = await ctx.newPage()
  await page.goto(server.url + '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await waitPath(page, '/home')
  return page
}

/** markPage leaves a marker on the page's window, which a reload or a full navigation would take away. */
const markPage = (page) => page.evaluate(() => (window.__agoraSameDocument = true))
const samePage = (page) => page.evaluate(() => window.__agoraSameDocument === true)

// The demo's paid community's open forum, which no test makes paid: every
// member of the community is its member (spec 001 §4).
const OPEN_FORUM = 'Applied Machine Learning'
// The demo's free community, where the person added below has an account first.
const FREE_COMMUNITY = 'Product Leadership Circle'

export default [
  {
    name: 'subscriptions: a member joins a paid forum through checkout, it opens without a reload, and the subscriptions page lists it; axe',
    async fn(ctx) {
      const t0 = Date.now()
      const p = await paidForum('pay')
      try {
        const page = await signInAs(ctx, p.email, p.password)
        // Something to pay for: the Subscriptions entry shows beside Home.
        await visible(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' }))

        await page.goto(server.url + p.path)
        const prompt = page.getByRole('dialog', { name: 'Join the Forum' })
        await visible(prompt)
        const items = prompt.getByTestId('subscribe-items').getByRole('listitem')
        const flat = (s) => s.replace(/\s+/g, '')
        assert.deepEqual((await items.allInnerTexts()).map(flat), [`${COMMUNITY} community$39.95 a month`, `${FORUM}$15.00 a month`].map(flat), 'the community first, then the forum')
        await visible(prompt.getByText('$54.95 a month in all', { exact: false }))
        assert.equal(await page.getByText(p.raw).count(), 0, 'no post before paying')
        await shot(page, 'subscriptions-prompt')
        await axe(page, 'subscribe prompt')

        // JOIN NOW: the dev checkout page, standing in for Stripe's.
        await prompt.getByRole('button', { name: 'JOIN NOW' }).click()
        await page.waitForURL((u) => u.pathname.startsWith('/api/dev/checkout/'), { timeout: TIMEOUT })
        await visible(page.getByRole('heading', { name: 'Checkout' }))
        const body = await page.locator('table').innerText()
        assert.match(body, new RegExp(`${COMMUNITY}.*\\$39\\.95 a month`), 'the community on the checkout page')
        assert.match(body, new RegExp(`${FORUM}.*\\$15\\.00 a month`), 'the forum on the checkout page')
        assert.match(body, /Total\s+\$54\.95 a month/)
        await shot(page, 'subscriptions-dev-checkout')

        // Pay: back on the forum's page with ?checkout=success.
        await page.getByRole('button', { name: 'Pay' }).click()
        await page.waitForURL((u) => u.pathname === p.path && u.searchParams.get('checkout') === 'success', { timeout: TIMEOUT })
        await page.waitForFunction(() => document.readyState !== 'loading')
        await markPage(page)
        const returned = Date.now()
        // The forum's posts, in this same document.
        await visible(page.getByText(p.raw))
        const opened = Date.now() - returned
        assert.ok(await samePage(page), 'the forum opened without a reload')
        assert.equal(await page.getByRole('dialog', { name: 'Join the Forum' }).count(), 0, 'no prompt once paid')
        await page.waitForURL((u) => u.pathname === p.path && !u.searchParams.has('checkout'), { timeout: TIMEOUT })
        assert.ok(await samePage(page), 'the address forgot ?checkout without a reload')
        await shot(page, 'subscriptions-forum-open')

        // The subscriptions page, through the top bar.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' }).click()
        await waitPath(page, '/subscriptions')
        const rows = page.getByTestId('subscription-row')
        await visible(rows.filter({ hasText: FORUM }))
        const forumRow = (await rows.filter({ hasText: FORUM }).innerText()).replace(/\s+/g, ' ')
        assert.match(forumRow, /Forum Active \$15\.00 a month · Renews on /, `the forum's entry: ${forumRow}`)
        const communityRow = (await rows.filter({ hasText: COMMUNITY }).innerText()).replace(/\s+/g, ' ')
        assert.match(communityRow, /Community Active \$39\.95 a month · Renews on /, `the community's entry: ${communityRow}`)
        assert.ok(await samePage(page), 'still the same document')
        await shot(page, 'subscriptions-page')
        await axe(page, 'subscriptions page')
        console.log(`      (return to posts ${opened} ms; whole test ${Date.now() - t0} ms)`)
      } finally {
        await p.undo()
      }
    },
  },
  {
    name: 'subscriptions: a member added to a paid community is told live and by mail, opens it from Home, pays on the dev checkout page and reads its open forum; axe',
    async fn(ctx) {
      const admin = await apiSignIn('admin@demo.agora')
      const communities = (await api('GET', '/api/communities', { token: admin })).body.results
      const paid = communities.find((c) => c.name === COMMUNITY)
      const free = communities.find((c) => c.name === FREE_COMMUNITY)
      const open = paid.series.find((f) => f.name === OPEN_FORUM)
      assert.ok(open, `the open forum ${OPEN_FORUM}`)
      const series = (await api('GET', `/api/series/${open.id}`, { token: admin })).body
      const raw = `Notes for newcomers ${Date.now()}`
      assert.equal((await api('POST', `/api/series/${open.id}/threads`, { token: admin, body: { channelId: series.mainChannelId, raw } })).status, 201)

      // Someone with an account, a member of the free community only.
      const email = `added-${Date.now()}@example.test`
      const invited = await api('POST', `/api/communities/${free.id}/profiles`, { token: admin, body: { firstName: 'Ada', lastName: 'Added', email, sendInvitation: true } })
      assert.equal(invited.status, 201, JSON.stringify(invited.body))
      const token = new URL(server.url + (await mailLink(email, '/accept-invitation'))).searchParams.get('token')
      const password = 'Added-pass-1'
      assert.equal((await api('POST', `/api/users?token=${encodeURIComponent(token)}`, { body: { firstName: 'Ada', lastName: 'Added', password } })).status, 201)
      const page = await signInAs(ctx, email, password)
      await visible(page.getByTestId('community-card').filter({ hasText: FREE_COMMUNITY }))
      await markPage(page)

      // The admin adds them to the paid community: the bell lights and the
      // community joins Home, with its open forum, without a reload.
      const added = await api('POST', `/api/communities/${paid.id}/profiles`, { token: admin, body: { firstName: 'Ada', lastName: 'Added', email } })
      assert.equal(added.status, 201, JSON.stringify(added.body))
      const bell = page.getByRole('button', { name: 'Notifications', exact: true })
      await visible(bell.getByRole('img', { name: 'Unread notifications' }))
      const card = page.getByTestId('community-card').filter({ hasText: COMMUNITY })
      await visible(card)
      await visible(card.getByText(OPEN_FORUM))
      await visible(card.getByRole('link', { name: `Join ${COMMUNITY}` }))
      assert.ok(await samePage(page), 'Home took the community in without a reload')
      await bell.click()
      const told = page.getByTestId('notification').filter({ hasText: COMMUNITY })
      await visible(told)
      assert.equal(await told.getAttribute('aria-label'), `You were added to ${COMMUNITY}`)
      await shot(page, 'subscriptions-added-notification')
      await axe(page, 'added to a community: the notification')
      await page.keyboard.press('Escape')

      // And a mail, linking to the community's page.
      const mail = await poll(
        'the mail saying so',
        async () => (await api('GET', `/api/dev/mailbox?to=${encodeURIComponent(email)}`)).body.results.find((m) => m.subject === `You were added to ${COMMUNITY}`),
        3 * TIMEOUT,
      )
      assert.ok(mail.body.includes(`/communities/${paid.id}`), mail.body)

      // From Home, the community's name opens its page: the join prompt
      // says what the payment opens, its forums.
      await card.getByRole('link', { name: COMMUNITY, exact: true }).click()
      await waitPath(page, `/communities/${paid.id}`)
      const prompt = page.getByRole('dialog', { name: 'Join the Community' })
      await visible(prompt)
      assert.ok((await prompt.getByTestId('subscribe-opens').innerText()).includes(OPEN_FORUM), 'the open forum among what the payment opens')
      await visible(prompt.getByText('$39.95 a month', { exact: false }))
      await shot(page, 'subscriptions-community-prompt')
      await axe(page, 'join the community')

      // Pay on the dev checkout page; back on the community's page, which opens.
      await prompt.getByRole('button', { name: 'JOIN NOW' }).click()
      await page.waitForURL((u) => u.pathname.startsWith('/api/dev/checkout/'), { timeout: TIMEOUT })
      assert.match(await page.locator('table').innerText(), /Total\s+\$39\.95 a month/)
      await page.getByRole('button', { name: 'Pay' }).click()
      await page.waitForURL((u) => u.pathname === `/communities/${paid.id}`, { timeout: TIMEOUT })
      await visible(page.getByText(`Your payment is confirmed: welcome to ${COMMUNITY}.`))
      assert.equal(await page.getByRole('dialog').count(), 0, 'no prompt once paid')
      await page.getByTestId('community-forum').filter({ hasText: OPEN_FORUM }).getByRole('link', { name: `Open ${OPEN_FORUM}` }).click()
      await waitPath(page, `/communities/${paid.id}/series/${open.id}`)
      await visible(page.getByText(raw))
      assert.equal(await page.getByRole('dialog', { name: 'Join the Forum' }).count(), 0, 'the open forum asks for nothing more')
      await shot(page, 'subscriptions-open-forum-read')
    },
  },
  {
    name: 'subscriptions: back from checkout before the payment is confirmed, the page waits and opens on user.subscription.created',
    async fn(ctx) {
      const p = await paidForum('wait')
      try {
        const page = await signInAs(ctx, p.email, p.password)
        // The checkout is made, and the member is back before it is paid,
        // as when Stripe's webhook is slower than the redirect.
        const session = await api('POST', '/api/checkout-sessions', { token: p.member, body: { productId: p.forum.id } })
        assert.equal(session.status, 201, JSON.stringify(session.body))
        assert.deepEqual(
          session.body.items.map((i) => i.kind),
          ['community', 'forum'],
          'one session of the community and the forum',
        )
        const firstRead = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/subscriptions', { timeout: TIMEOUT })
        await page.goto(`${server.url}${p.path}?checkout=success&session_id=${session.body.id}`)
        await firstRead
        const waiting = page.getByRole('dialog', { name: 'Confirming your payment' })
        await visible(waiting)
        await axe(page, 'confirming the payment')
        await markPage(page)

        // The payment arrives: the dev checkout page's Pay, posted from here.
        const refreshed = page.waitForRequest((r) => r.method() === 'GET' && new URL(r.url()).pathname === '/api/subscriptions', { timeout: TIMEOUT })
        const paid = Date.now()
        const pay = await fetch(server.url + new URL(session.body.url).pathname, { method: 'POST', redirect: 'manual' })
        assert.equal(pay.status, 303)
        // The caches are refreshed by the live event (the subscriptions
        // are read again only then, not by the page's own rechecks).
        await refreshed
        await visible(page.getByText(p.raw))
        console.log(`      (payment to posts ${Date.now() - paid} ms)`)
        assert.equal(await waiting.count(), 0)
        assert.ok(await samePage(page), 'the forum opened without a reload')
        await visible(page.getByText(`Your payment is confirmed: welcome to ${FORUM}.`))
      } finally {
        await p.undo()
      }
    },
  },
]
