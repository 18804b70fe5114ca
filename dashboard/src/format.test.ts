// Months read as people say them.
import { describe, expect, it } from 'vitest';
import { monthText } from './format.ts';

describe('monthText', () => {
  it('names the month and its year', () => {
    expect(monthText('2026-11')).toBe('November 2026');
    expect(monthText('2027-01')).toBe('January 2027');
  });
});
