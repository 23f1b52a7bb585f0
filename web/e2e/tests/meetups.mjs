// Meet Ups on LiveKit (issue 18): a forum admin schedules an open Meet Up
// with a breakout room through the form; a member registers from the post;
// both join with Chromium's fake camera and see each other's video, chat
// (the member, chat closed, sees an unread dot, leaves, joins again and
// reads the chat's history), move into the breakout room (the member from
// the prompt that its opening shows) and are called back when it closes; the admin
// ends the Meet Up for all and the post shows it ended, and the forum's
// insights count it with its two attendees. Then AI notes: a
// member's fake microphone plays known spoken sentences, the host turns the
// notes on, ends the Meet Up, and the minutes hold the sentences' words and
// are found by the forum's search; every participant sees that the notes
// are on, one who joins later too. Then the virtual background: a member
// blurs their background, then replaces it with an image, and the other
// sees it in the video they receive.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { api, apiSignIn, axe, poll, server, shot, signedInPage, TIMEOUT, visible } from '../lib.mjs'

// admin@demo.agora administers every demo forum; the members are people no
// other browser test signs in as.
const ADMIN = 'admin@demo.agora'
const MEMBER = 'elena.petrova@demo.agora'
const SPEAKER = 'grace.liu@demo.agora'
const PRESENTER = 'hiroshi.tanaka@demo.agora'
const LISTENER = 'isabel.moreno@demo.agora'
const LATECOMER = 'jamal.wright@demo.agora'
const MEDIA = { permissions: ['camera', 'microphone'] }
// Joining, publishing and the live events go through LiveKit and the change stream.
const LIVE = 3 * TIMEOUT

/** together finds a forum the admin and the members are all in, and each one's user (the first member's as m, the others' in more). */
async function together(member, ...others) {
  const [ta, tm] = [await apiSignIn(ADMIN), await apiSignIn(member)]
  const tokens = await Promise.all(others.map((o) => apiSignIn(o)))
  const who = async (token) => (await api('GET', '/api/tokens/decode', { token })).body.user
  const [a, m] = [await who(ta), await who(tm)]
  const forums = async (token) => (await api('GET', '/api/communities?page=1&pageSize=9999', { token })).body.results.flatMap((c) => c.series.map((s) => ({ c, s })))
  const theirs = await Promise.all([tm, ...tokens].map(async (token) => new Set((await forums(token)).map(({ s }) => s.id))))
  const shared = (await forums(ta)).find(({ s }) => theirs.every((ids) => ids.has(s.id)))
  assert.ok(shared, `${ADMIN}, ${[member, ...others].join(', ')} share a forum`)
  const series = (await api('GET', `/api/series/${shared.s.id}`, { token: ta })).body
  const more = await Promise.all(tokens.map(async (token) => ({ token, user: await who(token) })))
  return { ta, tm, a, m, more, series, path: `/communities/${shared.c.id}/series/${shared.s.id}` }
}

/** meetupOn is the Meet Up section of the post named name. */
const meetupOn = (page, name) => page.getByTestId('meetup').filter({ has: page.getByTestId('meetup-name').getByText(name, { exact: true }) })

/** stageOf is the Meet Up screen of page. */
const stageOf = (page) => page.getByTestId('meetup-stage')

/** peerTile is the tile of the participant with that user id on page's Meet Up screen. */
const peerTile = (page, userId) => stageOf(page).locator(`[data-testid="peer"][data-identity="${userId}"]`)

/** seesVideo waits until page plays the video of userId: a <video> on their tile with frames. */
async function seesVideo(page, userId) {
  await poll(
    `the video of ${userId}`,
    () => peerTile(page, userId).locator('video').evaluate((v) => v.videoWidth > 0 && !v.paused).catch(() => false),
    LIVE,
  )
}

async function confirm(page, title, button) {
  const d = page.getByRole('dialog', { name: title })
  await visible(d)
  await d.getByRole('button', { name: button, exact: true }).click()
  await d.waitFor({ state: 'detached' })
}

/** MEETUP_FIGURES are the Meet Ups report's figures the test follows, by their keys in the panel and the API. */
const MEETUP_FIGURES = ['meetups', 'invited', 'attended']

/** meetupsReport is the forum's Meet Ups report as the API gives it. */
async function meetupsReport(token, seriesId, period = 90) {
  const r = await api('GET', `/api/insights/reports/meetups/${seriesId}?period=${period}`, { token })
  assert.equal(r.status, 200, JSON.stringify(r.body))
  return r.body
}

/** openInsights opens the Insights tab of page's right panel, docked or expanded. */
async function openInsights(page) {
  const panel = page.getByTestId('right-panel')
  await visible(panel)
  if ((await panel.getAttribute('data-state')) === 'docked') await panel.getByRole('button', { name: 'Insights', exact: true }).click()
  else await panel.getByRole('tab', { name: 'Insights', exact: true }).click()
  await visible(page.getByTestId('insights-panel'))
}

/** shownMeetupFigures reads the Meet Ups report's figures as the Insights tab shows them. */
async function shownMeetupFigures(page) {
  const widget = page.getByTestId('insights-meetups')
  const out = {}
  for (const k of MEETUP_FIGURES) {
    const fig = widget.getByTestId(`figure-${k}`)
    await visible(fig)
    out[k] = { label: await fig.locator('dt').innerText(), value: Number((await fig.locator('dd').innerText()).replace(/,/g, '')) }
  }
  return out
}

/** breakouts opens the Breakout rooms dialog of page's Meet Up screen. */
async function breakouts(page) {
  await stageOf(page).getByRole('button', { name: 'Breakout rooms', exact: true }).click()
  const d = page.getByRole('dialog', { name: 'Breakout rooms' })
  await visible(d)
  return d
}


/** crc32 of PNG chunks (node:zlib has one only from Node 20.15). */
function crc32(buf) {
  let c = ~0
  for (const b of buf) {
    c ^= b
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1))
  }
  return ~c >>> 0
}

/** solidPng is a w×h PNG of one colour [r, g, b]. */
function solidPng(w, h, [r, g, b]) {
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
  ihdr.set([8, 2, 0, 0, 0], 8) // 8 bits, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => [r, g, b]).flat())])
  const pixels = Buffer.concat(Array.from({ length: h }, () => row))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))])
}

/**
 * videoLook reads the frame page shows of userId's video, drawn into a
 * 320×180 canvas (LiveKit's adaptive stream sends another size as the
 * tile or the network changes; one size keeps the figures comparable):
 * its sharpness (the mean difference of luminance between neighbouring
 * pixels: edges make it high, a blur low) and the share of its pixels near
 * colour.
 */
function videoLook(page, userId, color = [0, 0, 0]) {
  return peerTile(page, userId)
    .locator('video')
    .evaluate((v, [cr, cg, cb]) => {
      if (!v.videoWidth || !v.videoHeight) return null
      const [w, h] = [320, 180]
      const c = document.createElement('canvas')
      c.width = w
      c.height = h
      const g = c.getContext('2d', { willReadFrequently: true })
      g.drawImage(v, 0, 0, w, h)
      const d = g.getImageData(0, 0, w, h).data
      const lum = new Float32Array(w * h)
      let near = 0
      for (let i = 0; i < w * h; i++) {
        const [r, gr, b] = [d[4 * i], d[4 * i + 1], d[4 * i + 2]]
        lum[i] = 0.299 * r + 0.587 * gr + 0.114 * b
        if (Math.hypot(r - cr, gr - cg, b - cb) < 80) near++
      }
      let edges = 0
      for (let y = 0; y < h - 1; y++) for (let x = 0; x < w - 1; x++) edges += Math.abs(lum[y * w + x] - lum[y * w + x + 1]) + Math.abs(lum[y * w + x] - lum[(y + 1) * w + x])
      return { size: `${v.videoWidth}×${v.videoHeight}`, sharpness: edges / ((w - 1) * (h - 1)), near: near / (w * h) }
    }, color)
    .catch(() => null)
}

/** lookUntil polls videoLook until ok(look), and gives the look; on timeout it says what it last saw. */
async function lookUntil(what, page, userId, ok, color) {
  let last = null
  try {
    await poll(what, async () => ok((last = await videoLook(page, userId, color)) ?? { sharpness: NaN, near: NaN }), 6 * TIMEOUT)
  } catch (e) {
    throw new Error(`${e.message}: last seen ${JSON.stringify(last)}`)
  }
  return last
}

/** background opens page's Virtual background popover. */
async function background(page) {
  await stageOf(page).getByRole('button', { name: 'Virtual background', exact: true }).click()
  const pop = page.getByRole('dialog', { name: 'Virtual background' })
  await visible(pop)
  return pop
}

export default [
  {
    name: 'meetups: an admin schedules an open Meet Up with a breakout; a member registers; both see each other’s video, chat (unread dot, history after a rejoin), go to the breakout (from its prompt) and back; ended for all; axe',
    async fn(ctx) {
      const { ta, a, m, series, path } = await together(MEMBER)
      const aName = `${a.firstName} ${a.lastName}`
      // The forum's Meet Ups report before this Meet Up, which the end of the test expects it to add.
      const before = await meetupsReport(ta, series.id)
      const name = `Roadmap review ${Date.now().toString(36)}`
      const room = 'Pricing corner'

      // The admin schedules it through the form, starting now (the form's default).
      const pa = await signedInPage(ctx, ADMIN, undefined, MEDIA)
      await pa.goto(server.url + path)
      await pa.getByRole('button', { name: 'Schedule Meet Up' }).click()
      const form = pa.getByRole('dialog', { name: 'Schedule a Meet Up' })
      await visible(form)
      await form.getByLabel('Name', { exact: true }).fill(name)
      await form.getByLabel('Agenda').fill('Walk through the pricing roadmap, then split up to discuss it.')
      await form.getByRole('radio', { name: /Open registration/ }).check()
      await form.getByLabel('Seats').fill('10')
      await form.getByLabel('Breakout room name').fill(room)
      await form.getByLabel('Breakout room name').press('Enter')
      await visible(form.getByRole('list', { name: 'Breakout rooms' }).getByText(room))
      await form.getByRole('button', { name: 'Schedule', exact: true }).click()
      const notify = pa.getByRole('dialog', { name: 'Members of this Forum will be notified' })
      await visible(notify.getByText(/members of ".+" will be notified by email/))
      await notify.getByRole('button', { name: 'Schedule and notify' }).click()
      await form.waitFor({ state: 'detached' })
      const postA = meetupOn(pa, name)
      await visible(postA)
      await visible(postA.getByText('10 spots left'))

      // The member registers from the post, and takes a seat.
      const pm = await signedInPage(ctx, MEMBER, undefined, MEDIA)
      await pm.goto(server.url + path)
      const postM = meetupOn(pm, name)
      await visible(postM)
      await postM.getByRole('button', { name: 'Register', exact: true }).click()
      await visible(postM.getByRole('button', { name: 'Unregister' }))
      await visible(postM.getByText('9 spots left'))

      // Both join; members join with the camera off, and turn it on.
      await postA.getByRole('button', { name: 'Join', exact: true }).click()
      await visible(stageOf(pa))
      await postM.getByRole('button', { name: 'Join', exact: true }).click()
      await visible(stageOf(pm))
      for (const p of [pa, pm]) {
        await visible(stageOf(p).getByRole('button', { name: 'Turn the microphone on' }))
        await stageOf(p).getByRole('button', { name: 'Turn the camera on' }).click()
        await visible(stageOf(p).getByRole('button', { name: 'Turn the camera off' }))
      }
      await seesVideo(pa, m.id)
      await seesVideo(pm, a.id)
      await visible(peerTile(pm, a.id).getByText(aName))
      await shot(pm, 'meetup-screen')
      await axe(pm, 'the Meet Up screen')

      // The in-meeting chat: the admin writes, the member reads and answers.
      await stageOf(pa).getByRole('button', { name: 'Meet Up chat' }).click()
      const chatA = pa.getByTestId('meetup-chat')
      const hello = `Welcome everyone, the slides are in the forum ${Date.now()}`
      await chatA.getByRole('textbox', { name: 'Message' }).fill(hello)
      await chatA.getByRole('textbox', { name: 'Message' }).press('Enter')
      await visible(chatA.getByText(hello))
      await stageOf(pm).getByRole('button', { name: 'Meet Up chat' }).click()
      const chatM = pm.getByTestId('meetup-chat')
      await visible(chatM.getByText(hello))
      const thanks = `Thanks, I have them open ${Date.now()}`
      await chatM.getByRole('textbox', { name: 'Message' }).fill(thanks)
      await chatM.getByRole('textbox', { name: 'Message' }).press('Enter')
      await visible(chatA.getByText(thanks))
      await shot(pa, 'meetup-chat')

      // The member closes the chat; the admin writes again: the chat button shows an unread dot.
      await stageOf(pm).getByRole('button', { name: 'Meet Up chat', exact: true }).click()
      await chatM.waitFor({ state: 'detached' })
      assert.equal(await stageOf(pm).getByTestId('chat-unread').count(), 0, 'no unread dot before a new message')
      const agenda = `First the numbers, then questions ${Date.now()}`
      await chatA.getByRole('textbox', { name: 'Message' }).fill(agenda)
      await chatA.getByRole('textbox', { name: 'Message' }).press('Enter')
      await visible(chatA.getByText(agenda))
      await stageOf(pm).getByTestId('chat-unread').waitFor({ timeout: LIVE })
      await visible(stageOf(pm).getByRole('button', { name: 'Meet Up chat, new messages' }))
      await shot(pm, 'meetup-chat-unread')

      // The member leaves and joins again: the chat still holds what was said.
      await stageOf(pm).getByRole('button', { name: 'Leave', exact: true }).click()
      await confirm(pm, 'Leave this Meet Up?', 'Leave')
      await stageOf(pm).waitFor({ state: 'detached' })
      await postM.getByRole('button', { name: 'Join', exact: true }).click()
      await visible(stageOf(pm))
      await peerTile(pa, m.id).waitFor({ timeout: LIVE })
      assert.equal(await stageOf(pm).getByTestId('chat-unread').count(), 0, 'a new join starts without an unread dot')
      await stageOf(pm).getByRole('button', { name: 'Meet Up chat', exact: true }).click()
      const chatM2 = pm.getByTestId('meetup-chat')
      for (const text of [hello, thanks, agenda]) await visible(chatM2.getByText(text))
      assert.deepEqual(
        (await chatM2.getByTestId('chat-message').allInnerTexts()).map((t) => [hello, thanks, agenda].find((x) => t.includes(x))).filter(Boolean),
        [hello, thanks, agenda],
        'the history in the order it was written',
      )
      await stageOf(pm).getByRole('button', { name: 'Meet Up chat', exact: true }).click()
      await chatM2.waitFor({ state: 'detached' })

      // The admin opens the breakout rooms and moves into one; the member is asked, and joins it from the prompt.
      const dA = await breakouts(pa)
      await dA.getByRole('button', { name: 'Open breakout rooms' }).click()
      await confirm(pa, 'Open the breakout rooms?', 'Open breakout rooms')
      const opened = pm.getByRole('dialog', { name: 'Breakout rooms are open' })
      await opened.waitFor({ timeout: LIVE })
      await visible(opened.getByRole('button', { name: 'Stay in the main room' }))
      await shot(pm, 'meetup-breakouts-open')
      await axe(pm, 'the breakout rooms prompt')
      assert.equal(await pa.getByRole('dialog', { name: 'Breakout rooms are open' }).count(), 0, 'the one who opened them is not asked')
      await dA.getByRole('button', { name: `Join ${room}` }).click()
      await dA.waitFor({ state: 'detached' })
      await visible(stageOf(pa).getByTestId('breakout-name').getByText(`You are in ${room}`))
      await opened.getByRole('button', { name: `Join ${room}` }).click()
      await opened.waitFor({ state: 'detached' })
      await visible(stageOf(pm).getByTestId('breakout-name').getByText(`You are in ${room}`))
      await peerTile(pm, a.id).waitFor({ timeout: LIVE })
      await peerTile(pa, m.id).waitFor({ timeout: LIVE })

      // The admin closes them: everyone in a breakout room gets the forced prompt and goes back.
      const dA2 = await breakouts(pa)
      await dA2.getByRole('button', { name: 'Close breakout rooms' }).click()
      await confirm(pa, 'Close the breakout rooms?', 'Close breakout rooms')
      const prompt = pm.getByRole('dialog', { name: 'Breakout rooms are closed' })
      await prompt.waitFor({ timeout: LIVE })
      await shot(pm, 'meetup-breakouts-closed')
      await pm.keyboard.press('Escape')
      await visible(prompt)
      await prompt.getByRole('button', { name: 'Back to the main room' }).click()
      await prompt.waitFor({ state: 'detached' })
      const promptA = pa.getByRole('dialog', { name: 'Breakout rooms are closed' })
      await promptA.waitFor({ timeout: LIVE })
      await promptA.getByRole('button', { name: 'Back to the main room' }).click()
      await promptA.waitFor({ state: 'detached' })
      // The admin's Breakout rooms dialog, under the prompt, offers to open them again; the admin closes it.
      await visible(dA2.getByRole('button', { name: 'Open breakout rooms' }))
      await pa.keyboard.press('Escape')
      await dA2.waitFor({ state: 'detached' })
      await stageOf(pm).getByTestId('breakout-name').waitFor({ state: 'detached' })
      await stageOf(pa).getByTestId('breakout-name').waitFor({ state: 'detached' })
      await peerTile(pm, a.id).waitFor({ timeout: LIVE })
      await peerTile(pa, m.id).waitFor({ timeout: LIVE })

      // The admin ends it for all: the member is told, and the post shows it ended.
      await stageOf(pa).getByRole('button', { name: 'End for all' }).click()
      await confirm(pa, 'End this Meet Up for everyone?', 'End for all')
      const ended = pm.getByRole('dialog', { name: 'The Meet Up has ended' })
      await ended.waitFor({ timeout: LIVE })
      await ended.getByRole('button', { name: 'OK' }).click()
      await stageOf(pm).waitFor({ state: 'detached' })
      await stageOf(pa).waitFor({ state: 'detached' })
      const endedA = pa.getByRole('dialog', { name: 'The Meet Up has ended' })
      await endedA.waitFor({ timeout: LIVE })
      await endedA.getByRole('button', { name: 'OK' }).click()
      await visible(postM.getByTestId('meetup-ended').getByText('Ended', { exact: true }))
      await visible(postA.getByTestId('meetup-ended').getByText('Ended', { exact: true }))
      assert.equal(await postM.getByRole('button', { name: 'Join', exact: true }).count(), 0, 'an ended Meet Up cannot be joined')

      // The admin reads the forum's insights: the Meet Ups report counts this
      // Meet Up, the member's registration and both attendees, whom LiveKit's
      // webhooks recorded and the change stream carried into the warehouse.
      await openInsights(pa)
      assert.equal(await pa.getByTestId('insights-panel').getAttribute('data-period'), '90')
      const want = { meetups: before.meetups + 1, invited: before.invited + 1, attended: before.attended + 2 }
      let shown
      let reloaded = Date.now()
      try {
        await poll(
          'the Meet Up and its attendance in the insights Meet Ups report',
          async () => {
            shown = await shownMeetupFigures(pa)
            if (MEETUP_FIGURES.every((k) => shown[k].value === want[k])) return true
            // The tab reads its reports again every 30 s; a reload reads them now.
            if (Date.now() - reloaded > 3000) {
              await pa.reload()
              await visible(pa.getByTestId('insights-panel'))
              reloaded = Date.now()
            }
            return false
          },
          6 * TIMEOUT,
        )
      } catch (e) {
        const now = await meetupsReport(ta, series.id).catch((err) => String(err))
        throw new Error(`${e.message}: wanted ${JSON.stringify(want)}; the panel showed ${JSON.stringify(shown)}; the API answers ${JSON.stringify(now)} (before the Meet Up: ${JSON.stringify(before)})`)
      }
      assert.deepEqual(
        MEETUP_FIGURES.map((k) => shown[k].label),
        ['Meet Ups', 'Invited', 'Attended'],
      )
      await pa.getByTestId('insights-meetups').scrollIntoViewIfNeeded()
      await shot(pa, 'meetup-insights')
    },
  },
  {
    name: 'meetups: AI notes of a Meet Up: a member speaks, the host ends it, the post shows it ended (transcribing until the minutes are written) and the minutes, and the forum search finds it by a spoken word',
    async fn(ctx) {
      const { ta, m, series, path } = await together(SPEAKER)
      const name = `Planning sync ${Date.now().toString(36)}`
      // The agenda names none of the spoken words: the minutes have them from the transcript only.
      const agenda = 'Weekly planning'
      const spoken = 'The capstone proposal is due on March fourteenth. The budget review happens next week.'
      const dir = mkdtempSync(join(tmpdir(), 'agora-e2e-speech-'))
      const wav = join(dir, 'speech.wav')
      execFileSync('flite', ['-voice', 'slt', '-t', spoken, '-o', join(dir, 'flite.wav')])
      // Chromium's fake microphone reads 16-bit PCM; a second of silence either side.
      execFileSync('sox', [join(dir, 'flite.wav'), '-r', '48000', '-c', '1', '-b', '16', wav, 'pad', '1', '2'])
      const seconds = Number(execFileSync('soxi', ['-D', wav]).toString())

      // A private Meet Up of the host and the speaker, starting now.
      const made = await api('POST', `/api/series/${series.id}/meetings`, {
        token: ta,
        body: { name, agenda, startTime: new Date().toISOString(), duration: 15, open: false, seatCount: null, invitees: { [m.id]: 'member' }, breakouts: [] },
      })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      const postId = made.body.id

      const ph = await signedInPage(ctx, ADMIN, undefined, MEDIA)
      // The speaker's Chromium: its microphone plays the spoken sentences once.
      const speakerBrowser = await ctx.launch([`--use-file-for-fake-audio-capture=${wav}%noloop`])
      const ps = await signedInPage(ctx, SPEAKER, undefined, { ...MEDIA, browser: speakerBrowser })
      await ph.goto(server.url + path)
      await ps.goto(server.url + path)
      const postH = meetupOn(ph, name)
      const postS = meetupOn(ps, name)
      await postH.getByRole('button', { name: 'Join', exact: true }).click()
      await visible(stageOf(ph))
      await postS.getByRole('button', { name: 'Join', exact: true }).click()
      await visible(stageOf(ps))
      await peerTile(ph, m.id).waitFor({ timeout: LIVE })

      // The host turns the AI notes on from the actions row.
      await stageOf(ph).getByRole('button', { name: 'Turn on AI notes' }).click()
      await visible(stageOf(ph).getByRole('button', { name: 'Turn off AI notes' }))
      await visible(ph.getByText('AI notes are on.'))
      await axe(ph, 'the Meet Up screen with AI notes on')

      // The speaker unmutes; the microphone plays the sentences for their length.
      await stageOf(ps).getByRole('button', { name: 'Turn the microphone on' }).click()
      await visible(stageOf(ps).getByRole('button', { name: 'Turn the microphone off' }))
      await peerTile(ph, m.id).getByRole('img', { name: 'Turn the microphone on' }).waitFor({ state: 'detached', timeout: LIVE })
      await ps.waitForTimeout(seconds * 1000 + 2000)

      // The host ends it; the post says it is transcribing, then shows the minutes.
      await ph.evaluate(() => {
        window.__badges = []
        new MutationObserver(() => {
          for (const b of document.querySelectorAll('[data-testid="meetup-ended"]')) {
            if (window.__badges.at(-1) !== b.textContent) window.__badges.push(b.textContent)
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true })
      })
      await stageOf(ph).getByRole('button', { name: 'End for all' }).click()
      await confirm(ph, 'End this Meet Up for everyone?', 'End for all')
      await stageOf(ph).waitFor({ state: 'detached', timeout: LIVE })
      // The host is told too, as everyone in the room is, and dismisses it.
      const endedH = ph.getByRole('dialog', { name: 'The Meet Up has ended' })
      await endedH.waitFor({ timeout: LIVE })
      await endedH.getByRole('button', { name: 'OK' }).click()
      await endedH.waitFor({ state: 'detached' })
      const minutes = postH.getByTestId('minutes-content')
      await minutes.waitFor({ timeout: 6 * TIMEOUT })
      const badges = await ph.evaluate(() => window.__badges)
      // The extractive minutes are written within milliseconds of the end,
      // often before the page paints the transcribing state: when it showed,
      // it came before the minutes, and the badge ends at Ended.
      assert.equal(badges.at(-1), 'Ended', `the post's badge went: ${badges.join(' → ')}`)
      assert.ok(badges.every((b, i) => b === 'Ended' || (b === 'Ended and transcribing' && !badges.slice(0, i).includes('Ended'))), `the post's badge went: ${badges.join(' → ')}`)
      const text = (await minutes.textContent()).toLowerCase()
      for (const w of ['capstone', 'proposal', 'march', 'budget', 'review']) assert.ok(text.includes(w), `the minutes hold "${w}":\n${text}`)
      await shot(ph, 'meetup-minutes')

      // The forum's search finds the Meet Up for the host by a spoken word.
      const box = ph.getByTestId('ai-search')
      const ask = async () => {
        const input = box.getByRole('searchbox', { name: 'Ask the AI about this forum' })
        await input.fill('What is due about the capstone proposal?')
        await input.press('Enter')
        const answer = box.getByTestId('ai-answer').last()
        await answer.and(ph.locator('[data-done]')).waitFor({ timeout: TIMEOUT })
        return (await answer.locator(`a[data-testid="ai-citation"][href$="/posts/${postId}"]`).count()) > 0
      }
      await poll('the Meet Up in the forum search', async () => {
        if (await ask()) return true
        await ph.reload()
        return false
      }, 6 * TIMEOUT)
          },
  },
  {
    name: 'meetups: AI notes consent: a participant sees the AI notes indicator as soon as the host turns them on, one who joins later sees it and is told, and turning them off takes it away',
    async fn(ctx) {
      const {
        ta,
        m,
        more: [late],
        series,
        path,
      } = await together(LISTENER, LATECOMER)
      const name = `Consent check ${Date.now().toString(36)}`
      const made = await api('POST', `/api/series/${series.id}/meetings`, {
        token: ta,
        body: { name, agenda: 'Roadmap review', startTime: new Date().toISOString(), duration: 15, open: false, seatCount: null, invitees: { [m.id]: 'member', [late.user.id]: 'member' }, breakouts: [] },
      })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      const roomId = made.body.meeting.roomId

      const ph = await signedInPage(ctx, ADMIN, undefined, MEDIA)
      const pp = await signedInPage(ctx, LISTENER, undefined, MEDIA)
      await ph.goto(server.url + path)
      await pp.goto(server.url + path)
      // A first page of a freshly started server on a busy machine may take longer than a click waits.
      for (const p of [ph, pp]) {
        await meetupOn(p, name).getByRole('button', { name: 'Join', exact: true }).click({ timeout: LIVE })
        await visible(stageOf(p))
      }
      await peerTile(ph, m.id).waitFor({ timeout: LIVE })
      await visible(stageOf(pp).getByRole('button', { name: 'Leave' }))
      // Before the notes are on nothing says so; the participant has no AI notes control of their own.
      assert.equal(await stageOf(pp).getByTestId('ai-notes-indicator').count(), 0)
      assert.equal(await stageOf(pp).getByRole('button', { name: /AI notes/ }).count(), 0)

      // The host turns them on; the participant's screen says so at once, with a notice.
      await stageOf(ph).getByRole('button', { name: 'Turn on AI notes' }).click()
      await visible(stageOf(ph).getByRole('button', { name: 'Turn off AI notes' }))
      const on = Date.now()
      const seen = stageOf(pp).getByTestId('ai-notes-indicator')
      await seen.waitFor({ timeout: LIVE })
      console.log(`    the participant saw the AI notes indicator ${Date.now() - on} ms after the host's screen showed them on`)
      assert.equal((await seen.innerText()).trim(), 'AI notes on')
      await visible(pp.getByText('AI notes are on.'))
      await visible(pp.getByText('What is said in this Meet Up is transcribed for its AI notes.'))
      await visible(stageOf(ph).getByTestId('ai-notes-indicator'))
      await axe(pp, 'the Meet Up screen of a participant with AI notes on')
      await shot(pp, 'meetup-ai-notes-participant')

      // Someone who joins while they are on is told as they join.
      const pl = await signedInPage(ctx, LATECOMER, undefined, MEDIA)
      await pl.goto(server.url + path)
      await meetupOn(pl, name).getByRole('button', { name: 'Join', exact: true }).click()
      await visible(stageOf(pl))
      await visible(stageOf(pl).getByTestId('ai-notes-indicator'))
      await visible(pl.getByText('AI notes are on.'))
      await peerTile(ph, late.user.id).waitFor({ timeout: LIVE })

      // The host turns them off: the indicator goes from every screen, and stays gone.
      await stageOf(ph).getByRole('button', { name: 'Turn off AI notes' }).click()
      await confirm(ph, 'Turn off AI notes?', 'Turn off')
      await visible(stageOf(ph).getByRole('button', { name: 'Turn on AI notes' }))
      for (const p of [pp, pl, ph]) await stageOf(p).getByTestId('ai-notes-indicator').waitFor({ state: 'detached', timeout: LIVE })
      assert.equal((await api('GET', `/api/meetings/${roomId}`, { token: late.token })).body.minutes.state, 'canceled')
      await ph.waitForTimeout(1000)
      for (const p of [pp, pl]) assert.equal(await stageOf(p).getByTestId('ai-notes-indicator').count(), 0)

      await stageOf(ph).getByRole('button', { name: 'End for all' }).click()
      await confirm(ph, 'End this Meet Up for everyone?', 'End for all')
      await stageOf(pp).waitFor({ state: 'detached', timeout: LIVE })
    },
  },
  {
    name: 'meetups: virtual background: a member blurs their background, then puts an image behind them, and the other member sees it in their video, through the camera turned off and on and a new join',
    async fn(ctx) {
      const { ta, m, series, path } = await together(PRESENTER)
      const name = `Design review ${Date.now().toString(36)}`
      const made = await api('POST', `/api/series/${series.id}/meetings`, {
        token: ta,
        body: { name, agenda: 'Screens of the new checkout', startTime: new Date().toISOString(), duration: 15, open: false, seatCount: null, invitees: { [m.id]: 'member' }, breakouts: [] },
      })
      assert.equal(made.status, 201, JSON.stringify(made.body))
      // The admin watches; the presenter's camera is Chromium's fake one: a
      // pattern of sharp edges, and no person, so the model leaves nearly
      // all of it to the background.
      const pa = await signedInPage(ctx, ADMIN, undefined, MEDIA)
      const pp = await signedInPage(ctx, PRESENTER, undefined, MEDIA)
      const join = async (p) => {
        await p.goto(server.url + path)
        await meetupOn(p, name).getByRole('button', { name: 'Join', exact: true }).click()
        await visible(stageOf(p))
      }
      await join(pa)
      await join(pp)
      const camera = async (on) => {
        await stageOf(pp).getByRole('button', { name: on ? 'Turn the camera on' : 'Turn the camera off' }).click()
        await visible(stageOf(pp).getByRole('button', { name: on ? 'Turn the camera off' : 'Turn the camera on' }))
      }
      const color = [230, 40, 170]
      await camera(true)
      await seesVideo(pa, m.id)
      const sharp = await lookUntil('the presenter’s video, sharp', pa, m.id, (l) => l.sharpness > 0, color)

      // Blur: the model loads (from this server) and the video the admin receives loses its edges.
      const pop = await background(pp)
      await pop.getByRole('radio', { name: 'Blur' }).check()
      const blurred = await lookUntil('the presenter’s video, blurred', pa, m.id, (l) => l.sharpness < sharp.sharpness / 2)
      console.log(`    sharpness of the presenter's video as the admin receives it, drawn at 320×180: ${sharp.sharpness.toFixed(2)} without a background (received at ${sharp.size}), ${blurred.sharpness.toFixed(2)} blurred (received at ${blurred.size})`)
      await shot(pa, 'meetup-background-blur')

      // An image: a solid colour fills what the admin sees, but for what the model takes for a person.
      await pop.getByTestId('background-image-input').setInputFiles({ name: 'magenta.png', mimeType: 'image/png', buffer: solidPng(320, 180, color) })
      await visible(pop.getByRole('radio', { name: 'Image' }).and(pp.locator(':checked')))
      const imaged = await lookUntil('the presenter’s video, the image behind', pa, m.id, (l) => l.near > 0.6, color)
      console.log(`    share of the presenter's video near rgb(${color}): ${(sharp.near * 100).toFixed(1)}% without a background, ${(imaged.near * 100).toFixed(1)}% with the image (received at ${imaged.size})`)
      await pp.keyboard.press('Escape')
      await shot(pa, 'meetup-background-image')

      // The camera turned off and on: LiveKit restarts the processor on the new camera track.
      await camera(false)
      await camera(true)
      await seesVideo(pa, m.id)
      const again = await lookUntil('the presenter’s video, the image behind after the camera came back', pa, m.id, (l) => l.near > 0.6, color)
      console.log(`    after the camera was turned off and on: ${(again.near * 100).toFixed(1)}%`)

      // A new join: the setting kept in this browser is applied to the new camera.
      await pp.reload()
      await stageOf(pa).locator(`[data-testid="peer"][data-identity="${m.id}"]`).waitFor({ state: 'detached', timeout: LIVE })
      await join(pp)
      await camera(true)
      await seesVideo(pa, m.id)
      const rejoined = await lookUntil('the presenter’s video, the image behind after joining again', pa, m.id, (l) => l.near > 0.6, color)
      console.log(`    after joining again: ${(rejoined.near * 100).toFixed(1)}%`)

      await stageOf(pa).getByRole('button', { name: 'End for all' }).click()
      await confirm(pa, 'End this Meet Up for everyone?', 'End for all')
      await stageOf(pa).waitFor({ state: 'detached', timeout: LIVE })
    },
  },
]
