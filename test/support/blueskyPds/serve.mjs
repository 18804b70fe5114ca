// Bluesky's reference PDS with a PLC directory, on loopback, for test/connectors/bluesky.test.ts. Run by Node 22
// (test/support/blueskyPds.ts starts it from its own install folder); prints one JSON line with the addresses once
// both answer, and stops when its standard input closes (the test process ended) or on SIGTERM.
// The settings are those of @atproto/dev-env's TestPds, without an AppView: a bare PDS, as a self-hosted one is.
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// The PDS and the PLC server listen on a port alone (all interfaces); a test server stays on loopback.
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  return listen.apply(this, args);
};

const importStarted = performance.now();
const { PDS } = await import('@atproto/pds');
const plc = await import('@did-plc/server');
const { Secp256k1Keypair } = await import('@atproto/crypto');
const imported = performance.now();

// test/support/freePort.ts's, restated: this script runs from the PDS's install folder, apart from the repository.
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}

const adminPassword = 'admin-pass';
const plcPort = await freePort();
const plcServer = plc.PlcServer.create({ db: plc.Database.mock(), port: plcPort });
await plcServer.start();

const dataDirectory = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-pds-'));
const rotationKey = await Secp256k1Keypair.create({ exportable: true });
const port = await freePort();
const pds = await PDS.fromEnv({
  devMode: true,
  port,
  hostname: 'localhost',
  dataDirectory,
  blobstoreDiskLocation: path.join(dataDirectory, 'blobs'),
  // The real server's limit unless the test asks for a smaller one (to meet it with a small file).
  blobUploadLimit: Number(process.env.PDS_BLOB_UPLOAD_LIMIT) || undefined,
  recoveryDidKey: (await Secp256k1Keypair.create()).did(),
  adminPassword,
  jwtSecret: 'jwt-secret',
  serviceHandleDomains: ['.test'],
  didPlcUrl: `http://localhost:${plcPort}`,
  plcRotationKeyK256PrivateKeyHex: Buffer.from(await rotationKey.export()).toString('hex'),
  inviteRequired: false,
  disableSsrfProtection: true,
  rateLimitsEnabled: true,
});
await pds.start();

async function stop() {
  await pds.destroy().catch(() => {});
  await plcServer.destroy().catch(() => {});
  await fs.rm(dataDirectory, { recursive: true, force: true });
  process.exit(0);
}
process.stdin.on('end', stop).resume();
process.on('SIGTERM', stop);

console.log(
  JSON.stringify({
    pds: `http://localhost:${port}`,
    plc: `http://localhost:${plcPort}`,
    adminPassword,
    importMs: Math.round(imported - importStarted),
    startMs: Math.round(performance.now() - imported),
  }),
);
