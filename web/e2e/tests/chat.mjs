// Private chat with presence (issue 16): two members in two browsers.
// A opens B's profile from a mention chip and starts a chat; B sees the
// unread dot and the new-message bubble arrive, replies, and A sees the
// reply arrive; B's hidden tab turns away in A's list; presence follows a
// reload and two tabs.
import assert from 'node:assert/strict'
import { NARROW, api, apiSignIn, axe, poll, server, shot, signedInPage, TIMEOUT, visible } from '../lib.mjs'

// Two seeded members no other browser test signs in as, so that no other
// test's chat shows in their lists.
const A = 'amelia.hart@demo.agora'
const B = 'benjamin.okafor@demo.agora'

/** together finds a forum a and b are in, and each one's user. */
async function together(emailA = A, emailB = B) {
  const [ta, tb] = [await apiSignIn(emailA), await apiSignIn(emailB)]
  const who = async (token) => (await api('GET', '/api/tokens/decode', { token })).body.user
  const [a, b] = [await who(ta), await who(tb)]
  const forums = async (token) => (await api('GET', '/api/communities?page=1&pageSize=9999', { token })).body.results.flatMap((c) => c.series.map((s) => ({ c, s })))
  const theirs = new Set((await forums(tb)).map(({ s }) => s.id))
  const shared = (await forums(ta)).find(({ s }) => theirs.has(s.id))
  assert.ok(shared, `${emailA} and ${emailB} share a forum`)
  const series = (await api('GET', `/api/series/${shared.s.id}`, { token: ta })).body
  return { ta, a, b, series, path: `/communities/${shared.c.id}/series/${shared.s.id}` }
}

/** hideTab tells the page its tab is hidden or shown again, as the browser does when another tab takes the window. */
async function hideTab(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') })
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h })
    document.dispatchEvent(new Event('visibilitychange'))
  }, hidden)
}

/** peerStatus is the presence A's chat list shows on a peer's row: online, away, do-not-disturb, or offline (no dot); absent when the row is not in the list. */
async function peerStatus(list, name) {
  const row = list.getByTestId('peer').filter({ hasText: name })
  if ((await row.count()) === 0) return 'absent'
  // Read in one step: the dot may change between two reads.
  return row.first().evaluate((r) => r.querySelector('[data-status]')?.getAttribute('data-status') ?? 'offline').catch(() => 'absent')
}

/** showsStatus waits until A's list shows the peer with status; active, if given, keeps that person at the keyboard meanwhile. */
async function showsStatus(list, name, status, active) {
  let last
  await poll(`${name} shows ${status}`, async () => {
    if (active) await active.mouse.move(Math.random() * 200 + 10, Math.random() * 200 + 10)
    last = await peerStatus(list, name)
    return last === status
  }, 3 * TIMEOUT).catch(async (e) => {
    // What the server holds, to tell a browser that did not report from a list that did not follow.
    const token = await list.page().evaluate(() => localStorage.getItem('user_token'))
    const r = await api('GET', `/api/peers?q=${encodeURIComponent(name)}&criterion=name`, { token })
    const held = r.body?.results?.find((p) => `${p.firstName} ${p.lastName}` === name)?.status
    throw new Error(`${e.message} (last shown: ${last}; the server holds: ${held ?? r.status})`)
  })
}

/** openConnected opens a page at path and resolves once its hub connection has the server's first message. */
async function openConnected(page, path) {
  const socket = page.waitForEvent('websocket', { timeout: TIMEOUT }).then((ws) => ws.waitForEvent('framereceived', { predicate: (f) => String(f.payload).includes('presence.settings'), timeout: TIMEOUT }))
  await page.goto(server.url + path)
  await socket
}

export default [
  {
    name: 'chat: A writes to B from B’s profile, B sees it live and replies; presence across hidden tabs, reloads and two tabs',
    async fn(ctx) {
      const { ta, a, b, series, path } = await together()
      const aName = `${a.firstName} ${a.lastName}`
      const bName = `${b.firstName} ${b.lastName}`
      const raw = `Chat test ${Date.now()}: thanks [${bName}](${b.id}) for the reading list`
      const post = await api('POST', `/api/series/${series.id}/threads`, { token: ta, body: { channelId: series.mainChannelId, raw } })
      assert.equal(post.status, 201, JSON.stringify(post.body))

      // B is on the home page with the panel docked; A in the forum.
      const pb = await signedInPage(ctx, B)
      const pa = await signedInPage(ctx, A)
      await pa.goto(server.url + path)

      // A opens B's profile from the mention chip, then Message.
      const card = pa.getByTestId('post-card').filter({ hasText: raw.slice(0, 24) }).first()
      await visible(card)
      await card.getByRole('button', { name: `Open the profile of ${bName}` }).click()
      const dialog = pa.getByTestId('profile-dialog')
      await visible(dialog.getByRole('heading', { name: bName }))
      await dialog.getByRole('button', { name: 'Message', exact: true }).click()
      await dialog.waitFor({ state: 'detached' })
      const conv = pa.getByTestId('conversation')
      await visible(conv.getByTestId('conversation-peer').filter({ hasText: bName }))
      const hello = `Hello ${b.firstName}, may I ask about the reading list? ${Date.now()}`
      await conv.getByRole('textbox', { name: 'Message' }).fill(hello)
      await pa.keyboard.press('Enter')
      await visible(conv.getByText(hello))

      // B: the unread dot on the docked chat, and the bubble, without a reload.
      const panelB = pb.getByTestId('right-panel')
      await visible(panelB.getByRole('button', { name: 'Chat', exact: true }).getByRole('img', { name: 'Unread messages' }))
      const bubble = pb.getByTestId('new-message-bubble')
      await visible(bubble)
      await shot(pb, 'chat-new-message-bubble')
      await axe(pb, 'home with the new-message bubble')
      await bubble.getByRole('button', { name: 'View' }).click()
      const listB = pb.getByTestId('chat-list')
      const rowA = listB.getByTestId('peer').filter({ hasText: aName })
      await visible(rowA.getByRole('img', { name: 'Unread messages' }))
      // The bubble fades out while the panel is open.
      await bubble.waitFor({ state: 'detached' })
      await rowA.click()
      const convB = pb.getByTestId('conversation')
      await visible(convB.getByText(hello))
      const reply = `Of course ${a.firstName}: start with the first three chapters. ${Date.now()}`
      await convB.getByRole('textbox', { name: 'Message' }).fill(reply)
      await pb.keyboard.press('Enter')
      await visible(convB.getByText(reply))

      // A sees the reply arrive in the open conversation.
      await visible(conv.getByText(reply))
      await shot(pa, 'chat-conversation')
      await axe(pa, 'conversation')

      // A goes back to the list: B is online while B's tab is in use.
      await conv.getByRole('button', { name: 'Back to the members' }).click()
      const listA = pa.getByTestId('chat-list')
      await showsStatus(listA, bName, 'online', pb)

      // B's tab is hidden: after the away time A's list shows B away, and online again when B comes back.
      await hideTab(pb, true)
      await showsStatus(listA, bName, 'away')
      await hideTab(pb, false)
      await showsStatus(listA, bName, 'online', pb)

      // B reloads: online again in A's list, which A did not reload.
      await pb.reload()
      await visible(pb.getByTestId('right-panel'))
      await showsStatus(listA, bName, 'online', pb)
      // A reloads: the list reads B's presence from the server.
      await pa.reload()
      // The panel stays open on the chat, as A left it.
      await visible(pa.getByTestId('chat-list'))
      await showsStatus(pa.getByTestId('chat-list'), bName, 'online', pb)

      // Two tabs: B opens a second one and closes the first. A watches B's dot meanwhile.
      const listA2 = pa.getByTestId('chat-list')
      await listA2.getByTestId('peer').filter({ hasText: bName }).first().evaluate((row) => {
        window.__seen = []
        const record = () => window.__seen.push(row.querySelector('[data-status]')?.getAttribute('data-status') ?? 'offline')
        new MutationObserver(record).observe(row, { subtree: true, childList: true, attributes: true })
      })
      // The first tab closes only once the second is connected, as when a person moves between tabs.
      const pb2 = await pb.context().newPage()
      await openConnected(pb2, '/home')
      await pb.close()
      // With the second tab in use B stays online; closing it too makes B offline.
      await showsStatus(listA2, bName, 'online', pb2)
      await pa.evaluate(() => window.__seen.push('(second tab closes)'))
      await pb2.close()
      await showsStatus(listA2, bName, 'offline')
      const seen = await pa.evaluate(() => window.__seen)
      const closing = seen.indexOf('(second tab closes)')
      assert.ok(!seen.slice(0, closing).includes('offline'), `B was shown offline only once both tabs closed: ${seen.join(' → ')}`)
    },
  },
  {
    name: 'chat: a message that arrives while the panel is collapsed dots the docked chat, and the phone’s chat button',
    async fn(ctx) {
      // Two more members no other browser test signs in as.
      const { ta, a, b } = await together('zoe.campbell@demo.agora', 'william.chen@demo.agora')
      const aName = `${a.firstName} ${a.lastName}`
      const write = async (raw) => {
        const r = await api('POST', '/api/threads/private', { token: ta, body: { memberIds: [b.id], raw } })
        assert.equal(r.status, 201, JSON.stringify(r.body))
      }

      // B opens the chat from the docked panel, then collapses it again.
      const pb = await signedInPage(ctx, 'william.chen@demo.agora')
      const panel = pb.getByTestId('right-panel')
      const chat = panel.getByRole('button', { name: 'Chat', exact: true })
      await chat.click()
      await visible(pb.getByTestId('chat-list'))
      await panel.getByRole('button', { name: 'Collapse the panel' }).click()
      await visible(chat)
      assert.equal(await panel.getAttribute('data-state'), 'docked')
      assert.equal(await chat.getByRole('img', { name: 'Unread messages' }).count(), 0, 'no dot before the message')

      // A writes: the docked chat icon gets the dot, without a reload.
      const first = `Zoe here: are the metric definitions shared yet? ${Date.now()}`
      await write(first)
      await visible(chat.getByRole('img', { name: 'Unread messages' }))
      await shot(pb, 'chat-docked-unread')

      // Expanded, the list's row has the same dot; reading the conversation clears both.
      await chat.click()
      const row = pb.getByTestId('chat-list').getByTestId('peer').filter({ hasText: aName })
      await visible(row.getByRole('img', { name: 'Unread messages' }))
      await row.click()
      await visible(pb.getByTestId('conversation').getByText(first))
      await panel.getByRole('button', { name: 'Collapse the panel' }).click()
      await poll('the docked dot goes once read', async () => (await chat.getByRole('img', { name: 'Unread messages' }).count()) === 0, TIMEOUT)

      // On a phone the top bar's chat button carries the dot, also for a
      // message written while the page was still connecting: the page's hub
      // ticket is held until A has written, after the chat was read.
      const phone = await signedInPage(ctx, 'william.chen@demo.agora', NARROW)
      let release
      const held = new Promise((r) => (release = r))
      await phone.route('**/api/hub/tickets', async (route) => {
        await held
        await route.continue()
      })
      const chatRead = phone.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === '/api/channels/private', { timeout: TIMEOUT })
      await phone.reload()
      await chatRead
      const button = phone.getByRole('banner').getByRole('button', { name: 'Chat', exact: true })
      await visible(button)
      assert.equal(await button.getByRole('img', { name: 'Unread messages' }).count(), 0)
      const second = `And the dashboard link, when you have it? ${Date.now()}`
      await write(second)
      release()
      await visible(button.getByRole('img', { name: 'Unread messages' }))

      // Connected now, a message that arrives live also shows its bubble.
      await write(`Or the slides, whichever is first. ${Date.now()}`)
      // The new-message bubble shows at the foot of the screen, not over the top bar.
      const bubble = phone.getByTestId('new-message-bubble')
      await visible(bubble)
      const [barBox, bubbleBox] = [await phone.getByRole('banner').boundingBox(), await bubble.boundingBox()]
      assert.ok(bubbleBox.y >= barBox.y + barBox.height, `the bubble (top ${bubbleBox.y}) is below the top bar (bottom ${barBox.y + barBox.height})`)
      await button.click()
      const sheet = phone.getByRole('dialog')
      await visible(sheet.getByTestId('peer').filter({ hasText: aName }).getByRole('img', { name: 'Unread messages' }))
      await axe(phone, 'chat sheet with an unread conversation (narrow)')
    },
  },
]
