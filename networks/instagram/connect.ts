// Connecting Instagram business and creator accounts through Facebook Login (classic, or for Business with
// INSTAGRAM_CONFIG_ID) and the Page each is linked to, whether the person's role on that Page is their own or
// comes through a Business Manager.
import { BUSINESS_SCOPE, FACEBOOK_LOGIN, reachablePages, whyNotUsable } from '../graph/login.ts';
import { META_FIELDS } from '../graph/fields.ts';
import type { ConnectNetwork } from '../oauth.ts';

export const instagramConnect: ConnectNetwork = {
  authorize: FACEBOOK_LOGIN,
  // https://developers.facebook.com/docs/instagram-platform/content-publishing (read 2026-11-29). A Page role
  // granted through a Business Manager needs one of ads_management or ads_read on the IG User, its media and
  // insights (https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user,
  // read 2026-11-29): ads_read, the one that changes nothing; business_management lists those Pages.
  scopes: [
    'instagram_basic',
    'instagram_content_publish',
    'instagram_manage_insights',
    'pages_show_list',
    'pages_read_engagement',
    'ads_read',
    BUSINESS_SCOPE,
  ],
  scopeSeparator: ',',
  pkce: false,
  configIdEnv: 'INSTAGRAM_CONFIG_ID',
  // A business or creator account is linked to one Page, and acts through that Page's token.
  async exchange(x) {
    const { pages, notConnected } = await reachablePages(x, 'Instagram', `${META_FIELDS.Page}{id,username}`);
    const targets = [];
    for (const page of pages) {
      const instagram = page.instagram_business_account;
      const why = instagram ? whyNotUsable(page) : 'no Instagram business or creator account is linked to this Page';
      if (why) notConnected.push({ name: page.name, reason: why });
      else
        targets.push({
          externalId: instagram!.id,
          displayName: instagram!.username || page.name,
          credentials: { accessToken: page.access_token! },
        });
    }
    return { targets, notConnected };
  },
  nothingFound: {
    reason: 'instagram_not_professional',
    message:
      'None of the granted Facebook Pages has an Instagram account linked. Instagram accounts must be of ' +
      'business or creator type; personal accounts cannot be connected.',
    hint:
      'In Instagram, switch the account to a professional (business or creator) account and link it to a ' +
      'Facebook Page; then connect again and grant that Page.',
  },
};
