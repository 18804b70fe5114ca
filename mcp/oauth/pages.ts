// The two pages a person sees when an MCP client asks for access: Herald's own sign-in form (when there is
// no dashboard session) and the consent page. Plain server-rendered HTML; every value is escaped.
import type { Response } from 'express';
import { escapeHtml } from '../../domain/html.ts';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}
h1{font-size:1.4rem}fieldset{border:1px solid #ccd;border-radius:6px;margin:1rem 0}label{display:block;margin:.4rem 0}
input[type=email],input[type=password]{width:100%;padding:.4rem;box-sizing:border-box}
button{padding:.5rem 1.2rem;margin-right:.5rem;font-size:1rem}.error{color:#a00}.note{color:#555;font-size:.9rem}`;

/** Sends a page that no other site may frame (clickjacking) and no cache may keep. */
export function sendPage(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    })
    .send(`<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)} · Herald</title><style>${STYLE}</style><main>${body}</main></html>`);
}

export function signInPage(input: { clientName: string; next: string; error?: string; email?: string }): string {
  return `<h1>Sign in to Herald</h1>
<p><strong>${escapeHtml(input.clientName)}</strong> asks for access to a Herald workspace. Sign in with your
dashboard email and password to choose what it may do.</p>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="/oauth/sign-in">
<input type="hidden" name="next" value="${escapeHtml(input.next)}">
<label>Email <input type="email" name="email" autocomplete="username" required
  value="${escapeHtml(input.email ?? '')}"></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`;
}

export interface ConsentView {
  clientName: string;
  redirectUri: string;
  workspaceName: string;
  userName: string;
  askedWrite: boolean;
  /** The workspace's plan allows only the read-only MCP (Free). */
  readOnlyPlan: boolean;
  request: string;
  csrf: string;
}

const FREE_PLAN_NOTE = 'This workspace is on the Free plan, which has the read-only MCP: the access will be read only.';

export function consentPage(v: ConsentView): string {
  const host = new URL(v.redirectUri).host || v.redirectUri;
  const canWrite = v.askedWrite && !v.readOnlyPlan;
  const choice = canWrite
    ? `<fieldset><legend>What may it do?</legend>
<label><input type="radio" name="scope" value="read write" checked> Read and write: read the workspace, upload files,
create, reschedule, retry and cancel posts (each publication still needs your confirmation in the agent)</label>
<label><input type="radio" name="scope" value="read"> Read only: list, get and plan, nothing else</label></fieldset>`
    : `<input type="hidden" name="scope" value="read"><p>It asks to <strong>read</strong>: list, get and plan.</p>
${v.askedWrite ? `<p class="note">${FREE_PLAN_NOTE}</p>` : ''}`;
  return `<h1>Allow ${escapeHtml(v.clientName)}?</h1>
<p><strong>${escapeHtml(v.clientName)}</strong> asks to use the workspace
<strong>${escapeHtml(v.workspaceName)}</strong>
as ${escapeHtml(v.userName)}${v.askedWrite ? ', to <strong>read and write</strong>' : ', to <strong>read</strong>'}.</p>
<form method="post" action="/oauth/consent">
<input type="hidden" name="request" value="${escapeHtml(v.request)}">
<input type="hidden" name="csrf" value="${escapeHtml(v.csrf)}">
${choice}
<p class="note">After you allow it, your browser returns to ${escapeHtml(host)}. You can revoke the access at any time
in the dashboard's settings.</p>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`;
}

export function messagePage(text: string): string {
  return `<h1>Herald</h1><p>${escapeHtml(text)}</p>`;
}
