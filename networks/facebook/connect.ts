// Connecting Facebook Pages through Facebook Login; Herald publishes to Pages only, not to profiles.
import { FACEBOOK_LOGIN, grantedPages } from '../graph/login.ts';
import type { ConnectNetwork } from '../oauth.ts';

export const facebookConnect: ConnectNetwork = {
  authorize: FACEBOOK_LOGIN,
  scopes: ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'publish_video', 'read_insights'],
  scopeSeparator: ',',
  pkce: false,
  async exchange(x) {
    return (await grantedPages(x, 'Facebook', 'id,name,access_token')).map((p) => ({
      externalId: p.id,
      displayName: p.name,
      credentials: { accessToken: p.access_token },
    }));
  },
  nothingFound: {
    message: 'No Facebook Page was granted; Herald publishes to Pages only, not to profiles.',
    hint: 'Connect again and select at least one Page you manage.',
  },
};
