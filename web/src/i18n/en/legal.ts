// The Terms of Service and Privacy Policy pages; merged into the translation
// namespace by ../en.ts. Agora is self-hosted, so the pages speak of the
// organization that operates the server, and say only what the software does.
export const legal = {
  home: 'Agora',
  updated: 'These pages describe the Agora software as it runs on this server.',
  link: { terms: 'Terms of Service', privacy: 'Privacy Policy' },
  terms: {
    title: 'Terms of Service',
    sections: [
      {
        title: 'Who runs this service',
        paragraphs: [
          'This Agora service is run by the organization that operates this server, not by the makers of the Agora software. That organization decides who may join, and answers for the service and for the accounts on it. Questions about your account go to them, for instance through the person who invited you.',
        ],
      },
      {
        title: 'Your account',
        paragraphs: [
          'You join by invitation. Keep your password to yourself: what is done from your account is taken as yours. The organization that operates the server may suspend or remove an account.',
        ],
      },
      {
        title: 'What you post',
        paragraphs: [
          'Your posts, questions, comments, reactions and uploaded files stay yours. By posting, you let the members of the forum read them, and the server keep and show them. Post only what you have the right to share, and treat other members with respect. The admins of a forum may edit or delete what is posted in it.',
        ],
      },
      {
        title: 'Anonymous questions',
        paragraphs: [
          'A question asked anonymously hides your name from the members. The admins of the forum may see who asked, for moderation, and each of their looks is recorded.',
        ],
      },
      {
        title: 'AI search',
        paragraphs: [
          'The AI search answers from the posts of the forum that you may read. When the operating organization has connected an AI model, your question and those posts are sent to that model to write the answer.',
        ],
      },
      {
        title: 'No warranty',
        paragraphs: ['The service is provided as it is. It may change, or stop, as the operating organization decides.'],
      },
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    sections: [
      {
        title: 'Who is responsible',
        paragraphs: [
          'The organization that operates this Agora server keeps your data on its own servers and is responsible for it. To see, correct or delete your data, ask them.',
        ],
      },
      {
        title: 'What is stored',
        paragraphs: [
          'Your account: your name, your e-mail address, your password (only as a one-way hash, never the password itself) and what you add to your profile (photo, job title, company, bio, interests).',
          'What you do here: your posts, questions, comments, reactions and uploaded files; your AI searches; and when you open a forum, which marks what is new to you and counts in the forum admins’ activity reports.',
          'Your sessions: while you are signed in, the server keeps a record of the session, and your browser keeps the sign-in token in its local storage, with your theme and panel settings. Signing out ends the session.',
          'E-mail: the server sends you mail only about your account: invitations and password reset links.',
        ],
      },
      {
        title: 'Who sees it',
        paragraphs: [
          'The members of a forum see what you post there, with your name, photo, job title and company (an anonymous question shows none of these to them). The admins of a forum see reports of its activity. The operating organization’s administrators can reach everything on the server.',
        ],
      },
      {
        title: 'No tracking',
        paragraphs: [
          'There is no tracking: no advertising, no third-party analytics, no cookies that follow you elsewhere. Your data is not sold or shared with advertisers.',
        ],
      },
    ],
  },
} as const
