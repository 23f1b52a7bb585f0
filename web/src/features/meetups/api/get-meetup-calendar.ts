// The calendar file is fetched by the browser from a link, not through the API client.

/** calendarUrl is the Meet Up's .ics file (Add to calendar). */
export const calendarUrl = (roomId: string) => `/api/meetings/${encodeURIComponent(roomId)}/calendar.ics`
