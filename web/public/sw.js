// The service worker of Agora's web push notifications (RFC 8030/8291):
// the server pushes {title, body, url, tag} (projections/delivery),
// encrypted for this browser; the worker shows it, and a click opens its
// url in a tab of the app (one already open is focused and taken there).
// A push delivered again under its tag replaces the one shown.
// It caches nothing and fetches nothing: the app works as without it.

self.addEventListener('install', () => {
  self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim())
})

self.addEventListener('push', (event) => {
  let data = {}
  try {
    data = event.data ? event.data.json() : {}
  } catch {
    data = { body: event.data ? event.data.text() : '' }
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Agora'
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: '/favicon.svg',
      data: { url: sameOrigin(data.url) },
      ...(typeof data.tag === 'string' && data.tag ? { tag: data.tag } : {}),
    }),
  )
})

// sameOrigin keeps a url on this site: a path of the app, or the home page.
function sameOrigin(url) {
  try {
    const u = new URL(typeof url === 'string' ? url : '/home', self.location.origin)
    return u.origin === self.location.origin ? u.pathname + u.search + u.hash : '/home'
  } catch {
    return '/home'
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = (event.notification.data && event.notification.data.url) || '/home'
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
      for (const tab of tabs) {
        if (new URL(tab.url).origin === self.location.origin && 'focus' in tab) {
          return tab.focus().then((t) => (t && 'navigate' in t ? t.navigate(url) : self.clients.openWindow(url)))
        }
      }
      return self.clients.openWindow(url)
    }),
  )
})
