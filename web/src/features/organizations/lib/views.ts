// The organization page's views, one per tab. A module of its own so that the
// route, which checks the view before anything loads, does not pull the
// page's components into the first script every page loads.
export const ORGANIZATION_VIEWS = ['settings', 'members', 'communities'] as const
export type OrganizationView = (typeof ORGANIZATION_VIEWS)[number]
