// Single sign-on through an organization's identity provider: the test
// OpenID Provider that `agora dev --sso-test-provider` runs on loopback.
import assert from 'node:assert/strict'
import { api, apiSignIn, axe, server, visible, waitPath } from '../lib.mjs'

const DEMO_ORGANIZATION = '01000000-0000-7000-8000-00000000a901'

export default [
  {
    name: 'single sign-on: a new member signs in through their organization and lands where they were going',
    async fn(ctx) {
      assert.ok(server.sso, 'agora dev did not print its SSO test provider')
      const superToken = await apiSignIn('super@demo.agora')
      const path = `/api/organizations/${DEMO_ORGANIZATION}/identity-client`
      const on = await api('PUT', path, { token: superToken, body: server.sso })
      assert.equal(on.status, 204, JSON.stringify(on.body))
      try {
        const admin = await apiSignIn('admin@demo.agora')
        const community = (await api('GET', '/api/communities', { token: admin })).body.results[0]
        const email = `sso-${Date.now()}@example.test`
        const added = await api('POST', `/api/communities/${community.id}/profiles`, {
          token: admin,
          body: { firstName: 'Sana', lastName: 'Single', email },
        })
        assert.equal(added.status, 201, JSON.stringify(added.body))

        const page = await ctx.newPage()
        await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/profile')}`)
        await page.getByRole('button', { name: 'Continue with single sign-on' }).click()
        await visible(page.getByRole('heading', { name: 'Sign in with single sign-on' }))
        await axe(page, 'single sign-on')
        // An address no organization with single sign-on holds.
        await page.getByLabel('Work email').fill(`nobody-${Date.now()}@example.test`)
        await page.getByRole('button', { name: 'Continue', exact: true }).click()
        await visible(page.getByText('Single sign-on is not available for this email.'))

        await page.getByLabel('Work email').fill(email)
        await page.getByRole('button', { name: 'Continue', exact: true }).click()
        // At the organization's identity provider.
        await page.waitForURL((u) => u.origin === new URL(server.sso.issuer).origin, { timeout: 10_000 })
        await page.getByLabel('E-mail').fill(email)
        await page.getByRole('button', { name: 'Sign in at the identity provider' }).click()
        // Back through /callbacks/auth, signed in, at the redirect target.
        await waitPath(page, '/profile')
        // The profile was joined: its community is the new member's.
        await page.goto(server.url + '/home')
        await visible(page.getByText('Welcome, Sana'))
        await visible(page.getByTestId('community-card').getByText(community.name))
        const token = await page.evaluate(() => localStorage.getItem('user_token'))
        const me = await api('GET', '/api/tokens/decode', { token: token?.replace(/^"|"$/g, '') })
        assert.equal(me.status, 200, JSON.stringify(me.body))
      } finally {
        const off = await api('DELETE', path, { token: superToken })
        assert.equal(off.status, 204, JSON.stringify(off.body))
      }
    },
  },
]
