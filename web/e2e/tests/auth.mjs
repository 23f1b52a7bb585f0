// The sign-in, session, registration and error-page flows (spec 000, 002 §4).
import assert from 'node:assert/strict'
import { NARROW, TIMEOUT, WIDE, api, apiSignIn, axe, mailLink, server, setTheme, shared, shot, signIn, signedInPage, visible, waitPath } from '../lib.mjs'

export default [
  {
    name: 'sign-in page: fields, links, terms; screenshot; axe',
    async fn(ctx) {
      const page = await ctx.newPage()
      await page.goto(server.url + '/')
      await waitPath(page, '/login') // / → /home → /login?redirect=/home for a guest
      await visible(page.getByRole('link', { name: 'Forgot password?' }))
      await visible(page.getByText('By signing in you agree'))
      // Show/hide password.
      const pw = page.getByLabel('Password', { exact: true })
      await pw.fill('secret')
      assert.equal(await pw.getAttribute('type'), 'password')
      await page.getByRole('button', { name: 'Show password' }).click()
      assert.equal(await pw.getAttribute('type'), 'text')
      await page.getByRole('button', { name: 'Hide password' }).click()
      await pw.fill('')
      await page.getByLabel('Email').focus()
      await shot(page, 'sign-in')
      await axe(page, 'sign-in')
    },
  },
  {
    name: 'blocked submit and wrong password messages',
    async fn(ctx) {
      const page = await ctx.newPage()
      await page.goto(server.url + '/login')
      await page.getByRole('button', { name: 'Sign in' }).click()
      await visible(page.getByText('Please check your email and password.'))
      await signIn(page, 'member@demo.agora', 'not-the-password')
      const error = page.getByText('The email or password is not correct.')
      await visible(error)
      // The server error is on the password field.
      const describedBy = await page.getByLabel('Password', { exact: true }).getAttribute('aria-describedby')
      assert.equal(await error.getAttribute('id'), describedBy)
      assert.equal(new URL(page.url()).pathname, '/login')
      await axe(page, 'sign-in with errors')
    },
  },
  {
    name: 'each demo login signs in and sees its home',
    async fn(ctx) {
      const cases = [
        { email: 'super@demo.agora', manages: true },
        { email: 'admin@demo.agora', communities: 2, manages: true },
        { email: 'expert@demo.agora', communities: 1 },
        { email: 'member@demo.agora', communities: 1 },
        { email: 'outsider@demo.agora', communities: 0 },
      ]
      for (const c of cases) {
        const page = await signedInPage(ctx, c.email)
        await visible(page.getByRole('heading', { name: 'Home' }))
        await visible(page.getByText(/^Welcome, /))
        await page.locator('[data-testid=community-list], [data-testid=empty-state]').first().waitFor({ timeout: TIMEOUT })
        if (c.communities !== undefined) {
          assert.equal(await page.getByTestId('community-card').count(), c.communities, `${c.email}: communities`)
        }
        if (c.communities === 0) {
          // The next step: an invitation, or an admin.
          await visible(page.getByText('You are not a member of any community yet.'))
          await visible(page.getByText('Open the invitation in your e-mail to join one, or ask an admin of your organization to add you.'))
        }
        if (c.email === 'super@demo.agora') {
          // A super user in no community may create one, from Home.
          await page.getByRole('button', { name: 'Create a community' }).click()
          await visible(page.getByRole('dialog', { name: 'Manage communities' }))
          await page.keyboard.press('Escape')
        }
        // The Manage menu (accounts, communities) shows to those who manage
        // an organization or a community, and to nobody else.
        if (c.manages) await visible(page.getByTestId('manage-menu'))
        else assert.equal(await page.getByTestId('manage-menu').count(), 0, `${c.email}: Manage menu`)
        assert.equal(await page.getByText(/coming soon|arrives with/i).count(), 0, `${c.email}: a placeholder`)
        await page.close()
      }
    },
  },
  {
    name: 'home: grid, filter and sort; screenshots wide and narrow; axe',
    async fn(ctx) {
      const page = await signedInPage(ctx, 'member@demo.agora')
      await visible(page.getByTestId('community-card'))
      // The side track of 220 px for the communities, and the page's column;
      // no empty track for a side the page has nothing for.
      const columns = await page.getByTestId('page-grid').evaluate((el) => getComputedStyle(el).gridTemplateColumns)
      assert.match(columns, /^220px [\d.]+px$/, 'the 220 px side track and the page\'s column')
      // The side panel on the home page: docked, with the chat tab alone (Insights and Team are a forum's).
      await visible(page.getByTestId('right-panel').getByRole('button', { name: 'Chat', exact: true }))
      assert.equal(await page.getByTestId('right-panel').getByRole('button', { name: 'Insights' }).count(), 0)
      assert.equal(await page.getByTestId('right-panel').getByRole('button', { name: 'Team' }).count(), 0)
      // The member never opened the community: it is new, with a ribbon.
      await visible(page.getByTestId('new-ribbon'))
      await page.getByRole('tab', { name: 'Visited' }).click()
      await visible(page.getByText('No community matches this filter.'))
      await page.getByRole('tab', { name: 'New' }).click()
      await visible(page.getByTestId('community-card'))
      await page.getByLabel('Sort by').click()
      await page.getByRole('option', { name: 'Latest' }).click()
      await page.waitForURL(/sort=latest/, { timeout: TIMEOUT })
      await page.getByRole('tab', { name: 'All' }).click()
      await page.waitForURL(/filter=all/, { timeout: TIMEOUT })
      await shot(page, 'home-wide')
      await axe(page, 'home')
      await setTheme(page, 'dark')
      await shot(page, 'home-wide-dark')
      await setTheme(page, 'light')
      // Narrow: one column.
      await page.setViewportSize(NARROW)
      await page.waitForTimeout(100)
      await shot(page, 'home-narrow')
      await axe(page, 'home (narrow)')
    },
  },
  {
    name: 'home: opening a forum makes its community Visited, and its New ribbon goes',
    async fn(ctx) {
      const page = await signedInPage(ctx, 'member@demo.agora')
      const card = page.getByTestId('community-card')
      await visible(card.getByTestId('new-ribbon'))
      await page.getByRole('link', { name: 'Roadmaps & Prioritization' }).first().click()
      await visible(page.getByRole('heading', { level: 1, name: 'Roadmaps & Prioritization' }))
      await visible(page.getByTestId('forum-feed'))
      await page.getByRole('link', { name: 'Home' }).first().click()
      await waitPath(page, '/home')
      await visible(card)
      assert.equal(await card.getByTestId('new-ribbon').count(), 0, 'the New ribbon after a visit')
      await page.getByRole('tab', { name: 'Visited' }).click()
      await visible(card)
      await page.getByRole('tab', { name: 'New' }).click()
      await visible(page.getByText('No community matches this filter.'))
      // As the server has it: after a reload too.
      await page.reload()
      await visible(page.getByText('No community matches this filter.'))
      await page.getByRole('tab', { name: 'All' }).click()
      await visible(card)
      assert.equal(await card.getByTestId('new-ribbon').count(), 0, 'the New ribbon after a reload')
    },
  },
  {
    name: 'a deep link returns after sign-in',
    async fn(ctx) {
      const page = await ctx.newPage()
      await page.goto(server.url + '/profile?tab=x')
      await waitPath(page, '/login')
      assert.equal(new URL(page.url()).searchParams.get('redirect'), '/profile?tab=x')
      await signIn(page, 'expert@demo.agora')
      await waitPath(page, '/profile')
      await visible(page.getByText('expert@demo.agora'))
      await axe(page, 'profile')
      // A signed-in user on a guest page goes to the home path.
      await page.goto(server.url + '/login')
      await waitPath(page, '/home')
    },
  },
  {
    name: 'sign-out revokes the session and goes to /login with a redirect',
    async fn(ctx) {
      const page = await signedInPage(ctx, 'member@demo.agora')
      const token = await page.evaluate(() => localStorage.getItem('user_token'))
      assert.ok(token)
      await page.getByTestId('avatar-menu').click()
      await page.getByTestId('sign-out').click()
      await waitPath(page, '/login')
      assert.equal(new URL(page.url()).searchParams.get('redirect'), '/home')
      assert.equal(await page.evaluate(() => localStorage.getItem('user_token')), null)
      assert.equal((await api('GET', '/api/tokens/decode', { token })).status, 401, 'the token is revoked on the server')
      await page.goto(server.url + '/home')
      await waitPath(page, '/login')
    },
  },
  {
    name: 'an expired session signs out with a message',
    async fn(ctx) {
      const page = await signedInPage(ctx, 'member@demo.agora')
      await visible(page.getByTestId('community-card'))
      // End the session on the server, as an expiry would.
      const token = await page.evaluate(() => localStorage.getItem('user_token'))
      assert.equal((await api('DELETE', '/api/sessions/current', { token })).status, 204)
      // The app's next call (the profile reads the user) gets 401 — unless
      // the server's revocation, which closes the session's live
      // connection, signs the page out first (it does on a quick machine):
      // either way the member is told and sent to sign in, back to where
      // they were.
      const opened = await page
        .getByTestId('avatar-menu')
        .click({ timeout: 3000 })
        .then(() => page.getByRole('menuitem', { name: 'Profile' }).click({ timeout: 3000 }))
        .then(() => true, () => false)
      await visible(page.getByText('Your session has ended. Please sign in again.'))
      await waitPath(page, '/login')
      const back = new URL(page.url()).searchParams.get('redirect')
      assert.ok(back === '/profile' || (!opened && back === '/home'), `redirect ${back} (the profile was ${opened ? '' : 'not '}opened)`)
      assert.equal(await page.evaluate(() => localStorage.getItem('user_token')), null)

      // The start-up check counts too: a refused stored token.
      // The home page's own reads must be done first: one of them answered
      // 401 would sign out before the reload, and the reload would drop its
      // message (seen on a loaded CI machine).
      const page2 = await signedInPage(ctx, 'member@demo.agora')
      await visible(page2.getByTestId('community-card'))
      const token2 = await page2.evaluate(() => localStorage.getItem('user_token'))
      assert.equal((await api('DELETE', '/api/sessions/current', { token: token2 })).status, 204)
      await page2.reload()
      await waitPath(page2, '/login')
      await visible(page2.getByText('Your session has ended. Please sign in again.'))
    },
  },
  {
    name: 'registration from an invitation',
    async fn(ctx) {
      const admin = await apiSignIn('admin@demo.agora')
      const communities = await api('GET', '/api/communities', { token: admin })
      // A free community: in the paid one, a member invited now (not
      // complimentary) lands under Join the Community (tests/communities.mjs).
      const community = communities.body.results.find((c) => c.isFree)
      assert.ok(community, 'a free demo community')
      const email = `invitee-${Date.now()}@example.test`
      const r = await api('POST', `/api/communities/${community.id}/profiles`, {
        token: admin,
        body: { firstName: 'Ines', lastName: 'Invitee', email, sendInvitation: true },
      })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      const link = await mailLink(email, '/accept-invitation')
      const page = await ctx.newPage()
      await page.goto(server.url + link)
      await visible(page.getByRole('heading', { name: 'Accept your invitation' }))
      assert.equal(await page.getByLabel('First name').inputValue(), 'Ines')
      assert.equal(await page.getByLabel('Email').inputValue(), email)
      // The agreement names the pages it links to.
      await visible(page.getByText('By creating an account you agree'))
      assert.equal(await page.getByRole('link', { name: 'Terms of Service' }).getAttribute('href'), '/terms')
      assert.equal(await page.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href'), '/privacy')
      await page.getByLabel('Password', { exact: true }).fill('short')
      assert.equal(await page.locator('[data-testid=password-rules] li[data-ok=false]').count(), 1)
      await axe(page, 'accept invitation')
      const password = 'Invited-pass-1'
      await page.getByLabel('Password', { exact: true }).fill(password)
      await page.getByLabel('Confirm password').fill(password + 'x')
      await visible(page.getByText('The passwords do not match.'))
      await page.getByLabel('Confirm password').fill(password)
      await page.getByRole('button', { name: 'Create account' }).click()
      // The invitation came from a community: the new member lands in it.
      await waitPath(page, `/communities/${community.id}`)
      await visible(page.getByRole('heading', { name: community.name }))
      await page.getByRole('link', { name: 'Home' }).click()
      await visible(page.getByText('Welcome, Ines'))
      await visible(page.getByTestId('community-card').getByText(community.name))
      shared.invitee = { email, password }
      // The invitation is used up.
      await page.evaluate(() => localStorage.clear())
      await page.goto(server.url + link)
      await waitPath(page, '/accept-invitation/error/invitationValidating')
      await visible(page.getByText('This invitation is not valid'))
      await axe(page, 'invitation error')
    },
  },
  {
    name: 'forgot and reset password through the dev mailbox',
    async fn(ctx) {
      assert.ok(shared.invitee, 'needs the account made by the registration test')
      const { email } = shared.invitee
      const page = await ctx.newPage()
      await page.goto(server.url + '/login')
      await page.getByRole('link', { name: 'Forgot password?' }).click()
      await waitPath(page, '/forgot-password')
      await page.getByLabel('Email').fill('not-an-email')
      await page.getByRole('button', { name: 'Send reset link' }).click()
      await visible(page.getByText('This is not a valid email.'))
      await axe(page, 'forgot password')
      await page.getByLabel('Email').fill(email)
      await page.getByRole('button', { name: 'Send reset link' }).click()
      await visible(page.getByText('If an account exists for this email, a link to reset the password has been sent.'))
      const link = await mailLink(email, '/reset-password')
      await page.goto(server.url + link)
      await visible(page.getByRole('heading', { name: 'Choose a new password' }))
      await page.getByLabel('New password').fill('has space')
      assert.equal(await page.locator('[data-testid=password-rules] li[data-ok=false]').count(), 1)
      await axe(page, 'reset password')
      const password = 'Reset-pass-2'
      await page.getByLabel('New password').fill(password)
      await page.getByLabel('Confirm password').fill('Reset-pass-3')
      await visible(page.getByText('The passwords do not match.'))
      await page.getByLabel('Confirm password').fill(password)
      await page.getByRole('button', { name: 'Save password' }).click()
      await visible(page.getByText('Password was reset successfully!'))
      await waitPath(page, '/login')
      await signIn(page, email, password)
      await waitPath(page, '/home')
      // The link is used up; a made-up one is no better.
      await page.evaluate(() => localStorage.clear())
      for (const l of [link, '/reset-password?token=made-up', '/change-password?token=made-up']) {
        await page.goto(server.url + l)
        await visible(page.getByText('Token Expired.'))
      }
      await axe(page, 'token expired')
    },
  },
  {
    name: 'the 404 page and the error pages',
    async fn(ctx) {
      const page = await ctx.newPage()
      await page.goto(server.url + '/no/such/page')
      await visible(page.getByRole('heading', { name: 'Page not found' }))
      await shot(page, 'not-found')
      await axe(page, '404')
      for (const [code, title] of [
        ['401', 'Not authorized'],
        ['404', 'Page not found'],
        ['500', 'Server error'],
      ]) {
        await page.goto(`${server.url}/errors/error-${code}`)
        await visible(page.getByRole('heading', { name: title }))
      }
      await axe(page, 'error-500')
      // Unknown API paths stay JSON.
      const r = await fetch(server.url + '/api/no-such', { headers: { Accept: 'text/html' } })
      assert.equal(r.status, 404)
      assert.match(r.headers.get('content-type'), /json/)
    },
  },
  {
    name: 'unsupported browsers see the unsupported page',
    async fn(ctx) {
      const old = await ctx.newPage(WIDE, {
        userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/53.0.2785.143 Safari/537.36',
      })
      await old.goto(server.url + '/login')
      await waitPath(old, '/unsupported')
      await visible(old.getByRole('heading', { name: 'Your browser is not supported' }))
      await visible(old.getByRole('link', { name: 'Firefox' }))
      await axe(old, 'unsupported')
      // A browser too old to run the app's modules still gets there: the
      // classic check of index.html (src/boot/browser-check.js, an ES5
      // script) redirects and shows static text. Only the modules fail.
      const ancient = await ctx.newPage(WIDE, {
        userAgent: 'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko',
      })
      const classic = /\/assets\/(theme|browser-check)-[\w-]+\.js$/
      await ancient.route('**/assets/**', (route) => (classic.test(new URL(route.request().url()).pathname) ? route.continue() : route.abort()))
      await ancient.goto(server.url + '/home')
      await waitPath(ancient, '/unsupported')
      await visible(ancient.getByRole('heading', { name: 'Your browser is not supported' }))
      // A current Chromium is let in.
      const page = await ctx.newPage()
      await page.goto(server.url + '/login')
      await visible(page.getByRole('button', { name: 'Sign in' }))
    },
  },
  {
    name: 'the token route: guests sign in first; an unknown token is refused',
    async fn(ctx) {
      const page = await ctx.newPage()
      await page.goto(server.url + '/tokens/abc123/meetupInvitation')
      await waitPath(page, '/login')
      const url = new URL(page.url())
      assert.equal(url.searchParams.get('token'), 'abc123')
      assert.equal(url.searchParams.get('redirect'), '/tokens/abc123/meetupInvitation')
      await signIn(page, 'member@demo.agora')
      await waitPath(page, '/home')
      await visible(page.getByText('This link is not valid or has expired.'))
      // /logout signs out.
      await page.goto(server.url + '/logout')
      await waitPath(page, '/login')
      assert.equal(await page.evaluate(() => localStorage.getItem('user_token')), null)
    },
  },
]
