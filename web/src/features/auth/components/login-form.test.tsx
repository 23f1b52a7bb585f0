import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, personalizationServer, renderInApp, stubFetch } from '@/test/utils'
import { LoginForm } from './login-form'

afterEach(() => vi.unstubAllGlobals())

describe('LoginForm (spec 000 §5, 002 §5)', () => {
  it('blocks an incomplete form with the spec message', async () => {
    const calls = stubFetch(() => json(500))
    await renderInApp(<LoginForm />, { path: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(screen.getByText('Please check your email and password.')).toBeInTheDocument()
    expect(calls).toHaveLength(0)
  })

  it('shows a server error on the password field', async () => {
    stubFetch(() => json(401, { code: 'loginAuthentication', message: 'bad' }))
    await renderInApp(<LoginForm />, { path: '/login' })
    await userEvent.type(screen.getByLabelText('Email'), 'member@demo.agora')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    const error = await screen.findByText('The email or password is not correct.')
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-describedby', error.id)
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true')
  })

  it('toggles the password visibility', async () => {
    await renderInApp(<LoginForm />, { path: '/login' })
    const pw = screen.getByLabelText('Password')
    expect(pw).toHaveAttribute('type', 'password')
    await userEvent.click(screen.getByRole('button', { name: 'Show password' }))
    expect(pw).toHaveAttribute('type', 'text')
  })

  it('trims the email, keeps the session and goes to the redirect target', async () => {
    const calls = stubFetch(() =>
      json(200, {
        accessToken: 'tok',
        role: 'user',
        expiresOn: '2030-01-01T00:00:00.000Z',
        user: { id: 'u1', email: 'member@demo.agora', firstName: 'Chris', lastName: 'M' },
      }),
    )
    const { router, session } = await renderInApp(<LoginForm redirect="/communities/1" />, { path: '/login' })
    await userEvent.type(screen.getByLabelText('Email'), '  member@demo.agora ')
    await userEvent.type(screen.getByLabelText('Password'), 'agora-demo')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/communities/1'))
    expect(await calls[0]!.json()).toEqual({ email: 'member@demo.agora', password: 'agora-demo' })
    expect(session.isAuthenticated).toBe(true)
    expect(localStorage.getItem('user_token')).toBe('tok')
  })

  it('ignores a redirect to another site', async () => {
    stubFetch(() => json(200, { accessToken: 't', role: 'user', expiresOn: '2030-01-01T00:00:00.000Z', user: { id: 'u' } }))
    const { router } = await renderInApp(<LoginForm redirect="//evil.example/x" />, { path: '/login' })
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co')
    await userEvent.type(screen.getByLabelText('Password'), 'agora-demo')
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
  })

  describe('time zone (spec 000 §7)', () => {
    const user = { id: 'u1', email: 'member@demo.agora', firstName: 'Chris', lastName: 'M' }
    async function signInWith(stored: Record<string, unknown>) {
      vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockReturnValue({ timeZone: 'Europe/Paris' } as Intl.ResolvedDateTimeFormatOptions)
      const { patches, answer } = personalizationServer('u1', stored)
      const calls = stubFetch(async (method, path, req) => {
        if (path === '/api/sessions') return json(200, { accessToken: 'tok', role: 'user', expiresOn: '2030-01-01T00:00:00.000Z', user })
        return (await answer(method, path, req)) ?? json(404, { code: 'notFound', message: 'no' })
      })
      const r = await renderInApp(<LoginForm />, { path: '/login' })
      await userEvent.type(screen.getByLabelText('Email'), 'member@demo.agora')
      await userEvent.type(screen.getByLabelText('Password'), 'agora-demo')
      await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
      await waitFor(() => expect(r.router.state.location.pathname).toBe('/home'))
      return { ...r, calls, patches }
    }
    afterEach(() => vi.restoreAllMocks())

    it("gives the member the browser's time zone when they have none", async () => {
      const { patches, queryClient } = await signInWith({ 'reminders.newMessages.dismissed': [] })
      await waitFor(() => expect(patches).toEqual([{ 'notifications.timezone': 'Europe/Paris' }]))
      await waitFor(() => expect(queryClient.getQueryData(['personalization', 'u1'])).toMatchObject({ 'notifications.timezone': 'Europe/Paris' }))
    })

    it('keeps the time zone the member has', async () => {
      const { patches, queryClient } = await signInWith({ 'notifications.timezone': 'America/New_York' })
      await waitFor(() => expect(queryClient.getQueryData(['personalization', 'u1'])).toBeDefined())
      // A PATCH would follow the read at once, before the next task.
      await new Promise((r) => setTimeout(r))
      expect(patches).toEqual([])
    })
  })
})
