// Connecting Facebook Pages through Facebook Login (classic, or for Business with FACEBOOK_CONFIG_ID): every
// Page the person reaches, their own and their businesses'; Herald publishes to Pages only, not to profiles.
import { BUSINESS_SCOPE, FACEBOOK_LOGIN, reachablePages, whyNotUsable } from '../graph/login.ts';
import { META_FIELDS } from '../graph/fields.ts';
import type { ConnectNetwork } from '../oauth.ts';

export const facebookConnect: ConnectNetwork = {
  authorize: FACEBOOK_LOGIN,
  scopes: [
    'pages_show_list',
    'pages_read_engagement',
    'pages_manage_posts',
    'publish_video',
    'read_insights',
    BUSINESS_SCOPE,
  ],
  scopeSeparator: ',',
  pkce: false,
  configIdEnv: 'FACEBOOK_CONFIG_ID',
  async exchange(x) {
    const { pages, notConnected } = await reachablePages(x, 'Facebook', META_FIELDS.Page);
    const targets = [];
    for (const page of pages) {
      const why = whyNotUsable(page);
      if (why) notConnected.push({ name: page.name, reason: why });
      else
        targets.push({ externalId: page.id, displayName: page.name, credentials: { accessToken: page.access_token! } });
    }
    return { targets, notConnected };
  },
  nothingFound: {
    reason: 'facebook_no_page',
    message: 'No Facebook Page was granted; Herald publishes to Pages only, not to profiles.',
    hint: 'Connect again and select at least one Page you manage.',
  },
};
