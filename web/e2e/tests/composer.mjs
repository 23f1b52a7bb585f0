// The post composer (spec 001 §2 "Feed surfaces", §4 "Composer", §5): a
// member posts with a mention and a hashtag, asks anonymously, uploads an
// image with progress, and attaches a link to a local page with its
// preview; each post is then read back from the feed and from the API.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { crc32, deflateSync } from 'node:zlib'
import { NARROW, TIMEOUT, api, apiSignIn, axe, poll, server, shot, signIn, signedInPage, visible, waitPath } from '../lib.mjs'

const MEMBER = 'member@demo.agora'
const FORUM = 'Welcome & Introductions'

/** forum finds the demo member's forum and its main channel through the API. */
async function forum() {
  const token = await apiSignIn(MEMBER)
  const mine = await api('GET', '/api/communities?page=1&pageSize=9999', { token })
  assert.equal(mine.status, 200)
  for (const c of mine.body.results) {
    const s = c.series.find((f) => f.name === FORUM)
    if (s) {
      const f = await api('GET', `/api/series/${s.id}`, { token })
      assert.equal(f.status, 200)
      return { token, series: f.body, path: `/communities/${c.id}/series/${s.id}` }
    }
  }
  throw new Error(`${MEMBER} is not in ${FORUM}`)
}

/** latest is the newest post of the channel, read through the API. */
async function latest(token, channelId) {
  const r = await api('GET', `/api/channels/${channelId}/threads?pageSize=1`, { token })
  assert.equal(r.status, 200)
  return r.body.results[0]
}

async function openForum(ctx, path, viewport) {
  const page = await signedInPage(ctx, MEMBER, viewport)
  await page.goto(server.url + path)
  await visible(page.getByTestId('forum-feed'))
  return page
}

async function openComposer(page, button, title) {
  await page.getByRole('group', { name: 'Create' }).getByRole('button', { name: button }).click()
  const dialog = page.getByRole('dialog', { name: title })
  await visible(dialog)
  return dialog
}

/** png is a real PNG of w×h random pixels, stored without compression so that its size is about 3·w·h bytes. */
function png(w, h) {
  const chunk = (type, data) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([len, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr.set([8, 2, 0, 0, 0], 8) // 8-bit RGB
  const raw = Buffer.alloc((w * 3 + 1) * h)
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1)
    raw[row] = 0 // no filter
    for (let i = 1; i <= w * 3; i++) raw[row + i] = (Math.random() * 256) | 0
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 0 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * pageServer serves one HTML page with Open Graph fields on loopback, for the link preview, at the
 * one port agora may reach (the harness's previewPort); each page has a path of its own, so that a
 * preview of an earlier test's page, still cached, is not taken for it.
 */
async function pageServer(title) {
  const path = `/article-${Date.now()}.html`
  const srv = createServer((req, res) => {
    if (req.url !== path) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><html><head><title>fallback</title>
      <meta property="og:title" content="${title}">
      <meta property="og:description" content="A local page the composer test links to.">
      <meta property="og:site_name" content="E2E Site">
      </head><body>article</body></html>`)
  })
  await new Promise((res) => srv.listen(server.previewPort, '127.0.0.1', res))
  return { url: `http://127.0.0.1:${server.previewPort}${path}`, close: () => new Promise((res) => srv.close(res)) }
}

export default [
  {
    name: 'composer: a post with a mention and a hashtag shows in the feed; axe on the dialog',
    async fn(ctx) {
      const { token, series, path } = await forum()
      // A hashtag in use already, so that '#' has something to suggest.
      const tag = `composer${Date.now().toString(36)}`
      const seeded = await api('POST', `/api/series/${series.id}/threads`, {
        token,
        body: { channelId: series.mainChannelId, raw: `seed #${tag}` },
      })
      assert.equal(seeded.status, 201)
      // The hashtag reaches the suggestions through the change stream, a
      // moment behind on a busy machine: in use means suggested.
      await poll('the seeded hashtag among the suggestions', async () => JSON.stringify((await api('GET', `/api/hashtags?q=${tag}`, { token })).body ?? '').includes(tag), 30_000)
      const members = await api('GET', `/api/series/${series.id}/members?page=1&pageSize=9999`, { token })
      const me = (await api('GET', '/api/tokens/decode', { token })).body.user.id
      const other = members.body.results.find((m) => m.userId && m.userId !== me)
      assert.ok(other, 'someone to mention')

      const page = await openForum(ctx, path)
      const dialog = await openComposer(page, 'Post', 'Create a post')
      const text = dialog.getByRole('textbox', { name: 'Post text' })
      assert.equal(await dialog.getByRole('button', { name: 'Post' }).isDisabled(), true)

      const words = `Composer e2e ${Date.now()}`
      // Typed key by key where the editor reacts to keys (triggers, shortcuts).
      await text.fill(`${words} hello `)
      await text.pressSequentially(`@${other.firstName.slice(0, 3)}`)
      const people = page.getByRole('listbox', { name: 'People to mention' })
      await visible(people.getByRole('option', { name: new RegExp(`${other.firstName} ${other.lastName}`) }))
      await shot(page, 'composer-mention-suggestions')
      await axe(page, 'composer dialog with mention suggestions')
      await people.getByRole('option', { name: new RegExp(`${other.firstName} ${other.lastName}`) }).click()
      await text.pressSequentially(`and #${tag.slice(0, -2)}`)
      const tags = page.getByRole('listbox', { name: 'Hashtags' })
      await visible(tags.getByRole('option', { name: new RegExp(`#${tag}`) }))
      await text.press('ArrowDown')
      await text.press('ArrowUp')
      await text.press('Enter')
      // Enter picks from the answer to what is typed, which may still be on its way.
      await page.waitForFunction(([el, end]) => el.value.endsWith(end), [await text.elementHandle(), `#${tag} `], { timeout: TIMEOUT })
      await text.pressSequentially(':tada:')
      await dialog.getByRole('button', { name: 'Insert an emoji' }).click()
      const picker = page.getByRole('dialog', { name: 'Emoji picker' })
      await visible(picker)
      await axe(page, 'emoji picker')
      await picker.getByRole('button', { name: 'thumbs up' }).click()
      const mention = `[${other.firstName} ${other.lastName}](${other.userId})`
      // The member reads the name; the markup is what is sent.
      assert.equal(await text.inputValue(), `${words} hello @${other.firstName} ${other.lastName} and #${tag} 🎉👍`)

      await shot(page, 'composer-dialog')
      await axe(page, 'composer dialog')
      await dialog.getByRole('button', { name: 'Post' }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })

      const card = page.getByTestId('post-card').filter({ hasText: words }).first()
      await visible(card)
      await visible(card.getByText(`#${tag}`))
      const post = await latest(token, series.mainChannelId)
      assert.equal(post.raw, `${words} hello ${mention} and #${tag} 🎉👍`)
      assert.deepEqual(post.mentions, [other.userId])
      assert.deepEqual(post.hashtags, [tag])
      assert.equal(post.type, 'post')
      assert.equal(post.creatorAs, 'author')
    },
  },
  {
    name: 'composer: a question asked anonymously hides the asker',
    async fn(ctx) {
      const { token, series, path } = await forum()
      const page = await openForum(ctx, path)
      const dialog = await openComposer(page, 'Ask a question', 'Ask a question')
      await dialog.getByRole('radio', { name: 'Anonymous' }).check()
      const question = `Anonymous e2e question ${Date.now()}?`
      // Leading spaces are dropped as typed; Enter submits.
      await dialog.getByRole('textbox', { name: 'Question text' }).pressSequentially(`   ${question}`)
      await axe(page, 'question dialog')
      await dialog.getByRole('textbox', { name: 'Question text' }).press('Enter')
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      await visible(page.getByTestId('post-card').filter({ hasText: question }))
      const post = await latest(token, series.mainChannelId)
      assert.equal(post.raw, question)
      assert.equal(post.type, 'question')
      assert.equal(post.creatorAs, 'anonymous')
      assert.equal(post.creator, null)
      assert.equal(post.creatorId, null)
    },
  },
  {
    name: 'composer: an image uploads with progress and is posted; rejected files warn',
    async fn(ctx) {
      const { token, series, path } = await forum()
      const page = await openForum(ctx, path)
      const dialog = await openComposer(page, 'Post', 'Create a post')
      await dialog.getByRole('button', { name: 'Add an image' }).click()
      await visible(dialog.getByText('Max Upload Size: 3MB'))
      const input = dialog.getByTestId('file-input-image')

      // Refused in the browser: a type posts cannot show.
      await input.setInputFiles({
        name: 'drawing.svg',
        mimeType: 'image/svg+xml',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      })
      let alert = page.getByRole('alertdialog', { name: 'The file cannot be added' })
      await visible(alert.getByText('Only these image types can be added: PNG, JPEG, GIF, WEBP.'))
      await axe(page, 'upload warning')
      assert.deepEqual(await alert.getByRole('button').allTextContents(), ['OK'])
      await alert.getByRole('button', { name: 'OK' }).click()
      await alert.waitFor({ state: 'hidden' })

      // Refused by the server, which reads the type from the bytes.
      await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('this is not a picture at all') })
      alert = page.getByRole('alertdialog', { name: 'The file cannot be added' })
      await visible(alert.getByText('Only these image types can be added: PNG, JPEG, GIF, WEBP.'))
      await alert.getByRole('button', { name: 'OK' }).click()

      // A real PNG of about 2.4 MB, sent over a slowed upload link so that
      // the progress has steps to show.
      const image = png(900, 900)
      assert.ok(image.length > 2_000_000 && image.length <= 3_000_000, `png of ${image.length} bytes`)
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 1_500_000,
      })
      await page.evaluate(() => {
        const seen = (window.__progress = [])
        const tick = () => {
          const p = document.querySelector('progress')
          if (p && seen[seen.length - 1] !== p.value) seen.push(p.value)
          if (!window.__stopProgress) requestAnimationFrame(tick)
        }
        tick()
      })
      await input.setInputFiles({ name: 'e2e-picture.png', mimeType: 'image/png', buffer: image })
      await visible(dialog.getByText('Uploading e2e-picture.png'))
      const attached = dialog.getByRole('img', { name: 'Attached image' })
      await attached.waitFor({ state: 'visible', timeout: 30_000 })
      const progress = await page.evaluate(() => {
        window.__stopProgress = true
        return window.__progress
      })
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
      const steps = progress.filter((v) => v > 0 && v < 100)
      assert.ok(steps.length >= 2, `progress steps between 0 and 100: ${JSON.stringify(progress)}`)
      assert.deepEqual(
        [...steps].sort((a, b) => a - b),
        steps,
        'progress only grows',
      )
      // The image shows from its upload URL, and the attachment buttons are gone.
      await page.waitForFunction((img) => img.complete && img.naturalWidth === 900, await attached.elementHandle())
      assert.equal(await dialog.getByRole('group', { name: 'Attachments' }).count(), 0)

      await dialog.getByRole('textbox', { name: 'Post text' }).fill('A picture from the e2e test')
      await dialog.getByRole('button', { name: 'Post' }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      await visible(page.getByTestId('post-card').filter({ hasText: 'A picture from the e2e test' }))
      const post = await latest(token, series.mainChannelId)
      assert.match(post.image.url, /\/api\/blobs\//)
      const blob = await fetch(post.image.url)
      assert.equal(blob.status, 200)
      assert.equal(blob.headers.get('content-type'), 'image/png')
      assert.equal(Buffer.compare(Buffer.from(await blob.arrayBuffer()), image), 0)
    },
  },
  {
    name: 'composer: a web link to a local page is attached with its preview',
    async fn(ctx) {
      const { token, series, path } = await forum()
      const title = `Composer E2E Article ${Date.now()}`
      const site = await pageServer(title)
      try {
        const page = await openForum(ctx, path, NARROW)
        const dialog = await openComposer(page, 'Post', 'Create a post')
        await dialog.getByRole('button', { name: 'Add a web link' }).click()
        const linkDialog = page.getByRole('dialog', { name: 'Add a Web Link' })
        await visible(linkDialog)
        const field = linkDialog.getByRole('textbox', { name: 'Web link' })
        const save = linkDialog.getByRole('button', { name: 'Save' })

        await field.fill('not a link')
        await visible(linkDialog.getByText(/Enter a valid web link/))
        assert.equal(await field.getAttribute('aria-invalid'), 'true')
        assert.equal(await save.isDisabled(), true)

        await field.fill(site.url)
        await visible(linkDialog.getByText(title))
        await visible(linkDialog.getByText('E2E Site'))
        await shot(page, 'composer-link-dialog-narrow')
        await axe(page, 'add a web link')
        await save.click()
        await linkDialog.waitFor({ state: 'hidden' })

        // Attached: its card shows, the attachment buttons are gone, and a
        // link alone may be posted.
        await visible(dialog.getByText(title))
        assert.equal(await dialog.getByRole('group', { name: 'Attachments' }).count(), 0)
        await dialog.getByRole('button', { name: 'Post' }).click()
        await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })

        const post = await latest(token, series.mainChannelId)
        assert.equal(post.raw, '')
        assert.equal(post.link.url, site.url)
        assert.equal(post.link.viewerType, 'external')
        assert.equal(post.link.preview.title, title)
        await visible(page.getByTestId('post-card').first())
      } finally {
        await site.close()
      }
    },
  },
  {
    name: 'composer: text typed first, then a web link saved with Enter, posts both',
    async fn(ctx) {
      const { token, series, path } = await forum()
      const title = `Composer E2E Text and Link ${Date.now()}`
      const site = await pageServer(title)
      try {
        const page = await openForum(ctx, path)
        const dialog = await openComposer(page, 'Post', 'Create a post')
        const words = `Worth a read ${Date.now()}`
        await dialog.getByRole('textbox', { name: 'Post text' }).pressSequentially(words)
        await dialog.getByRole('button', { name: 'Add a web link' }).click()
        const linkDialog = page.getByRole('dialog', { name: 'Add a Web Link' })
        const field = linkDialog.getByRole('textbox', { name: 'Web link' })
        await field.fill(site.url)
        await visible(linkDialog.getByText(title))
        await field.press('Enter')
        await linkDialog.waitFor({ state: 'hidden' })

        // The composer is still open, with the text and the link: nothing
        // was posted by the link dialog's Enter.
        await visible(dialog.getByText(title))
        assert.equal(await dialog.getByRole('textbox', { name: 'Post text' }).inputValue(), words)
        await dialog.getByRole('button', { name: 'Post' }).click()
        await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })

        const post = await latest(token, series.mainChannelId)
        assert.equal(post.raw, words)
        assert.equal(post.link?.url, site.url)
        const card = page.getByTestId('post-card').filter({ hasText: words })
        await visible(card.getByText(title))
      } finally {
        await site.close()
      }
    },
  },
  {
    name: 'composer: mentions read as names, Enter picks only the answer to what is typed, the list leaves the buttons clear, chips are not links',
    async fn(ctx) {
      const { token, series, path } = await forum()
      const me = (await api('GET', '/api/tokens/decode', { token })).body.user.id
      const candidates = async (q) => {
        const r = await api('GET', `/api/series/${series.id}/mention-candidates?q=${encodeURIComponent(q)}&limit=50`, { token })
        assert.equal(r.status, 200)
        return r.body.results.filter((p) => p.userId !== me)
      }
      // Someone who is first for their own first name but not first in the
      // list '@' alone shows: an Enter on that older list would pick another.
      const first = (await candidates(''))[0]
      let other
      for (const p of await candidates('')) {
        if (p.userId !== first.userId && /^[\p{L}]+$/u.test(p.firstName) && (await candidates(p.firstName))[0]?.userId === p.userId) {
          other = p
          break
        }
      }
      assert.ok(other, 'someone to mention by first name')

      const page = await openForum(ctx, path)
      // The answer for a typed name comes late, so that the list still shows
      // the answer for '@' alone when Enter is pressed.
      await page.route('**/mention-candidates?*', async (route) => {
        if (new URL(route.request().url()).searchParams.get('q')) await new Promise((r) => setTimeout(r, 1500))
        await route.continue()
      })
      const dialog = await openComposer(page, 'Post', 'Create a post')
      const text = dialog.getByRole('textbox', { name: 'Post text' })
      const words = `Mention names e2e ${Date.now()}`
      await text.fill(`${words} `)
      await text.pressSequentially('@')
      const people = page.getByRole('listbox', { name: 'People to mention' })
      await visible(people.getByRole('option', { name: new RegExp(`${first.firstName} ${first.lastName}`) }))

      // The list is under the text box and covers neither button.
      const list = await people.boundingBox()
      for (const name of ['Post', 'Cancel']) {
        const b = await dialog.getByRole('button', { name, exact: true }).boundingBox()
        const apart = b.x + b.width <= list.x || list.x + list.width <= b.x || b.y + b.height <= list.y || list.y + list.height <= b.y
        assert.ok(apart, `${name} button ${JSON.stringify(b)} under the list ${JSON.stringify(list)}`)
      }
      await dialog.getByRole('button', { name: 'Post', exact: true }).click({ trial: true })

      await text.pressSequentially(other.firstName)
      await text.press('Enter')
      await page.waitForFunction(
        ([el, name]) => el.value.includes(name),
        [await text.elementHandle(), `@${other.firstName} ${other.lastName} `],
        { timeout: TIMEOUT },
      )
      assert.equal(await text.inputValue(), `${words} @${other.firstName} ${other.lastName} `)
      await text.pressSequentially('#e2e_tag')
      await dialog.getByRole('button', { name: 'Post', exact: true }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      const post = await latest(token, series.mainChannelId)
      assert.equal(post.raw, `${words} [${other.firstName} ${other.lastName}](${other.userId}) #e2e_tag`)

      // In the feed the mention is a chip that opens the person's profile
      // dialog, in the text's colour, and the hashtag a button in the link
      // colour that shows the forum's posts carrying it: neither is a link
      // (no anchor, no underline); both take a pointer.
      const card = page.getByTestId('post-card').filter({ hasText: words }).first()
      await visible(card)
      const looks = []
      for (const what of [card.locator(`[data-mention="${other.userId}"]`), card.locator('[data-hashtag="e2e_tag"]')]) {
        await visible(what)
        looks.push(
          await what.evaluate((el) => {
            const s = getComputedStyle(el)
            const p = getComputedStyle(el.closest('[data-testid="rich-text"]'))
            return {
              anchor: !!el.closest('a'),
              button: el.tagName === 'BUTTON',
              cursor: s.cursor,
              underline: s.textDecorationLine.includes('underline'),
              sameColour: s.color === p.color,
            }
          }),
        )
      }
      assert.deepEqual(looks, [
        { anchor: false, button: true, cursor: 'pointer', underline: false, sameColour: true },
        { anchor: false, button: true, cursor: 'pointer', underline: false, sameColour: false },
      ])
      assert.equal(await card.getByRole('link', { name: new RegExp(other.firstName) }).count(), 0)

      // The edit box shows the name too, and saving keeps the markup.
      await card.getByRole('button', { name: 'Manage post' }).click()
      await page.getByRole('menuitem', { name: 'Edit' }).click()
      const edit = card.getByRole('textbox', { name: 'Edit the post' })
      await visible(edit)
      assert.equal(await edit.inputValue(), `${words} @${other.firstName} ${other.lastName} #e2e_tag`)
      await edit.press('End')
      await edit.pressSequentially(' more')
      // The card shows the edit before the server answers: wait for the answer, then read.
      const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/api/threads/${post.id}`))
      await card.getByRole('button', { name: 'Save' }).click()
      await visible(card.getByText(/#e2e_tag more/))
      assert.equal((await saved).status(), 200)
      const edited = await api('GET', `/api/threads/${post.id}`, { token })
      assert.equal(edited.body.raw, `${post.raw} more`)
    },
  },
  {
    name: 'composer: drafts survive Escape, a click outside and a reload, are never another account\'s, and Cancel asks before discarding',
    async fn(ctx) {
      const { token, series, path } = await forum()
      const target = await api('POST', `/api/series/${series.id}/threads`, { token, body: { channelId: series.mainChannelId, raw: `Draft target ${Date.now()}` } })
      assert.equal(target.status, 201)
      const page = await openForum(ctx, path)
      const words = `A draft e2e ${Date.now()}`
      let dialog = await openComposer(page, 'Post', 'Create a post')
      await dialog.getByRole('textbox', { name: 'Post text' }).fill(words)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      dialog = await openComposer(page, 'Post', 'Create a post')
      assert.equal(await dialog.getByRole('textbox', { name: 'Post text' }).inputValue(), words)
      await page.mouse.click(5, 5) // outside the dialog
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })

      // A comment's draft, on the post it answers.
      const card = page.getByTestId('post-card').filter({ hasText: target.body.raw }).first()
      const comment = `A comment draft ${Date.now()}`
      await card.getByRole('textbox', { name: 'Write a comment' }).fill(comment)

      await page.reload()
      await visible(page.getByTestId('forum-feed'))
      assert.equal(await card.getByRole('textbox', { name: 'Write a comment' }).inputValue(), comment)
      dialog = await openComposer(page, 'Post', 'Create a post')
      const text = dialog.getByRole('textbox', { name: 'Post text' })
      assert.equal(await text.inputValue(), words)

      // Cancel asks; Keep editing keeps the text.
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click()
      let ask = page.getByRole('dialog', { name: 'Discard this post?' })
      await visible(ask)
      await axe(page, 'discard a draft')
      await ask.getByRole('button', { name: 'Keep editing' }).click()
      await ask.waitFor({ state: 'hidden' })
      assert.equal(await text.inputValue(), words)

      // Another account on this browser sees neither draft.
      await page.goto(server.url + '/logout')
      await waitPath(page, '/login')
      await signIn(page, 'expert@demo.agora')
      await waitPath(page, '/home')
      await page.goto(server.url + path)
      await visible(page.getByTestId('forum-feed'))
      assert.equal(await card.getByRole('textbox', { name: 'Write a comment' }).inputValue(), '')
      dialog = await openComposer(page, 'Post', 'Create a post')
      assert.equal(await dialog.getByRole('textbox', { name: 'Post text' }).inputValue(), '')
      await page.keyboard.press('Escape')
      await page.goto(server.url + '/logout')
      await waitPath(page, '/login')
      await signIn(page, MEMBER)
      await waitPath(page, '/home')
      await page.goto(server.url + path)
      await visible(page.getByTestId('forum-feed'))

      // Posting clears the draft; Discard does too.
      dialog = await openComposer(page, 'Post', 'Create a post')
      assert.equal(await dialog.getByRole('textbox', { name: 'Post text' }).inputValue(), words)
      await dialog.getByRole('button', { name: 'Post', exact: true }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      assert.equal((await latest(token, series.mainChannelId)).raw, words)
      dialog = await openComposer(page, 'Post', 'Create a post')
      assert.equal(await dialog.getByRole('textbox', { name: 'Post text' }).inputValue(), '')
      await dialog.getByRole('textbox', { name: 'Post text' }).fill('to be thrown away')
      await dialog.getByRole('button', { name: 'Cancel', exact: true }).click()
      ask = page.getByRole('dialog', { name: 'Discard this post?' })
      await ask.getByRole('button', { name: 'Discard' }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      dialog = await openComposer(page, 'Post', 'Create a post')
      assert.equal(await dialog.getByRole('textbox', { name: 'Post text' }).inputValue(), '')
    },
  },
]
