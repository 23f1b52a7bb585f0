// Supported browsers (spec 000 §2.1): Chrome above 53, Firefox above 48,
// Safari above 10, Edge above 16, and any Android browser. Others see
// /unsupported. Unknown browsers are let in: refusing what we cannot name
// would lock out new browsers.

const minimum: Array<[RegExp, number]> = [
  [/Edge\/(\d+)/, 17], // EdgeHTML; Chromium Edge says "Edg/" and is judged as Chrome
  [/(?:Chrome|CriOS)\/(\d+)/, 54],
  [/(?:Firefox|FxiOS)\/(\d+)/, 49],
  [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, 11],
]

export function isSupportedBrowser(userAgent: string): boolean {
  if (/Android/i.test(userAgent)) return true
  if (/MSIE |Trident\//.test(userAgent)) return false
  for (const [pattern, min] of minimum) {
    const m = pattern.exec(userAgent)
    if (m) return Number(m[1]) >= min
  }
  return true
}
