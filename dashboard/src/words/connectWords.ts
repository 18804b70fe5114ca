// The words of the form that connects an account by signing in (Bluesky's app passwords), where a network has no
// consent page of its own.

export const SIGN_IN_WORDS = {
  identifier: 'Handle or email',
  identifierHint: 'The account’s handle, such as acmeshop.bsky.social, or the email it signs in with.',
  password: 'App password',
  passwordHint:
    'Make one in Bluesky under Settings, Privacy and security, App passwords. Herald keeps only the session it ' +
    'opens with it, never the password, and you can revoke it there at any time.',
  server: 'Server',
  serverHint: 'Where the account lives. Most accounts live on https://bsky.social; leave it unless yours does not.',
  connect: 'Connect',
  cancel: 'Cancel',
} as const;

/** The form's title: connecting a new account of the network, or reconnecting one. */
export const signInTitle = (network: string, reconnecting?: string) =>
  reconnecting ? `Reconnect ${reconnecting}` : `Connect a ${network} account`;

/**
 * The banner over every page while accounts need reconnecting: their network refused Herald's access (a renewal the
 * token upkeep asked for, or a post's call), usually days before a post to them would have failed.
 */
export const reconnectBanner = (names: string[]) => ({
  title: names.length === 1 ? `${names[0]} needs reconnecting` : `${names.length} accounts need reconnecting`,
  hint: 'Their network no longer accepts Herald’s access, so posts to them wait. Reconnect them on the Accounts page.',
  link: 'Go to Accounts',
});
