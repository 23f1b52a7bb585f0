// People (issue 16): the profile dialog from a mention chip and from the
// team panel, and the editable profile page with its cropped picture.
import assert from 'node:assert/strict'
import { api, apiSignIn, axe, mailLink, server, shot, signedInPage, visible, waitPath } from '../lib.mjs'

const MEMBER = 'member@demo.agora'
const EXPERT = 'expert@demo.agora'

// A 2×2 PNG: a real picture, which the upload checks by its bytes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64')

/** colleagues finds a forum of the member's that the expert is in, preferring the one the expert is an expert of. */
async function colleagues() {
  const member = await apiSignIn(MEMBER)
  const expertToken = await apiSignIn(EXPERT)
  const expert = (await api('GET', '/api/tokens/decode', { token: expertToken })).body.user
  const profile = await api('GET', `/api/users/${expert.id}/profile`, { token: member })
  assert.equal(profile.status, 200, `${MEMBER} reads ${EXPERT}'s profile: ${JSON.stringify(profile.body)}`)
  const mine = await api('GET', '/api/communities?page=1&pageSize=9999', { token: member })
  const forums = mine.body.results.flatMap((c) => c.series.map((s) => ({ c, s })))
  const pick = forums.find(({ s }) => profile.body.expertInSeries.includes(s.id)) ?? forums[0]
  const series = (await api('GET', `/api/series/${pick.s.id}`, { token: member })).body
  return { member, expert, isExpertHere: profile.body.expertInSeries.includes(pick.s.id), series, path: `/communities/${pick.c.id}/series/${pick.s.id}` }
}

export default [
  {
    name: 'people: a member opens a colleague’s profile from a mention chip and from the team panel; axe',
    async fn(ctx) {
      const { member, expert, isExpertHere, series, path } = await colleagues()
      const name = `${expert.firstName} ${expert.lastName}`
      const raw = `People test ${Date.now()}: thanks [${name}](${expert.id}) for the notes`
      const post = await api('POST', `/api/series/${series.id}/threads`, { token: member, body: { channelId: series.mainChannelId, raw } })
      assert.equal(post.status, 201, JSON.stringify(post.body))

      const page = await signedInPage(ctx, MEMBER)
      await page.goto(server.url + path)
      const card = page.getByTestId('post-card').filter({ hasText: raw.slice(0, 24) }).first()
      await visible(card)
      await card.getByRole('button', { name: `Open the profile of ${name}` }).click()
      const dialog = page.getByTestId('profile-dialog')
      await visible(dialog.getByRole('heading', { name }))
      await visible(dialog.getByRole('link', { name: expert.email }))
      assert.equal(await dialog.getByRole('img', { name: 'Expert in this forum' }).count(), isExpertHere ? 1 : 0, 'the star marks an expert of this forum')
      await visible(dialog.getByRole('button', { name: 'Message', exact: true }))
      await shot(page, 'people-profile-dialog')
      await axe(page, 'profile dialog')
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })

      // The post's author's name opens their profile too.
      const author = await card.getByTestId('post-author').innerText()
      await card.getByTestId('post-author').getByRole('button', { name: `Open the profile of ${author}` }).click()
      await visible(dialog.getByRole('heading', { name: author }))
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })

      // The team panel: docked avatars, then the cards with "learn more".
      const panel = page.getByTestId('right-panel')
      await panel.getByRole('button', { name: 'Team', exact: true }).click()
      const team = page.getByTestId('team-tab')
      await visible(team.getByTestId('team-card'))
      if (isExpertHere) assert.ok((await team.getByTestId('team-card').filter({ hasText: name }).getAttribute('data-expert')) !== null, 'the expert carries the star')
      await team.getByRole('button', { name: `Learn more about ${name}` }).click()
      await visible(dialog.getByRole('heading', { name }))
      await shot(page, 'people-team-panel')
      await axe(page, 'team panel with the profile dialog')
      await page.keyboard.press('Escape')
      await panel.getByRole('button', { name: 'Collapse the panel' }).click()
      await visible(page.getByTestId('team-avatars'))
    },
  },
  {
    name: 'people: a member edits their profile (name, bio, cropped picture) and sees it after a reload; axe',
    async fn(ctx) {
      // A fresh person, so that the demo people keep their names.
      const admin = await apiSignIn('admin@demo.agora')
      const community = (await api('GET', '/api/communities', { token: admin })).body.results[0]
      const email = `profile-${Date.now()}@example.test`
      const r = await api('POST', `/api/communities/${community.id}/profiles`, { token: admin, body: { firstName: 'Pia', lastName: 'Profile', email, sendInvitation: true } })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      const token = new URL(server.url + (await mailLink(email, '/accept-invitation'))).searchParams.get('token')
      const password = 'Profile-pass-1'
      const reg = await api('POST', `/api/users?token=${encodeURIComponent(token)}`, { body: { firstName: 'Pia', lastName: 'Profile', password } })
      assert.equal(reg.status, 201, JSON.stringify(reg.body))

      const page = await ctx.newPage()
      await page.goto(server.url + '/login')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password', { exact: true }).fill(password)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForURL((u) => u.pathname === '/home')
      await page.goto(server.url + '/profile')
      const form = page.getByTestId('profile-form')
      await visible(form)
      await axe(page, 'profile page')

      // A rule the server enforces shows on its field before any request.
      await form.getByLabel('Graduation year').fill('1800')
      await form.getByRole('button', { name: 'Save' }).click()
      await visible(form.getByText('Must be a year between 1900 and 2100.'))
      await form.getByLabel('Graduation year').fill('2015')
      await form.getByLabel('First name').fill('Philippa')
      await form.getByLabel('Bio').fill('I like tidy data and long walks.')
      await form.getByLabel('Interests').fill('data, walking')
      await form.getByRole('button', { name: 'Save' }).click()
      await visible(page.getByText('Your profile is saved.'))

      // The picture: chosen, zoomed in the crop dialog, uploaded.
      await page.getByTestId('avatar-file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG })
      const crop = page.getByTestId('avatar-crop')
      await visible(crop.getByRole('heading', { name: 'Crop your picture' }))
      const zoom = crop.getByRole('slider', { name: 'Zoom' })
      await zoom.focus()
      for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight')
      assert.equal(await zoom.getAttribute('aria-valuetext'), '150%')
      await axe(page, 'avatar crop dialog')
      await crop.getByRole('button', { name: 'Use this picture' }).click()
      await crop.waitFor({ state: 'detached' })
      await visible(page.getByRole('button', { name: 'Remove picture' }))

      await page.reload()
      await visible(form)
      assert.equal(await form.getByLabel('First name').inputValue(), 'Philippa')
      assert.equal(await form.getByLabel('Bio').inputValue(), 'I like tidy data and long walks.')
      assert.equal(await form.getByLabel('Graduation year').inputValue(), '2015')
      const avatar = page.locator('main img').first()
      await visible(avatar)
      const src = await avatar.getAttribute('src')
      // Kept at its lasting picture address, not the upload's short-lived URL.
      assert.ok(src && src.startsWith('/api/pictures/'), `the picture is an uploaded image: ${src}`)
      // It is a square picture of the crop's size.
      const size = await avatar.evaluate((img) => [img.naturalWidth, img.naturalHeight])
      assert.deepEqual(size, [512, 512])
      await shot(page, 'people-profile-page')

      // An edit not saved is not lost without a word: leaving asks, and
      // Keep editing stays with it; leaving anyway drops it.
      await form.getByLabel('Job title').fill('Head of Data')
      await page.getByRole('link', { name: 'Home' }).first().click()
      const ask = page.getByRole('dialog', { name: 'Leave without saving?' })
      await visible(ask)
      await axe(page, 'profile: leave without saving')
      await ask.getByRole('button', { name: 'Keep editing' }).click()
      await ask.waitFor({ state: 'detached' })
      assert.equal(new URL(page.url()).pathname, '/profile')
      assert.equal(await form.getByLabel('Job title').inputValue(), 'Head of Data')
      await page.getByRole('link', { name: 'Home' }).first().click()
      await ask.getByRole('button', { name: 'Leave' }).click()
      await waitPath(page, '/home')
      await page.goto(server.url + '/profile')
      await visible(form)
      assert.equal(await form.getByLabel('Job title').inputValue(), '')
      // Saved, it leaves without asking.
      await form.getByLabel('Job title').fill('Head of Data')
      await form.getByRole('button', { name: 'Save' }).click()
      await visible(page.getByText('Your profile is saved.'))
      await page.getByRole('link', { name: 'Home' }).first().click()
      await waitPath(page, '/home')
    },
  },
]
