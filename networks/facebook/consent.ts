// Facebook's consent side in the sandbox: Facebook Login's page, where a person names the Pages they
// grant (on a role of their own, or through a Business Manager), and its token endpoints (shared with
// Instagram, sandbox/metaConsent.ts).
import { consentRoutes, identityId, MAX_NAME, type Business, type Field, type Page } from '../sandbox/consent.ts';
import { facebookLoginRoutes, META_DENIED, newFacebookUser } from '../sandbox/metaConsent.ts';

/** Enough for an agency's Pages to span several of Graph's result pages (sandbox/metaConsent.ts pages by 25). */
const MAX_PAGES = 150;
const pagesField: Field = {
  name: 'pages',
  label: 'Pages you have a role on, one name per line',
  lines: true,
  optional: true,
};
const businessField: Field = {
  name: 'businessPages',
  label:
    'Pages reached through a Business Manager, one per line as "Business: Page"; end a line with "(client)" ' +
    'for a Page the business manages for a client, "(unassigned)" for one you are not assigned to',
  lines: true,
  optional: true,
};

const linesOf = (text: string | undefined) => [
  ...new Set(
    (text ?? '')
      .split('\n')
      .map((n) => n.trim())
      .filter(Boolean),
  ),
];

const page = (name: string, unassigned = false): Page => ({
  id: identityId('facebook', name),
  name,
  ...(unassigned ? { unassigned } : {}),
});

/** "Acme Agency: Client Page (client)" lines as businesses with their owned and client Pages. */
function businessesOf(lines: string[]): Business[] | string {
  const byName = new Map<string, Business>();
  for (const line of lines) {
    const match = /^([^:]+):\s*(.+?)\s*(\((client|unassigned)\))?$/.exec(line);
    if (!match) return `Write each business Page as "Business: Page" (${line}).`;
    const [, businessName, pageName, , mark] = match;
    const name = businessName!.trim();
    const business = byName.get(name) ?? {
      id: identityId('facebook', `business ${name}`),
      name,
      owned: [],
      client: [],
    };
    byName.set(name, business);
    (mark === 'client' ? business.client : business.owned).push(page(pageName!, mark === 'unassigned'));
  }
  return [...byName.values()];
}

export const facebookConsent = consentRoutes({
  page: {
    brand: 'Facebook',
    label: 'Facebook',
    path: '/:version/dialog/oauth',
    wants: 'publish to and read the insights of the Pages of your Facebook account',
    fields: [pagesField, businessField],
    denied: META_DENIED,
    grant(form) {
      const names = linesOf(form.pages);
      const businessLines = linesOf(form.businessPages);
      if (!names.length && !businessLines.length) return 'Choose at least one Page.';
      if (
        names.length + businessLines.length > MAX_PAGES ||
        [...names, ...businessLines].some((n) => n.length > MAX_NAME)
      )
        return `Grant at most ${MAX_PAGES} Pages, each named in at most ${MAX_NAME} characters.`;
      const businesses = businessesOf(businessLines);
      if (typeof businesses === 'string') return businesses;
      const pages = names.map((name) => page(name));
      const all = [...pages, ...businesses.flatMap((b) => [...b.owned, ...b.client])];
      return {
        account: newFacebookUser(),
        data: { pages, businesses },
        accounts: all.map(({ id, name }) => ({ id, name })),
      };
    },
  },
  tokenRoutes: facebookLoginRoutes,
});
