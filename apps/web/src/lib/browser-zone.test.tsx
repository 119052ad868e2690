import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

function Zone({ useZone }: { useZone: () => string | undefined }) {
  return <p data-testid="zone">{useZone() ?? 'unknown'}</p>;
}

/** A stand-in for the browser's Worker: records what it was made with, and answers when the test says. */
class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage: ((event: MessageEvent<unknown>) => void) | null = null;
  onerror: (() => void) | null = null;
  terminated = false;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    FakeWorker.made.push(this);
  }
  terminate() {
    this.terminated = true;
  }
}

async function fresh() {
  vi.resetModules();
  return (await import('./browser-zone.ts')).useBrowserTimeZone;
}

describe('useBrowserTimeZone', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
    FakeWorker.made = [];
    vi.unstubAllGlobals();
  });

  it('asks one worker for the zone, and shows it once the worker answers', async () => {
    vi.stubGlobal('Worker', FakeWorker);
    const useZone = await fresh();
    const { rerender } = render(<Zone useZone={useZone} />);
    expect(screen.getByTestId('zone').textContent).toBe('unknown');
    rerender(<Zone useZone={useZone} />);
    expect(FakeWorker.made).toHaveLength(1);
    expect(FakeWorker.made[0]!.options).toEqual({ type: 'module' });
    expect(String(FakeWorker.made[0]!.url)).toMatch(/browser-zone\.worker\.ts/);
    FakeWorker.made[0]!.onmessage!({ data: 'Africa/Lagos' } as MessageEvent<unknown>);
    expect(await screen.findByText('Africa/Lagos')).toBeTruthy();
    expect(FakeWorker.made[0]!.terminated).toBe(true);
  });

  it('looks the zone up itself when the worker fails', async () => {
    process.env.TZ = 'Africa/Nairobi';
    vi.stubGlobal('Worker', FakeWorker);
    const useZone = await fresh();
    render(<Zone useZone={useZone} />);
    FakeWorker.made[0]!.onerror!();
    expect(await screen.findByText('Africa/Nairobi')).toBeTruthy();
  });

  it('looks the zone up itself where there are no workers', async () => {
    process.env.TZ = 'Africa/Nairobi';
    vi.stubGlobal('Worker', undefined);
    const useZone = await fresh();
    render(<Zone useZone={useZone} />);
    expect(await screen.findByText('Africa/Nairobi')).toBeTruthy();
  });
});
