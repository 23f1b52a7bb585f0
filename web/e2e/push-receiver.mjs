// A push service for the browser tests: a loopback HTTP endpoint standing
// for the one a browser's PushManager would give, holding the subscription's
// private key, so that it can read what the server pushed. It decrypts the
// RFC 8291 aes128gcm body as a browser does, which proves the encryption,
// and keeps each message with its VAPID Authorization header.
import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'

const b64url = (b) => Buffer.from(b).toString('base64url')

/**
 * startPushReceiver listens on loopback at port (one agora may reach: the harness's pushPort);
 * subscription() is what a browser would send to POST /api/push/subscriptions.
 */
export async function startPushReceiver(port) {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const uaPublic = ecdh.getPublicKey()
  const authSecret = randomBytes(16)
  const received = []
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      try {
        received.push({ path: req.url, authorization: req.headers.authorization ?? '', encoding: req.headers['content-encoding'], message: JSON.parse(decrypt(Buffer.concat(chunks))) })
        res.writeHead(201).end()
      } catch (e) {
        received.push({ path: req.url, error: String(e) })
        res.writeHead(400).end()
      }
    })
  })
  await new Promise((r) => server.listen(port, '127.0.0.1', r))
  const url = `http://127.0.0.1:${server.address().port}/push/${b64url(randomBytes(8))}`

  // decrypt reads one aes128gcm record: salt(16) rs(4) idlen(1) keyid(the server's public key) ciphertext.
  function decrypt(body) {
    const salt = body.subarray(0, 16)
    const idlen = body[20]
    const asPublic = body.subarray(21, 21 + idlen)
    const ciphertext = body.subarray(21 + idlen)
    const secret = ecdh.computeSecret(asPublic)
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic])
    const ikm = Buffer.from(hkdfSync('sha256', secret, authSecret, keyInfo, 32))
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
    const d = createDecipheriv('aes-128-gcm', cek, nonce)
    d.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
    const plain = Buffer.concat([d.update(ciphertext.subarray(0, ciphertext.length - 16)), d.final()])
    // The last record ends with the delimiter 2, then padding zeros.
    let end = plain.length - 1
    while (end >= 0 && plain[end] === 0) end--
    if (plain[end] !== 2) throw new Error('no last-record delimiter')
    return plain.subarray(0, end).toString('utf8')
  }

  return {
    received,
    subscription: () => ({ endpoint: url, keys: { p256dh: b64url(uaPublic), auth: b64url(authSecret) } }),
    close: () => new Promise((r) => server.close(r)),
  }
}
