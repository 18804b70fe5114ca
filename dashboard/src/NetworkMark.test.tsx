// @vitest-environment happy-dom
// Every network has its mark (a drawn path, not two letters), named by the network unless beside text naming it.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NetworkMark } from './NetworkMark.tsx';
import { NETWORKS } from './networks.ts';

afterEach(cleanup);

describe('network marks', () => {
  it('draws each network and names it', () => {
    render(NETWORKS.map((n) => <NetworkMark key={n.platform} platform={n.platform} />));
    for (const n of NETWORKS) {
      const mark = screen.getByRole('img', { name: n.label });
      expect(mark.querySelector('path')?.getAttribute('d')?.length).toBeGreaterThan(50);
      // No letters drawn: the only text is the name in its <title>.
      expect(mark.textContent).toBe(n.label);
    }
  });

  it('hides a mark beside text that names the network', () => {
    render(<NetworkMark platform="youtube" decorative />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(document.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
  });
});
