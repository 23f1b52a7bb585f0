// The forum feed (spec 001 §2 "Feed surfaces", §4, §6, §8): posts by kind,
// comments, reactions, live updates between two members, an anonymous
// question that only a forum admin can look behind, and an XSS corpus that
// must execute nothing.
import assert from 'node:assert/strict'
import { NARROW, TIMEOUT, api, apiSignIn, axe, openFeed, postCard as card, server, shot, signedInPage, visible } from '../lib.mjs'

const A = 'member@demo.agora'
const B = 'expert@demo.agora'
const ADMIN = 'admin@demo.agora'
const FORUM = 'Welcome & Introductions'
// Live events travel Postgres → change stream → projection → hub.
const LIVE = 20_000

// A 2×2 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64')

/** forum finds the demo forum of A and B, and who they are. */
async function forum() {
  const a = await apiSignIn(A)
  const b = await apiSignIn(B)
  const mine = await api('GET', '/api/communities?page=1&pageSize=9999', { token: a })
  for (const c of mine.body.results) {
    const s = c.series.find((f) => f.name === FORUM)
    if (!s) continue
    const f = await api('GET', `/api/series/${s.id}`, { token: a })
    assert.equal(f.status, 200)
    assert.equal((await api('GET', `/api/series/${s.id}`, { token: b })).status, 200, `${B} reads ${FORUM}`)
    const who = async (token) => (await api('GET', '/api/tokens/decode', { token })).body.user
    return { a, b, userA: await who(a), userB: await who(b), series: f.body, path: `/communities/${c.id}/series/${s.id}` }
  }
  throw new Error(`${A} is not in ${FORUM}`)
}

/** scrollTo scrolls the feed down (loading pages) until locator shows. */
async function scrollTo(page, locator) {
  for (let i = 0; i < 20; i++) {
    if (await locator.isVisible()) return
    await page.mouse.wheel(0, 3000)
    await page.waitForTimeout(500)
  }
  await visible(locator)
}

/**
 * twoPagePdf is a PDF of two pages of text, written out by hand with its
 * cross-reference table's byte offsets counted.
 */
function twoPagePdf() {
  const page = (content) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 5 0 R >> >> /Contents ${content} 0 R >>`
  const text = (s) => `BT /F1 28 Tf 30 100 Td (${s}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>',
    page(6),
    page(7),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...['First page', 'Second page'].map((s) => `<< /Length ${text(s).length} >>\nstream\n${text(s)}\nendstream`),
  ]
  let out = '%PDF-1.4\n'
  const offsets = objects.map((body, i) => {
    const at = out.length
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
    return at
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

/** wav is a WAV file of a 440 Hz tone lasting seconds (8 kHz, 8-bit mono). */
function wav(seconds) {
  const rate = 8000
  const n = rate * seconds
  const b = Buffer.alloc(44 + n)
  b.write('RIFF', 0)
  b.writeUInt32LE(36 + n, 4)
  b.write('WAVEfmt ', 8)
  b.writeUInt32LE(16, 16)
  b.writeUInt16LE(1, 20) // PCM
  b.writeUInt16LE(1, 22) // mono
  b.writeUInt32LE(rate, 24)
  b.writeUInt32LE(rate, 28)
  b.writeUInt16LE(1, 32)
  b.writeUInt16LE(8, 34)
  b.write('data', 36)
  b.writeUInt32LE(n, 40)
  for (let i = 0; i < n; i++) b[44 + i] = 128 + Math.round(40 * Math.sin((2 * Math.PI * 440 * i) / rate))
  return b
}

/** recordWebm runs in the page: two seconds of a moving square on a canvas, recorded as WebM, in base64. */
async function recordWebm() {
  const canvas = document.createElement('canvas')
  canvas.width = 160
  canvas.height = 120
  const g = canvas.getContext('2d')
  const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm' })
  const chunks = []
  recorder.ondataavailable = (e) => chunks.push(e.data)
  const stopped = new Promise((resolve) => (recorder.onstop = resolve))
  recorder.start(100)
  const t0 = performance.now()
  await new Promise((resolve) => {
    const draw = () => {
      const t = performance.now() - t0
      g.fillStyle = '#234'
      g.fillRect(0, 0, 160, 120)
      g.fillStyle = '#fc3'
      g.fillRect((t / 20) % 140, 50, 20, 20)
      if (t < 2000) requestAnimationFrame(draw)
      else resolve()
    }
    draw()
  })
  recorder.stop()
  await stopped
  const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer())
  let s = ''
  for (const x of bytes) s += String.fromCharCode(x)
  return btoa(s)
}

export default [
  {
    name: 'feed: two members live — a post with an image, a link and a mention; a comment and a reaction; an anonymous question',
    async fn(ctx) {
      const { b, userB, series, path } = await forum()
      const pageA = await openFeed(ctx, A, path)
      const pageB = await openFeed(ctx, B, path)

      // A posts through the composer: a mention of B, a link in the text, an image.
      const words = `Live feed e2e ${Date.now()}`
      await pageA.getByRole('group', { name: 'Create' }).getByRole('button', { name: 'Post' }).click()
      const dialog = pageA.getByRole('dialog', { name: 'Create a post' })
      await visible(dialog)
      const text = dialog.getByRole('textbox', { name: 'Post text' })
      await text.pressSequentially(`${words} see https://example.com/guide thanks @${userB.firstName.slice(0, 3)}`)
      const option = pageA.getByRole('listbox', { name: 'People to mention' }).getByRole('option', { name: new RegExp(`${userB.firstName} ${userB.lastName}`) })
      await visible(option)
      await option.click()
      await dialog.getByRole('button', { name: 'Add an image' }).click()
      await dialog.getByTestId('file-input-image').setInputFiles({ name: 'feed-e2e.png', mimeType: 'image/png', buffer: PNG })
      await visible(dialog.getByRole('img', { name: 'Attached image' }))
      await dialog.getByRole('button', { name: 'Post' }).click()
      await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
      await visible(card(pageA, words))

      // B sees it without reloading: the image, the link and the mention chip.
      const atB = card(pageB, words)
      await atB.waitFor({ state: 'visible', timeout: LIVE })
      await visible(atB.getByTestId('post-image'))
      assert.equal(await atB.getByRole('link', { name: 'https://example.com/guide' }).getAttribute('href'), 'https://example.com/guide')
      const chip = atB.locator(`[data-mention="${userB.id}"]`)
      assert.equal(await chip.innerText(), `@${userB.firstName} ${userB.lastName}`)
      await atB.getByTestId('post-image').click()
      await visible(pageB.getByTestId('lightbox'))
      await pageB.keyboard.press('Escape')

      // B comments and reacts; A sees both live.
      const comment = `A comment from B ${Date.now()}`
      await atB.getByRole('textbox', { name: 'Write a comment' }).pressSequentially(comment)
      await atB.getByRole('button', { name: 'Comment', exact: true }).click()
      await visible(atB.getByTestId('comment').filter({ hasText: comment }))
      await atB.getByTestId('reaction-trigger').first().click()
      await pageB.getByRole('group', { name: 'Choose a reaction' }).getByRole('button', { name: 'Love' }).click()
      await visible(atB.getByRole('button', { name: 'Your reaction: Love' }))

      const atA = card(pageA, words)
      await atA.getByTestId('comment').filter({ hasText: comment }).waitFor({ state: 'visible', timeout: LIVE })
      await pageA.waitForFunction(
        (el) => el.querySelector('[data-testid="reaction-total"]')?.textContent === '1 reaction',
        await atA.elementHandle(),
        { timeout: LIVE },
      )
      assert.equal(await atA.getByRole('button', { name: 'React' }).count() >= 1, true, 'A has not reacted')

      // The reactions list, with a tab per kind.
      await atA.getByTestId('reaction-counts').first().click()
      const list = pageA.getByRole('dialog', { name: 'Reactions' })
      await visible(list.getByText(`${userB.firstName} ${userB.lastName}`))
      await visible(list.getByRole('tab', { name: 'Love 1' }))
      await axe(pageA, 'reactions dialog')
      await pageA.keyboard.press('Escape')

      // B's anonymous question: no author for A, live.
      const question = `Anonymous live question ${Date.now()}?`
      const asked = await api('POST', `/api/series/${series.id}/threads`, {
        token: b,
        body: { channelId: series.mainChannelId, raw: question, type: 'question', creatorAs: 'anonymous' },
      })
      assert.equal(asked.status, 201)
      const qA = card(pageA, question)
      await qA.waitFor({ state: 'visible', timeout: LIVE })
      assert.equal(await qA.getByTestId('post-author').innerText(), 'Anonymous')
      assert.doesNotMatch(await qA.innerText(), new RegExp(userB.lastName))
      assert.equal(await qA.getByRole('button', { name: 'See who asked' }).count(), 0, 'members cannot look')

      await shot(pageA, 'feed-wide')
      await axe(pageA, 'forum feed')

      // A forum admin can look, and sees B.
      const admin = await signedInPage(ctx, ADMIN)
      await admin.goto(server.url + path)
      const qAdmin = card(admin, question)
      await visible(qAdmin)
      assert.equal(await qAdmin.getByTestId('post-author').innerText(), 'Anonymous')
      await qAdmin.getByRole('button', { name: 'See who asked' }).click()
      await admin.getByRole('dialog', { name: 'See who asked this question?' }).getByRole('button', { name: 'See who asked' }).click()
      await visible(qAdmin.getByText(`Asked by ${userB.firstName} ${userB.lastName}`))
      // Admins can switch to the admins' channel, which members do not see.
      assert.equal(await pageA.getByTestId('channel-switch').count(), 0)
      const adminChannel = admin.getByTestId('channel-switch').getByRole('button', { name: 'Admins only' })
      await adminChannel.click()
      assert.equal(await adminChannel.getAttribute('aria-pressed'), 'true')
      await visible(admin.getByTestId('forum-feed'))
      assert.equal(await card(admin, question).count(), 0, 'the admin channel has its own posts')

      // Narrow screens.
      const narrow = await signedInPage(ctx, A, NARROW)
      await narrow.goto(server.url + path)
      await visible(card(narrow, words))
      // The unread marker: B's question came after A's last visit; A's own post is not new.
      // The markers show once the visit is recorded, which may come after the cards.
      const qNarrow = card(narrow, question)
      await visible(narrow.locator('[data-testid="post-card"][data-new="true"]').filter({ hasText: question }))
      assert.equal(await card(narrow, words).getAttribute('data-new'), null)
      await shot(narrow, 'feed-narrow')
      await axe(narrow, 'forum feed (narrow)')
      // Reacting moves the last-seen time to now.
      await qNarrow.getByTestId('reaction-trigger').first().click()
      await narrow.getByRole('group', { name: 'Choose a reaction' }).getByRole('button', { name: 'Like', exact: true }).click()
      await narrow.waitForFunction((el) => !el.hasAttribute('data-new'), await qNarrow.elementHandle())
    },
  },
  {
    name: 'feed: edit and delete for the creator, infinite scroll, a single post with its comments open',
    async fn(ctx) {
      const { a, b, series, path } = await forum()
      // Enough posts for a second page.
      const stamp = Date.now()
      for (let i = 0; i < 11; i++) {
        const r = await api('POST', `/api/series/${series.id}/threads`, { token: a, body: { channelId: series.mainChannelId, raw: `Scroll post ${stamp} #${i}` } })
        assert.equal(r.status, 201)
      }
      const first = await api('POST', `/api/series/${series.id}/threads`, { token: a, body: { channelId: series.mainChannelId, raw: `Editable ${stamp}` } })
      const postId = first.body.id
      for (const raw of ['first comment', 'second comment', 'third comment']) {
        assert.equal((await api('POST', `/api/threads/${postId}/replies`, { token: b, body: { raw: `${raw} ${stamp}` } })).status, 201)
      }

      const page = await signedInPage(ctx, A)
      await page.goto(server.url + path)
      const post = page.locator(`[data-testid="post-card"][data-id="${postId}"]`)
      await visible(post)
      // The first comment is featured; 'show more' shows them all.
      assert.equal(await post.getByTestId('comment').count(), 1)
      await post.getByRole('button', { name: 'Show more comments' }).click()
      await post.getByTestId('comment').nth(2).waitFor({ timeout: TIMEOUT })
      await post.getByRole('button', { name: 'Show less' }).click()
      assert.equal(await post.getByTestId('comment').count(), 1)

      // Infinite scroll: the twelfth post is on the second page.
      const pages = []
      page.on('request', (r) => r.url().includes(`/api/channels/${series.mainChannelId}/threads`) && pages.push(new URL(r.url()).searchParams.get('createdBefore')))
      await page.mouse.wheel(0, 20_000)
      await visible(card(page, `Scroll post ${stamp} #0`))
      assert.ok(pages.some((c) => c), `a page with createdBefore: ${JSON.stringify(pages)}`)

      // Edit inline, then delete with a confirmation.
      await post.scrollIntoViewIfNeeded()
      await post.getByRole('button', { name: 'Manage post' }).click()
      await page.getByRole('menuitem', { name: 'Edit' }).click()
      const box = post.getByRole('textbox', { name: 'Edit the post' })
      await box.fill(`Edited ${stamp}`)
      // The card shows the edit before the server answers: wait for the answer, then read.
      const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/api/threads/${postId}`))
      await post.getByRole('button', { name: 'Save' }).click()
      const edited = card(page, `Edited ${stamp}`)
      await visible(edited)
      assert.equal(await edited.getAttribute('data-id'), postId)
      assert.equal((await saved).status(), 200)
      assert.equal((await api('GET', `/api/threads/${postId}`, { token: a })).body.raw, `Edited ${stamp}`)

      // B cannot manage A's post.
      const pageB = await signedInPage(ctx, B)
      await pageB.goto(server.url + `${path}/posts/${postId}?reason=comment`)
      const single = pageB.getByTestId('single-post')
      await visible(single)
      assert.equal(await single.getByRole('button', { name: 'Manage post' }).count(), 0)
      // The single post opens with every comment.
      await single.getByTestId('comment').nth(2).waitFor({ timeout: TIMEOUT })
      await axe(pageB, 'single post')

      await edited.getByRole('button', { name: 'Manage post' }).click()
      await page.getByRole('menuitem', { name: 'Delete' }).click()
      const confirm = page.getByRole('dialog', { name: 'Delete this post?' })
      await visible(confirm.getByText('This action cannot be undone.'))
      await confirm.getByRole('button', { name: 'Delete' }).click()
      await edited.waitFor({ state: 'detached', timeout: TIMEOUT })
      assert.equal((await api('GET', `/api/threads/${postId}`, { token: a })).status, 404)
      // B's open single post goes live too.
      await pageB.getByText('This post no longer exists.').waitFor({ state: 'visible', timeout: LIVE })
    },
  },
  {
    name: 'feed: an XSS corpus in posts, comments, names and link previews executes nothing',
    async fn(ctx) {
      const { a, b, userB, series, path } = await forum()
      const hook = 'window.__xss=(window.__xss||0)+1'
      const corpus = [
        `<script>${hook}</script>`,
        `<img src=x onerror="${hook}">`,
        `<svg onload="${hook}"></svg>`,
        `javascript:${hook}`,
        `[click](javascript:${hook})`,
        `<a href="javascript:${hook}">link</a>`,
        `[<img src=x onerror=${hook}>](${userB.id})`,
        `"><iframe src="javascript:${hook}"></iframe>`,
        `#tag<script>${hook}</script> https://example.com/"><script>${hook}</script>`,
        `data:text/html,<script>${hook}</script>`,
      ]
      const stamp = `xss-${Date.now()}`
      const post = async (body) => api('POST', `/api/series/${series.id}/threads`, { token: a, body: { channelId: series.mainChannelId, ...body } })

      // The server refuses script addresses in attachments.
      assert.equal((await post({ raw: 'x', link: { url: `javascript:${hook}` } })).status, 400)
      assert.equal((await post({ raw: 'x', image: { url: `javascript:${hook}` } })).status, 400)

      const ids = []
      for (const raw of corpus) {
        const r = await post({ raw: `${stamp} ${raw}` })
        assert.equal(r.status, 201, raw)
        ids.push(r.body.id)
      }
      // A preview's URLs must be http(s): a javascript: image is refused.
      const refused = await post({
        raw: `${stamp} refused`,
        link: { url: 'https://example.com/a', viewerType: 'external', preview: { title: 't', image: `javascript:${hook}` } },
      })
      assert.equal(refused.status, 400, JSON.stringify(refused.body))
      assert.equal(refused.body.code, 'feedPostCreating')
      // Its text fields are plain text, kept as sent and shown as text.
      const linked = await post({
        raw: `${stamp} preview`,
        link: {
          url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>x</script>',
          viewerType: 'embedded',
          preview: { title: `<script>${hook}</script>`, description: `<img src=x onerror="${hook}">`, siteName: '<b>site</b>' },
        },
      })
      assert.equal(linked.status, 201, JSON.stringify(linked.body))
      const external = await post({
        raw: `${stamp} external`,
        link: { url: 'https://example.com/a', viewerType: 'external', preview: { title: `<img src=x onerror="${hook}">` } },
      })
      assert.equal(external.status, 201)

      // A hostile display name on B's comments; restored afterwards.
      const before = (await api('GET', '/api/tokens/decode', { token: b })).body.user
      try {
        const renamed = await api('PATCH', '/api/users/me', { token: b, body: { firstName: '<img src=x onerror=alert(1)>', lastName: '<script>alert(2)</script>' } })
        assert.equal(renamed.status, 200, JSON.stringify(renamed.body))
        for (const raw of corpus.slice(0, 5)) {
          assert.equal((await api('POST', `/api/threads/${ids[0]}/replies`, { token: b, body: { raw } })).status, 201)
        }

        const page = await ctx.newPage()
        const dialogs = []
        page.on('dialog', (d) => {
          dialogs.push(d.message())
          void d.dismiss()
        })
        await page.addInitScript(() => {
          window.__xss = 0
          for (const f of ['alert', 'confirm', 'prompt']) window[f] = () => (window.__xss += 1)
        })
        await page.goto(server.url + '/login')
        await page.getByLabel('Email').fill(A)
        await page.getByLabel('Password', { exact: true }).fill(process.env.AGORA_DEMO_PASSWORD ?? 'agora-demo')
        await page.getByRole('button', { name: 'Sign in' }).click()
        await page.waitForURL((u) => u.pathname === '/home')
        await page.goto(server.url + path)
        await visible(page.getByTestId('post-card'))
        const first = card(page, `${stamp} ${corpus[0]}`)
        await scrollTo(page, first)
        // The text shows as text.
        await visible(first.getByText(`${stamp} <script>`, { exact: false }))
        await first.getByRole('button', { name: 'Show more comments' }).click()
        await first.getByTestId('comment').nth(4).waitFor({ timeout: TIMEOUT })
        await visible(first.getByText('<img src=x onerror=alert(1)> <script>alert(2)</script>').first())
        const preview = card(page, `${stamp} preview`)
        await visible(preview)
        const ext = card(page, `${stamp} external`)
        await visible(ext.getByTestId('post-link'))
        await page.mouse.wheel(0, 4000)
        await page.waitForTimeout(1000)

        const found = await page.evaluate(() => ({
          xss: window.__xss,
          scriptHrefs: [...document.querySelectorAll('a[href], iframe[src], img[src]')]
            .map((e) => e.getAttribute('href') ?? e.getAttribute('src'))
            .filter((u) => /^\s*(javascript|data|vbscript):/i.test(u)),
          injected: document.querySelectorAll('[data-testid="post-card"] script, [data-testid="post-card"] [onerror], [data-testid="post-card"] [onload]').length,
        }))
        assert.deepEqual(found, { xss: 0, scriptHrefs: [], injected: 0 })
        assert.deepEqual(dialogs, [])
        // The hook works: a handler that does run is counted (so a zero above
        // means nothing ran). It is attached by a script here: the page's
        // Content-Security-Policy would block an inline onerror, a second
        // line of defence, and the harness fails a test on any violation.
        await page.evaluate(() => {
          const img = document.createElement('img')
          img.onerror = () => window.alert('counted')
          img.src = '/assets/missing-image.png'
          document.body.append(img)
        })
        await page.waitForFunction(() => window.__xss === 1, null, { timeout: TIMEOUT })
        // The embedded player is built from the video id only, or not at all.
        for (const src of await page.locator('iframe').evaluateAll((fs) => fs.map((f) => f.getAttribute('src')))) {
          assert.ok(!src.includes('<') && !src.includes('"'), `iframe src ${src}`)
        }
      } finally {
        await api('PATCH', '/api/users/me', { token: b, body: { firstName: before.firstName, lastName: before.lastName } })
      }
    },
  },
  {
    name: 'feed: an image file opens in the viewer, and nothing is framed',
    async fn(ctx) {
      const { a, path, series } = await forum()
      const main = series.mainChannelId
      const stamp = `viewer-${Date.now()}`
      const tk = await api('POST', '/api/sas', { token: a, body: { kind: 'file', name: 'diagram.png', mediaType: 'image/png', size: PNG.length } })
      assert.equal(tk.status, 201, JSON.stringify(tk.body))
      assert.ok(tk.body.url.startsWith(server.url + '/api/blobs/'), `upload URL ${tk.body.url}`)
      const put = await fetch(tk.body.url, { method: 'PUT', body: PNG })
      assert.equal(put.status, 200)
      const png = await put.json()
      // A page elsewhere is refused as a file: it would be framed.
      const refused = await api('POST', `/api/series/${series.id}/threads`, {
        token: a, body: { channelId: main, raw: `${stamp} elsewhere`, file: { name: 'x.pdf', url: 'https://example.com/page.html', mediaType: 'application/pdf' } },
      })
      assert.equal(refused.status, 400)
      assert.ok(refused.body.details.fields.file, JSON.stringify(refused.body))
      const r = await api('POST', `/api/series/${series.id}/threads`, {
        token: a, body: { channelId: main, raw: `${stamp} image file`, file: { id: png.id, name: png.name, url: png.url, mediaType: png.mediaType } },
      })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      const page = await openFeed(ctx, A, path)
      const imageCard = card(page, `${stamp} image file`)
      await scrollTo(page, imageCard)
      await imageCard.getByRole('button', { name: 'View' }).click()
      const viewer = page.getByTestId('file-viewer')
      await visible(viewer.getByTestId('file-viewer-image'))
      assert.deepEqual(await viewer.locator('iframe').count(), 0)
      await page.keyboard.press('Escape')
      await page.close()
    },
  },
  {
    name: 'feed: a member attaches a PDF, an audio and a video file; the viewer pages and zooms the PDF and plays the others',
    async fn(ctx) {
      const page = await openFeed(ctx, A, (await forum()).path)
      const stamp = `media-${Date.now()}`
      const blobFrames = async () => (await page.locator('iframe').evaluateAll((fs) => fs.map((f) => f.getAttribute('src') ?? ''))).filter((src) => src.includes('/api/blobs/'))

      /** attach posts text with file through the composer, as a member does, and returns the post's card. */
      const attach = async (text, file) => {
        await page.getByRole('group', { name: 'Create' }).getByRole('button', { name: 'Post' }).click()
        const dialog = page.getByRole('dialog', { name: 'Create a post' })
        await visible(dialog)
        await dialog.getByRole('button', { name: 'Add a file' }).click()
        await dialog.getByTestId('file-input-file').setInputFiles(file)
        await visible(dialog.getByRole('button', { name: `Remove the file ${file.name}` }))
        await dialog.getByRole('textbox', { name: 'Post text' }).fill(text)
        await dialog.getByRole('button', { name: 'Post' }).click()
        await dialog.waitFor({ state: 'hidden', timeout: TIMEOUT })
        const c = card(page, text)
        await scrollTo(page, c)
        return c
      }
      /** open clicks the card's View and returns the viewer. */
      const open = async (c, name) => {
        await c.getByRole('button', { name: 'View' }).click()
        const viewer = page.getByRole('dialog', { name: `File: ${name}` })
        await visible(viewer)
        return viewer
      }

      // A PDF of two pages opens in the viewer, drawn by pdf.js: no frame.
      const pdfCard = await attach(`${stamp} the plan`, { name: 'plan.pdf', mimeType: 'application/pdf', buffer: twoPagePdf() })
      let viewer = await open(pdfCard, 'plan.pdf')
      const status = viewer.getByTestId('pdf-page-status')
      await visible(viewer.getByText('Page 1 of 2'))
      const pdf = viewer.getByTestId('pdf-viewer')
      await page.waitForFunction((el) => el.dataset.renderedPage === '1', await pdf.elementHandle(), { timeout: TIMEOUT })
      const canvas = viewer.getByRole('img', { name: 'Page 1 of 2 of plan.pdf' })
      /** inked counts the canvas's dark pixels: the page's text. */
      const inked = () => canvas.evaluate((c) => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data
        let n = 0
        for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && d[i] < 128) n++
        return n
      })
      assert.ok((await inked()) > 50, 'page 1 shows its text')
      assert.equal(await viewer.getByTestId('pdf-page-text').textContent(), 'First page')
      assert.deepEqual(await blobFrames(), [])
      await shot(page, 'file-viewer-pdf')
      await axe(page, 'PDF viewer')

      const next = viewer.getByRole('button', { name: 'Next page' })
      const previous = viewer.getByRole('button', { name: 'Previous page' })
      assert.equal(await previous.isDisabled(), true)
      await next.click()
      await visible(viewer.getByText('Page 2 of 2'))
      await page.waitForFunction((el) => el.dataset.renderedPage === '2', await pdf.elementHandle(), { timeout: TIMEOUT })
      assert.equal(await next.isDisabled(), true)
      assert.equal(await viewer.getByTestId('pdf-page-text').textContent(), 'Second page')
      const canvas2 = viewer.getByRole('img', { name: 'Page 2 of 2 of plan.pdf' })
      const fitWidth = await canvas2.evaluate((c) => c.getBoundingClientRect().width)

      // Zoom in by two steps of 0.2, then back to fitting the width.
      await viewer.getByRole('button', { name: 'Zoom in' }).click()
      await viewer.getByRole('button', { name: 'Zoom in' }).click()
      await visible(viewer.getByText('140%'))
      await page.waitForFunction(([c, w]) => c.getBoundingClientRect().width > w * 1.35, [await canvas2.elementHandle(), fitWidth], { timeout: TIMEOUT })
      await viewer.getByRole('button', { name: 'Fit to width' }).click()
      await visible(viewer.getByText('100%'))
      await page.waitForFunction(([c, w]) => Math.abs(c.getBoundingClientRect().width - w) < 2, [await canvas2.elementHandle(), fitWidth], { timeout: TIMEOUT })

      // The keyboard turns pages; a page number out of range is cleared.
      await viewer.getByRole('region', { name: 'Page 2 of 2 of plan.pdf' }).focus()
      await page.keyboard.press('ArrowLeft')
      await visible(viewer.getByText('Page 1 of 2'))
      const pageNumber = viewer.getByRole('textbox', { name: 'Page number' })
      await pageNumber.fill('5')
      await pageNumber.press('Enter')
      assert.equal(await pageNumber.inputValue(), '')
      assert.equal(await status.textContent(), 'Page 1 of 2')
      await pageNumber.fill('2')
      await pageNumber.press('Enter')
      await visible(viewer.getByText('Page 2 of 2'))
      await page.keyboard.press('Escape')
      await viewer.waitFor({ state: 'hidden' })

      // A file pdf.js cannot read (a PDF header, no document) is offered as a download.
      const brokenCard = await attach(`${stamp} the broken one`, {
        name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\nthis is not a document\n%%EOF\n'),
      })
      viewer = await open(brokenCard, 'broken.pdf')
      const error = viewer.getByRole('alert')
      await visible(error.getByText("This file can't be shown here"))
      const download = error.getByRole('link', { name: 'Download' })
      assert.equal(await download.getAttribute('download'), 'broken.pdf')
      const [saved] = await Promise.all([page.waitForEvent('download'), download.click()])
      assert.equal(saved.suggestedFilename(), 'broken.pdf')
      await axe(page, 'file viewer error')
      await viewer.getByRole('button', { name: 'Close' }).click()
      await viewer.waitFor({ state: 'hidden' })

      /** plays clicks the player's play control (its left end) and waits for time to pass. */
      const plays = async (player) => {
        await player.evaluate((el) => new Promise((resolve) => (el.readyState >= 1 ? resolve() : el.addEventListener('loadedmetadata', resolve, { once: true }))))
        const box = await player.boundingBox()
        const controls = await player.evaluate((el) => el.tagName === 'AUDIO')
        // The play button: at the audio bar's left end, the video's middle.
        await page.mouse.click(controls ? box.x + 20 : box.x + box.width / 2, controls ? box.y + box.height / 2 : box.y + box.height / 2)
        await page.waitForFunction((el) => !el.paused && el.currentTime > 0.3, await player.elementHandle(), { timeout: TIMEOUT })
      }

      // An audio file plays in the viewer's <audio controls>.
      const audioCard = await attach(`${stamp} the talk`, { name: 'talk.wav', mimeType: 'audio/wav', buffer: wav(3) })
      viewer = await open(audioCard, 'talk.wav')
      const audio = viewer.getByLabel('Audio: talk.wav')
      await visible(audio)
      assert.equal(await audio.evaluate((el) => el.controls), true)
      await plays(audio)
      await axe(page, 'audio viewer')
      // The player keeps the keys it has focus for (Escape included): close.
      await viewer.getByRole('button', { name: 'Close' }).click()
      await viewer.waitFor({ state: 'hidden' })

      // A video file (a WebM this browser records from a canvas) plays in <video controls>.
      const clip = await page.evaluate(recordWebm)
      const videoCard = await attach(`${stamp} the clip`, { name: 'clip.webm', mimeType: 'video/webm', buffer: Buffer.from(clip, 'base64') })
      viewer = await open(videoCard, 'clip.webm')
      const video = viewer.getByLabel('Video: clip.webm')
      await visible(video)
      await plays(video)
      assert.ok((await video.evaluate((el) => el.videoWidth)) === 160, 'the video has its frames')
      assert.deepEqual(await blobFrames(), [])
      await viewer.getByRole('button', { name: 'Close' }).click()
      await viewer.waitFor({ state: 'hidden' })
      await page.close()
    },
  },
  {
    name: 'feed: a clicked hashtag shows the posts that carry it, and Show all posts the rest again',
    async fn(ctx) {
      const { a, path, series } = await forum()
      const tag = `tag${Date.now()}`
      const post = async (raw) => assert.equal((await api('POST', `/api/series/${series.id}/threads`, { token: a, body: { channelId: series.mainChannelId, raw } })).status, 201)
      await post(`${tag} first: an idea #${tag}`)
      await post(`${tag} second: no tag, only the word ${tag}`)
      await post(`${tag} third: loud #${tag.toUpperCase()}`)
      const page = await openFeed(ctx, A, path)
      const third = card(page, `${tag} third`)
      await visible(third)
      await third.getByRole('button', { name: `Show the posts tagged #${tag.toUpperCase()}` }).click()
      await visible(page.getByTestId('hashtag-banner'))
      assert.match(await page.getByTestId('hashtag-banner').innerText(), new RegExp(`Posts tagged #${tag.toUpperCase()}`))
      assert.equal(new URL(page.url()).searchParams.get('hashtag'), tag.toUpperCase())
      await visible(card(page, `${tag} first`))
      const shown = await page.getByTestId('post-card').allInnerTexts()
      assert.deepEqual(shown.map((t) => t.match(new RegExp(`${tag} (first|second|third)`))?.[1]).filter(Boolean), ['third', 'first'])
      await page.getByRole('button', { name: 'Show all posts' }).click()
      await visible(card(page, `${tag} second`))
      assert.equal(await page.getByTestId('hashtag-banner').count(), 0)
      await page.close()
    },
  },
]
