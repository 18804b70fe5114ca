// Facebook's consent side in the sandbox: Facebook Login's page, where a person names the Pages they
// grant, and its token endpoints (shared with Instagram, sandbox/metaConsent.ts).
import { consentRoutes, identityId, MAX_NAME, type Field } from '../sandbox/consent.ts';
import { facebookLoginRoutes, META_DENIED, newFacebookUser } from '../sandbox/metaConsent.ts';

const MAX_PAGES = 25;
const pagesField: Field = { name: 'pages', label: 'Pages to grant, one name per line', lines: true };

export const facebookConsent = consentRoutes({
  page: {
    brand: 'Facebook',
    label: 'Facebook',
    path: '/:version/dialog/oauth',
    wants: 'publish to and read the insights of the Pages of your Facebook account',
    fields: [pagesField],
    denied: META_DENIED,
    grant(form) {
      const names = [
        ...new Set(
          (form.pages ?? '')
            .split('\n')
            .map((n) => n.trim())
            .filter(Boolean),
        ),
      ];
      if (!names.length) return 'Choose at least one Page.';
      if (names.length > MAX_PAGES || names.some((n) => n.length > MAX_NAME))
        return `Grant at most ${MAX_PAGES} Pages, each named in at most ${MAX_NAME} characters.`;
      const pages = names.map((name) => ({ id: identityId('facebook', name), name }));
      return { account: newFacebookUser(), data: { pages }, accounts: pages };
    },
  },
  tokenRoutes: facebookLoginRoutes,
});
