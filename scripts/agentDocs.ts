// The agent files served under /docs, made by `make generate` from the contract so they cannot drift:
// llms.txt (llmstxt.org: a title, a summary and lists of links) and skill.md (how an agent works with
// Herald: the contract's own rules, quoted, and the tool table). `{PUBLIC_URL}` is filled in when served.
import type { OperationEntry } from './operationTable.ts';

export const PUBLIC_URL = '{PUBLIC_URL}';

interface Contract {
  info: { title: string; summary?: string; description: string };
}

/** The `## Title` sections of the contract's description, by title. */
export function descriptionSections(description: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of description.split(/^## /m).slice(1)) {
    const newline = part.indexOf('\n');
    sections.set(part.slice(0, newline).trim(), part.slice(newline + 1).trim());
  }
  return sections;
}

function section(contract: Contract, title: string): string {
  const text = descriptionSections(contract.info.description).get(title);
  if (!text) throw new Error(`openapi.yaml info.description lacks the section "## ${title}" that skill.md quotes`);
  return text;
}

const CONFIRM_FIELD = 'confirm';

function toolRows(table: readonly OperationEntry[]): string {
  const rows = table
    .filter((op) => op.tool)
    .map((op) => {
      const confirm = op.fields.body.includes(CONFIRM_FIELD) || op.fields.query.includes(CONFIRM_FIELD) ? 'yes' : '';
      const operation = `${op.method.toUpperCase()} ${op.path}`;
      return `| \`${op.tool}\` | ${op.scope} | ${confirm} | \`${operation}\` | ${op.summary} |`;
    });
  return [
    '| Tool | Scope | Needs `confirm: true` | REST operation | What it does |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export function renderLlmsTxt(contract: Contract): string {
  return `# ${contract.info.title.replace(/ API$/, '')}

> ${contract.info.summary ?? ''}
> A self-hostable scheduler: it stores media and publishes posts into connected social accounts at a chosen
> time, through each network's official API. Agents reach it through the REST API at ${PUBLIC_URL}/v1 or the
> MCP server at ${PUBLIC_URL}/mcp.

Read skill.md first: it gives the standard sequence, the confirmation rule (nothing is published without
\`confirm: true\` after a human saw the plan) and the reporting rule (quote each post's \`statusLine\`).
Credentials live in the client's environment (an API key, or OAuth for the remote MCP server), never in a chat.

## Docs

- [skill.md](${PUBLIC_URL}/docs/skill.md): how an agent works with Herald: sequence, rules, tools, error codes
- [API reference](${PUBLIC_URL}/docs/reference): every operation, its parameters, answers and errors
- [openapi.json](${PUBLIC_URL}/v1/openapi.json): the machine-readable contract (OpenAPI 3.1), the source of the tools

## MCP

- [Remote MCP server](${PUBLIC_URL}/mcp): Streamable HTTP; OAuth 2.1 (discovery from the 401) or an API key as bearer
- [Protected resource metadata](${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp): where to authorize

## Optional

- [Change log](${PUBLIC_URL}/docs/changelog.md): what changed in each version
`;
}

export function renderSkillMd(contract: Contract, table: readonly OperationEntry[]): string {
  const quote = (title: string) => section(contract, title);
  return `---
name: herald
description: Schedule and publish social posts (YouTube, Instagram, Facebook Pages, Threads, TikTok, Bluesky) through
  a Herald instance, with a human's confirmation. Use it to list accounts, upload media, plan posts, create them after
  the person agreed, and follow them until they are live.
---

# Herald for agents

Herald publishes posts into a workspace's connected social accounts at a chosen time. A post is one
publication to one account. You work through the MCP tools below (remote: ${PUBLIC_URL}/mcp; stdio: the
\`herald-mcp\` package with \`HERALD_API_KEY\` and \`HERALD_API_URL\`) or the REST API at ${PUBLIC_URL}/v1.
This file is generated from the contract (${PUBLIC_URL}/v1/openapi.json); its rules are the contract's own words.

## The rules that matter most

1. **Plan first, and show the table as is.** Call \`service_plan_post\` before creating anything; it has no side
   effects. Show its \`table\` to the person unchanged, and read every row: a row with \`ok: false\` names its issues.
2. **Confirm.** Create, reschedule, retry, cancel and delete only with \`confirm: true\`, and set it only after the
   person agreed to what the plan showed. Without it the answer is \`confirm_required\` and nothing changes.
3. **Give each change its own \`idempotencyKey\`, and reuse it only to retry.** Make a new key (a UUID) for each
   post or change you intend and pass it to the write tool. When the call timed out, lost its connection or
   answered \`internal\`, send the very same call with the same key: for 24 hours it answers what the first call
   did and never does it twice. \`idempotency_key_in_use\`: the first call still runs, retry after a second;
   \`idempotency_key_reused\`: the key went with another call, make a new one.
4. **Report only what succeeded, with the statusLine.** After a call succeeded, give the post id, the account and
   the absolute time in the workspace time zone: quote the post's \`statusLine\`, do not write your own.
5. **Poll slowly.** Read a post or a file at most about once a minute; nothing is pushed to you.
6. **Never ask for a key in a chat.** A key belongs in the client's environment or credential store. Do not create
   keys and do not ask a person to paste one; if access is missing, say that a person must set it up.
7. Connecting or reconnecting a social account, billing and members happen only in the dashboard, by a person.
8. **TikTok: the person chooses who can see the post.** \`perPlatform.tiktok.privacyLevel\` has no default; ask the
   person, never pick one. A public TikTok post stays \`queued\` while TikTok reviews it (its \`statusLine\` says so),
   sometimes for hours: that is not a failure, and it must not be posted again.

## Standard sequence

${quote('Standard sequence')}

With MCP tools: \`service_list_accounts\`; \`service_create_upload\` (then PUT the bytes to \`uploadUrl\`) or
\`service_upload_from_url\`; \`service_get_media\` until \`ready\`; \`service_plan_post\`; \`service_create_post\` with
\`confirm: true\` and a new \`idempotencyKey\`; \`service_get_post\` until \`live\` or \`failed\`.

## Confirmation rule

${quote('Confirmation rule')}

## Reporting rule

${quote('Reporting rule for agents')}

## Polling

${quote('Polling and events')}

## Tools

Read-only credentials and Free workspaces see only the read tools; a tool you cannot see answers like one that
does not exist. Each tool's input is its operation's path and query parameters and body fields in one object
(write tools add \`idempotencyKey\`, the \`Idempotency-Key\` header); its result is the operation's answer, as
structured content and as JSON text. A failed call is a tool error carrying \`{code, message, hint}\`.

${toolRows(table)}

## Rate limits

${quote('Rate limits')}

## Errors

${quote('Errors')}
`;
}
