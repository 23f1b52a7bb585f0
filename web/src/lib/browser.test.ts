import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isSupportedBrowser } from './browser'

// index.html's classic ES5 check (src/boot/browser-check.js, for browsers
// that cannot run the app's modules) must agree with isSupportedBrowser.
const inline = readFileSync(resolve(import.meta.dirname, '../boot/browser-check.js'), 'utf8')
const sandbox: { agoraSupported?: (ua: string) => boolean } = {}
new Function('window', 'navigator', 'location', 'document', inline)(sandbox, { userAgent: 'Chrome/130' }, { pathname: '/' }, {})
const inlineSupported = sandbox.agoraSupported!

const ua = {
  chrome53: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/53.0.2785.143 Safari/537.36',
  chrome54: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/54.0.2840.71 Safari/537.36',
  chrome130: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  firefox48: 'Mozilla/5.0 (Windows NT 10.0; WOW64; rv:48.0) Gecko/20100101 Firefox/48.0',
  firefox49: 'Mozilla/5.0 (Windows NT 10.0; WOW64; rv:49.0) Gecko/20100101 Firefox/49.0',
  safari10: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_12) AppleWebKit/602.1.50 (KHTML, like Gecko) Version/10.0 Safari/602.1.50',
  safari11: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_13) AppleWebKit/604.1.38 (KHTML, like Gecko) Version/11.0 Safari/604.1.38',
  iosSafari10: 'Mozilla/5.0 (iPhone; CPU iPhone OS 10_3 like Mac OS X) AppleWebKit/603.1.30 (KHTML, like Gecko) Version/10.0 Mobile/14E277 Safari/602.1',
  edge16: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/58.0.3029.110 Safari/537.36 Edge/16.16299',
  edge17: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/64.0.3282.140 Safari/537.36 Edge/17.17134',
  edgeChromium: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0',
  ie11: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  oldAndroid: 'Mozilla/5.0 (Linux; Android 4.4.2; Nexus 5 Build/KOT49H) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/30.0.0.0 Mobile Safari/537.36',
}

describe('isSupportedBrowser (spec 000 §2.1)', () => {
  it.each([
    ['chrome53', false],
    ['chrome54', true],
    ['chrome130', true],
    ['firefox48', false],
    ['firefox49', true],
    ['safari10', false],
    ['iosSafari10', false],
    ['safari11', true],
    ['edge16', false],
    ['edge17', true],
    ['edgeChromium', true],
    ['ie11', false],
    ['oldAndroid', true],
  ] as const)('%s → %s', (name, want) => {
    expect(isSupportedBrowser(ua[name])).toBe(want)
    expect(inlineSupported(ua[name])).toBe(want)
  })
})
