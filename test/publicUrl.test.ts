// Live mode warns at start when the networks cannot fetch media from PUBLIC_URL.
import { describe, expect, it } from 'vitest';
import { publicUrlProblem } from '../domain/publicAddress.ts';

describe('PUBLIC_URL reachable from the internet', () => {
  it('accepts a public https address', () => {
    expect(publicUrlProblem('https://herald.example.com')).toBeUndefined();
    expect(publicUrlProblem('https://93.184.216.34:8443/base')).toBeUndefined();
  });

  it('names what is wrong with one the networks cannot reach', () => {
    expect(publicUrlProblem('http://herald.example.com')).toBe('is not https');
    expect(publicUrlProblem('https://localhost:8080')).toMatch(/only this machine knows/);
    expect(publicUrlProblem('https://printer.local')).toMatch(/only this machine knows/);
    expect(publicUrlProblem('https://192.168.1.20')).toBe('points at a private address');
    expect(publicUrlProblem('https://[::1]')).toBe('points at a loopback address');
    expect(publicUrlProblem('https://100.64.0.9')).toMatch(/CGNAT/);
  });
});
