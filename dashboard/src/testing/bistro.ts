// Test support: the workspace a switch lands in (Bistro), its one account and one queued post, as its server answers.

export const BISTRO_ACCOUNTS = [{ id: 'acc_b1', platform: 'bluesky', displayName: 'Bistro', status: 'ok' }];

export const BISTRO_POST = {
  id: 'pst_b1',
  batchId: 'bat_b1',
  accountId: 'acc_b1',
  platform: 'bluesky',
  status: 'queued',
  publishAt: '2030-11-24T11:00:00.000Z',
  text: 'Bistro autumn menu',
  title: null,
  mediaIds: [],
  media: [],
};
