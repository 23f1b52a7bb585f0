// The account page's views, one per tab. A module of its own so that the
// route, which checks the view before anything loads, does not pull the
// page's components into the first script every page loads.
export const ACCOUNT_VIEWS = ['settings', 'members', 'communities'] as const
export type AccountView = (typeof ACCOUNT_VIEWS)[number]
