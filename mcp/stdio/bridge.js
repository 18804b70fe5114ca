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
  if (!res.ok)
    return `Herald at ${mcpUrl} answered ${res.status} to a ping; check HERALD_API_URL (it is $PUBLIC_URL/v1).`;
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
      if (method && 'id' in message) {
        void local.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32603, message: `Herald did not answer: ${err.message}` },
        });
      }
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
