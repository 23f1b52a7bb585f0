// Apply the saved theme before the first paint, to avoid a flash. A classic
// script in index.html's head, not a module: it must run before the page
// renders, and it is a file of its own (not inline) so that the page's
// Content-Security-Policy allows no inline script.
try {
  var t = localStorage.getItem('agora.theme') || 'system'
  if (t === 'dark' || (t === 'system' && matchMedia('(prefers-color-scheme: dark)').matches))
    document.documentElement.classList.add('dark')
} catch (e) {}
