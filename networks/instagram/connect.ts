// Connecting Instagram business and creator accounts through Facebook Login and the Page each is linked to.
import { FACEBOOK_LOGIN, grantedPages } from '../graph/login.ts';
import type { ConnectNetwork } from '../oauth.ts';

export const instagramConnect: ConnectNetwork = {
  authorize: FACEBOOK_LOGIN,
  scopes: [
    'instagram_basic',
    'instagram_content_publish',
    'instagram_manage_insights',
    'pages_show_list',
    'pages_read_engagement',
  ],
  scopeSeparator: ',',
  pkce: false,
  // A business or creator account is linked to one Page, and acts through that Page's token.
  async exchange(x) {
    return (await grantedPages(x, 'Instagram', 'id,name,access_token,instagram_business_account{id,username}')).flatMap(
      (p) =>
        p.instagram_business_account
          ? [
              {
                externalId: p.instagram_business_account.id,
                displayName: p.instagram_business_account.username || p.name,
                credentials: { accessToken: p.access_token },
              },
            ]
          : [],
    );
  },
  nothingFound: {
    message:
      'None of the granted Facebook Pages has an Instagram account linked. Instagram accounts must be of ' +
      'business or creator type; personal accounts cannot be connected.',
    hint:
      'In Instagram, switch the account to a professional (business or creator) account and link it to a ' +
      'Facebook Page; then connect again and grant that Page.',
  },
};
