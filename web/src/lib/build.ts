// The build of the web app this page runs: the server names it in the
// served index.html (<meta name="agora-build">, a digest of the page as
// built), and tells it again on every live connection, so that a tab left
// open across a deployment learns it runs an older app. A page the server
// did not serve (Vite's dev server) has none.

/** BUILD_META is the name of the meta tag that carries the build's id. */
export const BUILD_META = 'agora-build'

/** ownBuild is the id of this page's build, or undefined when it has none. */
export function ownBuild(doc: Document = document): string | undefined {
  return doc.querySelector(`meta[name="${BUILD_META}"]`)?.getAttribute('content') || undefined
}

/** isNewerBuild says whether a build announced by the server is not this page's. */
export function isNewerBuild(announced: unknown, own: string | undefined = ownBuild()): boolean {
  return typeof announced === 'string' && announced !== '' && own !== undefined && announced !== own
}
