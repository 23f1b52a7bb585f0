import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { LoginForm } from './login-form'
import { SSOCallback } from './sso-callback'

afterEach(() => vi.unstubAllGlobals())

const session = {
  accessToken: 'sso-tok',
  role: 'user',
  expiresOn: '2030-01-01T00:00:00.000Z',
  user: { id: 'u1', email: 'sam@work.example', firstName: 'Sam', lastName: 'S' },
}

describe('single sign-on', () => {
  it('starts from the login page with the work address and the redirect target', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const calls = stubFetch(() => json(200, { authorizationUrl: 'http://127.0.0.1:9/authorize?x=1' }))
    await renderInApp(<LoginForm redirect="/profile" />, { path: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Continue with single sign-on' }))
    await userEvent.type(screen.getByLabelText('Work email'), ' sam@work.example ')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://127.0.0.1:9/authorize?x=1'))
    expect(await calls[0]!.json()).toEqual({ email: 'sam@work.example', redirect: '/profile' })
  })

  it('says when the address has no single sign-on', async () => {
    stubFetch(() => json(404, { code: 'ssoUnavailable', message: 'x' }))
    await renderInApp(<LoginForm />, { path: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Continue with single sign-on' }))
    await userEvent.type(screen.getByLabelText('Work email'), 'nobody@work.example')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText(/Single sign-on is not available for this email/)).toBeInTheDocument()
  })

  it('finishes at /callbacks/auth once, keeps the session and lands on the redirect target', async () => {
    const calls = stubFetch(() => json(200, { ...session, redirect: '/profile' }))
    const { router, session: s } = await renderInApp(<SSOCallback state="st" code="co" />, { path: '/callbacks/auth' })
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'))
    // Once: the sign-in's other calls (the time zone) aside.
    const finishes = calls.filter((c) => c.url.endsWith('/api/sso/callback'))
    expect(finishes).toHaveLength(1)
    expect(await finishes[0]!.json()).toEqual({ state: 'st', code: 'co' })
    expect(s.isAuthenticated).toBe(true)
    expect(localStorage.getItem('user_token')).toBe('sso-tok')
  })

  it('shows why a sign-in failed', async () => {
    stubFetch(() => json(403, { code: 'ssoEmailNotVerified', message: 'x' }))
    await renderInApp(<SSOCallback state="st2" code="co" />, { path: '/callbacks/auth' })
    expect(await screen.findByText('Your organization has not verified this email address.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login')
  })
})
