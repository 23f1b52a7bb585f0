// The profile dialog, the profile page and the team panel (spec 000 §2.4, 002 §2).

export const profile = {
  title: 'Profile',
  email: 'Email',
  role: 'Role',
  roles: {
    super: 'Super user',
    admin: 'Administrator',
    moderator: 'Moderator',
  },
  open: 'Open the profile of {{name}}',
  dialogTitle: 'Profile',
  message: 'Message',
  at: 'at',
  expertHere: 'Expert in this forum',
  interests: 'Interests',
  notFound: 'This profile is not available to you.',
  loadFailed: 'The profile could not be loaded.',
  form: {
    title: 'Edit your profile',
    firstName: 'First name',
    lastName: 'Last name',
    jobTitle: 'Job title',
    company: 'Company',
    bio: 'Bio',
    interests: 'Interests',
    interestsHint: 'Separate interests with commas.',
    school: 'School',
    degree: 'Degree',
    fieldOfStudy: 'Field of study',
    graduationYear: 'Graduation year',
    save: 'Save',
    saving: 'Saving…',
    saved: 'Your profile is saved.',
    failed: 'Your profile could not be saved.',
    leave: {
      title: 'Leave without saving?',
      body: 'The changes to your profile will be lost.',
      keep: 'Keep editing',
      confirm: 'Leave',
    },
    errors: {
      name: 'Must be 1 to 50 characters.',
      line: 'Must be at most 100 characters.',
      bio: 'Must be at most 1000 characters.',
      tags: 'At most 30 interests.',
      tag: 'Each interest must be 1 to 40 characters.',
      unclean: 'Must not contain control or bidirectional formatting characters.',
      year: 'Must be a year between 1900 and 2100.',
    },
  },
  avatar: {
    label: 'Profile picture',
    change: 'Change picture',
    remove: 'Remove picture',
    cropTitle: 'Crop your picture',
    cropDescription: 'Drag the slider to zoom; the square is what others see.',
    zoom: 'Zoom',
    save: 'Use this picture',
    cancel: 'Cancel',
    uploading: 'Uploading…',
    failed: 'The picture could not be uploaded.',
    imageType: 'Choose a JPEG, PNG, GIF or WebP image.',
    imageSize: 'The image must be 3 MB or smaller.',
    unreadable: 'This image could not be read.',
  },
} as const

export const team = {
  title: 'Team',
  expert: 'Expert',
  facilitator: 'Facilitator',
  learnMore: 'Learn more',
  learnMoreAbout: 'Learn more about {{name}}',
  more_one: '{{count}} more person',
  more_other: '{{count}} more people',
  memberList_one: 'Member list ({{count}})',
  memberList_other: 'Member list ({{count}})',
  listDescription: 'The admins and experts of this forum.',
  empty: 'This forum has no admins or experts yet.',
} as const

// A person's row in every member list (components/member-row.tsx).
export const memberRow = {
  expert: 'Expert',
  admin: 'Admin',
} as const

// A person's invitation in every list of people (components/invitation-status.tsx).
export const invitation = {
  invited: 'Invited',
  notInvited: 'Not invited yet',
  send: 'Send invitation',
  sendTo: 'Send an invitation to {{name}}',
  sendAgain: 'Send again',
  sendAgainTo: 'Send the invitation again to {{name}}',
  sent: 'An invitation was sent to {{email}}.',
  alreadySent: '{{email}} was sent an invitation within the hour; its link still works, so it was not sent again.',
  failed: 'The invitation could not be sent.',
}
