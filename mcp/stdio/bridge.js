// The stdio bridge: MCP messages from the client on stdin go to Herald's remote endpoint ($PUBLIC_URL/mcp)
// with the API key as bearer, and the answers come back on stdout unchanged. Plain JavaScript with the SDK
// as its only dependency, so `npx` runs it on a machine that has nothing but Node.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const DEFAULT_API_URL = 'http://localhost:8080/v1';

/** @param {string} line */
function log(line) {
  process.stderr.write(`herald-mcp: ${line}\n`);
}

/** @param {string} apiUrl */
export function mcpUrlFor(apiUrl) {
  const url = new URL(apiUrl);
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '') + '/mcp';
  url.search = '';
  return url.href;
}

/**
 * What Herald said when it refused a POST at the HTTP level (429 rate_limited, 413 payload_too_large, …): its
 * status with its own {code, message, hint} when the body carries one, else the status and what to check.
 * @param {number} status
 * @param {string} text the answer's body
 * @returns {{ code?: string, words: string }}
 */
function refusalWords(status, text) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (body && typeof body.code === 'string' && typeof body.message === 'string') {
    const hint = typeof body.hint === 'string' ? ` ${body.hint}` : '';
    return { code: body.code, words: `${status} ${body.code}: ${body.message}${hint}` };
  }
  return { words: `HTTP ${status}, without saying why; check HERALD_API_URL (it is $PUBLIC_URL/v1).` };
}

/**
 * The JSON-RPC error for a message the remote endpoint did not answer with JSON-RPC. The SDK's transport throws
 * a StreamableHTTPError carrying the HTTP status as `code` and the body after its own prefix; anything else
 * (no connection, a timeout) means Herald did not answer at all.
 * @param {Error & { code?: unknown }} err
 */
function failureAnswer(err) {
  if (typeof err.code !== 'number') return { code: -32603, message: `Herald did not answer: ${err.message}` };
  const text = err.message.replace(/^Streamable HTTP error: Error POSTing to endpoint: /, '');
  const { code, words } = refusalWords(err.code, text);
  // -32000: the JSON-RPC range for a server's own errors; data keeps the HTTP status and Herald's code.
  return { code: -32000, message: `Herald answered ${words}`, data: { status: err.code, ...(code ? { code } : {}) } };
}

/**
 * One ping before the bridge starts, so a bad key or address fails at once with a clear line.
 * @param {string} mcpUrl
 * @param {string} key
 */
async function probe(mcpUrl, key) {
  let res;
  try {
    res = await fetch(mcpUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    const fault = /** @type {Error & { cause?: { code?: string } }} */ (err);
    return (
      `cannot reach Herald at ${mcpUrl} (${fault.cause?.code ?? fault.message}); ` +
      'check HERALD_API_URL and that the server runs.'
    );
  }
  if (res.status === 401) {
    return (
      `Herald at ${mcpUrl} refused HERALD_API_KEY (401 unauthenticated); ` +
      'check the key or create one in Settings, API keys.'
    );
  }
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    return `Herald at ${mcpUrl} answered a ping with ${refusalWords(res.status, text).words}`;
  }
  return undefined;
}

/** @param {Record<string, string | undefined>} env */
export async function runStdioBridge(env) {
  const key = env.HERALD_API_KEY?.trim();
  if (!key) {
    log("HERALD_API_KEY is not set; put a key from Settings, API keys in the MCP client's environment.");
    return 1;
  }
  let mcpUrl;
  try {
    mcpUrl = mcpUrlFor(env.HERALD_API_URL?.trim() || DEFAULT_API_URL);
  } catch {
    log(`HERALD_API_URL "${env.HERALD_API_URL}" is not a URL; use $PUBLIC_URL/v1, for example ${DEFAULT_API_URL}.`);
    return 1;
  }
  const problem = await probe(mcpUrl, key);
  if (problem) {
    log(problem);
    return 1;
  }

  const remote = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  const local = new StdioServerTransport();
  const initializeIds = new Set();

  remote.onmessage = (message) => {
    // After initialize, every request carries the negotiated version, as the SDK's own client does.
    if ('id' in message && initializeIds.delete(message.id) && 'result' in message) {
      const version = message.result.protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (err) => log(`remote: ${err.message}`);
  local.onmessage = (message) => {
    const method = 'method' in message ? message.method : undefined;
    if (method === 'initialize' && 'id' in message) initializeIds.add(message.id);
    remote.send(message).catch((err) => {
      log(`${method ?? 'message'} failed: ${err.message}`);
      if (method && 'id' in message) void local.send({ jsonrpc: '2.0', id: message.id, error: failureAnswer(err) });
    });
  };
  local.onerror = (err) => log(`stdio: ${err.message}`);

  const closed = new Promise((resolve) => {
    local.onclose = () => resolve(undefined);
    process.stdin.on('end', resolve);
  });
  await remote.start();
  await local.start();
  log(`bridging stdio to ${mcpUrl}`);
  await closed;
  await remote.close();
  return 0;
}
