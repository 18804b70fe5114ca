// Settings in a real browser on a fresh server: the owner signs up on Free, tries to invite and is sent by
// the quota error to billing, changes the plan, invites a member who accepts in a second browser context
// and cannot open billing, then creates an API key, copies it, uses it against /v1/whoami, revokes it, and
// the next call answers 401; then makes a webhook to a receiver on a loopback port, whose secret is shown once and
// verifies the test event the log shows delivered. A member proposes a post with "Add to queue" while members' posts
// need approval, the owner approves it, fills the account's queue from compose and reorders it on its queue page (a
// button, then a drag). Last, a script's key spends the workspace's hour of new posts: the owner's draft is refused
// with who spent it and when it returns, which Settings shows too. Axe checks every page; screenshots go to
// test-results/dashboard.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_MS } from '../server/api.ts';
import { checkPage, describeFailures, launchBrowser, openFromMenu, startServer, type Herald } from './browser/walk.ts';

describe('settings in a browser', () => {
  let herald: Herald;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // Open to all: Noa, in a workspace of her own, signs up after Ola (SIGNUP unset would close it after Ola).
    // WEBHOOK_ALLOW_HOSTS lets the webhook reach the test's receiver on a loopback port.
    [herald, browser] = await Promise.all([
      startServer({ SIGNUP: 'open', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }),
      launchBrowser(),
    ]);
  }, 60_000);
  afterAll(async () => {
    expect(pageErrors).toEqual([]);
    await browser?.close();
    await herald?.stop();
  });
  describeFailures(
    () => browser,
    () => herald,
  );

  const at = (p: string) => `${herald.url}/app${p}`;
  /** Leaving compose with text not yet saved is asked first; the text stays in the tab for later. */
  const leaveUnsaved = (page: Page) =>
    page
      .getByRole('alertdialog', { name: 'Leave this post unsaved?' })
      .getByRole('button', { name: 'Leave for now' })
      .click();
  /** A page of the main menu (a page's own links may have the same names). */
  const menu = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, timezoneId: 'Europe/Berlin' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: herald.url });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.setDefaultTimeout(15_000);
    return page;
  }

  let owner: Page;
  /** Noa: a member of Ola's workspace from the second step on. */
  let guest: Page;

  it('invites a member, changes the plan, and makes, copies, uses and revokes a key', async () => {
    owner = await newPage();
    await owner.goto(at('/sign-up'));
    await owner.getByLabel('Name').fill('Ola Owner');
    await owner.getByLabel('Email').fill('ola@example.com');
    await owner.getByLabel('Password').fill('correct horse battery');
    await owner.getByRole('button', { name: 'Create account' }).click();
    await owner.waitForURL(/\/app\/calendar$/);

    // Free has one seat: the invitation is refused with the way to billing.
    await owner.getByRole('link', { name: 'Settings' }).click();
    await owner.getByRole('link', { name: 'Members' }).click();
    await checkPage(owner, '20-settings-members');
    await owner.getByLabel('Email').fill('mika@example.com');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('The free plan allows 1 member').waitFor();
    await owner.getByRole('link', { name: 'See plans' }).click();
    await owner.waitForURL(/\/app\/settings\/billing$/);
    await owner.getByRole('heading', { name: 'Plans' }).waitFor();
    await checkPage(owner, '21-settings-billing');
    await owner.getByRole('button', { name: 'Upgrade to Studio' }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Change to Studio' }).click();
    await owner.getByText('This workspace is on the Studio plan.').waitFor();

    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByLabel('Email').fill('mika@example.com');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    const link = await owner.getByLabel('Invitation link').inputValue();
    expect(link).toContain('/app/invite?token=');
    await owner.getByRole('button', { name: 'Copy link' }).click();
    await owner.getByText('Copied.').waitFor();
    expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await checkPage(owner, '22-settings-invited');

    const member = await newPage();
    await member.goto(link);
    await member.getByRole('heading', { name: /Join Ola Owner/ }).waitFor();
    await checkPage(member, '23-invite-accept');
    await member.getByLabel('Your name').fill('Mika Member');
    await member.getByLabel('Choose a password').fill('another long password');
    await member.getByRole('button', { name: /Join/ }).click();
    await member.waitForURL(/\/app\/calendar$/);
    await member.goto(at('/settings/billing'));
    await member.getByText('Billing is not available to you').waitFor();
    await member.getByText(/needs the administrator role; you are a member/).waitFor();
    await checkPage(member, '24-member-billing-refused');
    // Webhooks are the administrators' too: the page says so instead of offering a form the server refuses.
    await member.getByRole('link', { name: 'Webhooks' }).click();
    await member.getByText('Administrators and the owner manage webhooks').waitFor();
    expect(await member.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    // A member is offered no Connect (the server would refuse it): the page says who connects accounts.
    await member.getByRole('link', { name: 'Accounts' }).click();
    await member.getByText('Administrators and the owner connect, reconnect and disconnect accounts').waitFor();
    expect(await member.getByRole('link', { name: /^Connect / }).count()).toBe(0);
    await checkPage(member, '24a-member-accounts');

    await owner.reload();
    await owner.getByRole('button', { name: 'Remove Mika Member' }).waitFor();
    // A role changes only once confirmed; keeping it as is leaves Mika a member.
    await owner.getByLabel('Role of Mika Member').selectOption('administrator');
    const confirm = owner.getByRole('alertdialog', { name: 'Make Mika Member an administrator?' });
    await checkPage(owner, '24b-settings-role-confirm');
    await confirm.getByRole('button', { name: 'Keep as is' }).click();
    expect(await owner.getByLabel('Role of Mika Member').inputValue()).toBe('member');
    await owner.getByLabel('Role of Mika Member').selectOption('administrator');
    await confirm.getByRole('button', { name: 'Make administrator' }).click();
    await confirm.waitFor({ state: 'detached' });
    await owner.getByText(/mika@example.com · Administrator/).waitFor();

    await owner.getByRole('link', { name: 'API keys' }).click();
    await owner.getByLabel('Name').fill('my script');
    // No scope is chosen for the person: creating without one asks for it.
    await owner.getByRole('button', { name: 'Create key' }).click();
    await owner.getByRole('alert').getByText('Choose what the key may do: Read, or Read and write.').waitFor();
    await checkPage(owner, '25a-settings-key-scope-unchosen');
    await owner.getByText('Read and write', { exact: true }).click();
    await owner.getByRole('button', { name: 'Create key' }).click();
    await owner.getByText('never paste it into a chat', { exact: false }).waitFor();
    await checkPage(owner, '25-settings-key-created');
    await owner.getByRole('button', { name: 'Copy key' }).click();
    await owner.getByText('Copied.').waitFor();
    const key = await owner.evaluate(() => navigator.clipboard.readText());
    expect(key).toMatch(/^hld_/);

    const whoami = () => fetch(`${herald.url}/v1/whoami`, { headers: { Authorization: `Bearer ${key}` } });
    const first = await whoami();
    expect(first.status).toBe(200);
    expect((await first.json()).credential).toEqual({ kind: 'api_key', name: 'my script', scopes: ['read', 'write'] });

    await owner.getByRole('button', { name: 'Revoke my script' }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await owner.getByText('No keys yet').waitFor();
    await sleep(KEY_CACHE_MS);
    expect((await whoami()).status).toBe(401);

    await owner.getByRole('link', { name: 'Audit trail' }).click();
    await owner.getByText('revoked the API key my script').waitFor();
    await checkPage(owner, '26-settings-audit');
    await owner.getByRole('link', { name: 'Workspace', exact: true }).click();
    await checkPage(owner, '27-settings-workspace');

    // The zone is found by typing a city (browsers list India's as Asia/Calcutta) and picked by keyboard alone.
    const zone = owner.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('kolkata');
    await owner.getByRole('option', { name: /Kolkata.*UTC\+05:30/ }).waitFor();
    await checkPage(owner, '27a-settings-zone-search');
    await zone.press('ArrowDown');
    await zone.press('Enter');
    await owner.getByText(/Kolkata\)? is now 5 hours 30 minutes ahead of UTC\./).waitFor();

    // The session ends with unsaved changes on the form: signing in again in place saves them as typed.
    await owner.getByLabel('Name').fill('Ola Owner studio');
    await owner.context().clearCookies();
    await owner.getByRole('button', { name: 'Save' }).click();
    const renewal = owner.getByRole('dialog', { name: 'Your session ended' });
    expect(await renewal.getByLabel('Email').inputValue()).toBe('ola@example.com');
    await renewal.getByLabel('Password').fill('correct horse battery');
    await checkPage(owner, '27b-session-renewal');
    await renewal.getByRole('button', { name: 'Sign in' }).click();
    await renewal.waitFor({ state: 'detached' });
    await owner.locator('.note-ok').waitFor();
    expect(await owner.getByLabel('Name').inputValue()).toBe('Ola Owner studio');
    const saved = await owner.evaluate(() => fetch('/auth/session').then((r) => r.json()));
    expect(saved.workspace).toMatchObject({
      name: 'Ola Owner studio',
      tz: expect.stringMatching(/^Asia\/(Calcutta|Kolkata)$/),
    });
    // Members' and API keys' posts then wait for approval; the approvals page lists what waits.
    await owner.getByLabel('Posts by members').check();
    await owner.getByLabel('Posts made with API keys').check();
    await owner.getByRole('button', { name: 'Save' }).click();
    await owner.getByText('Saved.').waitFor();
    await owner.getByRole('link', { name: 'Approvals' }).click();
    await owner.getByText('Nothing waits for approval.').waitFor();
    await checkPage(owner, '27a-approvals-empty');
    // A script's post waits as a draft until the owner approves it on the page.
    await owner.getByRole('link', { name: 'Accounts' }).click();
    await owner.getByRole('link', { name: 'Connect Threads' }).click();
    await expect.poll(() => owner.url()).toContain('/sandbox/');
    for (const input of await owner.locator('input[required], textarea[required]').all()) await input.fill('acme');
    await owner.getByRole('button', { name: 'Allow' }).click();
    await owner.getByText(/Connected \d+ accounts?/).waitFor();
    // Its posting times, from compose's "Add to queue": the page names the account with its network, Monday 09:00
    // is saved and confirmed, the next free ones are listed, and the way back leads to compose.
    await openFromMenu(owner, 'Compose');
    await owner.getByRole('checkbox', { name: /Threads/ }).check();
    await owner.getByLabel('Text').fill('Autumn teaser');
    await owner.getByText('Add to queue', { exact: true }).click();
    await owner.getByRole('link', { name: 'Set the posting times of acme' }).click();
    await owner.getByRole('heading', { name: 'Posting times of acme on Threads' }).waitFor();
    await owner.getByText('No posting times yet.').waitFor();
    await owner.getByLabel('Time').fill('09:00');
    await owner.getByRole('button', { name: 'Add time' }).click();
    await owner.getByRole('button', { name: 'Save posting times' }).click();
    await owner.getByRole('status').getByText('Saved: acme has 1 posting time a week.').waitFor();
    await owner.getByRole('button', { name: 'Remove Monday at 09:00' }).waitFor();
    await owner.getByText('None: add posting times first.').waitFor({ state: 'detached' });
    await checkPage(owner, '27c-account-posting-times');
    await owner.getByRole('link', { name: '← Back to compose' }).click();
    await owner.waitForURL(/\/app\/compose/);
    await owner.getByLabel('Text', { exact: true }).waitFor();
    const created = await owner.evaluate(async () => {
      const { csrfToken } = await (await fetch('/auth/session')).json();
      const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken };
      const body = JSON.stringify({ name: 'agent', scopes: ['read', 'write'] });
      const { key } = await (await fetch('/auth/keys', { method: 'POST', headers, body })).json();
      const auth = { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` };
      const { accounts } = await (await fetch('/v1/accounts', { headers: auth })).json();
      const post = { targets: { accountIds: [accounts[0].id] }, mediaIds: [], text: 'Autumn sale', when: 'now' };
      const answer = await fetch('/v1/posts', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ ...post, confirm: true }),
      });
      return (await answer.json()).posts[0];
    });
    expect(created.statusLine).toMatch(/^Draft, awaiting approval\./);
    // "Autumn teaser" still waits unsaved in compose: leaving it is asked first, and the draft stays in the tab.
    await owner.getByRole('link', { name: 'Approvals' }).click();
    await leaveUnsaved(owner);
    await owner.getByText('Autumn sale').waitFor();
    await checkPage(owner, '27b-approvals-waiting');
    // Decided on the card itself: no box to tick first.
    await owner.getByRole('button', { name: 'Approve', exact: true }).click();
    await owner.getByText('Approved: the post is scheduled.').waitFor();
    await owner.getByText('Nothing waits for approval.').waitFor();
    // The next steps start from Settings, where this walk began; its audit trail says the approval change in words.
    await owner.getByRole('link', { name: 'Settings' }).click();
    await owner.getByRole('link', { name: 'Audit trail' }).click();
    await owner.getByText('posts by members and posts made with API keys now need approval').waitFor();
    expect(await owner.locator('.rows').textContent()).not.toMatch(/approvalRequiredFor|\btz\b/);
    await checkPage(owner, '27d-settings-audit-words');
  }, 180_000);

  it('sends someone who has an account to sign in from the invitation, back to it, and in', async () => {
    const noa = await newPage();
    await noa.goto(at('/sign-up'));
    await noa.getByLabel('Name').fill('Noa Elsewhere');
    await noa.getByLabel('Email').fill('noa@example.com');
    await noa.getByLabel('Password').fill('noas own long password');
    await noa.getByRole('button', { name: 'Create account' }).click();
    await noa.waitForURL(/\/app\/calendar$/);

    await owner.getByRole('link', { name: 'Members' }).click();
    await owner.getByLabel('Email').fill('noa@example.com');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    const link = await owner.getByLabel('Invitation link').inputValue();

    // Another browser, signed out: the page cannot tell whether the address has an account, so it offers both.
    guest = await newPage();
    await guest.goto(link);
    await guest.getByRole('heading', { name: /Join Ola Owner/ }).waitFor();
    await guest.getByRole('link', { name: 'Sign in to accept' }).click();
    await guest.waitForURL(/\/app\/sign-in\?next=/);
    await guest.getByLabel('Email').fill('noa@example.com');
    await guest.getByLabel('Password').fill('noas own long password');
    await guest.getByRole('button', { name: 'Sign in' }).click();
    await guest.waitForURL(/\/app\/invite\?token=/);
    await checkPage(guest, '28-invite-signed-in');
    await guest.getByRole('button', { name: /Join Ola Owner/ }).click();
    await guest.waitForURL(/\/app\/calendar$/);
    const session = await guest.evaluate(() => fetch('/auth/session').then((r) => r.json()));
    expect(session).toMatchObject({ user: { email: 'noa@example.com' }, role: 'member' });
    expect(session.workspace.name).toMatch(/^Ola Owner/);

    // A session that ends mid-visit (its cookie gone): the next page asks to sign in again in place, and Noa is back
    // in the workspace she had open (signing in alone lands in her first one, her own).
    await guest.context().clearCookies();
    // The link is clicked as the page's own event, not through the pointer: an event on the tab's live stream (the
    // worker at work on the walk's posts) may have refreshed a list first and opened the dialog over the link (CI).
    await guest.getByRole('link', { name: 'Posts' }).dispatchEvent('click');
    const renewal = guest.getByRole('dialog', { name: 'Your session ended' });
    await renewal.getByLabel('Password').fill('noas own long password');
    await renewal.getByRole('button', { name: 'Sign in' }).click();
    // Ola's workspace: the post its owner approved earlier in this walk is listed. The calendar behind the dialog
    // shows it too, so the posts page is waited for first.
    await guest.waitForURL(/\/app\/posts$/);
    await guest.getByText('Autumn sale').first().waitFor();
    const back = await guest.evaluate(() => fetch('/auth/session').then((r) => r.json()));
    expect(back.workspace.name).toMatch(/^Ola Owner/);

    // A page opened afresh without a session leads to sign-in, then back to it.
    await guest.context().clearCookies();
    await guest.goto(at('/posts'));
    await guest.waitForURL(/\/app\/sign-in\?next=%2Fposts$/);
    await guest.getByLabel('Email').fill('noa@example.com');
    await guest.getByLabel('Password').fill('noas own long password');
    await guest.getByRole('button', { name: 'Sign in' }).click();
    await guest.waitForURL(/\/app\/posts$/);
    await guest.getByRole('heading', { name: 'Posts' }).waitFor();
  }, 120_000);

  it('lets a member propose a post for approval, and fills and reorders a queue', async () => {
    // Noa, a member of Ola's workspace where members' posts need approval, adds a post to the queue from compose.
    // Signed in afresh above, Noa is in her own workspace: she switches to Ola's.
    const noa = guest;
    await noa.getByLabel('Workspace').selectOption({ label: 'Ola Owner studio' });
    await noa.getByText(/^Ola Owner studio ·/).waitFor();
    await openFromMenu(noa, 'Compose');
    await noa.getByRole('checkbox', { name: /Threads/ }).check();
    await noa.getByLabel('Text').fill('Spring launch');
    await noa.getByText('Add to queue', { exact: true }).click();
    const ask = noa.getByRole('button', { name: 'Ask for approval of 1 post' });
    await ask.waitFor();
    await noa.getByText('Its next free posting time', { exact: true }).waitFor();
    await checkPage(noa, '28a-compose-add-to-queue');
    await ask.click();
    await noa.getByText(/^Draft, awaiting approval · /).waitFor();
    // Ola approves it on the approvals page: it is scheduled at the posting time Noa's plan showed.
    await openFromMenu(owner, 'Approvals');
    await owner.getByText('Spring launch').waitFor();
    await owner.getByRole('button', { name: 'Approve', exact: true }).click();
    await owner.getByText('Approved: the post is scheduled.').waitFor();

    // A posting time every day, then two posts added to the queue from compose take the next two.
    await owner.evaluate(async () => {
      const { csrfToken } = await (await fetch('/auth/session')).json();
      const { accounts } = await (await fetch('/v1/accounts')).json();
      const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
      await fetch(`/v1/accounts/${accounts[0].id}/schedule`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken },
        body: JSON.stringify({ slots: days.map((day) => ({ day, time: '09:00' })) }),
      });
    });
    for (const text of ['Queue one', 'Queue two']) {
      await openFromMenu(owner, 'Compose');
      await owner.getByRole('checkbox', { name: /Threads/ }).check();
      await owner.getByLabel('Text').fill(text);
      await owner.getByText('Add to queue', { exact: true }).click();
      await owner.getByRole('button', { name: 'Add 1 post to the queue' }).click();
      await owner.getByRole('heading', { name: 'Done' }).waitFor();
    }

    // The queue page: the posts on their times and the free times, reordered by a button and by a drag.
    await openFromMenu(owner, 'Accounts');
    await owner.getByRole('link', { name: /^Queue of / }).click();
    // The queue names its account and network; reached from Accounts, it leads back there.
    await owner.getByRole('heading', { name: 'Queue of acme on Threads' }).waitFor();
    expect(await owner.getByRole('link', { name: '← Back to Accounts' }).getAttribute('href')).toBe('/app/accounts');
    const order = () => owner.locator('.queue-post .row-title').allTextContents();
    await owner.getByText('Queue two').waitFor();
    const before = await order();
    expect(before.indexOf('Queue one')).toBeLessThan(before.indexOf('Queue two'));
    expect(before).toContain('Spring launch');
    expect(await owner.locator('.queue-free').count()).toBeGreaterThan(0);
    await checkPage(owner, '28b-account-queue');
    // One step later: Queue one swaps times with the post after it (daily times: no free one between).
    const i = before.indexOf('Queue one');
    const next = before[i + 1]!;
    const swapped = [...before.slice(0, i), next, 'Queue one', ...before.slice(i + 2)];
    const row = (text: string) => owner.locator('.queue-post', { hasText: text });
    await row('Queue one')
      .getByRole('button', { name: /^Move later/ })
      .click();
    const swap = owner.getByRole('alertdialog', { name: 'Swap the times of these two posts?' });
    await checkPage(owner, '28c-account-queue-swap');
    await swap.getByRole('button', { name: 'Swap the times' }).click();
    await swap.waitFor({ state: 'detached' });
    await expect.poll(order).toEqual(swapped);
    // Dragged back onto the other post's time: the two swap again.
    await row('Queue one').dragTo(row(next));
    await swap.getByRole('button', { name: 'Swap the times' }).click();
    await swap.waitFor({ state: 'detached' });
    await expect.poll(order).toEqual(before);
    // Publish now sends a queued post at once: it leaves the queue.
    await row('Spring launch')
      .getByRole('button', { name: /^Publish now/ })
      .click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'Publish now' }).click();
    await expect.poll(order).toEqual(before.filter((t) => t !== 'Spring launch'));
    await owner.setViewportSize({ width: 390, height: 844 });
    await checkPage(owner, '28d-account-queue-phone');
    await owner.setViewportSize({ width: 1280, height: 860 });
    await openFromMenu(owner, 'Settings');
  }, 90_000);

  it("keeps a post's time while a member's publish now or edit waits; the owner decides on each card", async () => {
    // Noa, a member, asks to publish Ola's queued "Queue two" now and edits "Queue one"; both stay as they
    // are, at their times, until Ola decides.
    const noa = guest;
    const queued = async () =>
      owner.evaluate(async () => {
        const { posts } = await (await fetch('/v1/posts?status=queued')).json();
        return Object.fromEntries(
          posts.map((p: { text: string; id: string; publishAt: string }) => [p.text, { id: p.id, at: p.publishAt }]),
        ) as Record<string, { id: string; at: string }>;
      });
    const before = await queued();
    await noa.goto(at(`/posts/${before['Queue two']!.id}`));
    await noa.getByRole('button', { name: 'Reschedule' }).click();
    const dialog = noa.getByRole('alertdialog');
    await dialog.getByText('Now', { exact: true }).click();
    await noa.getByRole('alertdialog', { name: 'Ask to publish this post now?' }).waitFor();
    await dialog
      .getByText(/until an owner or administrator approves, the post stays as it is and keeps its time/)
      .waitFor();
    await checkPage(noa, '28e-member-asks-publish-now');
    await dialog.getByRole('button', { name: 'Ask to publish now' }).click();
    await noa.getByText(/A change asked by .+ waits for approval: the post stays as it is, at its time/).waitFor();
    await noa.goto(at(`/compose?edit=${before['Queue one']!.id}`));
    await noa.getByLabel('Text').fill('Queue one, with better words');
    const ask = noa.getByRole('button', { name: 'Ask for approval of the changes' });
    await ask.waitFor();
    await noa.getByText(/the post stays as it is and keeps its time/).waitFor();
    await ask.click();
    await noa.getByText(/A change asked by .+ waits for approval: the post stays as it is, at its time/).waitFor();
    expect(await queued()).toEqual(before);

    // Ola's menu counts both; each card says what changes, and is decided on its own.
    await owner.reload();
    await expect.poll(() => menu(owner, 'Approvals').textContent()).toContain('2');
    await openFromMenu(owner, 'Approvals');
    const card = (text: string) => owner.locator('.approvals > li', { hasText: text });
    await card('Asks to publish it now').waitFor();
    await card('Queue one').locator('ins', { hasText: 'with better words' }).waitFor();
    await checkPage(owner, '28f-approvals-changes');
    await card('Queue one').getByLabel('Comment for the person who asked (optional)').fill('Keep the short one.');
    await card('Queue one').getByRole('button', { name: 'Reject', exact: true }).click();
    await owner.getByText('Rejected: the change was dropped; the post stays as it was.').waitFor();
    await card('Asks to publish it now').getByRole('button', { name: 'Approve', exact: true }).click();
    await owner.getByText('Approved: the change is applied to the scheduled post.').waitFor();
    await owner.getByText('Nothing waits for approval.').waitFor();
    const after = await queued();
    expect(after['Queue one']).toEqual(before['Queue one']);
    expect(after['Queue two']?.at ?? 'published').not.toBe(before['Queue two']!.at);
    await openFromMenu(owner, 'Settings');
  }, 90_000);

  it('makes a webhook, shows its secret once, and logs a test event the receiver verified', async () => {
    // The receiver keeps each request's raw body and headers, and answers as a real one would.
    const got: { body: string; headers: Record<string, string> }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        got.push({ body, headers: req.headers as Record<string, string> });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('received, thanks');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      await owner.getByRole('link', { name: 'Webhooks' }).click();
      await owner.getByLabel('Web address').fill(url);
      await owner.getByLabel('Post cancelled').check();
      await owner.getByRole('button', { name: 'Create webhook' }).click();
      await owner.getByText('this is the only time it is shown', { exact: false }).waitFor();
      const secret = await owner.getByLabel('Signing secret', { exact: true }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await owner.getByRole('button', { name: 'Copy secret' }).click();
      expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await owner.getByText('Post published, Post failed to publish, Post cancelled').waitFor();
      await checkPage(owner, '29-settings-webhook-created');

      // Shown once: the page opened again lists the webhook without it.
      await owner.reload();
      await owner.getByRole('heading', { name: url }).waitFor();
      expect(await owner.getByLabel('Signing secret', { exact: true }).count()).toBe(0);
      await owner.getByRole('button', { name: 'Send a test event' }).click();
      await owner.getByText('received, thanks').waitFor();
      await owner.getByText('HTTP 200', { exact: false }).waitFor();
      expect(got).toHaveLength(1);
      const event = new Webhook(secret).verify(got[0]!.body, got[0]!.headers) as { type: string };
      expect(event.type).toBe('webhook.test');
      await checkPage(owner, '30-settings-webhook-log');
      await owner.setViewportSize({ width: 390, height: 844 });
      await checkPage(owner, '31-settings-webhook-log-phone');
      await owner.setViewportSize({ width: 1280, height: 860 });
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 60_000);

  it('says who spent the hourly allowance of new posts and when it returns, in the person’s own time', async () => {
    // A script's key spends what is left of the workspace's 60 new posts this hour (drafts count too).
    const spentByKey = await owner.evaluate(async () => {
      const { csrfToken } = await (await fetch('/auth/session')).json();
      const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken };
      const body = JSON.stringify({ name: 'busy script', scopes: ['read', 'write'] });
      const { key } = await (await fetch('/auth/keys', { method: 'POST', headers, body })).json();
      const auth = { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` };
      const { accounts } = await (await fetch('/v1/accounts', { headers: auth })).json();
      const post = { targets: { accountIds: [accounts[0].id] }, mediaIds: [], text: 'Script', when: 'draft' };
      for (let made = 0; ; made++) {
        const body = JSON.stringify({ ...post, confirm: true });
        const answer = await fetch('/v1/posts', { method: 'POST', headers: auth, body });
        if (answer.status !== 201) return { made, refusal: await answer.json() };
      }
    });
    expect(spentByKey.made).toBeGreaterThan(50);
    expect(spentByKey.refusal).toMatchObject({ limit: 60, actual: 60, spentBy: { keys: expect.any(Number) } });
    // Ola's draft is refused in words: the allowance is spent, by what, and the time of day it returns.
    await openFromMenu(owner, 'Compose');
    await owner.getByRole('checkbox', { name: /Threads/ }).check();
    await owner.getByLabel('Text').fill('Winter menu is out');
    await owner.getByText('Save as draft', { exact: true }).click();
    await owner.getByRole('button', { name: 'Save 1 draft' }).click();
    const refusal = owner.getByRole('alert').filter({ hasText: 'hourly allowance' });
    await refusal
      .getByText(/The workspace’s hourly allowance of 60 new posts is spent: \d+ through API keys/)
      .waitFor();
    await refusal.getByText(/New posts can be saved again (today|tomorrow) at \d\d:\d\d CET\./).waitFor();
    expect(await refusal.textContent()).not.toMatch(/minute|seconds|rate_limited/);
    expect(await owner.getByLabel('Text').inputValue()).toBe('Winter menu is out');
    await checkPage(owner, '32-compose-hourly-allowance-spent');
    // Settings shows the hour's use and when it returns; the refused draft stays in the tab, so leaving is asked.
    await menu(owner, 'Settings').click();
    await leaveUnsaved(owner);
    await owner.getByRole('link', { name: 'Plan and billing' }).click();
    await owner.getByText(/New posts this hour, all keys and people: 60 of 60 \(\d+ through API keys/).waitFor();
    await owner.getByText(/The hour’s new posts are spent; new posts can be saved again/).waitFor();
    await checkPage(owner, '33-settings-billing-hour-spent');
  }, 120_000);
});
