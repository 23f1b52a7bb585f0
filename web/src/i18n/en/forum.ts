// The forum strings (spec 001); merged into the translation namespace by ../en.ts.
export const forum = {
  comingSoon: 'The forum feed arrives with the forums feature.',
} as const
