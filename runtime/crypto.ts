// Keys derived from HERALD_SECRET, one per purpose, so a leak of one use never weakens another.
import {
  createCipheriv,
  createDecipheriv,
  hash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

export type KeyPurpose =
  | 'network-tokens'
  | 'webhook-secrets'
  | 'idempotent-answers'
  | 'sessions'
  | 'uploads'
  | 'csrf'
  | 'connect-state'
  | 'pkce'
  | 'invites'
  | 'password-resets'
  | 'oauth';

export class Keyring {
  private readonly keys = new Map<KeyPurpose, Buffer>();
  constructor(private readonly secret: string) {}

  key(purpose: KeyPurpose): Buffer {
    let k = this.keys.get(purpose);
    if (!k) {
      k = Buffer.from(hkdfSync('sha256', this.secret, 'herald', purpose, 32));
      this.keys.set(purpose, k);
    }
    return k;
  }

  /** AES-256-GCM; output is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
  encrypt(plain: string, purpose: KeyPurpose = 'network-tokens'): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(purpose), iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string, purpose: KeyPurpose = 'network-tokens'): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('sealed value has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.key(purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }

  sign(value: string, purpose: KeyPurpose): string {
    return createHmac('sha256', this.key(purpose)).update(value).digest('base64url');
  }

  verify(value: string, signature: string, purpose: KeyPurpose): boolean {
    const expected = Buffer.from(this.sign(value, purpose));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

/** Secrets with 190+ bits of entropy (API keys, session tokens) are stored as a plain SHA-256. */
export function sha256(value: string): string {
  // The one-shot form: no Hash object per call (every API request hashes its key).
  return hash('sha256', value, 'hex');
}
