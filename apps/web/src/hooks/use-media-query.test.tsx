import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { useMediaQuery, useReducedMotion } from './use-media-query';

function Probe({ query, serverValue }: { query: string; serverValue?: boolean }) {
  return <>{String(useMediaQuery(query, serverValue))}</>;
}

function MotionProbe() {
  return <>{String(useReducedMotion())}</>;
}

describe('useMediaQuery in server-rendered markup', () => {
  it('answers the server value: false unless given (the narrow layout gives true)', () => {
    expect(renderToString(<Probe query="(max-width: 768px)" />)).toBe('false');
    expect(renderToString(<Probe query="(max-width: 768px)" serverValue />)).toBe('true');
  });

  it('holds no motion back on the server', () => {
    expect(renderToString(<MotionProbe />)).toBe('false');
  });
});
