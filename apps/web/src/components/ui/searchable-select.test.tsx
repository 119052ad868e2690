import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SearchableSelect, filterOptions, type SelectOption } from './searchable-select.tsx';

const OPTIONS: SelectOption[] = [
  { value: 'usdt', label: 'USDT' },
  { value: 'usdc', label: 'USDC' },
  { value: 'pyusd', label: 'PYUSD' },
  { value: 'btc', label: 'Bitcoin' },
];

function Harness({ disabled = false, initial }: { disabled?: boolean; initial?: string }) {
  const [value, setValue] = useState<string | undefined>(initial);
  return (
    <>
      <SearchableSelect label="Coin" options={OPTIONS} value={value} onChange={setValue} disabled={disabled} />
      <output data-testid="value">{value ?? ''}</output>
    </>
  );
}

/** Renders the picker and opens its list. */
async function openPicker(props: Parameters<typeof Harness>[0] = {}) {
  render(<Harness {...props} />);
  await userEvent.click(screen.getByRole('button'));
}

describe('filterOptions', () => {
  it('filters by label case-insensitively', () => {
    expect(filterOptions(OPTIONS, 'us').map((o) => o.value)).toEqual(['usdt', 'usdc', 'pyusd']);
    expect(filterOptions(OPTIONS, 'BIT').map((o) => o.value)).toEqual(['btc']);
    expect(filterOptions(OPTIONS, '')).toEqual(OPTIONS);
  });
});

describe('SearchableSelect', () => {
  it("shows 'Select an option' and the search placeholder 'Search...'", async () => {
    render(<Harness />);
    expect(screen.getByRole('button', { name: 'Coin: Select an option' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button'));
    expect(screen.getByPlaceholderText('Search...')).toBeTruthy();
    expect(screen.getAllByRole('option')).toHaveLength(4);
  });

  it('Enter picks the first match of the typed text', async () => {
    await openPicker();
    await userEvent.keyboard('usdc{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('usdc');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Coin: USDC' }));
  });

  it('moves with the arrow keys and marks the active option for assistive technology', async () => {
    render(<Harness />);
    screen.getByRole('button').focus();
    await userEvent.keyboard('{ArrowDown}');
    const box = screen.getByRole('combobox');
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[0]!.id);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[2]!.id);
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('usdc');
  });

  it('Esc closes without changing the value', async () => {
    await openPicker({ initial: 'btc' });
    await userEvent.keyboard('us{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByTestId('value').textContent).toBe('btc');
  });

  it("says 'No matching options found' and Enter then picks nothing", async () => {
    await openPicker({ initial: 'usdt' });
    await userEvent.keyboard('zzz');
    expect(screen.getByText('No matching options found')).toBeTruthy();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByTestId('value').textContent).toBe('usdt');
  });

  it('does not open when disabled', async () => {
    render(<Harness disabled />);
    const button = screen.getByRole('button');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(button);
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('picks with a click', async () => {
    await openPicker();
    await userEvent.click(screen.getByRole('option', { name: 'Bitcoin' }));
    expect(screen.getByTestId('value').textContent).toBe('btc');
  });
});
