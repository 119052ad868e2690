import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The catalogues hold together: each part has an English and a French file with the same keys, no empty text, the
 * same values (`{{name}}`) and elements (`<b>`) in both languages, both forms of each plural, and each part is one
 * the code defines (defineMessages) under its file's name.
 */
const dir = import.meta.dirname;
const read = (language: string) =>
  Object.fromEntries(
    fs
      .readdirSync(path.join(dir, language))
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.slice(0, -'.json'.length), JSON.parse(fs.readFileSync(path.join(dir, language, f), 'utf8')) as Record<string, unknown>]),
  );
const en = read('en');
const fr = read('fr');
const parts = Object.keys(en).sort();
const marks = (text: string) => [...text.matchAll(/\{\{\w+\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();

function sources(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(root, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe('the catalogues', () => {
  it('has the same parts in English and French', () => {
    expect(Object.keys(fr).sort()).toEqual(parts);
    expect(parts.length).toBeGreaterThan(0);
  });

  it.each(parts)('%s: the same keys in both languages, no empty text, the same values and elements', (part) => {
    const english = en[part]!;
    const french = fr[part] ?? {};
    expect(Object.keys(french).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(english)) {
      expect(typeof text, `${part}:${key}`).toBe('string');
      expect(typeof french[key], `${part}:${key} (fr)`).toBe('string');
      expect((text as string).trim(), `${part}:${key}`).not.toBe('');
      expect((french[key] as string).trim(), `${part}:${key} (fr)`).not.toBe('');
      expect(marks(french[key] as string), `${part}:${key}`).toEqual(marks(text as string));
      const plural = /^(.*)_(one|other)$/.exec(key);
      if (plural) expect(Object.keys(english), `${part}:${key}`).toContain(`${plural[1]}_${plural[2] === 'one' ? 'other' : 'one'}`);
    }
  });

  it('names each part as the code defines it, and the code defines no part without its files', () => {
    const defined = new Set(
      sources(path.join(dir, '..'))
        .flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/defineMessages\('([\w-]+)'/g)].map((m) => m[1]!))
        .filter((part) => !part.endsWith('-test')),
    );
    expect([...defined].sort()).toEqual(parts);
  });
});
