// harness: starts a real `agora dev` (the built binary, a temporary data
// folder, a free loopback port) and the system Chromium through
// playwright-core, then runs the tests one after another, each in a fresh
// browser context, and prints what passed with timings.
import { spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, mkdirSync, existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const here = dirname(fileURLToPath(import.meta.url))
export const screenshotDir = join(here, 'screenshots')

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The Meet Up tests: a fake camera and microphone, allowed without asking.
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
]

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer()
    s.unref()
    s.on('error', rej)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => res(port))
    })
  })
}

/**
 * startAgora runs `agora dev` with args after its own and resolves when
 * /readyz answers 200, failing after readyWithin ms.
 */
export async function startAgora({ bin = process.env.AGORA_BIN ?? resolve(here, '../../bin/agora'), args = [], readyWithin = 60_000 } = {}) {
  if (!existsSync(bin)) throw new Error(`${bin} not found: run make build first`)
  const port = await freePort()
  // The ports of the tests' own servers that agora may reach on loopback, exactly: the composer
  // test's page to preview and the notifications test's push service.
  const previewPort = await freePort()
  const pushPort = await freePort()
  const data = mkdtempSync(join(tmpdir(), 'agora-e2e-'))
  // agora runs postgres as the postgres user, which must reach the folder.
  chmodSync(data, 0o755)
  const url = `http://127.0.0.1:${port}`
  const logs = []
  // --sso-test-provider: a loopback OpenID Provider to sign in through (tests/sso.mjs).
  const proc = spawn(bin, ['dev', '--addr', `127.0.0.1:${port}`, '--data', data, '--sso-test-provider', ...args], {
    env: {
      ...process.env,
      AGORA_LOG_LEVEL: 'warn',
      // The tests sign in dozens of times from one address.
      AGORA_SIGNIN_PER_IP_PER_MINUTE: '100000',
      AGORA_SIGNIN_PER_ACCOUNT_PER_MINUTE: '100000',
      AGORA_RESET_PER_ACCOUNT_PER_HOUR: '100000',
      // The search test polls the AI search until new posts are indexed.
      AGORA_AI_SEARCHES_PER_ACCOUNT_PER_MINUTE: '100000',
      AGORA_OUTBOUND_ALLOW: `127.0.0.1:${previewPort},127.0.0.1:${pushPort}`,
      // The chat test watches a hidden tab turn away without waiting minutes.
      AGORA_PRESENCE_AWAY_AFTER: '6s',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  proc.stdout.on('data', (b) => logs.push(b.toString()))
  proc.stderr.on('data', (b) => logs.push(b.toString()))
  const exited = new Promise((res) => proc.on('exit', res))
  const deadline = Date.now() + readyWithin
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`agora dev exited (${proc.exitCode}):\n${logs.join('')}`)
    try {
      const r = await fetch(`${url}/readyz`)
      if (r.ok) break
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`agora dev not ready after ${readyWithin / 1000} s:\n${logs.join('')}`)
    await new Promise((r) => setTimeout(r, 150))
  }
  // The test provider's issuer and client, as agora dev prints them.
  const sso = logs.join('').match(/SSO test provider: issuer=(\S+) clientId=(\S+) clientSecret=(\S+)/)
  return {
    url,
    previewPort,
    pushPort,
    logs,
    sso: sso ? { issuer: sso[1], clientId: sso[2], clientSecret: sso[3] } : undefined,
    async stop() {
      proc.kill('SIGINT')
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(t)
      rmSync(data, { recursive: true, force: true })
    },
  }
}

// launchChromium starts the system Chromium. playwright-core refuses a
// --user-data-dir argument in launch(): it gives every launch a fresh
// temporary profile of its own, which is what the flag was for. extraArgs
// are added to chromiumArgs (a microphone that plays a file, say).
export async function launchChromium(extraArgs = []) {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium'
  const browser = await chromium.launch({ executablePath, args: [...chromiumArgs, ...extraArgs], headless: true })
  return {
    browser,
    async close() {
      await browser.close()
    },
  }
}

/** run executes tests [{name, fn}] with ctx, printing a line per test. */
export async function run(tests, makeCtx) {
  mkdirSync(screenshotDir, { recursive: true })
  const only = process.env.E2E_ONLY
  const started = Date.now()
  let passed = 0
  const failed = []
  for (const t of tests) {
    if (only && !t.name.includes(only)) continue
    const t0 = Date.now()
    const ctx = await makeCtx(t)
    try {
      await t.fn(ctx)
      await ctx.after?.()
      passed++
      console.log(`  ✓ ${t.name} (${Date.now() - t0} ms)`)
    } catch (e) {
      // The reason joins the summary: CI shows only the run's last lines.
      failed.push(`${t.name} (${String(e?.message ?? e).split('\n')[0].slice(0, 300)})`)
      console.log(`  ✗ ${t.name} (${Date.now() - t0} ms)\n${String(e?.stack ?? e).replace(/^/gm, '      ')}`)
      await ctx.page?.screenshot({ path: join(screenshotDir, `FAILED-${t.name.replace(/\W+/g, '-')}.png`) }).catch(() => {})
    } finally {
      await ctx.close()
    }
  }
  console.log(`\ne2e: ${passed} passed, ${failed.length} failed, in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (failed.length) console.log(`failed: ${failed.join('; ')}`)
  return failed.length === 0
}
