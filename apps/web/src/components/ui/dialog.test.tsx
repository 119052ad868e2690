import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog.tsx';
import { Menu } from './menu.tsx';
import { SearchableSelect } from './searchable-select.tsx';

function WithButton({ conditional = false }: { conditional?: boolean }) {
  const [open, setOpen] = useState(false);
  const [coin, setCoin] = useState('USDT');
  const dialog = (
    <Dialog open={open} onOpenChange={setOpen} title="Top up balance">
      <SearchableSelect label="Coin" options={['USDT', 'USDC'].map((c) => ({ value: c, label: c }))} value={coin} onChange={setCoin} />
    </Dialog>
  );
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        Top up
      </button>
      {conditional ? open && dialog : dialog}
    </>
  );
}

describe('Dialog', () => {
  it.each([false, true])('gives focus back to the button that opened it, on Esc and on Close (rendered only when open: %s)', async (conditional) => {
    const user = userEvent.setup();
    render(<WithButton conditional={conditional} />);
    const opener = screen.getByRole('button', { name: 'Top up' });
    await user.click(opener);
    expect(await screen.findByRole('dialog', { name: 'Top up balance' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));

    await user.click(opener);
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('Esc in an open list closes only the list; the next Esc closes the dialog', async () => {
    const user = userEvent.setup();
    render(<WithButton />);
    await user.click(screen.getByRole('button', { name: 'Top up' }));
    await user.click(await screen.findByRole('button', { name: 'Coin: USDT' }));
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('dialog')).toBeTruthy();
    // the list gives focus back to its button, inside the dialog
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Coin: USDT' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opened from a menu item, gives focus back to the menu button', async () => {
    function FromMenu() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <Menu label="Actions for jo@acme.test" items={[{ label: 'Change role', onSelect: () => setOpen(true) }]} />
          <Dialog open={open} onOpenChange={setOpen} title="Change role" />
        </>
      );
    }
    const user = userEvent.setup();
    render(<FromMenu />);
    const trigger = screen.getByRole('button', { name: 'Actions for jo@acme.test' });
    await user.click(trigger);
    await user.click(await screen.findByRole('menuitem', { name: 'Change role' }));
    expect(await screen.findByRole('dialog', { name: 'Change role' })).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });
});
