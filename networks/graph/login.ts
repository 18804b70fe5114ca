// Facebook Login, as Facebook Pages and Instagram (business and creator accounts, through their Page)
// both connect: the consent dialog, and the code exchange that ends with the Pages the person granted.
import { call, type CodeExchange } from '../oauth.ts';

/** The Graph API version of Meta's paths. */
const META_VERSION = 'v25.0';

/** Facebook's consent dialog, for Pages and Instagram alike. */
export const FACEBOOK_LOGIN = { liveOrigin: 'https://www.facebook.com', path: `/${META_VERSION}/dialog/oauth` };

interface GrantedPage {
  id: string;
  name: string;
  access_token: string;
  instagram_business_account?: { id: string; username?: string };
}

/**
 * The code for a short-lived user token, that for a long-lived one, then the Pages the person granted.
 * Page tokens made from a long-lived user token do not expire.
 */
export async function grantedPages(
  { hosts, client, redirectUri, code }: CodeExchange,
  label: string,
  fields: string,
): Promise<GrantedPage[]> {
  const tokenUrl = `${hosts.graph}/${META_VERSION}/oauth/access_token`;
  const short = await call<{ access_token: string }>(label, 'GET', tokenUrl, {
    client_id: client.id,
    redirect_uri: redirectUri,
    client_secret: client.secret,
    code,
  });
  const long = await call<{ access_token: string }>(label, 'GET', tokenUrl, {
    grant_type: 'fb_exchange_token',
    client_id: client.id,
    client_secret: client.secret,
    fb_exchange_token: short.access_token,
  });
  // 100 Pages: more than any plan's account limit.
  const pages = await call<{ data?: GrantedPage[] }>(
    label,
    'GET',
    `${hosts.graph}/${META_VERSION}/me/accounts`,
    { fields, limit: '100' },
    long.access_token,
  );
  return pages.data ?? [];
}
