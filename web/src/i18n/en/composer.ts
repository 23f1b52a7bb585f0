// The composer strings (spec 001); merged into the translation namespace by ../en.ts.
export const composer = {
} as const
