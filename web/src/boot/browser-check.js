// ES5, and before the app's modules, which old browsers cannot run: the
// supported browsers of spec 000 §2.1 (Chrome > 53, Firefox > 48, Safari >
// 10, Edge > 16, any Android). Others go to /unsupported, shown here as
// static text. Same rules as src/lib/browser.ts; a Vitest test checks both
// against one table. A classic script after #root in index.html, a file of
// its own so that the page's Content-Security-Policy allows no inline script.
window.agoraSupported = function (ua) {
  if (/Android/i.test(ua)) return true
  if (/MSIE |Trident\//.test(ua)) return false
  var rules = [
    [/Edge\/(\d+)/, 17],
    [/(?:Chrome|CriOS)\/(\d+)/, 54],
    [/(?:Firefox|FxiOS)\/(\d+)/, 49],
    [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 11],
  ]
  for (var i = 0; i < rules.length; i++) {
    var m = rules[i][0].exec(ua)
    if (m) return Number(m[1]) >= rules[i][1]
  }
  return true
}
if (!window.agoraSupported(navigator.userAgent)) {
  if (location.pathname !== '/unsupported') location.replace('/unsupported')
  else
    document.getElementById('root').innerHTML =
      '<main style="font-family:sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;text-align:center">' +
      '<h1>Your browser is not supported</h1><p>Agora needs a recent browser. Please use a newer version of ' +
      '<a href="https://www.google.com/chrome/">Chrome</a>, <a href="https://www.mozilla.org/firefox/">Firefox</a> or ' +
      '<a href="https://www.microsoft.com/edge">Edge</a>.</p></main>'
}
