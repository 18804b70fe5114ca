// Instagram's consent side in the sandbox: Facebook Login's page for an Instagram account (its username,
// type and the Page it is linked to), and Facebook Login's token endpoints (sandbox/metaConsent.ts).
import { consentRoutes, identityId, nameIn, type Field } from '../sandbox/consent.ts';
import { facebookLoginRoutes, META_DENIED, newFacebookUser } from '../sandbox/metaConsent.ts';

const igFields: Field[] = [
  { name: 'username', label: 'Instagram username' },
  {
    name: 'accountType',
    label: 'Account type',
    choices: [
      ['business', 'Business'],
      ['creator', 'Creator'],
      ['personal', 'Personal'],
    ],
  },
  { name: 'page', label: 'Facebook Page the account is linked to' },
  {
    name: 'business',
    label: 'Business Manager your role on that Page comes through (empty for a role of your own)',
    optional: true,
  },
];

export const instagramConsent = consentRoutes({
  page: {
    brand: 'Facebook',
    label: 'Instagram',
    path: '/:version/dialog/oauth',
    wants: 'publish to and read the insights of your Instagram account, through its Facebook Page',
    fields: igFields,
    denied: META_DENIED,
    grant(form) {
      const [username, page] = [nameIn(form, igFields[0]!), nameIn(form, igFields[2]!)];
      if (typeof username !== 'string') return username.error;
      if (typeof page !== 'string') return page.error;
      // As on Meta, only a professional account shows as the Page's instagram_business_account.
      const professional = form.accountType === 'business' || form.accountType === 'creator';
      const instagram = professional ? { id: identityId('instagram', username), username } : undefined;
      const linked = { id: identityId('facebook', page), name: page, ...(instagram ? { instagram } : {}) };
      const business = form.business?.trim().slice(0, 100);
      // An agency's role comes through its business: the Page is not among the person's own (me/accounts).
      const data = business
        ? {
            pages: [],
            businesses: [
              { id: identityId('facebook', `business ${business}`), name: business, owned: [], client: [linked] },
            ],
          }
        : { pages: [linked] };
      return { account: newFacebookUser(), data, accounts: instagram ? [{ id: instagram.id, name: username }] : [] };
    },
  },
  tokenRoutes: facebookLoginRoutes,
});
